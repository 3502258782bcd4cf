//===--- ButterflyReductionCheck.cpp - luisa-butterfly-reduction ----------===//

#include "rules/warp/ButterflyReductionCheck.h"

#include "rules/FixEdits.h"
#include "src/dsl/Ast.h"
#include "src/dsl/HostEval.h"
#include "src/dsl/Matchers.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Tooling/Transformer/Stencil.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace kernel_tidy::dsl;
using namespace kernel_tidy::dsl::matchers;

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

std::optional<ButterflyStep> matchButterflyStep(const Stmt *S, UniformityAnalysis &U) {
  auto Step = matchAccumulateStep(S);
  if (!Step)
    return std::nullopt;
  const CallExpr *Read = asDslCall(Step->Operand, "warp_read_lane");
  if (!Read || Read->getNumArgs() != 2 || !isSameVariable(Read->getArg(0), Step->Target))
    return std::nullopt;
  const auto *Xor = dyn_cast<CXXOperatorCallExpr>(stripDslWrappers(Read->getArg(1)));
  if (!Xor || Xor->getOperator() != OO_Caret || Xor->getNumArgs() != 2)
    return std::nullopt;
  const Expr *Distance = U.isLaneId(Xor->getArg(0))   ? Xor->getArg(1)
                         : U.isLaneId(Xor->getArg(1)) ? Xor->getArg(0)
                                                      : nullptr;
  if (!Distance || isDslValueType(stripDslWrappers(Distance)->getType()))
    return std::nullopt;
  return ButterflyStep{S, Step->Target, Step->Op, Distance, Read};
}

/// The lanes a butterfly with these distances covers: N when the distances
/// are exactly the powers of two below N; std::nullopt otherwise.
std::optional<unsigned> coveredLanes(llvm::ArrayRef<int64_t> Distances) {
  uint64_t Seen = 0;
  for (int64_t D : Distances) {
    if (D <= 0 || D > 64 || !llvm::isPowerOf2_64(D) || (Seen & D))
      return std::nullopt;
    Seen |= D;
  }
  if (Distances.empty() || !llvm::isPowerOf2_64(Seen + 1))
    return std::nullopt;
  return static_cast<unsigned>(Seen + 1);
}

/// A butterfly found in the code: its statements and distances.
struct Butterfly {
  const Stmt *First;
  const Stmt *Last;
  std::vector<int64_t> Distances;
};

/// The chain of consecutive steps around \p Step inside \p Block.
std::optional<Butterfly> straightLineChain(const ButterflyStep &Step, const CompoundStmt *Block,
                                           UniformityAnalysis &U, ASTContext &Ctx) {
  auto Statements = blockStatements(Block);
  auto It = llvm::find(Statements, Step.Statement);
  if (It == Statements.end())
    return std::nullopt;
  auto StepAt = [&](size_t I) { return matchButterflyStep(Statements[I], U); };
  auto Continues = [&](const std::optional<ButterflyStep> &Other) {
    return Other && Other->Op == Step.Op && isSameVariable(Other->Target, Step.Target);
  };
  size_t Begin = It - Statements.begin(), End = Begin + 1;
  while (Begin > 0 && Continues(StepAt(Begin - 1)))
    --Begin;
  while (End < Statements.size() && Continues(StepAt(End)))
    ++End;
  Butterfly Result{Statements[Begin], Statements[End - 1], {}};
  for (size_t I = Begin; I < End; ++I) {
    auto Value = evaluateHostInt(StepAt(I)->Distance, Ctx);
    if (!Value)
      return std::nullopt;
    Result.Distances.push_back(*Value);
  }
  return Result;
}

/// A host loop (counting or over a list of distances) whose body is \p Step.
std::optional<Butterfly> hostLoopChain(const ButterflyStep &Step, const Stmt *Container,
                                       ASTContext &Ctx) {
  const Stmt *Loop = Container;
  if (const auto *Block = dyn_cast<CompoundStmt>(Container)) {
    if (Block->size() != 1)
      return std::nullopt;
    Loop = parentStmt(Block, Ctx);
  }
  auto Host = Loop ? evaluateHostLoop(Loop, Ctx) : std::nullopt;
  if (!Host)
    return std::nullopt;
  Butterfly Result{Loop, Loop, {}};
  for (int64_t Value : Host->Values) {
    auto Distance = evaluateHostInt(Step.Distance, Ctx, {{Host->Var, Value}});
    if (!Distance)
      return std::nullopt;
    Result.Distances.push_back(*Distance);
  }
  return Result;
}

