//===--- DslAstTest.cpp - Ast, Statements and Writes on DSL snippets -------===//

#include "src/dsl/Ast.h"
#include "src/dsl/ControlFlow.h"
#include "src/dsl/Statements.h"
#include "src/dsl/Writes.h"
#include "test/unit/DslSnippet.h"
#include <gtest/gtest.h>

namespace kernel_tidy::test {
namespace {

/// The variable that the probe's argument names.
const VarDecl *probedVariable(Snippet &S, unsigned Index) {
  return dsl::variableOf(S.probe(Index));
}

TEST(DslAst, LambdaRolesCalleeNamesAndDiscardedResults) {
  Snippet S(R"(
    Callable twice = [](UInt x) noexcept { return x * 2u; };
    probe(twice(n));
    auto slot = buffer.atomic(0u).fetch_add(1u);
    buffer.atomic(1u).fetch_add(slot);
    probe(slot);
  )");
  ASSERT_TRUE(S.parsed());
  ASTContext &Ctx = S.context();
  const auto *Call = dyn_cast<CallExpr>(S.probe(0)->IgnoreImplicit());
  ASSERT_NE(nullptr, Call);
  EXPECT_EQ("twice", dsl::calleeName(Call));
  const LambdaExpr *Kernel = dsl::enclosingKernel(S.probeStatement(0), Ctx);
  ASSERT_NE(nullptr, Kernel);
  EXPECT_EQ(dsl::LambdaRole::Kernel, dsl::lambdaRole(Kernel, Ctx));
  auto Fetches = match(
      findAll(cxxMemberCallExpr(callee(cxxMethodDecl(hasName("fetch_add")))).bind("f")), Ctx);
  std::vector<bool> Discarded;
  for (const auto &Node : Fetches)
    Discarded.push_back(dsl::isDiscardedResult(Node.getNodeAs<Expr>("f"), Ctx));
  std::sort(Discarded.begin(), Discarded.end());
  Discarded.erase(std::unique(Discarded.begin(), Discarded.end()), Discarded.end());
  EXPECT_EQ((std::vector<bool>{false, true}), Discarded); // `auto slot = ...` and a statement.
  // What ran before the second probe, innermost block first, in source order.
  std::vector<const Stmt *> Before = dsl::statementsBefore(S.probeStatement(1), Ctx);
  ASSERT_GE(Before.size(), 4u);
  EXPECT_TRUE(isa<DeclStmt>(Before[0])); // `Callable twice = ...`
}

TEST(DslStatements, DeviceLoopsAndAccumulateSteps) {
  Snippet S(R"(
    UInt sum = 0u;
    $for (i, n) {
      sum += i;
      probe(i);
    };
    for (auto j : dynamic_range(n)) { probe(j); }
    for (auto k = 0u; k < 4u; k++) { probe(k); }
  )");
  ASSERT_TRUE(S.parsed());
  ASTContext &Ctx = S.context();
  const CXXForRangeStmt *DollarFor = dsl::deviceLoopOf(probedVariable(S, 0), Ctx);
  ASSERT_NE(nullptr, DollarFor);
  EXPECT_EQ(1u, dsl::deviceRangeArguments(DollarFor)->size());
  EXPECT_NE(nullptr, dsl::deviceLoopOf(probedVariable(S, 1), Ctx));
  EXPECT_EQ(nullptr, dsl::deviceLoopOf(probedVariable(S, 2), Ctx)); // A host loop.
  // `sum += i` in the $for body is one accumulation step.
  auto Accumulate = match(findAll(cxxOperatorCallExpr(hasOverloadedOperatorName("+=")).bind("s")),
                          Ctx);
  ASSERT_FALSE(Accumulate.empty());
  auto Matched = dsl::matchAccumulateStep(Accumulate[0].getNodeAs<Stmt>("s"));
  ASSERT_TRUE(Matched);
  EXPECT_EQ(dsl::CombineOp::Sum, Matched->Op);
}

TEST(DslWrites, WritesWithTheirValuesAndKinds) {
  Snippet S(R"(
    UInt a = n;
    UInt b = 1u;
    UInt c = 2u;
    a = b + 1u;
    b += 3u;
    probe(a);
    probe(b);
    probe(c);
  )");
  ASSERT_TRUE(S.parsed());
  dsl::WriteAnalysis Writes(S.context());
  const auto &OfA = Writes.writesOf(probedVariable(S, 0));
  ASSERT_EQ(1u, OfA.size());
  EXPECT_NE(nullptr, OfA[0].Value);
  EXPECT_FALSE(OfA[0].KeepsOldValue);
  const auto &OfB = Writes.writesOf(probedVariable(S, 1));
  ASSERT_EQ(1u, OfB.size());
  EXPECT_TRUE(OfB[0].KeepsOldValue);
  EXPECT_FALSE(Writes.isWritten(probedVariable(S, 2)));
}

TEST(DslControlFlow, ControlsBetweenAreTheInnerOnesOnly) {
  Snippet S(R"(
    $if (n > 0u) {
      $for (i, n) {
        $if (i > 1u) { probe(0u); };
      };
      probe(1u);
    };
  )");
  ASSERT_TRUE(S.parsed());
  dsl::ControlFlowAnalysis Flow(S.context());
  std::vector<dsl::DslControl> Between =
      Flow.controlsBetween(S.probeStatement(0), S.probeStatement(1));
  ASSERT_EQ(2u, Between.size());
  EXPECT_EQ(dsl::DslControl::If, Between[0].K);
  EXPECT_EQ(dsl::DslControl::For, Between[1].K);
  EXPECT_TRUE(Flow.controlsBetween(S.probeStatement(1), S.probeStatement(0)).empty());
}

} // namespace
} // namespace kernel_tidy::test
