//===--- DslNamesTest.cpp - DSL names, value types and statement shapes ---===//

#include "src/dsl/Names.h"
#include "src/dsl/Profitability.h"
#include "src/dsl/Ast.h"
#include "src/dsl/Statements.h"
#include "test/unit/DslSnippet.h"
#include <gtest/gtest.h>

namespace kernel_tidy::test {
namespace {

TEST(DslNames, BuiltinsAreRecognisedThroughWrappers) {
  Snippet S(R"(
    UInt copy = def(thread_x());
    probe(def(warp_lane_id()));
    probe(Expr<uint>{block_id().x});
    probe(copy);
  )");
  ASSERT_TRUE(S.parsed());
  EXPECT_TRUE(dsl::isDslCall(S.probe(0), "warp_lane_id"));
  EXPECT_FALSE(dsl::isDslCall(S.probe(0), "thread_x"));
  EXPECT_EQ("", dsl::dslCallName(dsl::stripDslWrappers(S.probe(2))));
  EXPECT_NE(nullptr, dsl::asDslCall(S.probe(0), "warp_lane_id"));
}

TEST(DslNames, FloatingValueTypes) {
  Snippet S(R"(
    Float f; UInt u; Float3 v; Int2 i2;
    probe(f); probe(u); probe(v); probe(i2);
  )");
  ASSERT_TRUE(S.parsed());
  EXPECT_TRUE(dsl::isFloatingValue(S.probe(0)->getType()));
  EXPECT_FALSE(dsl::isFloatingValue(S.probe(1)->getType()));
  EXPECT_TRUE(dsl::isFloatingValue(S.probe(2)->getType()));
  EXPECT_FALSE(dsl::isFloatingValue(S.probe(3)->getType()));
}

TEST(DslNames, ProfitabilityValueClasses) {
  // "int": what CUDA reduces with redux.sync (per component for vectors).
  Snippet S(R"(
    Int i; UInt u; Short s; Int2 i2;
    Float f; Half h; Float3 v; SLong l; ULong ul; Float3x3 m;
    probe(i); probe(u); probe(s); probe(i2); probe(1u);
    probe(f); probe(h); probe(v); probe(l); probe(ul); probe(m); probe(1.0f);
  )");
  ASSERT_TRUE(S.parsed());
  for (unsigned I = 0; I < 5; ++I)
    EXPECT_FALSE(dsl::isFloatValueClass(S.probe(I)->getType(), S.context())) << I;
  for (unsigned I = 5; I < 12; ++I)
    EXPECT_TRUE(dsl::isFloatValueClass(S.probe(I)->getType(), S.context())) << I;
}

TEST(DslNames, SharedAndBufferTypes) {
  Snippet S(R"(
    Shared<float> s{64};
    Shared<uint> *p = new Shared<uint>{1};
    probe(s); probe(p); probe(buffer); probe(n);
  )");
  ASSERT_TRUE(S.parsed());
  EXPECT_TRUE(dsl::sharedElementType(S.probe(0)->getType())->isFloatingType());
  EXPECT_FALSE(dsl::sharedElementType(S.probe(1)->getType()).isNull());
  EXPECT_TRUE(dsl::sharedElementType(S.probe(2)->getType()).isNull());
  EXPECT_TRUE(dsl::isBufferType(S.probe(2)->getType()));
  EXPECT_FALSE(dsl::isBufferType(S.probe(3)->getType()));
}

TEST(DslNames, CapturedBufferThroughArrowIsABuffer) {
  Snippet S(R"(
    probe(captured_counter->atomic(0u));
  )",
            "luisa::compute::Buffer<luisa::uint> captured_counter;\n");
  ASSERT_TRUE(S.parsed());
  using namespace clang::ast_matchers;
  auto Atomics = match(
      findAll(cxxMemberCallExpr(callee(cxxMethodDecl(hasName("atomic"))), isExpansionInMainFile())
                  .bind("atomic")),
      S.context());
  ASSERT_FALSE(Atomics.empty());
  const auto *Atomic = Atomics[0].getNodeAs<clang::CXXMemberCallExpr>("atomic");
  EXPECT_TRUE(dsl::isBufferType(Atomic->getImplicitObjectArgument()->getType()))
      << Atomic->getImplicitObjectArgument()->getType().getAsString();
}

// Library code, whose bodies no analysis enters (and a shared header parse
// may skip): LuisaCompute's (all of namespace luisa), the standard
// library's and system headers'; a user's helpers, also in other
// namespaces, are not.
TEST(DslNames, LibraryFunctions) {
  Snippet S(R"(
    probe(&sync_block);
    probe(&luisa::helper_in_luisa);
    probe(&std::abs<int>);
    probe(&user::helper);
    probe(&global_helper);
  )",
            "namespace luisa { inline int helper_in_luisa() { return 1; } }\n"
            "namespace user { inline int helper() { return 2; } }\n"
            "inline int global_helper() { return 3; }\n"
            "namespace std { template <class T> T abs(T x) { return x; } }\n");
  ASSERT_TRUE(S.parsed());
  const auto &SM = S.context().getSourceManager();
  // The function whose address the probe takes.
  auto Function = [&](unsigned I) -> const clang::FunctionDecl * {
    const auto *AddressOf = dyn_cast<clang::UnaryOperator>(S.probe(I)->IgnoreParenImpCasts());
    const auto *Ref = AddressOf ? dyn_cast<clang::DeclRefExpr>(AddressOf->getSubExpr()) : nullptr;
    return Ref ? dyn_cast<clang::FunctionDecl>(Ref->getDecl()) : nullptr;
  };
  for (unsigned I = 0; I < 5; ++I)
    ASSERT_NE(nullptr, Function(I)) << I;
  EXPECT_TRUE(dsl::isLibraryFunction(Function(0), SM)); // The model, a system header.
  EXPECT_TRUE(dsl::isLibraryFunction(Function(1), SM));
  EXPECT_TRUE(dsl::isLibraryFunction(Function(2), SM));
  EXPECT_FALSE(dsl::isLibraryFunction(Function(3), SM));
  EXPECT_FALSE(dsl::isLibraryFunction(Function(4), SM));
}

