//===--- ShuffleReductionCheck.cpp - luisa-shuffle-reduction --------------===//

#include "rules/warp/ShuffleReductionCheck.h"

#include "rules/FixEdits.h"
#include "src/dsl/Ast.h"
#include "src/dsl/HostEval.h"
#include "src/dsl/Matchers.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Tooling/Transformer/Stencil.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace kernel_tidy::dsl;
using namespace kernel_tidy::dsl::matchers;

namespace kernel_tidy::rules {

namespace {

/// True if a variable that \p E reads is written inside \p Range.
bool readsVariableWrittenIn(const Expr *E, SourceRange Range, WriteAnalysis &Writes,
                            const SourceManager &SM) {
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      for (const VariableWrite &W : Writes.writesOf(Var)) {
        SourceLocation At = SM.getExpansionLoc(W.Write->getBeginLoc());
        if (!SM.isBeforeInTranslationUnit(At, SM.getExpansionLoc(Range.getBegin())) &&
            !SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Range.getEnd()), At))
          return true;
      }
  for (const Stmt *Child : E->children())
    if (const auto *ChildExpr = dyn_cast_or_null<Expr>(Child))
      if (readsVariableWrittenIn(ChildExpr, Range, Writes, SM))
        return true;
  return false;
}

/// The message of a finding on a loop of \p Shift steps: %0 the value,
/// %1 the helper clause, %2 the collective, %3 and %4 the lanes it covers,
/// %5 the shuffle helper that reads the partner lane.
const char *messageFor(LaneShift Shift) {
  if (Shift == LaneShift::Up)
    return "lane-shift inclusive scan of '%0' takes one warp_read_lane shuffle%5 per "
           "offset%1; %2 computes the same inclusive prefix";
  if (Shift == LaneShift::Xor)
    return "butterfly reduction of '%0' in a device loop takes one warp_read_lane "
           "shuffle%5 per offset%1; %2 does the same";
  return "shuffle-down reduction of '%0' over %3 takes one warp_read_lane shuffle%5 per "
         "offset and leaves the result in lane 0 only%1; %2 gives %4 the same result";
}

/// The qualifier the rewrite gives DSL names: the one of the warp_read_lane
/// call, when that call is in the loop's scope or a scope around it.
std::string rewriteQualifier(const LaneRead &Read, const Stmt *Loop, ASTContext &Ctx) {
  std::string Qualifier = calleeQualifier(Read.WarpRead, Ctx);
  if (!Read.Helper)
    return Qualifier;
  const DeclContext *HelperScope = Read.Helper->getEnclosingNamespaceContext();
  for (DynTypedNodeList Parents = Ctx.getParents(*Loop); !Parents.empty();
       Parents = Ctx.getParents(Parents[0]))
    if (const auto *Function = Parents[0].get<FunctionDecl>())
      return Function->getEnclosingNamespaceContext()->Encloses(HelperScope) ||
                     HelperScope->Encloses(Function->getEnclosingNamespaceContext())
                 ? Qualifier
                 : "luisa::compute::";
  return "luisa::compute::";
}

/// What replaces a lane-shift loop: the collective's code, how the message
/// shows it, the lanes it combines, and whether it keeps the results.
struct ShuffleRewrite {
  std::string Code, Shown, Over = "the whole warp";
  FixSafety Safety = FixSafety::safe();
};

