//===--- DivergenceTest.cpp - Sources of variance, divergence witnesses ---===//

#include "src/dsl/Analyses.h"
#include "test/unit/DslSnippet.h"
#include "clang/AST/ExprCXX.h"
#include <gtest/gtest.h>

namespace kernel_tidy::test {
namespace {

using dsl::VaryingSource;

struct Explained {
  explicit Explained(const std::string &Body, const std::string &Prelude = "") : S(Body, Prelude) {
    EXPECT_TRUE(S.parsed()) << Body;
    A = std::make_unique<dsl::Analyses>(S.context(), dsl::DefaultWarpWidth);
  }
  std::optional<VaryingSource> sourceOf(unsigned Probe) {
    return A->Divergence.sourceOf(S.probe(Probe));
  }
  std::optional<dsl::DivergenceWitness> witnessOf(unsigned Probe) {
    return A->Divergence.witnessFor(S.probeStatement(Probe));
  }
  std::string text(const Stmt *Node) {
    const SourceManager &SM = S.context().getSourceManager();
    CharSourceRange Range = Lexer::makeFileCharRange(
        CharSourceRange::getTokenRange(Node->getSourceRange()), SM, S.context().getLangOpts());
    return Lexer::getSourceText(Range, SM, S.context().getLangOpts()).str();
  }
  Snippet S;
  std::unique_ptr<dsl::Analyses> A;
};

TEST(Divergence, SourcesNameTheThreadDependentValue) {
  Explained E(R"(
    auto tid = thread_id().x;
    UInt copy = tid + 1u;
    Shared<uint> s{4u};
    auto ticket = s.atomic(0u).fetch_add(1u);
    UInt flag = 0u;
    $if (thread_x() == 2u) { flag = 1u; };
    probe(n + 1u);
    probe(copy < n);
    probe(ticket);
    probe(flag);
    probe(warp_active_any(tid == 0u));
  )");
  EXPECT_FALSE(E.sourceOf(0));
  auto Copy = E.sourceOf(1);
  ASSERT_TRUE(Copy);
  EXPECT_EQ(VaryingSource::Builtin, Copy->K);
  EXPECT_EQ("thread_id()", E.text(Copy->Leaf));
  ASSERT_TRUE(Copy->Through);
  EXPECT_EQ("copy", Copy->Through->getName());
  auto Ticket = E.sourceOf(2);
  ASSERT_TRUE(Ticket);
  EXPECT_EQ(VaryingSource::Atomic, Ticket->K);
  auto Flag = E.sourceOf(3); // Stored under a thread-dependent condition.
  ASSERT_TRUE(Flag);
  EXPECT_EQ("thread_x()", E.text(Flag->Leaf));
  auto Vote = E.sourceOf(4);
  ASSERT_TRUE(Vote);
  EXPECT_EQ("warp_active_any(tid == 0u)", E.text(Vote->Leaf));
}

TEST(Divergence, UserCallsAndParametersAreNotDefinite) {
  Explained E("    probe(flag(n));",
              "Bool flag(Expr<uint> v) noexcept { probe(v); return v > 0u; }");
  auto Call = E.sourceOf(1); // Prelude probes come first.
  ASSERT_TRUE(Call);
  EXPECT_EQ(VaryingSource::UserCall, Call->K);
  EXPECT_FALSE(Call->isDefinite());
  auto Parameter = E.sourceOf(0);
  ASSERT_TRUE(Parameter);
  EXPECT_EQ(VaryingSource::Parameter, Parameter->K);
}

TEST(Divergence, WitnessesOfControlExitsAndCalls) {
  Explained E(R"(
    $if (n > 2u) { probe(0u); };
    $if (thread_x() < 16u) { probe(1u); helper(); };
    $loop { $if (thread_x() == 3u) { $break; }; probe(2u); };
    helper();
    $if (dispatch_x() >= n) { $return(); };
    probe(3u);
  )",
              "void helper() noexcept { probe(9u); }");
  // Probe 0 is the helper's (the prelude comes first).
  EXPECT_FALSE(E.witnessOf(1));
  auto InIf = E.witnessOf(2);
  ASSERT_TRUE(InIf);
  EXPECT_EQ("thread_x() < 16u", E.text(InIf->Condition));
  EXPECT_FALSE(InIf->Exit);
  auto InLoop = E.witnessOf(3);
  ASSERT_TRUE(InLoop);
  ASSERT_TRUE(InLoop->Exit);
  EXPECT_EQ("thread_x() == 3u", E.text(InLoop->Condition));
  auto AfterReturn = E.witnessOf(4);
  ASSERT_TRUE(AfterReturn);
  ASSERT_TRUE(AfterReturn->Exit);
  EXPECT_EQ("dispatch_x() >= n", E.text(AfterReturn->Condition));
  // The helper's body: divergent through its first caller, under the $if.
  auto InHelper = E.witnessOf(0);
  ASSERT_TRUE(InHelper);
  ASSERT_EQ(1u, InHelper->Calls.size());
  EXPECT_EQ("thread_x() < 16u", E.text(InHelper->Condition));
}

TEST(Divergence, HelperParametersMapToTheCallersArguments) {
  Explained E("    guard(block_id().x);\n    guard(thread_x());",
              "void guard(Expr<uint> i) noexcept { $if (i < 4u) { probe(0u); }; }");
  auto W = E.witnessOf(0);
  ASSERT_TRUE(W);
  EXPECT_EQ("i < 4u", E.text(W->Condition));
  EXPECT_EQ("thread_x()", E.text(W->Source.Leaf));
  ASSERT_EQ(1u, W->Calls.size());
  EXPECT_EQ("guard(thread_x())", E.text(W->Calls[0]));
}

TEST(Divergence, CallablesAreFoundThroughTheirVariable) {
  Explained E("    Callable step = [](UInt v) noexcept { probe(v); return v; };\n"
              "    $if (thread_x() == 0u) { buffer.write(0u, step(n)); };");
  auto W = E.witnessOf(0);
  ASSERT_TRUE(W);
  ASSERT_EQ(1u, W->Calls.size());
  EXPECT_EQ("step(n)", E.text(W->Calls[0]));
}

} // namespace
} // namespace kernel_tidy::test
