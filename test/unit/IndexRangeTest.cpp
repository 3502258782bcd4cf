//===--- IndexRangeTest.cpp - Ranges of indices over a block --------------===//

#include "src/dsl/Analyses.h"
#include "test/unit/DslSnippet.h"
#include <gtest/gtest.h>

namespace kernel_tidy::test {
namespace {

TEST(IndexRange, IntervalsOverTheBlock) {
  Snippet S(R"(
    set_block_size(128u, 1u, 1u);
    auto tid = thread_x();
    UInt moved = tid;
    moved = 3u;
    Shared<float> s{64};
    probe(tid);
    probe(tid * 2u + 1u);
    probe((tid + 5u) % 16u);
    probe(tid / 32u);
    probe(tid >> 2u);
    probe(tid & 7u);
    probe(tid ^ 1u);
    probe(127u - tid);
    probe(warp_lane_id());
    probe(dispatch_x());
    probe(moved);
    probe(n + tid);
    $for (i, 2u, 6u) { probe(i * 128u + tid); };
    probe(s);
    probe(block_size_x() - 1u - tid);
  )");
  ASSERT_TRUE(S.parsed());
  dsl::Analyses A(S.context(), dsl::DefaultWarpWidth);
  auto Range = [&](unsigned I) { return A.Ranges.rangeOf(S.probe(I)); };
  auto Expect = [&](unsigned I, int64_t Min, int64_t Max) {
    auto R = Range(I);
    ASSERT_TRUE(R) << I;
    EXPECT_EQ(Min, R->Min) << I;
    EXPECT_EQ(Max, R->Max) << I;
  };
  Expect(0, 0, 127);
  Expect(1, 1, 255);
  Expect(2, 0, 15);
  Expect(3, 0, 3);
  Expect(4, 0, 31);
  Expect(5, 0, 7);
  Expect(6, 0, 127);
  Expect(7, 0, 127);
  Expect(8, 0, 31); // The WarpSize default.
  EXPECT_FALSE(Range(9));
  EXPECT_FALSE(Range(10));
  EXPECT_FALSE(Range(11));
  Expect(12, 256, 767);
  EXPECT_EQ(64, A.Ranges.sharedSize(S.probe(13)));
  Expect(14, 0, 127); // block_size_x() is block_size().x.
}

TEST(IndexRange, LaneIdsSpanTheWarpSizeOptionOrTheKernelsOwnWidth) {
  auto LaneRange = [](const std::string &Body, std::optional<unsigned> WarpSize) {
    Snippet S(Body + "\n    probe(warp_lane_id());");
    EXPECT_TRUE(S.parsed()) << Body;
    dsl::Analyses A(S.context(), WarpSize);
    return A.Ranges.rangeOf(S.probe(0));
  };
  auto Max = [&](const std::string &Body, std::optional<unsigned> WarpSize) -> int64_t {
    auto R = LaneRange(Body, WarpSize);
    EXPECT_TRUE(R) << Body;
    EXPECT_EQ(0, R ? R->Min : -1) << Body;
    return R ? R->Max : -1;
  };
  const std::string Block = "    set_block_size(256u, 1u, 1u);";
  EXPECT_EQ(31, Max(Block, 32u));
  EXPECT_EQ(63, Max(Block, 64u));
  EXPECT_EQ(7, Max(Block, 8u));
  EXPECT_EQ(31, Max(Block + "\n    set_warp_size(32u);", 64u));
  EXPECT_EQ(127, Max(Block + "\n    set_warp_size(128u);", 32u));
  // A block smaller than the warp fills only its first lanes.
  EXPECT_EQ(31, Max("    set_block_size(32u, 1u, 1u);", 64u));
  EXPECT_EQ(15, Max("    set_block_size(4u, 2u, 2u);", 64u));
  // No width: the option is not one and the kernel sets none.
  EXPECT_FALSE(LaneRange(Block, std::nullopt));
  EXPECT_FALSE(LaneRange(Block + "\n    set_warp_size(48u);", 32u));
}

} // namespace
} // namespace kernel_tidy::test