ShuffleRewrite rewriteFor(const LaneShiftLoop &Found, const std::optional<DownBound> &Bound,
                          const WarpWidth &Width, Analyses &A, ASTContext &Ctx) {
  const LaneShiftStep &Step = Found.Step;
  bool IsScan = Step.Index.Shift == LaneShift::Up, IsSum = Step.Op == CombineOp::Sum;
  std::string Target = sourceText(Step.Target->getSourceRange(), Ctx);
  std::string Qualifier = rewriteQualifier(Step.Read, Found.Loop.Loop, Ctx);
  std::string Collective =
      IsScan ? (IsSum ? "warp_prefix_sum" : "warp_prefix_product") : collectiveName(Step.Op);
  ShuffleRewrite R;
  R.Shown = Collective + "(" + Target + ")" +
            (!IsScan ? ""
             : IsSum ? " + " + Target
                     : " * " + Target);
  R.Code = Target + " = " + Qualifier + R.Shown + ";";
  bool Whole = !Bound || Bound->WholeWarp;
  if (!Whole && Bound->Limit && Width.known()) {
    auto Limit = evaluateHostInt(stripDslWrappers(Bound->Limit), Ctx);
    // A bound at or past the widest warp the code may run with lets every lane through.
    Whole = Limit && *Limit >= static_cast<int64_t>(Width.Widest) - (Bound->Strict ? 0 : 1);
  }
  if (!Whole) {
    // Lane 0 gets OP over the lanes that pass the bound; lanes above it keep their value.
    std::string Lane = sourceText(Step.Index.Lane->getSourceRange(), Ctx);
    std::string Limit = sourceText(Bound->Limit->getSourceRange(), Ctx);
    std::string Test = "$if (" + Lane + (Bound->Strict ? " < " : " <= ") + Limit + ") { ";
    R.Over = std::string(Bound->Strict ? "the lanes below '" : "the lanes up to '") + Limit + "'";
    R.Shown = "'" + Test + Target + " = " + R.Shown + "; }'";
    R.Code = Test + R.Code + " };";
    if (A.Uniformity.varianceOf(Bound->Limit) > Variance::Warp ||
        readsVariableWrittenIn(Bound->Limit, Found.Loop.Loop->getSourceRange(), A.Writes,
                               Ctx.getSourceManager())) {
      R.Shown = "a " + Collective + "(" + Target + ") over exactly those lanes";
      R.Safety = FixSafety::none("the bound '" + Limit +
                                 "' may differ between the lanes of a warp or change inside "
                                 "the loop, so no single $if selects the lanes it reduces");
    }
    if (Lane.empty() || Limit.empty())
      R.Safety = FixSafety::none("the lane or the bound is spelled in a macro");
  }
  if (R.Safety.Kind == Applicability::Safe)
    R.Safety = reassociationSafety(Step.Op, Step.Target->getType(), Collective + " combines");
  return R;
}

/// True if the statement after \p Loop in its block broadcasts lane 0's \p Target to
/// the warp (`Target = warp_read_first_active_lane(Target)` or `warp_read_lane(Target,
/// 0u)`), so that no lane reads the partial results the other lanes held.
bool broadcastsLaneZero(const Stmt *Loop, StringRef Target, ASTContext &Ctx) {
  auto Parents = Ctx.getParents(*Loop);
  const auto *Block = Parents.empty() ? nullptr : Parents[0].get<CompoundStmt>();
  if (!Block)
    return false;
  const auto *It = llvm::find(Block->body(), Loop);
  if (It == Block->body_end() || std::next(It) == Block->body_end())
    return false;
  std::string Next = sourceText((*std::next(It))->getSourceRange(), Ctx);
  llvm::erase_if(Next, [](char C) { return C == ' ' || C == '\n' || C == '\t'; });
  std::string T = Target.str();
  return Next == T + "=warp_read_first_active_lane(" + T + ")" ||
         Next == T + "=warp_read_lane(" + T + ",0u)" || Next == T + "=warp_read_lane(" + T + ",0)";
}

