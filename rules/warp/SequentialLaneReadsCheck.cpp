//===--- SequentialLaneReadsCheck.cpp - luisa-sequential-lane-reads -------===//

#include "rules/warp/SequentialLaneReadsCheck.h"

#include "rules/FixEdits.h"
#include "src/dsl/Ast.h"
#include "src/dsl/HostEval.h"
#include "src/dsl/Matchers.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Tooling/Transformer/Stencil.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace kernel_tidy::dsl;
using namespace kernel_tidy::dsl::matchers;

namespace kernel_tidy::rules {

namespace {

/// `Acc += warp_read_lane(Value, Index)` (or `*=`), the body of the loop.
struct LaneReadStep {
  const Expr *Target;
  CombineOp Op;
  const Expr *Value;
  const VarDecl *Index;
  const CallExpr *Read;
};

/// The lanes a loop visits relative to the current lane.
enum class Prefix { Exclusive, Inclusive };

/// A loop found in the code, ready to be reported.
struct PrefixLoop {
  const Stmt *Loop;
  Prefix Kind;
  size_t HostIterations = 0; ///< For a host loop, how many lanes it reads.
};

bool refersTo(const Stmt *S, const VarDecl *Var) {
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
    if (Ref->getDecl() == Var)
      return true;
  for (const Stmt *Child : S->children())
    if (Child && refersTo(Child, Var))
      return true;
  return false;
}

std::optional<LaneReadStep> matchLaneReadStep(const Stmt *S) {
  auto Step = matchAccumulateStep(S);
  if (!Step || (Step->Op != CombineOp::Sum && Step->Op != CombineOp::Product))
    return std::nullopt;
  const CallExpr *Read = asDslCall(Step->Operand, "warp_read_lane");
  if (!Read || Read->getNumArgs() != 2)
    return std::nullopt;
  const auto *IndexRef = dyn_cast<DeclRefExpr>(stripDslWrappers(Read->getArg(1)));
  const auto *Index = IndexRef ? dyn_cast<VarDecl>(IndexRef->getDecl()) : nullptr;
  const Expr *Value = Read->getArg(0);
  if (!Index || refersTo(Value, Index) || isSameVariable(Value, Step->Target) ||
      refersTo(Step->Target, Index))
    return std::nullopt;
  return LaneReadStep{Step->Target, Step->Op, Value, Index, Read};
}

/// `lane` gives an exclusive prefix, `lane + 1` an inclusive one.
std::optional<Prefix> prefixOfBound(const Expr *Bound, UniformityAnalysis &U, ASTContext &Ctx) {
  if (U.isLaneId(Bound))
    return Prefix::Exclusive;
  const auto *Plus = dyn_cast<CXXOperatorCallExpr>(stripDslWrappers(Bound));
  if (!Plus || Plus->getOperator() != OO_Plus || Plus->getNumArgs() != 2)
    return std::nullopt;
  for (unsigned I = 0; I < 2; ++I)
    if (U.isLaneId(Plus->getArg(I)) &&
        evaluateHostInt(stripDslWrappers(Plus->getArg(1 - I)), Ctx) == 1)
      return Prefix::Inclusive;
  return std::nullopt;
}

/// `for (auto i : dynamic_range(lane))`, also as spelled by `$for (i, lane)`.
std::optional<Prefix> deviceLoopPrefix(const DslControl &Loop, const VarDecl *Index,
                                       UniformityAnalysis &U, ASTContext &Ctx) {
  const auto *For = dyn_cast<CXXForRangeStmt>(Loop.Statement);
  if (!For || For->getLoopVariable() != Index)
    return std::nullopt;
  llvm::ArrayRef<const Expr *> Args = Loop.Conditions;
  auto IsHost = [&](const Expr *E, int64_t V) {
    return evaluateHostInt(stripDslWrappers(E), Ctx) == V;
  };
  if (Args.empty() || Args.size() > 3 || (Args.size() == 3 && !IsHost(Args[2], 1)) ||
      (Args.size() >= 2 && !IsHost(Args[0], 0)))
    return std::nullopt;
  return prefixOfBound(Args.size() == 1 ? Args[0] : Args[1], U, Ctx);
}

/// `i < lane` / `lane > i` (exclusive), `i <= lane` / `lane >= i` (inclusive).
std::optional<Prefix> guardPrefix(const Expr *Cond, const VarDecl *Index, UniformityAnalysis &U) {
  const auto *Cmp = dyn_cast<CXXOperatorCallExpr>(stripDslWrappers(Cond));
  if (!Cmp || Cmp->getNumArgs() != 2)
    return std::nullopt;
  auto IsIndex = [&](const Expr *E) {
    const auto *Ref = dyn_cast<DeclRefExpr>(stripDslWrappers(E));
    return Ref && Ref->getDecl() == Index;
  };
  OverloadedOperatorKind Op = Cmp->getOperator();
  const Expr *L = Cmp->getArg(0), *R = Cmp->getArg(1);
  if (IsIndex(R) && U.isLaneId(L)) {
    std::swap(L, R);
    Op = Op == OO_Greater ? OO_Less : Op == OO_GreaterEqual ? OO_LessEqual : OO_None;
  }
  if (!IsIndex(L) || !U.isLaneId(R))
    return std::nullopt;
  if (Op == OO_Less)
    return Prefix::Exclusive;
  if (Op == OO_LessEqual)
    return Prefix::Inclusive;
  return std::nullopt;
}

/// `for (uint i = 0; i < N; i++) { $if (i < lane) { STEP }; }`.
std::optional<PrefixLoop> hostLoop(const LaneReadStep &Step, const DslControl &If,
                                   UniformityAnalysis &U, ASTContext &Ctx) {
  if (If.K != DslControl::If || blockStatements(If.Body).size() != 1)
    return std::nullopt;
  const Stmt *Holder = parentStmt(If.Statement, Ctx);
  while (Holder && isa<Expr>(Holder))
    Holder = parentStmt(Holder, Ctx);
  if (const auto *Block = dyn_cast_or_null<CompoundStmt>(Holder))
    Holder = Block->size() == 1 ? parentStmt(Block, Ctx) : nullptr;
  auto Host = Holder ? evaluateHostLoop(Holder, Ctx) : std::nullopt;
  if (!Host || Host->Var != Step.Index)
    return std::nullopt;
  for (size_t I = 0; I < Host->Values.size(); ++I)
    if (Host->Values[I] != static_cast<int64_t>(I))
      return std::nullopt;
  auto Kind = guardPrefix(If.Conditions.back(), Step.Index, U);
  if (!Kind)
    return std::nullopt;
  return PrefixLoop{Holder, *Kind, Host->Values.size()};
}

} // namespace

void SequentialLaneReadsCheck::registerMatchers(MatchFinder *Finder) {
  // warp_read_lane(v, i) inside a loop over i.
  Finder->addMatcher(
      callExpr(dslCall({"warp_read_lane"}), hasAncestor(stmt(anyOf(forStmt(), cxxForRangeStmt()))))
          .bind("read"),
      this);
}

void SequentialLaneReadsCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  Analyses &A = analyses(Ctx);
  const auto *Read = Result.Nodes.getNodeAs<CallExpr>("read");
  auto [Statement, Container] = enclosingStatement(Read, Ctx);
  auto Step = Statement ? matchLaneReadStep(Statement) : std::nullopt;
  const auto *Block = dyn_cast_or_null<CompoundStmt>(Container);
  if (!Step || Step->Read != Read || !Block || Block->size() != 1)
    return;
  auto Control = controlOfBody(Block, Ctx);
  if (!Control)
    return;
  std::optional<PrefixLoop> Found;
  if (Control->K == DslControl::For) {
    if (auto Kind = deviceLoopPrefix(*Control, Step->Index, A.Uniformity, Ctx))
      Found = PrefixLoop{Control->Statement, *Kind};
  } else {
    Found = hostLoop(*Step, *Control, A.Uniformity, Ctx);
  }
  WarpWidth Width = Found ? widthAt(Statement, Ctx) : WarpWidth();
  // A host loop must read every lane of the warp; the widest warp has 128.
  bool CoversWarp =
      !Found || !Found->HostIterations || Found->HostIterations >= Width.known().value_or(128);
  if (!Found || (!CoversWarp && (Width.known() || Found->HostIterations < 32)))
    return;

