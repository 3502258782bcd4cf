//===--- SequentialLaneReadsCheck.cpp - luisa-sequential-lane-reads -------===//

#include "rules/SequentialLaneReadsCheck.h"

#include "src/dsl/DslModel.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace kernel_tidy::dsl;

namespace kernel_tidy::rules {

namespace {

/// `Acc += warp_read_lane(Value, Index)` (or `*=`), the body of the loop.
struct LaneReadStep {
  const Stmt *Statement;
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
  const Expr *Operand = stripDslWrappers(Step->Operand);
  if (!isDslCall(Operand, "warp_read_lane"))
    return std::nullopt;
  const auto *Read = cast<CallExpr>(Operand->IgnoreParenImpCasts());
  if (Read->getNumArgs() != 2)
    return std::nullopt;
  const auto *IndexRef = dyn_cast<DeclRefExpr>(stripDslWrappers(Read->getArg(1)));
  const auto *Index = IndexRef ? dyn_cast<VarDecl>(IndexRef->getDecl()) : nullptr;
  const Expr *Value = Read->getArg(0);
  if (!Index || refersTo(Value, Index) || isSameVariable(Value, Step->Target) ||
      refersTo(Step->Target, Index))
    return std::nullopt;
  return LaneReadStep{S, Step->Target, Step->Op, Value, Index, Read};
}

/// `lane` gives an exclusive prefix, `lane + 1` an inclusive one.
std::optional<Prefix> prefixOfBound(const Expr *Bound, ASTContext &Ctx) {
  if (isWarpLaneId(Bound, Ctx))
    return Prefix::Exclusive;
  const auto *Plus = dyn_cast<CXXOperatorCallExpr>(stripDslWrappers(Bound));
  if (!Plus || Plus->getOperator() != OO_Plus || Plus->getNumArgs() != 2)
    return std::nullopt;
  for (unsigned I = 0; I < 2; ++I)
    if (isWarpLaneId(Plus->getArg(I), Ctx) &&
        evaluateHostInt(stripDslWrappers(Plus->getArg(1 - I)), Ctx) == 1)
      return Prefix::Inclusive;
  return std::nullopt;
}

bool isHostZero(const Expr *E, ASTContext &Ctx) {
  return evaluateHostInt(stripDslWrappers(E), Ctx) == 0;
}

/// `for (auto i : dynamic_range(lane))`, also as spelled by `$for (i, lane)`.
std::optional<Prefix> deviceLoopPrefix(const CXXForRangeStmt *Loop,
                                       const VarDecl *Index, ASTContext &Ctx) {
  if (Loop->getLoopVariable() != Index)
    return std::nullopt;
  const Expr *Range = stripDslWrappers(Loop->getRangeInit());
  StringRef Name = dslCallName(Range);
  if (Name != "dynamic_range" && Name != "dynamic_range_with_comment")
    return std::nullopt;
  const auto *Call = cast<CallExpr>(Range->IgnoreParenImpCasts());
  llvm::ArrayRef<const Expr *> Args(Call->getArgs(), Call->getNumArgs());
  if (Name == "dynamic_range_with_comment")
    Args = Args.drop_front(); // The source-location comment.
  if (Args.size() == 3 && evaluateHostInt(stripDslWrappers(Args[2]), Ctx) != 1)
    return std::nullopt;
  if (Args.size() >= 2 && !isHostZero(Args[0], Ctx))
    return std::nullopt;
  if (Args.empty() || Args.size() > 3)
    return std::nullopt;
  return prefixOfBound(Args.size() == 1 ? Args[0] : Args[1], Ctx);
}

/// The device `for` whose body is \p Block, directly or as a `$for` lambda.
const CXXForRangeStmt *deviceLoopOf(const CompoundStmt *Block,
                                    ASTContext &Ctx) {
  const Stmt *Node = Block;
  for (const Stmt *Parent = parentStmt(Node, Ctx); Parent;
       Node = Parent, Parent = parentStmt(Node, Ctx)) {
    if (const auto *Loop = dyn_cast<CXXForRangeStmt>(Parent))
      return Loop->getBody() == Node ? Loop : nullptr;
    if (!isa<Expr>(Parent))
      return nullptr;
  }
  return nullptr;
}

/// `i < lane` / `lane > i` (exclusive), `i <= lane` / `lane >= i` (inclusive).
std::optional<Prefix> guardPrefix(const Expr *Cond, const VarDecl *Index,
                                  ASTContext &Ctx) {
  const auto *Cmp = dyn_cast<CXXOperatorCallExpr>(stripDslWrappers(Cond));
  if (!Cmp || Cmp->getNumArgs() != 2)
    return std::nullopt;
  auto IsIndex = [&](const Expr *E) {
    const auto *Ref = dyn_cast<DeclRefExpr>(stripDslWrappers(E));
    return Ref && Ref->getDecl() == Index;
  };
  OverloadedOperatorKind Op = Cmp->getOperator();
  const Expr *L = Cmp->getArg(0), *R = Cmp->getArg(1);
  if (IsIndex(R) && isWarpLaneId(L, Ctx)) {
    std::swap(L, R);
    Op = Op == OO_Greater ? OO_Less : Op == OO_GreaterEqual ? OO_LessEqual : OO_None;
  }
  if (!IsIndex(L) || !isWarpLaneId(R, Ctx))
    return std::nullopt;
  if (Op == OO_Less)
    return Prefix::Exclusive;
  if (Op == OO_LessEqual)
    return Prefix::Inclusive;
  return std::nullopt;
}

/// `for (uint i = 0; i < N; i++) { $if (i < lane) { STEP }; }`, N >= width.
std::optional<PrefixLoop> hostLoop(const LaneReadStep &Step,
                                   const CompoundStmt *Then, unsigned Width,
                                   ASTContext &Ctx) {
  // Then -> lambda -> ... -> the `$if` statement -> loop body.
  const Stmt *IfStatement = Then;
  const Stmt *Holder = parentStmt(IfStatement, Ctx);
  while (Holder && isa<Expr>(Holder)) {
    IfStatement = Holder;
    Holder = parentStmt(IfStatement, Ctx);
  }
  auto If = IfStatement ? matchDslIf(IfStatement) : std::nullopt;
  if (!If || If->Then != Then || !Holder)
    return std::nullopt;
  const ForStmt *Loop = dyn_cast<ForStmt>(Holder);
  if (const auto *Block = dyn_cast<CompoundStmt>(Holder)) {
    if (Block->size() != 1)
      return std::nullopt;
    Loop = dyn_cast_or_null<ForStmt>(parentStmt(Block, Ctx));
  }
  if (!Loop)
    return std::nullopt;
  auto Host = evaluateHostLoop(Loop, Ctx);
  if (!Host || Host->Var != Step.Index || Host->Values.size() < Width)
    return std::nullopt;
  for (size_t I = 0; I < Host->Values.size(); ++I)
    if (Host->Values[I] != static_cast<int64_t>(I))
      return std::nullopt;
  auto Kind = guardPrefix(If->Cond, Step.Index, Ctx);
  if (!Kind)
    return std::nullopt;
  return PrefixLoop{Loop, *Kind};
}

} // namespace

void SequentialLaneReadsCheck::check(const MatchFinder::MatchResult &Result) {
  dsl::UseScanCache Use(Scans);
  ASTContext &Ctx = *Result.Context;
  const auto *Read = Result.Nodes.getNodeAs<CallExpr>("read");
  auto [Statement, Container] = enclosingStatement(Read, Ctx);
  const auto *Block = dyn_cast_or_null<CompoundStmt>(Container);
  if (!Statement || !Block || Block->size() != 1)
    return;
  auto Step = matchLaneReadStep(Statement);
  if (!Step || Step->Read != Read->IgnoreParenImpCasts())
    return;
  std::optional<PrefixLoop> Found;
  if (const auto *Loop = deviceLoopOf(Block, Ctx)) {
    if (auto Kind = deviceLoopPrefix(Loop, Step->Index, Ctx))
      Found = PrefixLoop{Loop, *Kind};
  } else {
    unsigned Width = inferWarpSize(Statement, Ctx).value_or(WarpSize);
    Found = hostLoop(*Step, Block, Width, Ctx);
  }
  if (!Found)
    return;

  SourceLocation Loc =
      reportLocation(Found->Loop->getBeginLoc(), Ctx.getSourceManager());
  bool IsSum = Step->Op == CombineOp::Sum;
  bool Inclusive = Found->Kind == Prefix::Inclusive;
  std::string Value = sourceText(Step->Value->getSourceRange(), Ctx);
  std::string Target = sourceText(Step->Target->getSourceRange(), Ctx);
  std::string Scan = IsSum ? "warp_prefix_sum" : "warp_prefix_product";
  std::string Collective = Scan + "(" + Value + ")";
  if (Inclusive)
    Collective += (IsSum ? " + " : " * ") + Value;
  auto Range = editableStatementRange(Found->Loop, Found->Loop, Ctx);
  std::optional<FixItHint> Fix;
  if (Range && !Value.empty() && !Target.empty())
    Fix = FixItHint::CreateReplacement(
        *Range, Target + (IsSum ? " += " : " *= ") +
                    calleeQualifier(Step->Read, Ctx) + Collective + ";");
  report(Loc, rewriteOf(Step->Op, Step->Target->getType(), Ctx),
         "loop of warp_read_lane over the lanes " +
             std::string(Inclusive ? "up to" : "below") +
             " the current one takes one shuffle per lane; " + Collective +
             " computes the same " + (Inclusive ? "inclusive" : "exclusive") +
             " prefix",
         Range, Fix,
         // Reassociating a floating-point sum or product changes its rounding.
         isFloatingValue(Step->Target->getType())
             ? Scan + " combines the floating-point values in another order, "
                      "so the result can differ by rounding"
             : "");
}

} // namespace kernel_tidy::rules