/// A butterfly and the step of it that a match found.
struct ButterflyAt {
  ButterflyStep Step;
  Butterfly Chain;
};

/// The butterfly whose step reads the partner lane with \p Read: straight-line
/// steps around it or a host loop over it; std::nullopt if none.
std::optional<ButterflyAt> butterflyAt(const CallExpr *Read, UniformityAnalysis &U,
                                       ASTContext &Ctx) {
  auto [Statement, Container] = enclosingStatement(Read, Ctx);
  auto Step = Statement ? matchButterflyStep(Statement, U) : std::nullopt;
  if (!Step || Step->Read != Read)
    return std::nullopt;
  std::optional<Butterfly> Chain;
  if (const auto *Block = dyn_cast<CompoundStmt>(Container))
    Chain = straightLineChain(*Step, Block, U, Ctx);
  if (!Chain)
    Chain = hostLoopChain(*Step, Container, Ctx);
  if (!Chain)
    return std::nullopt;
  return ButterflyAt{*Step, std::move(*Chain)};
}

/// The finding for the butterfly \p Found over \p Lanes lanes (all of the
/// warp's when \p WidthKnown) with its rewrite, its kind and safety aside.
Diagnosis butterflyDiagnosis(const ButterflyAt &Found, unsigned Lanes, bool WidthKnown,
                             ASTContext &Ctx) {
  const ButterflyStep &Step = Found.Step;
  std::string Collective = collectiveName(Step.Op);
  Diagnosis D;
  D.Loc = Ctx.getSourceManager().getExpansionLoc(Found.Chain.First->getBeginLoc());
  D.Format = WidthKnown ? "butterfly reduction of '%0' over all %1 lanes takes %2 warp_read_lane "
                          "shuffles; a single %3(%0) does the same"
                        : "butterfly reduction of '%0' over %1 lanes takes %2 warp_read_lane "
                          "shuffles; if the warp has %1 lanes, a single %3(%0) does the same";
  D.Args = {sourceText(Step.Target->getSourceRange(), Ctx), std::to_string(Lanes),
            std::to_string(Found.Chain.Distances.size()), Collective};
  D.bind("first", Found.Chain.First).bind("last", Found.Chain.Last).bind("target", Step.Target);
  D.Edit = transformer::edit(transformer::changeTo(
      userStatements("first", "last"),
      transformer::cat(transformer::node("target"),
                       " = " + calleeQualifier(Step.Read, Ctx) + Collective + "(",
                       transformer::node("target"), ");")));
  return D;
}

} // namespace

void ButterflyReductionCheck::registerMatchers(MatchFinder *Finder) {
  // warp_read_lane(v, lane ^ d) (or d ^ lane).
  Finder->addMatcher(
      callExpr(dslCall({"warp_read_lane"}), hasArgument(1, ignoringImplicit(cxxOperatorCallExpr(
                                                               hasOverloadedOperatorName("^")))))
          .bind("read"),
      this);
}

void ButterflyReductionCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  std::optional<ButterflyAt> Found =
      butterflyAt(Result.Nodes.getNodeAs<CallExpr>("read"), analyses(Ctx).Uniformity, Ctx);
  auto Lanes = Found ? coveredLanes(Found->Chain.Distances) : std::nullopt;
  WarpWidth Width = Found ? widthAt(Found->Chain.First, Ctx) : WarpWidth();
  // With an unknown width, only a butterfly as wide as the narrowest
  // native warp (32 lanes) may be meant to span the warp.
  if (!Lanes || (Width.known() ? *Width.known() != *Lanes : *Lanes < 32))
    return;
  const ButterflyStep &Step = Found->Step;
  std::string Collective = collectiveName(Step.Op);
  Diagnosis D = butterflyDiagnosis(*Found, *Lanes, Width.known().has_value(), Ctx);
  D.Kind = rewriteOf(Step.Op, Step.Target->getType(), Ctx);
  D.Safety = reassociationSafety(Step.Op, Step.Target->getType(), Collective + " combines");
  if (!Width.known())
    D.Safety = FixSafety::none(Width.whyUnknown() + ", and the warp may be wider than " +
                               D.Args[1] + " lanes");
  else if (!Width.exact())
    D.Safety.addHazard(Width.assumption() + "; on a wider warp the butterfly reduces groups of " +
                       D.Args[1] + " lanes and " + Collective + " the whole warp");
  emit(Result, std::move(D));
}

} // namespace kernel_tidy::rules