TEST(DslNames, StatementSugarMacros) {
  for (const char *Name : {"$if", "$elif", "$else", "$for", "$while", "$loop", "$switch"})
    EXPECT_TRUE(dsl::isStatementSugarMacro(Name)) << Name;
  for (const char *Name : {"$uint", "$shared", "$break", "IF"})
    EXPECT_FALSE(dsl::isStatementSugarMacro(Name)) << Name;
}

TEST(DslStatements, AccumulateSteps) {
  Snippet Steps(R"(
    Float a, b;
    a = a + b;
    a = max(b, a);
    a *= b;
    a = b + b;
    probe(0u);
  )");
  ASSERT_TRUE(Steps.parsed());
  auto Statements = dsl::blockStatements(
      dyn_cast<CompoundStmt>(dsl::parentStmt(Steps.probeStatement(0), Steps.context())));
  ASSERT_GE(Statements.size(), 6u);
  auto Sum = dsl::matchAccumulateStep(Statements[1]);
  ASSERT_TRUE(Sum);
  EXPECT_EQ(dsl::CombineOp::Sum, Sum->Op);
  auto Max = dsl::matchAccumulateStep(Statements[2]);
  ASSERT_TRUE(Max);
  EXPECT_EQ(dsl::CombineOp::Max, Max->Op);
  auto Product = dsl::matchAccumulateStep(Statements[3]);
  ASSERT_TRUE(Product);
  EXPECT_EQ(dsl::CombineOp::Product, Product->Op);
  EXPECT_FALSE(dsl::matchAccumulateStep(Statements[4]));
}

} // namespace
} // namespace kernel_tidy::test
