//===--- UniformityTest.cpp - Uniformity, divergence, lane ids ------------===//

#include "src/dsl/Analyses.h"
#include "test/unit/DslSnippet.h"
#include <gtest/gtest.h>

namespace kernel_tidy::test {
namespace {

using dsl::Variance;

/// The analyses of one snippet.
struct Analysed {
  explicit Analysed(const std::string &Body, const std::string &Prelude = "")
      : S(Body, Prelude) {
    EXPECT_TRUE(S.parsed()) << Body;
    A = std::make_unique<dsl::Analyses>(S.context(), dsl::DefaultWarpWidth);
  }
  Variance of(unsigned Probe) { return A->Uniformity.varianceOf(S.probe(Probe)); }
  Variance controlOf(unsigned Probe) {
    return A->Uniformity.controlOf(S.probeStatement(Probe));
  }
  Snippet S;
  std::unique_ptr<dsl::Analyses> A;
};

TEST(Uniformity, Sources) {
  Analysed U(R"(
    constexpr uint kSlot = 3u;
    auto block = block_id().x * 2u;
    auto mine = thread_x();
    Shared<uint> s{64};
    probe(kSlot);
    probe(n);
    probe(buffer.read(n));
    probe(block_id().x);
    probe(block);
    probe(s[0u]);
    probe(warp_active_sum(mine));
    probe(warp_read_first_active_lane(mine));
    probe(thread_x());
    probe(mine + 1u);
    probe(dispatch_id().x);
    probe(buffer.read(mine));
    probe(s.atomic(0u).fetch_add(1u));
    probe(warp_lane_id());
    probe(warp_read_lane(mine, 3u));
    probe(warp_read_lane(mine, warp_lane_id()));
  )");
  EXPECT_EQ(Variance::Grid, U.of(0));
  EXPECT_EQ(Variance::Grid, U.of(1));
  EXPECT_EQ(Variance::Grid, U.of(2));
  EXPECT_EQ(Variance::Block, U.of(3));
  EXPECT_EQ(Variance::Block, U.of(4));
  EXPECT_EQ(Variance::Block, U.of(5));
  EXPECT_EQ(Variance::Warp, U.of(6));
  EXPECT_EQ(Variance::Warp, U.of(7));
  for (unsigned I = 8; I <= 13; ++I)
    EXPECT_EQ(Variance::Thread, U.of(I)) << I;
  EXPECT_EQ(Variance::Warp, U.of(14));
  EXPECT_EQ(Variance::Thread, U.of(15));
}

TEST(Uniformity, VariablesJoinEveryStoreAndItsControl) {
  Analysed U(R"(
    UInt a = n;
    a = a + 1u;
    UInt b = n;
    $if (thread_x() < 4u) { b = 1u; };
    UInt c = n;
    $if (block_id().x == 0u) { c = 2u; };
    UInt d = 0u;
    d = thread_x();
    UInt e;
    $if (thread_x() < 4u) { UInt local = 1u; local = 2u; probe(local); };
    probe(a); probe(b); probe(c); probe(d); probe(e);
  )");
  EXPECT_EQ(Variance::Grid, U.of(0)); // Declared and written under the same control.
  EXPECT_EQ(Variance::Grid, U.of(1));
  EXPECT_EQ(Variance::Thread, U.of(2));
  EXPECT_EQ(Variance::Block, U.of(3));
  EXPECT_EQ(Variance::Thread, U.of(4));
  EXPECT_EQ(Variance::Grid, U.of(5)); // Zero-initialised.
}

TEST(Uniformity, LibraryCallsDoNotWriteTheirArguments) {
  // Shared::atomic is declared in luisa::compute::detail and takes I &&.
  Analysed U("    Shared<uint> bins{8u};\n    bins.atomic(n).fetch_or(1u);\n    probe(n);");
  EXPECT_EQ(Variance::Grid, U.of(0));
}

TEST(Uniformity, CallableAndHelperParametersVary) {
  Analysed U("    probe(n);",
             "Callable<uint(uint)> helper = [](UInt slot) noexcept { probe(slot); return slot; };\n"
             "void emit(Expr<uint> v) { probe(v); }");
  EXPECT_EQ(Variance::Thread, U.of(0));
  EXPECT_EQ(Variance::Thread, U.of(1));
  EXPECT_EQ(Variance::Grid, U.of(2));
}

TEST(Uniformity, Divergence) {
  Analysed U(R"(
    probe(0u);
    $if (n > 2u) { probe(1u); };
    $if (thread_x() < 16u) { probe(2u); } $else { probe(3u); };
    $if (n > 2u) { probe(4u); } $elif (thread_x() == 1u) { probe(5u); };
    $while (block_id().x < n) { probe(6u); };
    $for (i, thread_x()) { probe(7u); };
    $loop { $if (thread_x() == 3u) { $break; }; probe(8u); };
    $if (thread_x() == 7u) { $return(); };
    probe(9u);
  )");
  EXPECT_EQ(Variance::Grid, U.controlOf(0));
  EXPECT_EQ(Variance::Grid, U.controlOf(1));
  EXPECT_EQ(Variance::Thread, U.controlOf(2));
  EXPECT_EQ(Variance::Thread, U.controlOf(3)); // $else: decided by the $if.
  EXPECT_EQ(Variance::Grid, U.controlOf(4));
  EXPECT_EQ(Variance::Thread, U.controlOf(5));
  EXPECT_EQ(Variance::Block, U.controlOf(6));
  EXPECT_FALSE(U.A->Uniformity.isDivergent(U.S.probeStatement(6)));
  EXPECT_EQ(Variance::Thread, U.controlOf(7)); // Trip count.
  EXPECT_EQ(Variance::Thread, U.controlOf(8)); // A divergent $break.
  EXPECT_EQ(Variance::Thread, U.controlOf(9)); // After a divergent $return.
  EXPECT_NE(nullptr, U.A->Uniformity.divergentCause(U.S.probeStatement(2), Variance::Block));
  EXPECT_EQ(nullptr, U.A->Uniformity.divergentCause(U.S.probeStatement(1), Variance::Block));
}

TEST(Uniformity, UniformEarlyReturnDoesNotDiverge) {
  Analysed U(R"(
    $if (n == 0u) { $return(); };
    probe(0u);
  )");
  EXPECT_EQ(Variance::Grid, U.controlOf(0));
}

TEST(Uniformity, LaneIds) {
  Analysed U(R"(
    auto lane = warp_lane_id();
    UInt typed = warp_lane_id();
    UInt reassigned = warp_lane_id();
    reassigned = 3u;
    auto group = warp_lane_id() % 8u;
    probe(warp_lane_id());
    probe(lane);
    probe(typed);
    probe(reassigned);
    probe(group);
    probe(thread_x());
  )");
  dsl::UniformityAnalysis &Uni = U.A->Uniformity;
  EXPECT_TRUE(Uni.isLaneId(U.S.probe(0)));
  EXPECT_TRUE(Uni.isLaneId(U.S.probe(1)));
  EXPECT_TRUE(Uni.isLaneId(U.S.probe(2)));
  EXPECT_FALSE(Uni.isLaneId(U.S.probe(3)));
  EXPECT_FALSE(Uni.isLaneId(U.S.probe(4)));
  EXPECT_FALSE(Uni.isLaneId(U.S.probe(5)));
}

TEST(Uniformity, OneLanePerWarp) {
  Analysed U(R"(
    auto lane_idx = warp_lane_id();
    auto last = warp_active_count_bits(true) - 1u;
    $if (lane_idx == 0u) { probe(0u); };
    $if (lane_idx == last) { probe(1u); };
    $if (warp_is_first_active_lane()) { probe(2u); };
    $if (n > 0u & lane_idx == n) { probe(3u); };
    $if (lane_idx == thread_x()) { probe(4u); };
    $if (lane_idx < 1u) { probe(5u); };
    $if (thread_x() == 0u) { probe(6u); };
  )");
  dsl::UniformityAnalysis &Uni = U.A->Uniformity;
  for (unsigned I = 0; I < 4; ++I)
    EXPECT_TRUE(Uni.runsOnOneLanePerWarp(U.S.probeStatement(I))) << I;
  for (unsigned I = 4; I < 7; ++I)
    EXPECT_FALSE(Uni.runsOnOneLanePerWarp(U.S.probeStatement(I))) << I;
}

} // namespace
} // namespace kernel_tidy::test
