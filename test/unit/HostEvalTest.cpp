//===--- HostEvalTest.cpp - Constant evaluation of host code --------------===//

#include "src/dsl/HostEval.h"
#include "test/unit/DslSnippet.h"
#include <gtest/gtest.h>

namespace kernel_tidy::test {
namespace {

const Stmt *firstHostLoop(Snippet &S) {
  auto Loops = match(
      findAll(stmt(anyOf(forStmt(), cxxForRangeStmt()), isExpansionInMainFile()).bind("loop")),
      S.context());
  return Loops.empty() ? nullptr : Loops[0].getNodeAs<Stmt>("loop");
}

std::optional<std::vector<int64_t>> loopValues(const std::string &Body) {
  Snippet S(Body);
  EXPECT_TRUE(S.parsed()) << Body;
  auto Loop = dsl::evaluateHostLoop(firstHostLoop(S), S.context());
  if (!Loop)
    return std::nullopt;
  return Loop->Values;
}

TEST(HostEval, CountingLoops) {
  EXPECT_EQ((std::vector<int64_t>{16, 8, 4, 2, 1}),
            loopValues("    for (uint d = 16u; d > 0u; d >>= 1u) { probe(d); }"));
  EXPECT_EQ((std::vector<int64_t>{1, 2, 4, 8, 16}),
            loopValues("    for (auto d = 1u; d < 32u; d *= 2u) { probe(d); }"));
  EXPECT_EQ((std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7}),
            loopValues("    constexpr uint kLanes = 4u;\n"
                       "    for (uint i = 0; i < kLanes * 2u; i++) { probe(i); }"));
  EXPECT_EQ((std::vector<int64_t>{3, 2, 1}),
            loopValues("    for (int i = 3; i != 0; --i) { probe(i); }"));
  EXPECT_FALSE(loopValues("    uint limit = static_cast<uint>(device.compute_warp_size());\n"
                          "    for (uint i = 0; i < limit; i++) { probe(i); }"));
  // A body that writes the variable is not a counting loop.
  EXPECT_FALSE(loopValues("    for (uint i = 0; i < 8u; i++) { i += 1u; probe(i); }"));
}

TEST(HostEval, RangeLoopsOverListsAndConstantArrays) {
  EXPECT_EQ((std::vector<int64_t>{16, 8, 4, 2, 1}),
            loopValues("    for (auto d : {16u, 8u, 4u, 2u, 1u}) { probe(d); }"));
  EXPECT_EQ((std::vector<int64_t>{1, 2, 4}),
            loopValues("    constexpr uint kDistances[] = {1u, 2u, 4u};\n"
                       "    for (auto d : kDistances) { probe(d); }"));
  EXPECT_EQ((std::vector<int64_t>{8, 4}),
            loopValues("    for (const auto &d : {8u, 4u}) { probe(d); }"));
  // A mutable array may change before the loop runs.
  EXPECT_FALSE(loopValues("    uint distances[] = {1u, 2u};\n"
                          "    for (auto d : distances) { probe(d); }"));
  // A device loop is not a host loop.
  EXPECT_FALSE(loopValues("    for (auto i : dynamic_range(n)) { probe(i); }"));
}

TEST(HostEval, ArithmeticIsCheckedAsCxx) {
  Snippet S(R"(
    probe(0u - 1u);
    probe(2147483647 + 1);
    probe(1 << 40);
    probe(9223372036854775807ll * 2);
    probe(-(-9223372036854775807ll - 1));
    probe(7 / 0);
    probe(static_cast<unsigned char>(300));
    probe(1u << 4u);
    probe(true ? 3 : 4);
    probe(4294967296ull);
  )");
  ASSERT_TRUE(S.parsed());
  const ASTContext &Ctx = S.context();
  EXPECT_EQ(4294967295, dsl::evaluateHostInt(S.probe(0), Ctx)); // Unsigned wrap.
  EXPECT_FALSE(dsl::evaluateHostInt(S.probe(1), Ctx));          // Signed overflow.
  EXPECT_FALSE(dsl::evaluateHostInt(S.probe(2), Ctx));
  EXPECT_FALSE(dsl::evaluateHostInt(S.probe(3), Ctx));
  EXPECT_FALSE(dsl::evaluateHostInt(S.probe(4), Ctx));
  EXPECT_FALSE(dsl::evaluateHostInt(S.probe(5), Ctx));
  EXPECT_EQ(44, dsl::evaluateHostInt(S.probe(6), Ctx));
  EXPECT_EQ(16, dsl::evaluateHostInt(S.probe(7), Ctx));
  EXPECT_EQ(3, dsl::evaluateHostInt(S.probe(8), Ctx));
  EXPECT_EQ(4294967296, dsl::evaluateHostInt(S.probe(9), Ctx));
}

TEST(HostEval, DistancesEvaluateWithLoopBindings) {
  Snippet S("    for (uint k = 0u; k < 5u; k++) { probe(1u << k); }");
  ASSERT_TRUE(S.parsed());
  auto Loop = dsl::evaluateHostLoop(firstHostLoop(S), S.context());
  ASSERT_TRUE(Loop);
  EXPECT_EQ(8, dsl::evaluateHostInt(S.probe(0), S.context(), {{Loop->Var, 3}}));
  EXPECT_FALSE(dsl::evaluateHostInt(S.probe(0), S.context()));
}

TEST(HostEval, DeviceValuesAreNotHostConstants) {
  Snippet S("    UInt x = 3u;\n    probe(x);\n    probe(warp_lane_count());");
  ASSERT_TRUE(S.parsed());
  EXPECT_FALSE(dsl::evaluateHostInt(S.probe(0), S.context()));
  EXPECT_FALSE(dsl::evaluateHostInt(S.probe(1), S.context()));
}

} // namespace
} // namespace kernel_tidy::test

namespace kernel_tidy::test {
namespace {

TEST(HostEval, ConstantLocals) {
  Snippet S("    auto block_size = 1024;\n    uint half = block_size / 2u;\n"
            "    uint later = 8u;\n    later += 1u;\n"
            "    uint runtime = static_cast<uint>(device.compute_warp_size());\n"
            "    probe(half / 2u);\n    probe(later * 2u);\n    probe(runtime + 1u);");
  ASSERT_TRUE(S.parsed());
  dsl::WriteAnalysis Writes(S.context());
  auto Value = [&](unsigned I) {
    const Expr *E = S.probe(I);
    return dsl::evaluateHostInt(E, S.context(), dsl::constantLocals(E, S.context(), Writes));
  };
  EXPECT_EQ(std::optional<int64_t>(256), Value(0)); // through two locals
  EXPECT_FALSE(Value(1));                           // written after its declaration
  EXPECT_FALSE(Value(2));                           // known only at run time
  EXPECT_FALSE(dsl::evaluateHostInt(S.probe(0), S.context()));
}

} // namespace
} // namespace kernel_tidy::test