/// Adds to \p Safety what the code around the loop decides: readers of the
/// partial results, a helper's clamp, a template's shared code, the width.
/// False when the loop reduces no whole warp after all.
bool addLoopHazards(FixSafety &Safety, const LaneShiftLoop &Found, const WarpWidth &Width,
                    std::optional<unsigned> Lanes, const std::string &Target, ASTContext &Ctx) {
  const LaneShiftStep &Step = Found.Step;
  const OffsetLoop &Loop = Found.Loop;
  // Before, lanes other than 0 hold partial reductions (from their own lane up); after,
  // every lane holds the whole result. Same results only where lane 0's is broadcast.
  if (Step.Index.Shift == LaneShift::Down && Safety.Kind != Applicability::None &&
      !broadcastsLaneZero(Loop.Loop, Target, Ctx))
    Safety.addHazard("lanes other than lane 0 held partial reductions, which the code after the "
                     "loop may read; after the rewrite they hold the whole result (right when "
                     "only lane 0's value is used)");
  // A helper that returns the lane's own value past a partner lane: lane 0's
  // result reads partners up to the last lane of the warp.
  if (Step.Read.LastPartner && *Step.Read.LastPartner < static_cast<int64_t>(Width.Widest) - 1) {
    if (*Step.Read.LastPartner < static_cast<int64_t>(Width.Narrowest) - 1)
      return false;
    Safety = FixSafety::none("'" + Step.Read.HelperName +
                             "' returns the lane's own value for partners past lane " +
                             std::to_string(*Step.Read.LastPartner) + ", but " + Width.RangeWhy);
  }
  // The operator is a template argument: the loop is shared with
  // instantiations that may combine otherwise.
  if (Safety.Kind != Applicability::None && Step.CombinesThroughCall &&
      isInTemplateInstantiation(Loop.Loop, Ctx))
    Safety = FixSafety::none("the combining operation is a call in code instantiated from a "
                             "template, which other instantiations share with other operations");
  if (!Loop.UpToLaneCount && !Width.known())
    Safety = FixSafety::none(Width.whyUnknown() + ", and the warp may be wider than " +
                             std::to_string(*Lanes) + " lanes");
  else if (!Width.exact() && !Loop.UpToLaneCount)
    // Offsets up to warp_lane_count() follow the width; constant ones do not.
    Safety.addHazard(Width.assumption() + "; on a wider warp the loop reaches only the lanes "
                                          "its offsets cover, and the collective the whole warp");
  return true;
}

/// What the step of a lane-shift loop says about the reduction it is.
struct ShuffleShape {
  /// For a shift down: the bound its guard puts on the partners.
  std::optional<DownBound> Bound;
};

/// The shape of \p Found when it is this rule's reduction or scan, else
/// std::nullopt (a butterfly's, an unguarded scan, a clamp that combines).
std::optional<ShuffleShape> shuffleShape(const LaneShiftLoop &Found) {
  const LaneShiftStep &Step = Found.Step;
  LaneShift Shift = Step.Index.Shift;
  // A host loop whose body is the bare XOR step is luisa-butterfly-reduction's.
  if (Shift == LaneShift::Xor &&
      (Step.Guard || (!Found.Loop.Device && Found.Loop.Body->size() == 1)))
    return std::nullopt;
  if (Shift == LaneShift::Up && (!Step.Guard || !isScanGuard(Step.Guard, Step.Index) ||
                                 (Step.Op != CombineOp::Sum && Step.Op != CombineOp::Product)))
    return std::nullopt;
  ShuffleShape Shape;
  if (Shift == LaneShift::Down) {
    Shape.Bound = Step.Guard ? matchDownBound(Step.Guard, Step.Index) : DownBound{true};
    if (!Shape.Bound)
      return std::nullopt;
  }
  // A shuffle helper that clamps at a run-time bound: a reduction only where the guard
  // never combines the partners it replaces.
  if (Step.Read.RuntimeLast &&
      (!Shape.Bound || !guardExcludesClamped(*Shape.Bound, *Step.Read.RuntimeLast)))
    return std::nullopt;
  return Shape;
}

/// Whether the offsets of \p Loop reach every lane of the warp (narrower: a
/// sub-group); \p Lanes gets the lanes they cover (the width's, for offsets
/// up to warp_lane_count()).
bool reachesWholeWarp(const OffsetLoop &Loop, const WarpWidth &Width,
                      std::optional<unsigned> &Lanes) {
  Lanes = Width.known();
  if (Loop.UpToLaneCount)
    return true;
  Lanes = coveredLanes(Loop.Values);
  return Lanes && (Width.known() ? *Width.known() == *Lanes : *Lanes >= 32);
}

/// The finding for the loop \p Found (in the helper \p Helper when not
/// empty) with the rewrite \p Rewrite of \p Target, its kind and safety aside.
Diagnosis shuffleDiagnosis(const LaneShiftLoop &Found, const std::string &Helper,
                           const ShuffleRewrite &Rewrite, const std::string &Target,
                           ASTContext &Ctx) {
  const LaneShiftStep &Step = Found.Step;
  Diagnosis D;
  D.Loc = Ctx.getSourceManager().getExpansionLoc(Found.Loop.Loop->getBeginLoc());
  D.Format = messageFor(Step.Index.Shift);
  D.Args = {Target,
            Helper.empty() ? "" : " (in '" + Helper + "', so every call site benefits)",
            Rewrite.Shown,
            Rewrite.Over,
            Rewrite.Over == "the whole warp" ? "every lane" : "those lanes",
            Step.Read.Helper ? " (in '" + Step.Read.HelperName + "')" : ""};
  D.bind("loop", Found.Loop.Loop);
  D.Edit = transformer::edit(
      transformer::changeTo(userStatements("loop", "loop"), transformer::cat(Rewrite.Code)));
  return D;
}

} // namespace