  bool IsSum = Step->Op == CombineOp::Sum, Inclusive = Found->Kind == Prefix::Inclusive;
  std::string Value = sourceText(Step->Value->getSourceRange(), Ctx);
  std::string Scan = IsSum ? "warp_prefix_sum" : "warp_prefix_product";
  std::string Collective = Scan + "(" + Value + ")";
  if (Inclusive)
    Collective += (IsSum ? " + " : " * ") + Value;
  Diagnosis D;
  D.Loc = Ctx.getSourceManager().getExpansionLoc(Found->Loop->getBeginLoc());
  D.Format = "loop of warp_read_lane over the lanes %0 the current one takes one "
             "shuffle per lane; %1 computes the same %2 prefix";
  D.Args = {Inclusive ? "up to" : "below", Collective, Inclusive ? "inclusive" : "exclusive"};
  D.Kind = rewriteOf(Step->Op, Step->Target->getType(), Ctx);
  D.bind("loop", Found->Loop).bind("target", Step->Target);
  D.Edit = transformer::edit(
      transformer::changeTo(userStatements("loop", "loop"),
                            transformer::cat(transformer::node("target"), IsSum ? " += " : " *= ",
                                             calleeQualifier(Step->Read, Ctx) + Collective + ";")));
  D.Safety = reassociationSafety(Step->Op, Step->Target->getType(), Scan + " combines");
  if (!CoversWarp)
    D.Safety = FixSafety::none(Width.whyUnknown() + ", and the loop reads only " +
                               std::to_string(Found->HostIterations) + " lanes");
  else if (Found->HostIterations && Found->HostIterations < Width.Widest)
    D.Safety.addHazard(
        Width.assumption() + "; on a warp of more than " + std::to_string(Found->HostIterations) +
        " lanes the loop reads only the "
        "first " +
        std::to_string(Found->HostIterations) + " and " + Scan + " every lane below");
  if (Value.empty())
    D.Safety = FixSafety::none("the value read is spelled in a macro");
  emit(Result, std::move(D));
}

} // namespace kernel_tidy::rules
