//===--- ControlFlowTest.cpp - DSL control, barriers, exits, matchers -----===//

#include "src/dsl/ControlFlow.h"
#include "src/dsl/Matchers.h"
#include "test/unit/DslSnippet.h"
#include <gtest/gtest.h>

namespace kernel_tidy::test {
namespace {

using dsl::DslControl;

std::vector<DslControl::Kind> kinds(const dsl::ControlSummary &Summary) {
  std::vector<DslControl::Kind> Out;
  for (const DslControl &C : Summary.Controls)
    Out.push_back(C.K);
  return Out;
}

TEST(ControlFlow, EnclosingControlsInnermostFirst) {
  Snippet S(R"(
    $if (n > 0u) {
      $for (i, n) {
        $while (i < 3u) { probe(0u); };
      };
    } $elif (n == 0u) {
      $loop { probe(1u); $break; };
    } $else {
      for (auto j : dynamic_range(2u, n)) { probe(2u); }
    };
    probe(3u);
  )");
  ASSERT_TRUE(S.parsed());
  dsl::ControlFlowAnalysis Flow(S.context());
  auto Inner = Flow.enclosing(S.probeStatement(0));
  EXPECT_EQ((std::vector<DslControl::Kind>{DslControl::While, DslControl::For, DslControl::If}),
            kinds(Inner));
  EXPECT_NE(nullptr, Inner.Kernel);
  auto Elif = Flow.enclosing(S.probeStatement(1));
  EXPECT_EQ((std::vector<DslControl::Kind>{DslControl::Loop, DslControl::Elif}), kinds(Elif));
  EXPECT_EQ(2u, Elif.Controls[1].Conditions.size()); // Both conditions decide.
  auto Else = Flow.enclosing(S.probeStatement(2));
  EXPECT_EQ((std::vector<DslControl::Kind>{DslControl::For, DslControl::Else}), kinds(Else));
  EXPECT_EQ(2u, Else.Controls[0].Conditions.size()); // dynamic_range(begin, end).
  EXPECT_TRUE(Flow.enclosing(S.probeStatement(3)).Controls.empty());
  EXPECT_EQ(Inner.Body, Flow.enclosing(S.probeStatement(3)).Body);
}

TEST(ControlFlow, InitialisersAreInsideTheirDeclaration) {
  Snippet S(R"(
    $if (n > 0u) {
      auto slot = buffer.atomic(0u).fetch_add(1u);
      probe(slot);
    };
  )");
  ASSERT_TRUE(S.parsed());
  using namespace clang::ast_matchers;
  auto Fetches =
      match(findAll(cxxMemberCallExpr(callee(cxxMethodDecl(hasName("fetch_add")))).bind("fetch")),
            S.context());
  ASSERT_FALSE(Fetches.empty());
  const auto *Fetch = Fetches[0].getNodeAs<clang::Expr>("fetch");
  auto Enclosing = dsl::enclosingStatement(Fetch, S.context());
  EXPECT_TRUE(llvm::isa_and_nonnull<clang::DeclStmt>(Enclosing.Container));
  dsl::ControlFlowAnalysis Flow(S.context());
  EXPECT_EQ((std::vector<DslControl::Kind>{DslControl::If}), kinds(Flow.enclosing(Fetch)));
}

TEST(ControlFlow, BarriersAndExitsOfAKernel) {
  Snippet S(R"(
    sync_block();
    $if (thread_x() < 4u) { sync_block(); $return(); };
    $loop { $break; };
    probe(0u);
  )",
            "void other(Device &d) { Kernel1D k = [&]() noexcept { sync_block(); }; }");
  ASSERT_TRUE(S.parsed());
  dsl::ControlFlowAnalysis Flow(S.context());
  const Stmt *Body = Flow.enclosing(S.probeStatement(0)).Body;
  EXPECT_EQ(2u, Flow.barriers(Body).size()); // Not the other kernel's.
  ASSERT_EQ(2u, Flow.exits(Body).size());
  EXPECT_EQ(dsl::DslExit::Return, Flow.exits(Body)[0].Kind);
  EXPECT_EQ(dsl::DslExit::Break, Flow.exits(Body)[1].Kind);
}

TEST(DslMatchers, NameTheDslConstructs) {
  Snippet S(R"(
    Shared<uint> s{32};
    s.atomic(0u).fetch_add(1u);
    s[thread_x()] = 1u;
    auto v = warp_active_sum(s.read(0u));
    sync_block();
    $if (v > 0u) { buffer.atomic(0u).fetch_max(v); };
  )",
            "Callable<uint(uint)> twice = [](UInt x) noexcept { return x * 2u; };");
  ASSERT_TRUE(S.parsed());
  using namespace dsl::matchers;
  auto Count = [&](auto Matcher) {
    std::set<const void *> Nodes;
    for (const auto &M :
         match(findAll(stmt(Matcher, isExpansionInMainFile()).bind("n")), S.context()))
      Nodes.insert(M.getMap().at("n").getMemoizationData());
    return Nodes.size();
  };
  EXPECT_EQ(1u, Count(atomicFetch({"fetch_add"}, "f", "a")));
  EXPECT_EQ(2u, Count(atomicReference("a")));
  EXPECT_EQ(1u, Count(callExpr(isWarpBuiltin())));
  EXPECT_EQ(1u, Count(syncBlock()));
  EXPECT_EQ(2u, Count(sharedAccess()));
  EXPECT_EQ(1u, Count(expr(isDslIf())));
  EXPECT_EQ(1u, Count(compoundStmt(isDslControlBody())));
  EXPECT_EQ(1u, Count(lambdaExpr(isKernelLambda())));
  EXPECT_EQ(1u, Count(lambdaExpr(isCallableLambda())));
  EXPECT_EQ(1u, Count(expr(atomicFetch({"fetch_add"}, "f", "a"), isDiscardedResult())));
}

} // namespace
} // namespace kernel_tidy::test
