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
  )");
  ASSERT_TRUE(S.parsed());
  dsl::Analyses A(S.context());
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
}

} // namespace
} // namespace kernel_tidy::test
