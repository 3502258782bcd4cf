//===--- LaneShiftsTest.cpp - Warp loops over shifting lane offsets -------===//

#include "src/dsl/LaneShifts.h"
#include "test/unit/DslSnippet.h"
#include <gtest/gtest.h>

namespace kernel_tidy::test {
namespace {

/// The lane-shift loop of the first warp_read_lane in \p Body.
std::optional<dsl::LaneShiftLoop> shiftLoop(Snippet &S) {
  auto Reads = match(findAll(callExpr(callee(functionDecl(hasName("warp_read_lane"))),
                                      isExpansionInMainFile())
                                 .bind("read")),
                     S.context());
  if (Reads.empty())
    return std::nullopt;
  dsl::WriteAnalysis Writes(S.context());
  return dsl::matchLaneShiftLoop(Reads[0].getNodeAs<CallExpr>("read"), S.context(), Writes);
}

std::optional<dsl::LaneShiftLoop> shiftLoop(const std::string &Body,
                                            const std::string &Prelude = "") {
  Snippet S(Body, Prelude);
  EXPECT_TRUE(S.parsed()) << Body;
  return shiftLoop(S);
}

const char *const DeviceDown =
    "    auto lane = warp_lane_id();\n"
    "    UInt v = buffer.read(0u);\n"
    "    UInt offset = 1u;\n"
    "    $while (offset < warp_lane_count()) {\n"
    "        UInt t = warp_read_lane(v, lane + offset);\n"
    "        $if (lane + offset < warp_lane_count()) { v = max(v, t); };\n"
    "        offset <<= 1u;\n"
    "    };\n";

TEST(LaneShifts, DeviceShuffleDownLoop) {
  auto Found = shiftLoop(DeviceDown);
  ASSERT_TRUE(Found);
  EXPECT_TRUE(Found->Loop.Device);
  EXPECT_TRUE(Found->Loop.UpToLaneCount);
  EXPECT_EQ(dsl::LaneShift::Down, Found->Step.Index.Shift);
  EXPECT_EQ(dsl::CombineOp::Max, Found->Step.Op);
  ASSERT_TRUE(Found->Step.Guard);
  auto Bound = dsl::matchDownBound(Found->Step.Guard, Found->Step.Index);
  ASSERT_TRUE(Bound);
  EXPECT_TRUE(Bound->WholeWarp);
}

TEST(LaneShifts, DeviceLoopDoublings) {
  for (const char *Update : {"offset *= 2u;", "offset = offset * 2u;", "offset = 2u * offset;",
                             "offset = offset << 1u;", "offset += offset;"}) {
    std::string Body = DeviceDown;
    Body.replace(Body.find("offset <<= 1u;"), 14, Update);
    EXPECT_TRUE(shiftLoop(Body)) << Update;
  }
  // Not doubling, an extra write, an exit, or a start other than 1.
  for (const char *Update : {"offset += 1u;", "offset *= 3u;"}) {
    std::string Body = DeviceDown;
    Body.replace(Body.find("offset <<= 1u;"), 14, Update);
    EXPECT_FALSE(shiftLoop(Body)) << Update;
  }
  std::string Twice = DeviceDown;
  Twice.replace(Twice.find("$while"), 0, "offset = 2u;\n    ");
  EXPECT_FALSE(shiftLoop(Twice));
  std::string Start = DeviceDown;
  Start.replace(Start.find("UInt offset = 1u;"), 17, "UInt offset = 2u;");
  EXPECT_FALSE(shiftLoop(Start));
}

TEST(LaneShifts, DeviceLoopWithConstantBound) {
  std::string Body = DeviceDown;
  Body.replace(Body.find("offset < warp_lane_count()"), 26, "offset < 16u");
  auto Found = shiftLoop(Body);
  ASSERT_TRUE(Found);
  EXPECT_FALSE(Found->Loop.UpToLaneCount);
  EXPECT_EQ((std::vector<int64_t>{1, 2, 4, 8}), Found->Loop.Values);
  EXPECT_EQ(16u, dsl::coveredLanes(Found->Loop.Values));
}

TEST(LaneShifts, HostScanLoop) {
  auto Found = shiftLoop("    auto lane = warp_lane_id();\n"
                         "    Int v = 1;\n"
                         "    for (uint o = 1u; o < 32u; o <<= 1u) {\n"
                         "        Int t = warp_read_lane(v, lane - o);\n"
                         "        $if (lane >= o) { v = v + t; };\n"
                         "    }\n");
  ASSERT_TRUE(Found);
  EXPECT_FALSE(Found->Loop.Device);
  EXPECT_EQ(dsl::LaneShift::Up, Found->Step.Index.Shift);
  EXPECT_EQ(32u, dsl::coveredLanes(Found->Loop.Values));
  EXPECT_TRUE(dsl::isScanGuard(Found->Step.Guard, Found->Step.Index));
}

TEST(LaneShifts, DirectReadInsideTheGuard) {
  auto Found = shiftLoop("    auto lane = warp_lane_id();\n"
                         "    UInt v = 1u;\n"
                         "    for (uint o = 16u; o > 0u; o >>= 1u) {\n"
                         "        $if (lane + o <= n) { v += warp_read_lane(v, lane + o); };\n"
                         "    }\n");
  ASSERT_TRUE(Found);
  auto Bound = dsl::matchDownBound(Found->Step.Guard, Found->Step.Index);
  ASSERT_TRUE(Bound);
  EXPECT_FALSE(Bound->WholeWarp);
  EXPECT_FALSE(Bound->Strict);
}

TEST(LaneShifts, OtherStatementsInTheBodyAreNotASteps) {
  EXPECT_FALSE(shiftLoop("    auto lane = warp_lane_id();\n"
                         "    UInt v = 1u;\n"
                         "    UInt w = 1u;\n"
                         "    for (uint o = 1u; o < 32u; o <<= 1u) {\n"
                         "        UInt t = warp_read_lane(v, lane + o);\n"
                         "        w += t;\n"
                         "        v += t;\n"
                         "    }\n"));
  // The value read is not the value accumulated.
  EXPECT_FALSE(shiftLoop("    auto lane = warp_lane_id();\n"
                         "    UInt v = 1u;\n"
                         "    UInt w = 1u;\n"
                         "    for (uint o = 1u; o < 32u; o <<= 1u) {\n"
                         "        v += warp_read_lane(w, lane + o);\n"
                         "    }\n"));
}

TEST(LaneShifts, CombinationThroughHelpers) {
  const char *Prelude =
      "template<typename T> Var<T> reduce_op(Var<T> a, Var<T> b) noexcept { return max(b, a); }\n"
      "inline UInt twice(UInt a, UInt b) noexcept { return a + a; }\n";
  Snippet S("    Callable bit_or = [](UInt a, UInt b) noexcept { return a | b; };\n"
            "    auto plus = [](auto a, auto b) noexcept { return a + b; };\n"
            "    UInt x = 1u;\n"
            "    UInt y = 2u;\n"
            "    probe(reduce_op(x, y));\n"
            "    probe(bit_or(x, y));\n"
            "    probe(plus(x, y));\n"
            "    probe(twice(x, y));\n",
            Prelude);
  ASSERT_TRUE(S.parsed());
  auto Max = dsl::matchCombinationThroughHelpers(S.probe(0), S.context());
  ASSERT_TRUE(Max);
  EXPECT_EQ(dsl::CombineOp::Max, Max->Op);
  auto Or = dsl::matchCombinationThroughHelpers(S.probe(1), S.context());
  ASSERT_TRUE(Or);
  EXPECT_EQ(dsl::CombineOp::BitOr, Or->Op);
  auto Plus = dsl::matchCombinationThroughHelpers(S.probe(2), S.context());
  ASSERT_TRUE(Plus);
  EXPECT_EQ(dsl::CombineOp::Sum, Plus->Op);
  // `a + a` does not combine both arguments.
  EXPECT_FALSE(dsl::matchCombinationThroughHelpers(S.probe(3), S.context()));
}

TEST(LaneShifts, CoveredLanes) {
  EXPECT_EQ(32u, dsl::coveredLanes({16, 8, 4, 2, 1}));
  EXPECT_EQ(32u, dsl::coveredLanes({1, 2, 4, 8, 16}));
  EXPECT_FALSE(dsl::coveredLanes({1, 2, 8, 16}));
  EXPECT_FALSE(dsl::coveredLanes({1, 1, 2}));
  EXPECT_FALSE(dsl::coveredLanes({}));
}

TEST(LaneShifts, CallSitesOfHelpers) {
  Snippet S("    auto lane = warp_lane_id();\n"
            "    Callable reduce = [](UInt v, UInt l) noexcept { return v + l; };\n"
            "    UInt a = shuffle(1u, lane);\n"
            "    UInt b = shuffle(2u, lane % 8u);\n"
            "    UInt c = reduce(a, lane);\n"
            "    probe(a + b + c);\n",
            "inline UInt shuffle(UInt v, UInt l) noexcept { return v + l; }\n");
  ASSERT_TRUE(S.parsed());
  auto Params = match(findAll(parmVarDecl(hasName("l")).bind("p")), S.context());
  dsl::CallSiteIndex Index(S.context());
  std::map<std::string, size_t> ArgCounts;
  for (const auto &Node : Params) {
    const auto *P = Node.getNodeAs<ParmVarDecl>("p");
    auto Args = Index.argumentsFor(P);
    ASSERT_TRUE(Args);
    ArgCounts[Index.calleeName(P)] = Args->size();
  }
  EXPECT_EQ(2u, ArgCounts["shuffle"]);
  EXPECT_EQ(1u, ArgCounts["reduce"]);
}

} // namespace
} // namespace kernel_tidy::test
