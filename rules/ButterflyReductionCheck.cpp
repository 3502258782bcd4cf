//===--- ButterflyReductionCheck.cpp - luisa-butterfly-reduction ----------===//

#include "rules/ButterflyReductionCheck.h"

#include "src/dsl/DslModel.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace kernel_tidy::dsl;

namespace kernel_tidy::rules {

namespace {

/// One butterfly step: `V = OP(V, warp_read_lane(V, lane ^ Distance))`.
struct ButterflyStep {
  const Stmt *Statement;
  const Expr *Target;
  CombineOp Op;
  const Expr *Distance;
  const CallExpr *Read;
};

std::optional<ButterflyStep> matchButterflyStep(const Stmt *S,
                                                ASTContext &Ctx) {
  auto Step = matchAccumulateStep(S);
  if (!Step)
    return std::nullopt;
  const Expr *Operand = stripDslWrappers(Step->Operand);
  if (!isDslCall(Operand, "warp_read_lane"))
    return std::nullopt;
  const auto *Read = cast<CallExpr>(Operand->IgnoreParenImpCasts());
  if (Read->getNumArgs() != 2 || !isSameVariable(Read->getArg(0), Step->Target))
    return std::nullopt;
  const auto *Xor =
      dyn_cast<CXXOperatorCallExpr>(stripDslWrappers(Read->getArg(1)));
  if (!Xor || Xor->getOperator() != OO_Caret || Xor->getNumArgs() != 2)
    return std::nullopt;
  const Expr *Distance = nullptr;
  if (isWarpLaneId(Xor->getArg(0), Ctx))
    Distance = Xor->getArg(1);
  else if (isWarpLaneId(Xor->getArg(1), Ctx))
    Distance = Xor->getArg(0);
  if (!Distance || isDslValueType(stripDslWrappers(Distance)->getType()))
    return std::nullopt;
  return ButterflyStep{S, Step->Target, Step->Op, Distance, Read};
}

bool continuesChain(const ButterflyStep &Chain, const ButterflyStep &Next) {
  return Next.Op == Chain.Op && isSameVariable(Next.Target, Chain.Target);
}

/// True if \p Distances are exactly the powers of two below \p WarpSize.
bool coversWholeWarp(llvm::ArrayRef<int64_t> Distances, unsigned WarpSize) {
  if (!llvm::isPowerOf2_32(WarpSize) || WarpSize < 2 ||
      Distances.size() != llvm::Log2_32(WarpSize))
    return false;
  uint64_t Seen = 0;
  for (int64_t D : Distances) {
    if (D <= 0 || D >= WarpSize || !llvm::isPowerOf2_64(D) || (Seen & D))
      return false;
    Seen |= D;
  }
  return Seen == WarpSize - 1;
}

/// A butterfly found in the code, ready to be reported.
struct Butterfly {
  const Stmt *First;
  const Stmt *Last;
  ButterflyStep Step;
  std::vector<int64_t> Distances;
};

/// The chain of consecutive steps around \p Step inside \p Block.
std::optional<Butterfly> straightLineChain(const ButterflyStep &Step,
                                           const CompoundStmt *Block,
                                           ASTContext &Ctx) {
  auto Statements = blockStatements(Block);
  auto It = llvm::find(Statements, Step.Statement);
  if (It == Statements.end())
    return std::nullopt;
  size_t Begin = It - Statements.begin(), End = Begin + 1;
  while (Begin > 0) {
    auto Prev = matchButterflyStep(Statements[Begin - 1], Ctx);
    if (!Prev || !continuesChain(Step, *Prev))
      break;
    --Begin;
  }
  while (End < Statements.size()) {
    auto Next = matchButterflyStep(Statements[End], Ctx);
    if (!Next || !continuesChain(Step, *Next))
      break;
    ++End;
  }
  Butterfly Result{Statements[Begin], Statements[End - 1], Step, {}};
  for (size_t I = Begin; I < End; ++I) {
    auto Value = evaluateHostInt(matchButterflyStep(Statements[I], Ctx)->Distance, Ctx);
    if (!Value)
      return std::nullopt;
    Result.Distances.push_back(*Value);
  }
  return Result;
}

/// A host `for` loop whose body is the single step \p Step.
std::optional<Butterfly> hostLoopChain(const ButterflyStep &Step,
                                       const Stmt *Container, ASTContext &Ctx) {
  const auto *Loop = dyn_cast<ForStmt>(Container);
  if (!Loop) {
    const auto *Block = dyn_cast<CompoundStmt>(Container);
    if (!Block || Block->size() != 1)
      return std::nullopt;
    Loop = dyn_cast_or_null<ForStmt>(parentStmt(Block, Ctx));
    if (!Loop || Loop->getBody() != Block)
      return std::nullopt;
  }
  auto Host = evaluateHostLoop(Loop, Ctx);
  if (!Host)
    return std::nullopt;
  Butterfly Result{Loop, Loop, Step, {}};
  for (int64_t Value : Host->Values) {
    auto Distance = evaluateHostInt(Step.Distance, Ctx, {{Host->Var, Value}});
    if (!Distance)
      return std::nullopt;
    Result.Distances.push_back(*Distance);
  }
  return Result;
}

} // namespace

void ButterflyReductionCheck::check(const MatchFinder::MatchResult &Result) {
  dsl::UseScanCache Use(Scans);
  ASTContext &Ctx = *Result.Context;
  const auto *Read = Result.Nodes.getNodeAs<CallExpr>("read");
  auto [Statement, Container] = enclosingStatement(Read, Ctx);
  if (!Statement)
    return;
  auto Step = matchButterflyStep(Statement, Ctx);
  if (!Step || Step->Read != Read->IgnoreParenImpCasts())
    return;
  std::optional<Butterfly> Chain;
  if (const auto *Block = dyn_cast<CompoundStmt>(Container))
    Chain = straightLineChain(*Step, Block, Ctx);
  if (!Chain)
    Chain = hostLoopChain(*Step, Container, Ctx);
  if (!Chain)
    return;
  unsigned Width = inferWarpSize(Chain->First, Ctx).value_or(WarpSize);
  if (!coversWholeWarp(Chain->Distances, Width))
    return;

  SourceLocation Loc =
      reportLocation(Chain->First->getBeginLoc(), Ctx.getSourceManager());
  std::string Target = sourceText(Step->Target->getSourceRange(), Ctx);
  std::string Collective = "warp_active_" + collectiveSuffix(Step->Op).str();
  auto Range = editableStatementRange(Chain->First, Chain->Last, Ctx);
  std::optional<FixItHint> Fix;
  if (Range && !Target.empty())
    Fix = FixItHint::CreateReplacement(
        *Range, Target + " = " + calleeQualifier(Step->Read, Ctx) + Collective +
                    "(" + Target + ");");
  // Reassociating a floating-point sum or product changes its rounding.
  bool Reassociates = (Step->Op == CombineOp::Sum || Step->Op == CombineOp::Product) &&
                      isFloatingValue(Step->Target->getType());
  report(Loc, rewriteOf(Step->Op, Step->Target->getType(), Ctx),
         (llvm::Twine("butterfly reduction of '") + Target + "' over all " +
          llvm::Twine(Width) + " lanes takes " + llvm::Twine(Chain->Distances.size()) +
          " warp_read_lane shuffles; a single " + Collective + "(" + Target +
          ") does the same")
             .str(),
         Range, Fix,
         Reassociates ? Collective + " combines the floating-point values in "
                                     "another order, so the result can differ by "
                                     "rounding"
                      : "");
}

} // namespace kernel_tidy::rules
