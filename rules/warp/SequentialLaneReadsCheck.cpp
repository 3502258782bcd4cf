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

/// A step and the loop around it that reads the lanes before the current one.
struct LaneReadLoop {
  LaneReadStep Step;
  const Stmt *Statement; ///< The loop body's statement that holds the step.
  PrefixLoop Loop;
};

/// The loop that the read \p Read is the step of, a device loop or a host
/// loop with a lane guard; std::nullopt when it is no prefix over the lanes.
std::optional<LaneReadLoop> laneReadLoop(const CallExpr *Read, UniformityAnalysis &U,
                                         ASTContext &Ctx) {
  auto [Statement, Container] = enclosingStatement(Read, Ctx);
  auto Step = Statement ? matchLaneReadStep(Statement) : std::nullopt;
  const auto *Block = dyn_cast_or_null<CompoundStmt>(Container);
  if (!Step || Step->Read != Read || !Block || Block->size() != 1)
    return std::nullopt;
  auto Control = controlOfBody(Block, Ctx);
  if (!Control)
    return std::nullopt;
  std::optional<PrefixLoop> Found;
  if (Control->K == DslControl::For) {
    if (auto Kind = deviceLoopPrefix(*Control, Step->Index, U, Ctx))
      Found = PrefixLoop{Control->Statement, *Kind};
  } else {
    Found = hostLoop(*Step, *Control, U, Ctx);
  }
  if (!Found)
    return std::nullopt;
  return LaneReadLoop{*Step, Statement, *Found};
}

/// The collective that computes what a loop adds up: the scan's name, the
/// value it reads and the call (plus the own value for an inclusive prefix).
struct PrefixCollective {
  std::string Name;
  std::string Value;
  std::string Call;
};

PrefixCollective prefixCollective(const LaneReadLoop &Found, ASTContext &Ctx) {
  bool IsSum = Found.Step.Op == CombineOp::Sum;
  PrefixCollective Scan;
  Scan.Value = sourceText(Found.Step.Value->getSourceRange(), Ctx);
  Scan.Name = IsSum ? "warp_prefix_sum" : "warp_prefix_product";
  Scan.Call = Scan.Name + "(" + Scan.Value + ")";
  if (Found.Loop.Kind == Prefix::Inclusive)
    Scan.Call += (IsSum ? " + " : " * ") + Scan.Value;
  return Scan;
}

/// The finding for \p Found with its rewrite into \p Scan, its kind and safety aside.
Diagnosis prefixDiagnosis(const LaneReadLoop &Found, const PrefixCollective &Scan,
                          ASTContext &Ctx) {
  const LaneReadStep &Step = Found.Step;
  bool Inclusive = Found.Loop.Kind == Prefix::Inclusive;
  Diagnosis D;
  D.Loc = Ctx.getSourceManager().getExpansionLoc(Found.Loop.Loop->getBeginLoc());
  D.Format = "loop of warp_read_lane over the lanes %0 the current one takes one "
             "shuffle per lane; %1 computes the same %2 prefix";
  D.Args = {Inclusive ? "up to" : "below", Scan.Call, Inclusive ? "inclusive" : "exclusive"};
  D.bind("loop", Found.Loop.Loop).bind("target", Step.Target);
  D.Edit = transformer::edit(transformer::changeTo(
      userStatements("loop", "loop"),
      transformer::cat(transformer::node("target"), Step.Op == CombineOp::Sum ? " += " : " *= ",
                       calleeQualifier(Step.Read, Ctx) + Scan.Call + ";")));
  return D;
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
  std::optional<LaneReadLoop> Found =
      laneReadLoop(Result.Nodes.getNodeAs<CallExpr>("read"), analyses(Ctx).Uniformity, Ctx);
  if (!Found)
    return;
  WarpWidth Width = widthAt(Found->Statement, Ctx);
  size_t Iterations = Found->Loop.HostIterations;
  // A host loop must read every lane of the warp; the widest warp has 128.
  bool CoversWarp = !Iterations || Iterations >= Width.known().value_or(128);
  if (!CoversWarp && (Width.known() || Iterations < 32))
    return;
  PrefixCollective Scan = prefixCollective(*Found, Ctx);
  Diagnosis D = prefixDiagnosis(*Found, Scan, Ctx);
  D.Kind = rewriteOf(Found->Step.Op, Found->Step.Target->getType(), Ctx);
  D.Safety =
      reassociationSafety(Found->Step.Op, Found->Step.Target->getType(), Scan.Name + " combines");
  if (!CoversWarp)
    D.Safety = FixSafety::none(Width.whyUnknown() + ", and the loop reads only " +
                               std::to_string(Iterations) + " lanes");
  else if (Iterations && Iterations < Width.Widest)
    D.Safety.addHazard(Width.assumption() + "; on a warp of more than " +
                       std::to_string(Iterations) + " lanes the loop reads only the first " +
                       std::to_string(Iterations) + " and " + Scan.Name + " every lane below");
  if (Scan.Value.empty())
    D.Safety = FixSafety::none("the value read is spelled in a macro");
  emit(Result, std::move(D));
}

} // namespace kernel_tidy::rules
