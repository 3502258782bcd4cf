// The SIMT executor's semantics, one point per test, on kernels recorded by LuisaCompute's
// real DSL (no Device: recording needs none).
#include <simt/Simt.h>

#include <luisa/dsl/sugar.h>
#include <luisa/dsl/syntax.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <numeric>
#include <set>

using namespace luisa;
using namespace luisa::compute;
using HostBuffer = kernel_tidy::simt::Buffer;
using kernel_tidy::simt::EventKind;
using kernel_tidy::simt::LaunchOptions;
using kernel_tidy::simt::RunResult;
using kernel_tidy::simt::Uniform;

namespace {

constexpr uint32_t Untouched = 0xdeadbeefu;

template <typename K> Function functionOf(const K &Kernel) { return Kernel.function()->function(); }

LaunchOptions launch(uint32_t Threads, uint32_t WarpSize = 32, uint64_t Seed = 1) {
  LaunchOptions O;
  O.DispatchSize[0] = Threads;
  O.WarpSize = WarpSize;
  O.Seed = Seed;
  return O;
}

HostBuffer filled(uint32_t Count, uint32_t Value = Untouched) { return HostBuffer::of(std::vector<uint32_t>(Count, Value)); }

template <typename K> RunResult runOn(const K &Kernel, HostBuffer &Out, const LaunchOptions &Options) {
  std::vector<kernel_tidy::simt::Argument> Args{&Out};
  return kernel_tidy::simt::run(functionOf(Kernel), Args, Options);
}

TEST(Simt, PartialTailWarpHasOnlyTheThreadsInsideTheDispatch) {
  Kernel1D Count = [](BufferUInt Out) {
    set_block_size(64u);
    Out.write(dispatch_x(), warp_active_count_bits(true));
  };
  HostBuffer Out = filled(64);
  RunResult R = runOn(Count, Out, launch(45));
  auto V = Out.read<uint32_t>();
  for (uint32_t I = 0; I < 32; ++I) EXPECT_EQ(V[I], 32u) << I;
  for (uint32_t I = 32; I < 45; ++I) EXPECT_EQ(V[I], 13u) << I;
  for (uint32_t I = 45; I < 64; ++I) EXPECT_EQ(V[I], Untouched) << "thread " << I << " ran";
  EXPECT_TRUE(R.Events.empty());
}

TEST(Simt, IfElifElseNarrowsTheActiveMask) {
  Kernel1D Branches = [](BufferUInt Out) {
    set_block_size(32u);
    UInt Lane = warp_lane_id();
    $if (Lane % 3u == 0u) {
      Out.write(Lane, warp_active_count_bits(true));
    } $elif (Lane % 3u == 1u) {
      Out.write(Lane, 100u + warp_active_count_bits(true));
    } $else {
      Out.write(Lane, 200u + warp_active_count_bits(true));
    };
    // Reconverged: the whole warp again.
    Out.write(32u + Lane, warp_active_count_bits(true));
  };
  HostBuffer Out = filled(64);
  runOn(Branches, Out, launch(32));
  auto V = Out.read<uint32_t>();
  for (uint32_t L = 0; L < 32; ++L) {
    EXPECT_EQ(V[L], L % 3 == 0 ? 11u : L % 3 == 1 ? 111u : 210u) << L;
    EXPECT_EQ(V[32 + L], 32u) << L;
  }
}

TEST(Simt, LoopBreakLeavesTheLanesOutOfLaterIterations) {
  Kernel1D Loop = [](BufferUInt Out) {
    set_block_size(32u);
    UInt Lane = warp_lane_id();
    UInt K = 0u;
    UInt Last = 0u;
    $loop {
      $if (K == Lane % 5u) { $break; };
      Last = warp_active_count_bits(true);
      K += 1u;
    };
    Out.write(Lane, Last);
  };
  HostBuffer Out = filled(32);
  runOn(Loop, Out, launch(32));
  auto V = Out.read<uint32_t>();
  for (uint32_t L = 0; L < 32; ++L) {
    // Lane L breaks at K = L % 5; its last count is of the lanes still in iteration K - 1.
    uint32_t R = L % 5, Expected = 0;
    if (R > 0)
      for (uint32_t M = 0; M < 32; ++M) Expected += M % 5 >= R;
    EXPECT_EQ(V[L], Expected) << L;
  }
}

TEST(Simt, ForContinueSkipsTheRestOfTheIterationOnly) {
  Kernel1D Loop = [](BufferUInt Out) {
    set_block_size(32u);
    UInt Lane = warp_lane_id();
    UInt Sum = 0u;
    UInt Seen = 0u;
    $for (I, 0u, 8u) {
      $if (I % 2u == 1u) { $continue; };
      $if (I > Lane) { $break; };
      Sum += I;
      Seen += warp_active_count_bits(true);
    };
    Out.write(Lane, Sum);
    Out.write(32u + Lane, Seen);
  };
  HostBuffer Out = filled(64);
  runOn(Loop, Out, launch(32));
  auto V = Out.read<uint32_t>();
  for (uint32_t L = 0; L < 32; ++L) {
    uint32_t Sum = 0, Seen = 0;
    for (uint32_t I = 0; I < 8; I += 2) {
      if (I > L) break;
      Sum += I;
      for (uint32_t M = 0; M < 32; ++M) Seen += I <= M;
    }
    EXPECT_EQ(V[L], Sum) << L;
    EXPECT_EQ(V[32 + L], Seen) << L;
  }
}

TEST(Simt, ReturnEndsTheThreadForTheRestOfTheKernel) {
  Kernel1D Early = [](BufferUInt Out) {
    set_block_size(32u);
    UInt Lane = warp_lane_id();
    $if (Lane % 2u == 1u) { $return(); };
    Out.write(Lane, warp_active_count_bits(true));
  };
  HostBuffer Out = filled(32);
  runOn(Early, Out, launch(32));
  auto V = Out.read<uint32_t>();
  for (uint32_t L = 0; L < 32; ++L) EXPECT_EQ(V[L], L % 2 ? Untouched : 16u) << L;
}

TEST(Simt, SwitchRunsEachCaseWithItsLanesAndDoesNotFallThrough) {
  Kernel1D Switch = [](BufferUInt Out) {
    set_block_size(32u);
    UInt Lane = warp_lane_id();
    UInt R = 0u;
    $switch (Lane % 4u) {
      $case (0u) { R = warp_active_count_bits(true); };
      $case (1u) { R = 100u + warp_active_count_bits(true); };
      $default { R = 200u + warp_active_count_bits(true); };
    };
    Out.write(Lane, R);
  };
  HostBuffer Out = filled(32);
  runOn(Switch, Out, launch(32));
  auto V = Out.read<uint32_t>();
  for (uint32_t L = 0; L < 32; ++L) EXPECT_EQ(V[L], L % 4 == 0 ? 8u : L % 4 == 1 ? 108u : 216u) << L;
}

TEST(Simt, WarpReductionsCoverTheActiveLanesOnly) {
  Kernel1D Reduce = [](BufferUInt Out) {
    set_block_size(32u);
    UInt Lane = warp_lane_id();
    $if (Lane >= 3u & Lane < 8u) {
      Out.write(Lane * 8u + 0u, warp_active_sum(Lane));
      Out.write(Lane * 8u + 1u, warp_active_min(Lane));
      Out.write(Lane * 8u + 2u, warp_active_max(Lane));
      Out.write(Lane * 8u + 3u, warp_active_product(Lane));
      Out.write(Lane * 8u + 4u, warp_active_bit_or(1u << Lane));
      Out.write(Lane * 8u + 5u, warp_active_bit_and(Lane | 4u));
      Out.write(Lane * 8u + 6u, warp_active_bit_xor(Lane));
      Out.write(Lane * 8u + 7u, ite(warp_active_all_equal(Lane / 8u), 1u, 0u));
    };
  };
  HostBuffer Out = filled(256);
  runOn(Reduce, Out, launch(32));
  auto V = Out.read<uint32_t>();
  for (uint32_t L = 3; L < 8; ++L) {
    EXPECT_EQ(V[L * 8 + 0], 3u + 4 + 5 + 6 + 7);
    EXPECT_EQ(V[L * 8 + 1], 3u);
    EXPECT_EQ(V[L * 8 + 2], 7u);
    EXPECT_EQ(V[L * 8 + 3], 3u * 4 * 5 * 6 * 7);
    EXPECT_EQ(V[L * 8 + 4], 0xf8u);
    EXPECT_EQ(V[L * 8 + 5], 4u);
    EXPECT_EQ(V[L * 8 + 6], 3u ^ 4 ^ 5 ^ 6 ^ 7);
    EXPECT_EQ(V[L * 8 + 7], 1u);
  }
  EXPECT_EQ(V[0], Untouched);
}

TEST(Simt, FloatReductionIgnoresNaNInMinAndMax) {
  Kernel1D Reduce = [](BufferFloat In, BufferFloat Out) {
    set_block_size(32u);
    UInt Lane = warp_lane_id();
    Float X = In.read(Lane);
    Out.write(Lane, warp_active_max(X));
  };
  std::vector<float> In(32);
  for (int L = 0; L < 32; ++L) In[L] = float(L) - 10.0f;
  In[31] = std::numeric_limits<float>::quiet_NaN();
  HostBuffer InB = HostBuffer::of(In), OutB = HostBuffer::of(std::vector<float>(32, 0.0f));
  std::vector<kernel_tidy::simt::Argument> Args{&InB, &OutB};
  kernel_tidy::simt::run(functionOf(Reduce), Args, launch(32));
  for (float X : OutB.read<float>()) EXPECT_EQ(X, 20.0f);
}

TEST(Simt, PrefixSumAndProductAreExclusiveOverActiveLanes) {
  Kernel1D Scan = [](BufferUInt Out) {
    set_block_size(32u);
    UInt Lane = warp_lane_id();
    $if (Lane % 2u == 1u) {
      Out.write(Lane, warp_prefix_sum(Lane));
      Out.write(32u + Lane, warp_prefix_product(2u));
      Out.write(64u + Lane, warp_prefix_count_bits(Lane % 4u == 1u));
    };
  };
  HostBuffer Out = filled(96);
  runOn(Scan, Out, launch(32));
  auto V = Out.read<uint32_t>();
  uint32_t Sum = 0, Product = 1, Count = 0;
  for (uint32_t L = 0; L < 32; ++L) {
    if (L % 2 == 0) {
      EXPECT_EQ(V[L], Untouched);
      continue;
    }
    EXPECT_EQ(V[L], Sum) << L;
    EXPECT_EQ(V[32 + L], Product) << L;
    EXPECT_EQ(V[64 + L], Count) << L;
    Sum += L, Product *= 2, Count += L % 4 == 1;
  }
}

/// Each lane's warp_active_sum and warp_prefix_sum of `1u << lane` (a uint) under
/// `Model` in one warp of 32 whose active lanes are the bits of `Mask`: each result's bits
/// say which lanes' values that lane combined. Output: sums at [0, 32), prefixes at [32, 64).
std::vector<uint32_t> lanesCombined(uint32_t Mask, kernel_tidy::simt::Collectives Model,
                                    uint32_t Threads = 32) {
  Kernel1D Combined = [](BufferUInt Out, UInt Mask) {
    set_block_size(32u);
    UInt Lane = warp_lane_id();
    $if (((Mask >> Lane) & 1u) == 1u) {
      Out.write(Lane, warp_active_sum(1u << Lane));
      Out.write(32u + Lane, warp_prefix_sum(1u << Lane));
    };
  };
  HostBuffer Out = filled(64);
  kernel_tidy::simt::Uniform M = kernel_tidy::simt::Uniform::of(Mask);
  std::vector<kernel_tidy::simt::Argument> Args{&Out, M};
  LaunchOptions Options = launch(Threads);
  Options.Collective = Model;
  kernel_tidy::simt::run(functionOf(Combined), Args, Options);
  return Out.read<uint32_t>();
}

using kernel_tidy::simt::Collectives;

TEST(Simt, CudaButterflyOnA13LaneTailWarpGivesLanes8To12PartialSums) {
  // Lanes 0-12 (a tail warp of 13 threads), worked through by hand. Distance 16: no
  // partner is active. 8: lanes 0-4 and 8-12 pair up. 4: lane 9's partner 13 is missing,
  // so lane 9 keeps {1, 9}; lanes 8 and 12 get {0, 4, 8, 12}. 2: lane 12's partner 14 is
  // missing; lane 8 gets {0, 2, 4, 8, 10, 12} from lane 10 ({2, 10}), lane 9 {1, 3, 9, 11}.
  // 1: lanes 0-7 get all 13; lanes 8-11 {0-4, 8-12}, without 5, 6 and 7; lane 12 keeps
  // {0, 4, 8, 12}.
  std::vector<uint32_t> V = lanesCombined(~0u, Collectives::CudaSm70, 13);
  for (uint32_t L = 0; L < 8; ++L) EXPECT_EQ(V[L], 0x1fffu) << L;
  for (uint32_t L = 8; L < 12; ++L) EXPECT_EQ(V[L], 0x1f1fu) << L;
  EXPECT_EQ(V[12], 0x1111u);
  // The prefix scan is exact on one run of lanes from lane 0.
  for (uint32_t L = 0; L < 13; ++L) EXPECT_EQ(V[32 + L], (1u << L) - 1) << L;
  // On sm_80 a uint sum is one redux.sync: exact; so is the documented model.
  for (Collectives Exact : {Collectives::CudaSm80, Collectives::Documented}) {
    std::vector<uint32_t> W = lanesCombined(~0u, Exact, 13);
    for (uint32_t L = 0; L < 13; ++L) EXPECT_EQ(W[L], 0x1fffu) << L;
  }
}

TEST(Simt, CudaButterflyOnTwoLanesLeavesEachLaneItsOwnValue) {
  // Lanes 1 and 2: their partners at every distance (0, 3, 5, 6, 9, 10, ...) are inactive.
  std::vector<uint32_t> V = lanesCombined(0x6u, Collectives::CudaSm70);
  EXPECT_EQ(V[1], 0x2u);
  EXPECT_EQ(V[2], 0x4u);
  // The scan: lane 2 takes lane 1's value from the previous active lane.
  EXPECT_EQ(V[32 + 1], 0u);
  EXPECT_EQ(V[32 + 2], 0x2u);
}

TEST(Simt, CudaScanPastAGapMissesLanes) {
  // Lanes 0, 1 and 4: the shift gives lane 1 lane 0's value and lane 4 lane 1's; distance
  // 1 adds lane 0's identity to lane 1; lane 4's lanes 3 and 2 (distances 1, 2) are
  // inactive, and distance 4 adds lane 0's identity. Lane 4 ends with lane 1's value only.
  std::vector<uint32_t> V = lanesCombined(0x13u, Collectives::CudaSm80);
  EXPECT_EQ(V[32 + 0], 0u);
  EXPECT_EQ(V[32 + 1], 0x1u);
  EXPECT_EQ(V[32 + 4], 0x2u);
  EXPECT_EQ(lanesCombined(0x13u, Collectives::Documented)[32 + 4], 0x3u);
}

TEST(Simt, CudaButterflyAndScanOnARandomHalfMask) {
  // 16 lanes drawn by Python's random.Random(45).sample(range(32), 16): every lane's sum
  // and every prefix from lane 8 on is wrong, the first active lane's sum too.
  const uint32_t Mask = 0x2d1aa70fu;
  std::vector<uint32_t> V = lanesCombined(Mask, Collectives::CudaSm70);
  const std::pair<uint32_t, uint32_t> Sums[] = {
      {0, 0x050a070f}, {1, 0x050a070f}, {2, 0x050a070f}, {3, 0x050a070f},
      {8, 0x25022707}, {9, 0x25022707}, {10, 0x05000505}, {13, 0x2002a202},
      {15, 0x2002a202}, {17, 0x080a000a}, {19, 0x080a000a}, {20, 0x00100000},
      {24, 0x05000500}, {26, 0x0d080508}, {27, 0x0d080508}, {29, 0x20002000}};
  for (auto [Lane, Sum] : Sums) {
    EXPECT_EQ(V[Lane], Sum) << Lane;
    EXPECT_NE(V[Lane], Mask) << Lane;
  }
  const std::pair<uint32_t, uint32_t> Prefixes[] = {
      {0, 0x0},  {1, 0x1},     {2, 0x3},      {3, 0x7},      {8, 0x8},      {9, 0x109},
      {10, 0x30b}, {13, 0x508}, {15, 0x2400},  {17, 0xa509},  {19, 0x2a407}, {20, 0xa0000},
      {24, 0x1a0008}, {26, 0x110030b}, {27, 0x502a400}, {29, 0xd000508}};
  for (auto [Lane, Prefix] : Prefixes) EXPECT_EQ(V[32 + Lane], Prefix) << Lane;
  std::vector<uint32_t> Exact = lanesCombined(Mask, Collectives::Documented);
  for (auto [Lane, Sum] : Sums) EXPECT_EQ(Exact[Lane], Mask) << Lane;
}

TEST(Simt, CudaSm80ReducesIntegersExactlyButFloatsAndProductsByTheButterfly) {
  Kernel1D Reduce = [](BufferFloat Floats, BufferUInt Products) {
    set_block_size(32u);
    UInt Lane = warp_lane_id();
    Floats.write(Lane, warp_active_sum(cast<float>(1u << Lane)));
    Products.write(Lane, warp_active_product(2u));
  };
  HostBuffer Floats = HostBuffer::of(std::vector<float>(32, -1.0f)), Products = filled(32);
  std::vector<kernel_tidy::simt::Argument> Args{&Floats, &Products};
  LaunchOptions Options = launch(13);
  Options.Collective = Collectives::CudaSm80;
  kernel_tidy::simt::run(functionOf(Reduce), Args, Options);
  auto F = Floats.read<float>();
  auto P = Products.read<uint32_t>();
  // The lanes each combined, as in the uint sum under sm_70 above.
  for (uint32_t L = 0; L < 13; ++L) {
    uint32_t Want = L < 8 ? 0x1fffu : L < 12 ? 0x1f1fu : 0x1111u;
    EXPECT_EQ(F[L], float(Want)) << L;
    EXPECT_EQ(P[L], 1u << std::popcount(Want)) << L;
  }
}

TEST(Simt, CudaCollectivesNeed32LaneWarps) {
  Kernel1D Sum = [](BufferUInt Out) { Out.write(dispatch_x(), warp_active_sum(1u)); };
  HostBuffer Out = filled(64);
  LaunchOptions Options = launch(64, 64);
  Options.Collective = Collectives::CudaSm80;
  EXPECT_THROW(runOn(Sum, Out, Options), std::invalid_argument);
  Options.WarpSize = 32;
  runOn(Sum, Out, Options);
  for (uint32_t X : Out.read<uint32_t>()) EXPECT_EQ(X, 32u);
}

TEST(Simt, BallotIsA128BitMaskOfTheActiveLanes) {
  Kernel1D Ballot = [](BufferUInt Out) {
    set_block_size(128u);
    UInt Lane = warp_lane_id();
    $if (Lane != 64u) {
      UInt4 M = warp_active_bit_mask(Lane % 3u == 0u);
      $if (Lane == 0u) {
        Out.write(0u, M.x);
        Out.write(1u, M.y);
        Out.write(2u, M.z);
        Out.write(3u, M.w);
      };
    };
  };
  HostBuffer Out = filled(4);
  runOn(Ballot, Out, launch(128, 128));
  uint32_t Words[4] = {0, 0, 0, 0};
  for (uint32_t L = 0; L < 128; ++L)
    if (L % 3 == 0 && L != 64) Words[L / 32] |= 1u << (L % 32);
  auto V = Out.read<uint32_t>();
  for (int W = 0; W < 4; ++W) EXPECT_EQ(V[W], Words[W]) << W;
}

TEST(Simt, FirstActiveLaneAndReadFirstActiveLane) {
  Kernel1D First = [](BufferUInt Out) {
    set_block_size(32u);
    UInt Lane = warp_lane_id();
    $if (Lane >= 5u) {
      Out.write(Lane, warp_first_active_lane() * 1000u + warp_read_first_active_lane(Lane * 2u) * 10u +
                          ite(warp_is_first_active_lane(), 1u, 0u));
    };
  };
  HostBuffer Out = filled(32);
  runOn(First, Out, launch(32));
  auto V = Out.read<uint32_t>();
  for (uint32_t L = 5; L < 32; ++L) EXPECT_EQ(V[L], 5000u + 100u + (L == 5)) << L;
}

TEST(Simt, ReadLaneOfAnInactiveLaneIsAnUndefinedRead) {
  Kernel1D Read = [](BufferUInt Out) {
    set_block_size(32u);
    UInt Lane = warp_lane_id();
    $if (Lane < 16u) {
      // lane ^ 1 stays among the active lanes; lane + 16 does not.
      Out.write(Lane, warp_read_lane(Lane * 10u, Lane ^ 1u));
      Out.write(32u + Lane, warp_read_lane(Lane * 10u, Lane + 16u));
    };
  };
  HostBuffer Out = filled(64);
  RunResult R = runOn(Read, Out, launch(32));
  auto V = Out.read<uint32_t>();
  for (uint32_t L = 0; L < 16; ++L) {
    EXPECT_EQ(V[L], (L ^ 1) * 10) << L;
    EXPECT_FALSE(Out.undefined(L)) << L;
    EXPECT_TRUE(Out.undefined(32 + L)) << "the value of an inactive lane was stored as defined: " << L;
  }
  EXPECT_EQ(R.count(EventKind::UndefinedRead), 16u);
  EXPECT_EQ(R.count(EventKind::DivergentBarrier), 0u);
  ASSERT_FALSE(R.Events.empty());
  EXPECT_NE(R.Events[0].Detail.find("inactive"), std::string::npos) << R.Events[0].Detail;
}

TEST(Simt, UndefinedValuesAreTrackedThroughArithmeticMemoryAndCollectives) {
  Kernel1D Flow = [](BufferUInt Out) {
    set_block_size(32u);
    Shared<uint> Tile{32u};
    UInt Lane = warp_lane_id();
    UInt Got = 0u;
    $if (Lane < 16u) { Got = warp_read_lane(Lane, Lane + 16u); };
    // Discarded: lanes 16..31 never read an undefined value, and ite keeps only its side.
    Out.write(Lane, ite(Lane >= 16u, Got * 2u + 1u, 7u));
    // Through shared memory to another lane, and through a reduction to every lane.
    Tile[Lane] = Got + 1u;
    sync_block();
    Out.write(32u + Lane, Tile[31u - Lane]);
    Out.write(64u + Lane, warp_active_sum(Got));
    // A prefix is undefined from the first lane after an undefined one.
    Out.write(96u + Lane, warp_prefix_sum(ite(Lane == 20u, Got, ite(Lane == 3u, Got, 1u))));
  };
  HostBuffer Out = filled(128);
  RunResult R = runOn(Flow, Out, launch(32));
  for (uint32_t L = 0; L < 32; ++L) {
    EXPECT_FALSE(Out.undefined(L)) << L;
    EXPECT_EQ(Out.undefined(32 + L), 31 - L < 16) << L;
    EXPECT_TRUE(Out.undefined(64 + L)) << L;
    EXPECT_EQ(Out.undefined(96 + L), L > 3) << L;
  }
  EXPECT_EQ(R.count(EventKind::UndefinedUse), 0u);
}

TEST(Simt, BranchingOnAnUndefinedValueIsAnEvent) {
  Kernel1D Branch = [](BufferUInt Out) {
    set_block_size(32u);
    UInt Lane = warp_lane_id();
    UInt Got = 0u;
    $if (Lane < 16u) { Got = warp_read_lane(Lane, Lane + 16u); };
    $if (Got == 3u) { Out.write(Lane, 1u); };
  };
  HostBuffer Out = filled(32);
  RunResult R = runOn(Branch, Out, launch(32));
  EXPECT_EQ(R.count(EventKind::UndefinedUse), 16u);
}

TEST(Simt, ReadLanePastTheWarpIsAnUndefinedRead) {
  Kernel1D Read = [](BufferUInt Out) {
    set_block_size(32u);
    UInt Lane = warp_lane_id();
    Out.write(dispatch_x(), warp_read_lane(Lane, Lane + 8u));
  };
  HostBuffer Out = filled(32);
  RunResult R = runOn(Read, Out, launch(32, 16));
  auto V = Out.read<uint32_t>();
  for (uint32_t I = 0; I < 32; ++I)
    if (I % 16 < 8) EXPECT_EQ(V[I], I % 16 + 8) << I;
  // Lanes 8..15 of both warps of 16 read lanes 16..23.
  EXPECT_EQ(R.count(EventKind::UndefinedRead), 16u);
  ASSERT_FALSE(R.Events.empty());
  EXPECT_NE(R.Events[0].Detail.find("past the warp"), std::string::npos) << R.Events[0].Detail;
}

TEST(Simt, WarpWidthComesFromTheRunOptionOrTheKernel) {
  Kernel1D Width = [](BufferUInt Out) {
    set_block_size(128u);
    Out.write(dispatch_x(), warp_active_count_bits(true) * 1000u + warp_lane_count());
  };
  for (uint32_t W : {8u, 16u, 32u, 64u, 128u}) {
    HostBuffer Out = filled(128);
    runOn(Width, Out, launch(128, W));
    for (uint32_t X : Out.read<uint32_t>()) EXPECT_EQ(X, W * 1000 + W) << "width " << W;
  }
  Kernel1D Fixed = [](BufferUInt Out) {
    set_block_size(64u);
    set_warp_size(16u);
    Out.write(dispatch_x(), warp_active_count_bits(true));
  };
  HostBuffer Out = filled(64);
  runOn(Fixed, Out, launch(64, 32));
  for (uint32_t X : Out.read<uint32_t>()) EXPECT_EQ(X, 16u);
}

TEST(Simt, SharedMemoryIsPerBlock) {
  Kernel1D PerBlock = [](BufferUInt Out) {
    set_block_size(64u);
    Shared<uint> Slot{1u};
    $if (thread_x() == 0u) { Slot[0u] = block_x() + 1u; };
    sync_block();
    Out.write(dispatch_x(), Slot[0u]);
  };
  HostBuffer Out = filled(256);
  RunResult R = runOn(PerBlock, Out, launch(256));
  auto V = Out.read<uint32_t>();
  for (uint32_t I = 0; I < 256; ++I) EXPECT_EQ(V[I], I / 64 + 1) << I;
  EXPECT_EQ(R.count(EventKind::DivergentBarrier), 0u);
}

TEST(Simt, BarrierNotReachedByEveryLiveThreadIsAnEvent) {
  Kernel1D Divergent = [](BufferUInt Out) {
    set_block_size(64u);
    $if (thread_x() < 40u) { sync_block(); };
    Out.write(dispatch_x(), 1u);
  };
  HostBuffer Out = filled(64);
  RunResult R = runOn(Divergent, Out, launch(64));
  // Threads 40..63 of warp 1 are live and skip the barrier that its threads 32..39 wait at.
  EXPECT_EQ(R.count(EventKind::DivergentBarrier), 24u);
  ASSERT_FALSE(R.Events.empty());
  EXPECT_EQ(R.Events[0].Thread, 40u);

  // Threads that returned are not live: a barrier after their return is not divergent.
  Kernel1D AfterReturn = [](BufferUInt Out) {
    set_block_size(64u);
    $if (thread_x() >= 40u) { $return(); };
    sync_block();
    Out.write(dispatch_x(), 1u);
  };
  HostBuffer Out2 = filled(64);
  EXPECT_EQ(runOn(AfterReturn, Out2, launch(64)).count(EventKind::DivergentBarrier), 0u);
}

TEST(Simt, WholeWarpsSkippingABarrierIsAnEvent) {
  // Warp 0 waits at the last barrier; warp 1, live, ends without reaching it.
  Kernel1D FirstWarpOnly = [](BufferUInt Out) {
    set_block_size(64u);
    Out.write(dispatch_x(), 1u);
    $if (thread_x() < 32u) { sync_block(); };
  };
  HostBuffer Out = filled(128);
  RunResult R = runOn(FirstWarpOnly, Out, launch(128));
  EXPECT_EQ(R.count(EventKind::DivergentBarrier), 2u); // once per block
  ASSERT_FALSE(R.Events.empty());
  EXPECT_EQ(R.Events[0].Thread, ~0u);
  EXPECT_EQ(R.Events[0].Detail, "warp 1 ends without reaching sync_block()");
  // A warp whose threads all returned is not waited for.
  Kernel1D ReturnedWarp = [](BufferUInt Out) {
    set_block_size(64u);
    $if (thread_x() >= 32u) { $return(); };
    sync_block();
    Out.write(dispatch_x(), 1u);
  };
  HostBuffer Out2 = filled(128);
  EXPECT_EQ(runOn(ReturnedWarp, Out2, launch(128)).count(EventKind::DivergentBarrier), 0u);
}

TEST(Simt, SharedMemoryIsUndefinedUntilWritten) {
  // A privatized counter whose Shared accumulator is never zeroed.
  Kernel1D Unzeroed = [](BufferUInt Out) {
    set_block_size(64u);
    Shared<uint> Count{1u};
    Count.atomic(0u).fetch_add(1u);
    sync_block();
    Out.write(dispatch_x(), Count[0u]);
  };
  HostBuffer Out = filled(64);
  RunResult R = runOn(Unzeroed, Out, launch(64));
  for (uint32_t I = 0; I < 64; ++I) EXPECT_TRUE(Out.undefined(I)) << I;
  // The first atomic reads memory never written; the others read its undefined result.
  EXPECT_EQ(R.count(EventKind::UndefinedRead), 1u);
  // Zeroed first: defined, and no undefined read.
  Kernel1D Zeroed = [](BufferUInt Out) {
    set_block_size(64u);
    Shared<uint> Count{1u};
    $if (thread_x() == 0u) { Count[0u] = 0u; };
    sync_block();
    Count.atomic(0u).fetch_add(1u);
    sync_block();
    Out.write(dispatch_x(), Count[0u]);
  };
  HostBuffer Out2 = filled(64);
  RunResult R2 = runOn(Zeroed, Out2, launch(64));
  EXPECT_EQ(R2.count(EventKind::UndefinedRead), 0u);
  for (uint32_t I = 0; I < 64; ++I) {
    EXPECT_FALSE(Out2.undefined(I)) << I;
    EXPECT_EQ(Out2.read<uint32_t>()[I], 64u) << I;
  }
  // A second stage that reads more partials than the first wrote: the extra one is
  // undefined, and so is the sum; a branch on it is an undefined use.
  Kernel1D ExtraPartial = [](BufferUInt Out) {
    set_block_size(64u);
    Shared<uint> Partial{3u};
    $if (thread_x() < 2u) { Partial[thread_x()] = thread_x() + 1u; };
    sync_block();
    UInt Sum = Partial[0u] + Partial[1u] + Partial[2u];
    $if (Sum > 3u) { Sum = Sum - 1u; };
    Out.write(dispatch_x(), Sum);
  };
  HostBuffer Out3 = filled(64);
  RunResult R3 = runOn(ExtraPartial, Out3, launch(64));
  EXPECT_TRUE(Out3.undefined(0));
  EXPECT_EQ(R3.count(EventKind::UndefinedRead), 64u);
  EXPECT_EQ(R3.count(EventKind::UndefinedUse), 64u);
  // The garbage is seeded: the same seed gives the same bytes.
  HostBuffer Again = filled(64);
  runOn(Unzeroed, Again, launch(64));
  EXPECT_EQ(Again.read<uint32_t>(), Out.read<uint32_t>());
  // Locals stay zero: the DSL zero-initialises them.
  Kernel1D Local = [](BufferUInt Out) {
    UInt X;
    Out.write(dispatch_x(), X);
  };
  HostBuffer Out4 = filled(32);
  RunResult R4 = runOn(Local, Out4, launch(32));
  EXPECT_FALSE(Out4.undefined(0));
  EXPECT_EQ(Out4.read<uint32_t>()[0], 0u);
  EXPECT_EQ(R4.count(EventKind::UndefinedRead), 0u);
}

// Each thread publishes a value in shared memory and reads its neighbour's in the next
// warp. Without sync_block() what it reads depends on which warp ran first.
template <bool WithBarrier> auto neighbourExchange() {
  return Kernel1D{[](BufferUInt Out) {
    set_block_size(128u);
    Shared<uint> Tile{128u};
    UInt T = thread_x();
    Tile[T] = T + 1u;
    if constexpr (WithBarrier) sync_block();
    Out.write(dispatch_x(), Tile[(T + 32u) % 128u]);
  }};
}

TEST(Simt, MissingBarrierChangesResultsWithTheSchedule) {
  auto Racy = neighbourExchange<false>();
  auto Synced = neighbourExchange<true>();
  std::vector<std::vector<uint32_t>> RacyResults, SyncedResults;
  for (uint64_t Seed : {1u, 2u, 3u, 4u}) {
    HostBuffer A = filled(256), B = filled(256);
    runOn(Racy, A, launch(256, 32, Seed));
    runOn(Synced, B, launch(256, 32, Seed));
    RacyResults.push_back(A.read<uint32_t>());
    SyncedResults.push_back(B.read<uint32_t>());
  }
  bool Differ = false;
  for (auto &R : RacyResults) Differ = Differ || R != RacyResults[0];
  EXPECT_TRUE(Differ) << "the racy kernel gave the same results under four schedules";
  for (auto &R : SyncedResults) EXPECT_EQ(R, SyncedResults[0]);
  for (uint32_t I = 0; I < 256; ++I) EXPECT_EQ(SyncedResults[0][I], (I % 128 + 32) % 128 + 1) << I;
  // The same seed gives the same schedule.
  HostBuffer Again = filled(256);
  runOn(Racy, Again, launch(256, 32, 1));
  EXPECT_EQ(Again.read<uint32_t>(), RacyResults[0]);
}

TEST(Simt, PlainReadModifyWriteFromSeveralThreadsIsARace) {
  // Each warp's first lane adds to a global counter with a plain read and write.
  Kernel1D Plain = [](BufferUInt Out) {
    set_block_size(64u);
    $if (warp_lane_id() == 0u) { Out.write(0u, Out.read(0u) + 1u); };
  };
  Kernel1D Atomic = [](BufferUInt Out) {
    set_block_size(64u);
    $if (warp_lane_id() == 0u) { Out.atomic(0u).fetch_add(1u); };
  };
  HostBuffer A = filled(1, 0), B = filled(1, 0);
  EXPECT_GT(runOn(Plain, A, launch(256)).count(EventKind::Race), 0u);
  EXPECT_EQ(runOn(Atomic, B, launch(256)).count(EventKind::Race), 0u);
  EXPECT_EQ(B.read<uint32_t>()[0], 8u);
  // Each thread's own element, and Shared slots with a barrier between: no race.
  Kernel1D Own = [](BufferUInt Out) {
    set_block_size(64u);
    Shared<uint> Tile{64u};
    Tile[thread_x()] = thread_x();
    sync_block();
    Out.write(dispatch_x(), Out.read(dispatch_x()) + Tile[63u - thread_x()]);
  };
  HostBuffer C = filled(128, 0);
  EXPECT_EQ(runOn(Own, C, launch(128)).count(EventKind::Race), 0u);
  // Without the barrier, the neighbour's slot is a race.
  auto Racy = neighbourExchange<false>();
  HostBuffer D = filled(256);
  EXPECT_GT(runOn(Racy, D, launch(256)).count(EventKind::Race), 0u);
  auto Synced = neighbourExchange<true>();
  HostBuffer E = filled(256);
  EXPECT_EQ(runOn(Synced, E, launch(256)).count(EventKind::Race), 0u);
}

TEST(Simt, WarpsInterleaveAtMemoryOperationsSoPlainUpdatesGetLost) {
  // The warps' leaders add to a Shared counter without an atomic: under some seeds a
  // warp reads the counter, the others run, and its write loses their updates.
  Kernel1D Lossy = [](BufferUInt Out) {
    set_block_size(256u);
    Shared<uint> Count{1u};
    $if (thread_x() == 0u) { Count[0u] = 0u; };
    sync_block();
    $if (warp_lane_id() == 0u) { Count[0u] = Count[0u] + 1u; };
    sync_block();
    $if (thread_x() == 0u) { Out.write(block_x(), Count[0u]); };
  };
  std::set<uint32_t> Totals;
  for (uint64_t Seed = 1; Seed <= 8; ++Seed) {
    HostBuffer Out = filled(1);
    RunResult R = runOn(Lossy, Out, launch(256, 32, Seed));
    EXPECT_GT(R.count(EventKind::Race), 0u);
    Totals.insert(Out.read<uint32_t>()[0]);
  }
  EXPECT_TRUE(Totals.count(8u)) << "no seed kept every update";
  EXPECT_GT(Totals.size(), 1u) << "no seed lost an update";
  // Without interleaving the warps run one after another between barriers.
  LaunchOptions Whole = launch(256, 32, 3);
  Whole.Interleave = false;
  HostBuffer Out = filled(1);
  runOn(Lossy, Out, Whole);
  EXPECT_EQ(Out.read<uint32_t>()[0], 8u);
}

TEST(Simt, BufferAtomicsReturnTheOldValuesInASeededOrder) {
  Kernel1D Append = [](BufferUInt Counter, BufferUInt Slots) {
    set_block_size(64u);
    UInt Old = Counter.atomic(0u).fetch_add(1u);
    Slots.write(Old, dispatch_x());
  };
  std::vector<std::vector<uint32_t>> Orders;
  for (uint64_t Seed : {7u, 8u}) {
    HostBuffer Counter = filled(1, 0), Slots = filled(256);
    std::vector<kernel_tidy::simt::Argument> Args{&Counter, &Slots};
    kernel_tidy::simt::run(functionOf(Append), Args, launch(256, 32, Seed));
    EXPECT_EQ(Counter.read<uint32_t>()[0], 256u);
    auto S = Slots.read<uint32_t>();
    auto Sorted = S;
    std::sort(Sorted.begin(), Sorted.end());
    for (uint32_t I = 0; I < 256; ++I) EXPECT_EQ(Sorted[I], I);
    Orders.push_back(S);
  }
  EXPECT_NE(Orders[0], Orders[1]) << "two seeds gave the same order of atomics";
}

TEST(Simt, SharedAndBufferAtomicOperations) {
  Kernel1D Ops = [](BufferUInt Out, BufferInt Signed, BufferFloat Real) {
    set_block_size(32u);
    Shared<uint> S{8u};
    UInt Lane = thread_x();
    $if (Lane < 8u) { S[Lane] = ite(Lane == 1u, 0xffffffffu, ite(Lane == 3u, 100u, 0u)); };
    sync_block();
    S.atomic(0u).fetch_add(Lane);
    S.atomic(1u).fetch_and(~(1u << Lane));
    S.atomic(2u).fetch_or(1u << Lane);
    S.atomic(3u).fetch_sub(1u);
    S.atomic(4u).fetch_xor(Lane);
    S.atomic(5u).fetch_max(Lane * 7u % 32u);
    $if (Lane == 9u) { S.atomic(6u).exchange(42u); };
    // Only the first compare_exchange finds 0.
    UInt Won = S.atomic(7u).compare_exchange(0u, Lane + 1u);
    sync_block();
    $if (Lane < 8u) { Out.write(Lane, S[Lane]); };
    Out.write(8u + Lane, Won);
    Signed.atomic(0u).fetch_min(Int(Lane) - 20);
    Real.atomic(0u).fetch_add(0.5f);
    Real.atomic(1u).fetch_max(Float(Lane));
  };
  HostBuffer Out = filled(40), Signed = HostBuffer::of(std::vector<int>{0}), Real = HostBuffer::of(std::vector<float>{0, -1});
  std::vector<kernel_tidy::simt::Argument> Args{&Out, &Signed, &Real};
  kernel_tidy::simt::run(functionOf(Ops), Args, launch(32));
  auto V = Out.read<uint32_t>();
  EXPECT_EQ(V[0], 496u);
  EXPECT_EQ(V[1], 0u);
  EXPECT_EQ(V[2], 0xffffffffu);
  EXPECT_EQ(V[3], 68u);
  EXPECT_EQ(V[4], 0u);
  EXPECT_EQ(V[5], 31u);
  EXPECT_EQ(V[6], 42u);
  uint32_t Winner = V[7];
  ASSERT_GE(Winner, 1u);
  int ZeroSeen = 0;
  for (uint32_t L = 0; L < 32; ++L) ZeroSeen += V[8 + L] == 0;
  EXPECT_EQ(ZeroSeen, 1) << "exactly one compare_exchange saw 0";
  EXPECT_EQ(V[8 + Winner - 1], 0u);
  EXPECT_EQ(Signed.read<int>()[0], -20);
  EXPECT_EQ(Real.read<float>()[0], 16.0f);
  EXPECT_EQ(Real.read<float>()[1], 31.0f);
}

TEST(Simt, OutOfBoundsBufferIndexIsAnEvent) {
  Kernel1D Past = [](BufferUInt Out) {
    set_block_size(32u);
    Out.write(dispatch_x() + 30u, 1u);
  };
  HostBuffer Out = filled(32);
  RunResult R = runOn(Past, Out, launch(32));
  EXPECT_EQ(R.count(EventKind::OutOfBounds), 30u);
}

TEST(Simt, SharedIndexPastTheEndIsAnEvent) {
  Kernel1D Past = [](BufferUInt Out) {
    set_block_size(32u);
    Shared<uint> Tile{16u};
    UInt T = thread_x();
    Tile[T] = T;
    Out.write(T, Tile[T % 16u]);
  };
  HostBuffer Out = filled(32);
  RunResult R = runOn(Past, Out, launch(32));
  EXPECT_EQ(R.count(EventKind::OutOfBounds), 16u);
  auto V = Out.read<uint32_t>();
  for (uint32_t T = 0; T < 32; ++T) EXPECT_EQ(V[T], T % 16) << T;
}

TEST(Simt, TwoDimensionalBlocksNumberLanesXFirst) {
  Kernel2D Grid = [](BufferUInt Out) {
    set_block_size(16u, 16u);
    UInt2 D = dispatch_id().xy();
    Out.write(D.y * 20u + D.x, warp_lane_id() + 100u * (thread_y() % 2u));
  };
  HostBuffer Out = filled(20 * 18);
  LaunchOptions O = launch(20);
  O.DispatchSize[1] = 18;
  runOn(Grid, Out, O);
  auto V = Out.read<uint32_t>();
  for (uint32_t Y = 0; Y < 18; ++Y)
    for (uint32_t X = 0; X < 20; ++X) {
      uint32_t Tx = X % 16, Ty = Y % 16;
      EXPECT_EQ(V[Y * 20 + X], (Ty * 16 + Tx) % 32 + 100 * (Ty % 2)) << X << "," << Y;
    }
}

TEST(Simt, CallablesTakeValuesAndReferences) {
  Callable AddTo = [](UInt &Target, UInt Amount) {
    Target += Amount;
    return Target * 2u;
  };
  Callable Store = [](BufferUInt Out, UInt Index, UInt Value) {
    $if (Index % 2u == 0u) { $return(); };
    Out.write(Index, Value + warp_active_count_bits(true));
  };
  Kernel1D UseIt = [&](BufferUInt Out) {
    set_block_size(32u);
    UInt X = warp_lane_id();
    UInt Twice = AddTo(X, 3u);
    Out.write(warp_lane_id(), X * 1000u + Twice);
    // A return in a callable ends the call, not the thread.
    Store(Out, 32u + warp_lane_id(), 100u);
    Out.write(64u + warp_lane_id(), warp_active_count_bits(true));
  };
  HostBuffer Out = filled(96);
  runOn(UseIt, Out, launch(32));
  auto V = Out.read<uint32_t>();
  for (uint32_t L = 0; L < 32; ++L) {
    EXPECT_EQ(V[L], (L + 3) * 1000 + (L + 3) * 2) << L;
    EXPECT_EQ(V[32 + L], L % 2 ? 116u : Untouched) << L;
    EXPECT_EQ(V[64 + L], 32u) << L;
  }
}

TEST(Simt, CallablesReadTheBuiltinsOfTheirLane) {
  // LuisaCompute passes the builtins a Callable reads as hidden parameters.
  Callable Ids = []() { return dispatch_x() * 1000u + thread_x() * 10u + block_x() + warp_lane_id() * 100000u; };
  Kernel1D UseIt = [&](BufferUInt Out) {
    set_block_size(32u);
    Out.write(dispatch_x(), Ids());
  };
  HostBuffer Out = filled(64);
  LaunchOptions O = launch(64);
  O.WarpSize = 8;
  runOn(UseIt, Out, O);
  auto V = Out.read<uint32_t>();
  for (uint32_t T = 0; T < 64; ++T) EXPECT_EQ(V[T], T * 1000 + T % 32 * 10 + T / 32 + T % 8 * 100000) << T;
}

TEST(Simt, ScalarAndVectorArithmetic) {
  Kernel1D Math = [](BufferFloat In, BufferFloat Out, BufferInt Ints) {
    set_block_size(32u);
    UInt I = dispatch_x();
    Float X = In.read(I);
    Float3 V = make_float3(X, X * 2.0f, -X);
    Out.write(I * 4u + 0u, dot(V, make_float3(1.0f)));
    Out.write(I * 4u + 1u, max(abs(V.z), sqrt(X * X)));
    Out.write(I * 4u + 2u, clamp(V.y, 0.0f, 3.0f) + fma(X, 2.0f, 1.0f));
    Out.write(I * 4u + 3u, ite(X > 1.0f, floor(X * 1.5f), ceil(X * 1.5f)));
    Int N = Int(I) - 16;
    Ints.write(I * 2u, N / 3 + N % 3 * 100);
    Ints.write(I * 2u + 1u, (N << 2) ^ (N >> 1));
  };
  std::vector<float> In(32);
  for (int I = 0; I < 32; ++I) In[I] = 0.25f * float(I);
  HostBuffer InB = HostBuffer::of(In), OutB = HostBuffer::of(std::vector<float>(128)), IntB = HostBuffer::of(std::vector<int>(64));
  std::vector<kernel_tidy::simt::Argument> Args{&InB, &OutB, &IntB};
  kernel_tidy::simt::run(functionOf(Math), Args, launch(32));
  auto O = OutB.read<float>();
  auto N = IntB.read<int>();
  for (int I = 0; I < 32; ++I) {
    float X = In[I];
    EXPECT_FLOAT_EQ(O[I * 4 + 0], 2.0f * X) << I;
    EXPECT_FLOAT_EQ(O[I * 4 + 1], X) << I;
    EXPECT_FLOAT_EQ(O[I * 4 + 2], std::min(std::max(2.0f * X, 0.0f), 3.0f) + std::fma(X, 2.0f, 1.0f)) << I;
    EXPECT_FLOAT_EQ(O[I * 4 + 3], X > 1.0f ? std::floor(X * 1.5f) : std::ceil(X * 1.5f)) << I;
    int M = I - 16;
    EXPECT_EQ(N[I * 2], M / 3 + M % 3 * 100) << I;
    EXPECT_EQ(N[I * 2 + 1], (M * 4) ^ (M >> 1)) << I;
  }
}

TEST(Simt, UniformArgumentsReachEveryThread) {
  Kernel1D Scale = [](BufferUInt Out, UInt Factor) {
    set_block_size(32u);
    Out.write(dispatch_x(), dispatch_x() * Factor);
  };
  HostBuffer Out = filled(32);
  std::vector<kernel_tidy::simt::Argument> Args{&Out, Uniform::of(7u)};
  kernel_tidy::simt::run(functionOf(Scale), Args, launch(32));
  auto V = Out.read<uint32_t>();
  for (uint32_t I = 0; I < 32; ++I) EXPECT_EQ(V[I], I * 7);
}

TEST(Simt, IndependentSchedulingMayKeepTheSidesOfAnIfApart) {
  Kernel1D AfterIf = [](BufferUInt Out) {
    set_block_size(32u);
    UInt Lane = warp_lane_id();
    UInt Side = 0u;
    $if (Lane < 12u) { Side = 1u; } $else { Side = 2u; };
    Out.write(Lane, warp_active_count_bits(true));
  };
  std::set<std::vector<uint32_t>> Lockstep, Independent;
  for (uint64_t Seed = 1; Seed <= 16; ++Seed) {
    HostBuffer A = filled(32), B = filled(32);
    LaunchOptions O = launch(32, 32, Seed);
    runOn(AfterIf, A, O);
    O.Scheduling = kernel_tidy::simt::Schedule::Independent;
    runOn(AfterIf, B, O);
    Lockstep.insert(A.read<uint32_t>());
    Independent.insert(B.read<uint32_t>());
  }
  std::vector<uint32_t> Converged(32, 32), Split(32);
  for (uint32_t L = 0; L < 32; ++L) Split[L] = L < 12 ? 12 : 20;
  EXPECT_EQ(Lockstep, (std::set<std::vector<uint32_t>>{Converged}));
  EXPECT_EQ(Independent, (std::set<std::vector<uint32_t>>{Converged, Split}));
}

TEST(Simt, IndependentSchedulingDoesNotSplitAcrossABarrier) {
  Kernel1D BeforeBarrier = [](BufferUInt Out) {
    set_block_size(32u);
    UInt Lane = warp_lane_id();
    UInt Side = 0u;
    $if (Lane < 12u) { Side = 1u; } $else { Side = 2u; };
    sync_block();
    Out.write(Lane, warp_active_count_bits(true));
  };
  for (uint64_t Seed = 1; Seed <= 8; ++Seed) {
    HostBuffer Out = filled(32);
    LaunchOptions O = launch(32, 32, Seed);
    O.Scheduling = kernel_tidy::simt::Schedule::Independent;
    EXPECT_EQ(runOn(BeforeBarrier, Out, O).count(EventKind::DivergentBarrier), 0u);
    for (uint32_t X : Out.read<uint32_t>()) EXPECT_EQ(X, 32u);
  }
}

TEST(Simt, HalfValuesRoundAfterEachOperation) {
  Kernel1D Halves = [](BufferVar<half> In, BufferVar<half> Out) {
    set_block_size(32u);
    UInt Lane = warp_lane_id();
    Var<half> X = In.read(Lane);
    Out.write(Lane, X * X + X);
    Out.write(32u + Lane, warp_active_sum(X));
  };
  std::vector<half> In(32);
  for (int L = 0; L < 32; ++L) In[L] = half(1.0f + float(L) / 1024.0f);
  HostBuffer InB = HostBuffer::of(In), OutB = HostBuffer::of(std::vector<half>(64));
  std::vector<kernel_tidy::simt::Argument> Args{&InB, &OutB};
  kernel_tidy::simt::run(functionOf(Halves), Args, launch(32));
  auto O = OutB.read<half>();
  _Float16 Sum = 0;
  for (int L = 0; L < 32; ++L) {
    _Float16 X = _Float16(float(In[L]));
    _Float16 Square = X * X;
    EXPECT_EQ(float(O[L]), float(_Float16(Square + X))) << L;
    Sum = _Float16(Sum + X);
  }
  for (int L = 0; L < 32; ++L) EXPECT_EQ(float(O[32 + L]), float(Sum)) << L;
}

TEST(Simt, WhatIsNotImplementedStopsWithUnsupported) {
  Kernel1D Cross = [](BufferFloat Out) {
    set_block_size(32u);
    Float X = Out.read(dispatch_x());
    Float3 C = cross(make_float3(X, 0.0f, 0.0f), make_float3(0.0f, X, 0.0f));
    Out.write(dispatch_x(), C.z);
  };
  HostBuffer Out = HostBuffer::of(std::vector<float>(32));
  std::vector<kernel_tidy::simt::Argument> Args{&Out};
  try {
    kernel_tidy::simt::run(functionOf(Cross), Args, launch(32));
    FAIL() << "cross() ran";
  } catch (const kernel_tidy::simt::Unsupported &E) {
    EXPECT_STREQ(E.what(), "unsupported by the simt backend: call CROSS");
  }
}

// The cost counters (simt/Costs.h), each against a count worked out by hand.

TEST(SimtCosts, ConsecutiveSharedWordsTakeOnePassAStrideOf32WordsTakes32) {
  Kernel1D Banks = [](BufferUInt Out) {
    set_block_size(32u);
    Shared<uint> Tile{32u * 32u};
    UInt Lane = warp_lane_id();
    Tile[Lane] = Lane;           // 32 banks, one word each: 1 pass
    Tile[Lane * 32u] = Lane;     // every lane in bank 0, 32 words: 32 passes
    Out.write(Lane, Tile[0u]);   // one word for all lanes (a broadcast): 1 pass
  };
  HostBuffer Out = filled(32, 0u);
  RunResult R = runOn(Banks, Out, launch(32));
  EXPECT_EQ(R.Cost.Warps, 1u);
  EXPECT_EQ(R.Cost.SharedAccesses, 3u);
  EXPECT_EQ(R.Cost.SharedWavefronts, 1u + 32u + 1u);
  EXPECT_EQ(R.Cost.sharedReplays(), 31u);
}

TEST(SimtCosts, EightByteLanesTakeTwoPassesAsHalfWarpsDo) {
  Kernel1D Wide = [](BufferUInt Out) {
    set_block_size(32u);
    Shared<uint2> Tile{32u};
    UInt Lane = warp_lane_id();
    Tile[Lane] = make_uint2(Lane, Lane); // 64 consecutive words over 32 banks: 2 each
    Out.write(Lane, 0u);
  };
  HostBuffer Out = filled(32, 0u);
  RunResult R = runOn(Wide, Out, launch(32));
  EXPECT_EQ(R.Cost.SharedAccesses, 1u);
  EXPECT_EQ(R.Cost.SharedWavefronts, 2u);
}

TEST(SimtCosts, ACoalescedWarpLoadIsOneSegmentAStridedOne32) {
  Kernel1D Loads = [](BufferUInt Data) {
    set_block_size(32u);
    UInt Lane = warp_lane_id();
    UInt A = Data.read(Lane);       // bytes 0..127: one 128-byte segment
    UInt B = Data.read(Lane * 32u); // 128 bytes apart: a segment per lane
    UInt C = Data.read(Lane + 16u); // bytes 64..191: two segments
    Data.write(1024u + Lane, A + B + C);
  };
  HostBuffer Data = filled(32 * 32 + 32, 0u);
  RunResult R = runOn(Loads, Data, launch(32));
  EXPECT_EQ(R.Cost.BufferAccesses, 4u);
  // The write covers bytes 4096..4223: one segment.
  EXPECT_EQ(R.Cost.BufferTransactions, 1u + 32u + 2u + 1u);
}

TEST(SimtCosts, AnAtomicHitBy32LanesSerialisesThemAndCountsTheWarps) {
  Kernel1D Counter = [](BufferUInt Out) {
    set_block_size(64u);
    Out.atomic(0u).fetch_add(1u);                   // 2 warps x 32 lanes on one address
    Out.atomic(1u + dispatch_x()).fetch_add(1u);    // every lane its own address
  };
  HostBuffer Out = filled(1 + 128, 0u);
  RunResult R = runOn(Counter, Out, launch(128));
  EXPECT_EQ(Out.read<uint32_t>()[0], 128u);
  EXPECT_EQ(R.Cost.Warps, 4u);
  EXPECT_EQ(R.Cost.GlobalAtomics, 8u);
  EXPECT_EQ(R.Cost.GlobalAtomicLanes, 256u);
  EXPECT_EQ(R.Cost.SharedAtomics, 0u);
  EXPECT_EQ(R.Cost.AtomicDepth, 32u);
  // Four warps of two blocks on the global counter.
  EXPECT_EQ(R.Cost.AtomicAddressOps, 128u);
  EXPECT_EQ(R.Cost.AtomicAddressWarps, 4u);
  ASSERT_EQ(R.WarpCosts.size(), 4u);
  for (const kernel_tidy::simt::Costs &W : R.WarpCosts) {
    EXPECT_EQ(W.GlobalAtomics, 2u);
    EXPECT_EQ(W.GlobalAtomicLanes, 64u);
    EXPECT_EQ(W.AtomicDepth, 32u);
  }
}

TEST(SimtCosts, SharedAtomicsMeetPerBlock) {
  Kernel1D Privatized = [](BufferUInt Out) {
    set_block_size(64u);
    Shared<uint> Count{1u};
    $if (thread_x() == 0u) { Count[0u] = 0u; };
    sync_block();
    $if (warp_lane_id() < 8u) { Count.atomic(0u).fetch_add(1u); }; // 8 lanes, 2 warps
    sync_block();
    $if (thread_x() == 0u) { Out.atomic(0u).fetch_add(Count[0u]); };
  };
  HostBuffer Out = filled(1, 0u);
  RunResult R = runOn(Privatized, Out, launch(256));
  EXPECT_EQ(Out.read<uint32_t>()[0], 64u);
  EXPECT_EQ(R.Cost.SharedAtomics, 8u);
  EXPECT_EQ(R.Cost.SharedAtomicLanes, 64u);
  EXPECT_EQ(R.Cost.GlobalAtomics, 4u);
  EXPECT_EQ(R.Cost.GlobalAtomicLanes, 4u);
  // The shared counter: 16 operations of 2 warps per block; the global one: 4 of 4 warps.
  EXPECT_EQ(R.Cost.AtomicDepth, 8u);
  EXPECT_EQ(R.Cost.AtomicAddressOps, 16u);
  EXPECT_EQ(R.Cost.AtomicAddressWarps, 4u);
  EXPECT_EQ(R.Cost.Barriers, 8u * 2u);
  // Thread 0 stores 0 and reads the count: 2 shared accesses of one word, plus none else.
  EXPECT_EQ(R.Cost.SharedAccesses, 4u * 2u);
  EXPECT_EQ(R.Cost.SharedWavefronts, 4u * 2u);
}

TEST(SimtCosts, ShufflesReductionsAndVotesCountOncePerWarpInstruction) {
  Kernel1D Collectives = [](BufferUInt Out) {
    set_block_size(32u);
    UInt Lane = warp_lane_id();
    UInt X = Lane;
    $for (Offset, 0u, 5u) { X += warp_read_lane(X, Lane ^ (1u << Offset)); };
    UInt S = warp_active_sum(Lane) + warp_prefix_sum(Lane);
    $if (warp_active_any(Lane == 3u) & (Lane < 16u)) { X += warp_active_count_bits(true); };
    Out.write(dispatch_x(), X + S);
  };
  HostBuffer Out = filled(64, 0u);
  RunResult R = runOn(Collectives, Out, launch(64));
  EXPECT_EQ(R.Cost.Warps, 2u);
  EXPECT_EQ(R.Cost.Shuffles, 2u * 5u);
  EXPECT_EQ(R.Cost.Reductions, 2u * 2u);
  EXPECT_EQ(R.Cost.Votes, 2u * 2u);
  EXPECT_EQ(R.Cost.BufferAccesses, 2u);
  EXPECT_EQ(R.Cost.BufferTransactions, 2u);
  EXPECT_EQ(R.Cost.Barriers, 0u);
}

TEST(SimtCosts, DispatchTotalsAddTheWarpsAndKeepTheMaxima) {
  kernel_tidy::simt::Costs A, B;
  A.Warps = 1, A.Shuffles = 5, A.AtomicDepth = 32, A.SharedAccesses = 2, A.SharedWavefronts = 3;
  B.Warps = 1, B.Shuffles = 1, B.AtomicDepth = 4, B.SharedAccesses = 1, B.SharedWavefronts = 1;
  A += B;
  EXPECT_EQ(A.Warps, 2u);
  EXPECT_EQ(A.Shuffles, 6u);
  EXPECT_EQ(A.AtomicDepth, 32u);
  EXPECT_EQ(A.sharedReplays(), 1u);
}

} // namespace