void ShuffleReductionCheck::registerMatchers(MatchFinder *Finder) {
  // warp_read_lane(v, lane + offset), (v, lane - offset), (v, lane ^ offset).
  Finder->addMatcher(callExpr(dslCall({"warp_read_lane"}),
                              hasArgument(1, ignoringImplicit(cxxOperatorCallExpr(
                                                 hasAnyOverloadedOperatorName("+", "-", "^")))))
                         .bind("read"),
                     this);
  // A call of a helper that reads the partner lane (matchLaneRead decides).
  Finder->addMatcher(
      callExpr(unless(dslCall({"warp_read_lane"})),
               callee(functionDecl(hasBody(hasDescendant(callExpr(dslCall({"warp_read_lane"})))))))
          .bind("read"),
      this);
}

std::optional<std::string> ShuffleReductionCheck::laneSource(const Expr *Lane, ASTContext &Ctx,
                                                             const FieldDecl *&OnlyHere) {
  Analyses &A = analyses(Ctx);
  if (A.Uniformity.isLaneId(Lane))
    return std::string();
  if (const auto *Member = dyn_cast_or_null<MemberExpr>(stripDslWrappers(Lane)))
    if (const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
        Field && A.Uniformity.isLaneIdField(Field, /*InThisTranslationUnit=*/true)) {
      OnlyHere = Field;
      return std::string();
    }
  const auto *Ref = dyn_cast<DeclRefExpr>(stripDslWrappers(Lane));
  const auto *Param = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  if (!Param || A.Writes.isWritten(Param))
    return std::nullopt;
  if (!CallSites)
    CallSites = std::make_unique<CallSiteIndex>(Ctx);
  auto Args = CallSites->argumentsFor(Param);
  // A helper is a warp reduction only if every caller passes the lane id.
  if (!Args || Args->empty() ||
      !llvm::all_of(*Args, [&](const Expr *Arg) { return A.Uniformity.isLaneId(Arg); }))
    return std::nullopt;
  std::string Name = CallSites->calleeName(Param);
  return Name.empty() ? std::nullopt : std::optional(Name);
}

void ShuffleReductionCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  Analyses &A = analyses(Ctx);
  auto Found = matchLaneShiftLoop(Result.Nodes.getNodeAs<CallExpr>("read"), Ctx, A.Writes);
  std::optional<ShuffleShape> Shape = Found ? shuffleShape(*Found) : std::nullopt;
  if (!Shape)
    return;
  const FieldDecl *LaneOnlyHere = nullptr;
  auto Helper = laneSource(Found->Step.Index.Lane, Ctx, LaneOnlyHere);
  WarpWidth Width = widthAt(Found->Loop.Loop, Ctx);
  std::optional<unsigned> Lanes;
  if (!Helper || !reachesWholeWarp(Found->Loop, Width, Lanes))
    return;

  std::string Target = sourceText(Found->Step.Target->getSourceRange(), Ctx);
  ShuffleRewrite Rewrite = rewriteFor(*Found, Shape->Bound, Width, A, Ctx);
  if (!addLoopHazards(Rewrite.Safety, *Found, Width, Lanes, Target, Ctx))
    return;
  Diagnosis D = shuffleDiagnosis(*Found, *Helper, Rewrite, Target, Ctx);
  D.Kind = rewriteOf(Found->Step.Op, Found->Step.Target->getType(), Ctx);
  D.Safety = std::move(Rewrite.Safety);
  if (LaneOnlyHere && D.Safety.Kind != Applicability::None)
    D.Safety = FixSafety::none(
        "'" + LaneOnlyHere->getNameAsString() + "' holds the lane id in every instantiation of '" +
        LaneOnlyHere->getParent()->getNameAsString() +
        "' here, but the template writes it in code that other instantiations may run");
  if (Target.empty())
    D.Safety = FixSafety::none("the value reduced is spelled in a macro");
  emit(Result, std::move(D));
}

} // namespace kernel_tidy::rules
