//===--- GpuHarnessCoreTest.cpp - Tests of the GPU harness core ----------===//
//
// The CPU side of integration/gpu-harness: values, inputs, launch shapes,
// references, comparison, statistics and reports. Expected values are worked
// out by hand in the comments.
//
//===----------------------------------------------------------------------===//

#include "CaseTable.h"
#include "Compare.h"
#include "Inputs.h"
#include "Launch.h"
#include "Reference.h"
#include "Report.h"
#include "Stats.h"
#include "Values.h"
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>
#include <nlohmann/json.hpp>
#include <set>

using namespace kernel_tidy::harness;

namespace {

const double U32 = std::ldexp(1.0, -24); // unit roundoff of f32
const double U16 = std::ldexp(1.0, -11); // unit roundoff of f16

/// Equal as bit patterns of doubles: NaN equals NaN, -0 differs from +0.
bool sameBits(const std::vector<double> &A, const std::vector<double> &B) {
  return A.size() == B.size() &&
         (A.empty() || std::memcmp(A.data(), B.data(), A.size() * sizeof(double)) == 0);
}

/// One warp of WarpSize lanes over elements 0..WarpSize-1, with the given
/// active lanes.
std::vector<Warp> oneWarp(std::vector<std::uint32_t> Flags) {
  LaunchShape Shape;
  Shape.Width = static_cast<std::uint32_t>(Flags.size());
  Shape.BlockX = Shape.Width;
  return warpsOf(Shape, Shape.Width, Flags);
}

std::size_t inBoundsLanes(const Warp &W) {
  return std::count_if(W.Lanes.begin(), W.Lanes.end(), [](const Lane &L) { return L.InBounds; });
}

std::size_t activeLanes(const Warp &W) {
  return std::count_if(W.Lanes.begin(), W.Lanes.end(), [](const Lane &L) { return L.Active; });
}

LaunchShape standardShape(const std::string &Name) {
  for (const LaunchShape &S : standardShapes())
    if (S.Name == Name)
      return S;
  ADD_FAILURE() << "no standard shape " << Name;
  return {};
}

/// Samples around \p Center with a uniform relative noise of standard
/// deviation \p RelStdDev.
std::vector<double> noisy(double Center, double RelStdDev, std::size_t Count, std::uint64_t Seed) {
  Random R(Seed);
  std::vector<double> Out;
  for (std::size_t I = 0; I < Count; ++I)
    Out.push_back(Center * (1 + RelStdDev * std::sqrt(3.0) * (2 * R.uniform() - 1)));
  return Out;
}

} // namespace

//===--- Values -----------------------------------------------------------===//

TEST(GpuHarnessValues, TypeFacts) {
  EXPECT_EQ(typeName(ValueType::U32), "u32");
  EXPECT_EQ(typeName(ValueType::F16), "f16");
  EXPECT_TRUE(isFloat(ValueType::F32));
  EXPECT_FALSE(isFloat(ValueType::I32));
  EXPECT_EQ(byteSize(ValueType::F16), 2u);
  EXPECT_EQ(byteSize(ValueType::I32), 4u);
  EXPECT_EQ(unitRoundoff(ValueType::F32), U32);
  EXPECT_EQ(unitRoundoff(ValueType::F16), U16);
  EXPECT_EQ(unitRoundoff(ValueType::U32), 0);
}

TEST(GpuHarnessValues, HalfLimitsAndOverflow) {
  EXPECT_EQ(floatToHalfBits(65504.0f), 0x7bff);
  EXPECT_EQ(halfBitsToFloat(0x7bff), 65504.0f);
  // Half an ulp (16) above the maximum is a tie whose even neighbour is inf.
  EXPECT_EQ(floatToHalfBits(65519.0f), 0x7bff);
  EXPECT_EQ(floatToHalfBits(65520.0f), 0x7c00);
  EXPECT_EQ(floatToHalfBits(-1e6f), 0xfc00);
  EXPECT_EQ(floatToHalfBits(INFINITY), 0x7c00);
  EXPECT_EQ(floatToHalfBits(-0.0f), 0x8000);
  EXPECT_EQ(floatToHalfBits(1.0f), 0x3c00);
  EXPECT_EQ(floatToHalfBits(-2.0f), 0xc000);
  std::uint16_t NaN = floatToHalfBits(NAN);
  EXPECT_EQ(NaN & 0x7c00, 0x7c00);
  EXPECT_NE(NaN & 0x03ff, 0);
  EXPECT_TRUE(std::isnan(halfBitsToFloat(0x7e00)));
  EXPECT_EQ(halfBitsToFloat(0xfc00), -INFINITY);
}

TEST(GpuHarnessValues, HalfRoundsTiesToEven) {
  // 1 + 2^-11 lies halfway between 1 (even) and 1 + 2^-10 (odd).
  EXPECT_EQ(floatToHalfBits(1.0f + std::ldexp(1.0f, -11)), 0x3c00);
  // 1 + 3 * 2^-11 lies halfway between 0x3c01 (odd) and 0x3c02 (even).
  EXPECT_EQ(floatToHalfBits(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);
  // Just above the tie rounds up.
  EXPECT_EQ(floatToHalfBits(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)), 0x3c01);
  // Through float, 1 + 2^-11 + 2^-30 would become the tie and round down:
  // roundTo rounds once, up.
  EXPECT_EQ(roundTo(ValueType::F16, 1 + std::ldexp(1.0, -11) + std::ldexp(1.0, -30)),
            1 + std::ldexp(1.0, -10));
}

TEST(GpuHarnessValues, HalfDenormals) {
  EXPECT_EQ(floatToHalfBits(std::ldexp(1.0f, -24)), 0x0001); // smallest denormal
  EXPECT_EQ(floatToHalfBits(std::ldexp(1.0f, -14)), 0x0400); // smallest normal
  EXPECT_EQ(halfBitsToFloat(0x03ff), 1023 * std::ldexp(1.0f, -24));
  // 2^-25 is halfway between 0 and 2^-24: even is 0. 3 * 2^-25 is halfway
  // between 1 and 2 units: even is 2.
  EXPECT_EQ(floatToHalfBits(std::ldexp(1.0f, -25)), 0x0000);
  EXPECT_EQ(floatToHalfBits(3 * std::ldexp(1.0f, -25)), 0x0002);
  EXPECT_EQ(floatToHalfBits(-std::ldexp(1.0f, -24)), 0x8001);
}

TEST(GpuHarnessValues, HalfRoundTripsEveryPattern) {
  for (std::uint32_t Bits = 0; Bits <= 0xffff; ++Bits) {
    float Value = halfBitsToFloat(static_cast<std::uint16_t>(Bits));
    if (std::isnan(Value))
      continue;
    ASSERT_EQ(floatToHalfBits(Value), Bits) << Bits;
    ASSERT_EQ(roundTo(ValueType::F16, Value), Value) << Bits;
  }
}

TEST(GpuHarnessValues, RoundToWrapsIntegers) {
  EXPECT_EQ(roundTo(ValueType::U32, -1), 4294967295.0);
  EXPECT_EQ(roundTo(ValueType::U32, 4294967296.0 + 5), 5);
  EXPECT_EQ(roundTo(ValueType::U32, 7), 7);
  EXPECT_EQ(roundTo(ValueType::I32, 2147483648.0), -2147483648.0);
  EXPECT_EQ(roundTo(ValueType::I32, 4294967295.0), -1);
  EXPECT_EQ(roundTo(ValueType::I32, -2147483649.0), 2147483647.0);
  EXPECT_EQ(roundTo(ValueType::I32, -7), -7);
  EXPECT_FALSE(std::signbit(roundTo(ValueType::I32, -0.0)));
  EXPECT_EQ(roundTo(ValueType::F32, 0.1), static_cast<double>(0.1f));
  EXPECT_EQ(roundTo(ValueType::F32, 1e39), INFINITY);
  // FLT_MAX + half an ulp is a tie whose even neighbour is infinity.
  EXPECT_EQ(roundTo(ValueType::F32, 0x1.ffffffp127), INFINITY);
  EXPECT_EQ(roundTo(ValueType::F32, -0x1.fffffefp127), -FLT_MAX);
  EXPECT_EQ(roundTo(ValueType::F16, 65519.0), 65504.0);
  EXPECT_EQ(roundTo(ValueType::F16, 65000.0), 64992.0); // spacing 32 there
}

TEST(GpuHarnessValues, DeviceBytesRoundTrip) {
  std::vector<double> Ints{0, 1, 4294967295.0, 123456789};
  std::vector<double> Signed{-1, -2147483648.0, 2147483647.0, 0};
  std::vector<double> Floats{1.5, -0.0, INFINITY, std::ldexp(1.0, -149)};
  std::vector<double> Halves{1.0, -65504.0, std::ldexp(1.0, -24), 0.333251953125};
  struct Case {
    ValueType Type;
    const std::vector<double> &Values;
  };
  for (const Case &C : {Case{ValueType::U32, Ints}, Case{ValueType::I32, Signed},
                        Case{ValueType::F32, Floats}, Case{ValueType::F16, Halves}}) {
    std::vector<std::byte> Bytes = toDeviceBytes(C.Type, C.Values);
    ASSERT_EQ(Bytes.size(), C.Values.size() * byteSize(C.Type));
    EXPECT_TRUE(sameBits(fromDeviceBytes(C.Type, Bytes.data(), C.Values.size()), C.Values))
        << typeName(C.Type);
  }
  // Little-endian half 1.0 = 0x3c00; i32 -1 = ff ff ff ff.
  std::vector<std::byte> Half = toDeviceBytes(ValueType::F16, {1.0});
  EXPECT_EQ(Half, (std::vector<std::byte>{std::byte{0x00}, std::byte{0x3c}}));
  std::vector<std::byte> MinusOne = toDeviceBytes(ValueType::I32, {-1});
  EXPECT_EQ(MinusOne, std::vector<std::byte>(4, std::byte{0xff}));
}

//===--- Inputs -----------------------------------------------------------===//

TEST(GpuHarnessInputs, RandomIsSplitMix64) {
  // The first outputs of splitmix64 seeded with 0 (reference values of the
  // published algorithm).
  Random R(0);
  EXPECT_EQ(R.next(), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(R.next(), 0x6e789e6aa1b965f4ULL);
  Random S(5);
  for (int I = 0; I < 1000; ++I) {
    double V = S.uniform();
    ASSERT_GE(V, 0.0);
    ASSERT_LT(V, 1.0);
  }
}

TEST(GpuHarnessInputs, Deterministic) {
  for (ValueType Type : {ValueType::U32, ValueType::I32, ValueType::F32, ValueType::F16}) {
    for (InputSet Set :
         {InputSet::Uniform, InputSet::Special, InputSet::Extremes, InputSet::Duplicates}) {
      if (!appliesTo(Set, Type))
        continue;
      std::vector<double> A = makeInputs(Type, Set, 4096, 7);
      EXPECT_TRUE(sameBits(A, makeInputs(Type, Set, 4096, 7))) << inputSetName(Set);
      EXPECT_FALSE(sameBits(A, makeInputs(Type, Set, 4096, 8))) << inputSetName(Set);
      // A shorter run is a prefix of a longer one.
      std::vector<double> Prefix(A.begin(), A.begin() + 100);
      EXPECT_TRUE(sameBits(makeInputs(Type, Set, 100, 7), Prefix)) << inputSetName(Set);
    }
  }
}

TEST(GpuHarnessInputs, ValuesAreRepresentable) {
  for (ValueType Type : {ValueType::U32, ValueType::I32, ValueType::F32, ValueType::F16}) {
    for (InputSet Set : {InputSet::Uniform, InputSet::Special, InputSet::AllEqual,
                         InputSet::Extremes, InputSet::Duplicates}) {
      if (!appliesTo(Set, Type))
        continue;
      for (double V : makeInputs(Type, Set, 2048, 3)) {
        double R = roundTo(Type, V);
        ASSERT_TRUE(R == V || (std::isnan(R) && std::isnan(V)))
            << typeName(Type) << " " << inputSetName(Set) << " " << V;
      }
    }
  }
}

TEST(GpuHarnessInputs, UniformRanges) {
  for (double V : makeInputs(ValueType::U32, InputSet::Uniform, 4096, 1)) {
    ASSERT_GE(V, 0);
    ASSERT_LT(V, 1000);
  }
  std::vector<double> Signed = makeInputs(ValueType::I32, InputSet::Uniform, 4096, 1);
  EXPECT_LT(*std::min_element(Signed.begin(), Signed.end()), -900);
  EXPECT_GE(*std::min_element(Signed.begin(), Signed.end()), -1000);
  EXPECT_LT(*std::max_element(Signed.begin(), Signed.end()), 1000);
  for (ValueType Type : {ValueType::F32, ValueType::F16}) {
    for (double V : makeInputs(Type, InputSet::Uniform, 4096, 1)) {
      ASSERT_GE(V, -1.0);
      ASSERT_LT(V, 1.0);
    }
  }
}

TEST(GpuHarnessInputs, SpecialHoldsEveryKindSparsely) {
  for (ValueType Type : {ValueType::F32, ValueType::F16}) {
    std::vector<double> Values = makeInputs(Type, InputSet::Special, 4096, 11);
    double MinNormal = Type == ValueType::F32 ? FLT_MIN : std::ldexp(1.0, -14);
    bool NaN = false, PosInf = false, NegInf = false, NegZero = false, Denormal = false;
    std::size_t Unusual = 0;
    for (double V : Values) {
      NaN |= std::isnan(V);
      PosInf |= V == INFINITY;
      NegInf |= V == -INFINITY;
      NegZero |= V == 0 && std::signbit(V);
      Denormal |= V != 0 && std::fabs(V) < MinNormal;
      Unusual += !std::isfinite(V) || (V == 0 && std::signbit(V));
    }
    EXPECT_TRUE(NaN && PosInf && NegInf && NegZero && Denormal) << typeName(Type);
    // 1 in 16 special, 4 of the 8 kinds counted: about 128.
    EXPECT_GT(Unusual, 64u);
    EXPECT_LT(Unusual, 256u);
  }
  EXPECT_FALSE(appliesTo(InputSet::Special, ValueType::U32));
  EXPECT_TRUE(appliesTo(InputSet::Special, ValueType::F16));
  EXPECT_TRUE(appliesTo(InputSet::Extremes, ValueType::I32));
}

TEST(GpuHarnessInputs, OtherSets) {
  // All-equal is negative where the type has a sign: every block all negative, so
  // that a max or min padded with 0 instead of the lowest value shows.
  for (double V : makeInputs(ValueType::F16, InputSet::AllEqual, 64, 1))
    ASSERT_EQ(V, -0.75);
  for (double V : makeInputs(ValueType::F32, InputSet::AllEqual, 64, 1))
    ASSERT_EQ(V, -0.75);
  for (double V : makeInputs(ValueType::I32, InputSet::AllEqual, 64, 1))
    ASSERT_EQ(V, -3);
  for (double V : makeInputs(ValueType::U32, InputSet::AllEqual, 64, 1))
    ASSERT_EQ(V, 3);
  std::vector<double> Dups = makeInputs(ValueType::F32, InputSet::Duplicates, 4096, 2);
  EXPECT_EQ(std::set<double>(Dups.begin(), Dups.end()).size(), 4u);
  std::vector<double> Ext = makeInputs(ValueType::F32, InputSet::Extremes, 4096, 2);
  EXPECT_NE(std::find(Ext.begin(), Ext.end(), FLT_MAX), Ext.end());
  EXPECT_NE(std::find(Ext.begin(), Ext.end(), -FLT_MAX), Ext.end());
  std::vector<double> HalfExt = makeInputs(ValueType::F16, InputSet::Extremes, 4096, 2);
  EXPECT_NE(std::find(HalfExt.begin(), HalfExt.end(), 65504.0), HalfExt.end());
  std::vector<double> IntExt = makeInputs(ValueType::U32, InputSet::Extremes, 4096, 2);
  EXPECT_NE(std::find(IntExt.begin(), IntExt.end(), 4294967295.0), IntExt.end());
  EXPECT_EQ(inputSetName(InputSet::AllEqual), "all-equal");
}

//===--- Launch -----------------------------------------------------------===//

TEST(GpuHarnessLaunch, StandardShapes) {
  std::vector<std::string> Names;
  for (const LaunchShape &S : standardShapes())
    Names.push_back(S.Name);
  for (const char *Name : {"full-warps", "partial-tail", "2d-edge", "odd-lanes", "random-mask"})
    EXPECT_NE(std::find(Names.begin(), Names.end(), Name), Names.end()) << Name;
}

TEST(GpuHarnessLaunch, BlockShapesHaveOnlyFullBlocks) {
  // The tree-reduction cases set their block size: every thread of every
  // block must exist, or the original reads slots nobody wrote.
  for (std::uint32_t Block : {256u, 1024u}) {
    std::vector<LaunchShape> Shapes = blockShapes(Block);
    ASSERT_EQ(Shapes.size(), 3u);
    EXPECT_EQ(Shapes[0].Name, "full-warps");
    for (const LaunchShape &S : Shapes) {
      EXPECT_EQ(S.BlockX, Block);
      EXPECT_EQ(S.Height, 1u);
      EXPECT_EQ(S.Width % Block, 0u) << S.Name;
      std::vector<Warp> Warps = warpsOf(S, 32, activeFlags(S, 7));
      ASSERT_EQ(Warps.size(), std::size_t(blockCount(S)) * (Block / 32u));
      for (const Warp &W : Warps)
        EXPECT_EQ(inBoundsLanes(W), 32u);
    }
    std::vector<Warp> Odd = warpsOf(Shapes[1], 32, activeFlags(Shapes[1], 7));
    EXPECT_EQ(activeLanes(Odd[0]), 16u);
  }
}

TEST(GpuHarnessLaunch, ContentionShapesSweepTheMasksPerBlockSize) {
  std::vector<LaunchShape> Shapes = contentionShapes({64u, 1024u});
  ASSERT_EQ(Shapes.size(), 8u);
  EXPECT_EQ(Shapes[0].Name, "contention-b64-all");
  EXPECT_EQ(Shapes[7].Name, "contention-b1024-one-in-32");
  for (size_t I = 0; I < Shapes.size(); ++I) {
    EXPECT_EQ(Shapes[I].BlockX, I < 4 ? 64u : 1024u) << Shapes[I].Name;
    EXPECT_EQ(Shapes[I].Width, 8192u);
  }
  std::vector<Warp> OneIn32 = warpsOf(Shapes[3], 32, activeFlags(Shapes[3], 7));
  for (const Warp &W : OneIn32)
    EXPECT_EQ(activeLanes(W), 1u);
}

TEST(GpuHarnessCases, ConstantBlockSizesMatchTheCaseTable) {
  // A kernel that sets its block size runs on shapes of that size
  // (CaseSpec::Block); shapes of another size would give the reference
  // other warps and blocks than the GPU runs.
  const std::regex SetBlockSize(R"(set_block_size\(\s*(\d+)u?)");
  for (const CaseSpec &Spec : CaseTable) {
    std::ifstream In(std::string(KERNEL_TIDY_HARNESS_DIR) + "/cases/" + std::string(Spec.Name) +
                     ".cpp.in");
    ASSERT_TRUE(In) << Spec.Name;
    std::stringstream Text;
    Text << In.rdbuf();
    std::string Source = Text.str();
    std::smatch Match;
    std::uint32_t Declared = 0;
    if (std::regex_search(Source, Match, SetBlockSize))
      Declared = static_cast<std::uint32_t>(std::stoul(Match[1]));
    EXPECT_EQ(Declared, Spec.Block) << Spec.Name;
  }
}

TEST(GpuHarnessLaunch, FullWarps) {
  LaunchShape Shape = standardShape("full-warps");
  EXPECT_EQ(blockCount(Shape), 16u);
  std::vector<Warp> Warps = warpsOf(Shape, 32, activeFlags(Shape, 1));
  ASSERT_EQ(Warps.size(), 16u * 8u);
  for (const Warp &W : Warps)
    ASSERT_EQ(activeLanes(W), 32u);
  // Warp 9 is the second warp of block 1: elements 256 + 32 ...
  EXPECT_EQ(Warps[9].Block, 1u);
  EXPECT_EQ(Warps[9].Lanes[5].Element, 256u + 32u + 5u);
  EXPECT_EQ(Warps[9].Lanes[5].Index, 5u);
  // A 64-lane warp size halves the warps.
  EXPECT_EQ(warpsOf(Shape, 64, activeFlags(Shape, 1)).size(), 16u * 4u);
}

TEST(GpuHarnessLaunch, PartialTail) {
  LaunchShape Shape = standardShape("partial-tail");
  ASSERT_EQ(Shape.Width, 4096u + 45u);
  EXPECT_EQ(blockCount(Shape), 17u);
  std::vector<Warp> Warps = warpsOf(Shape, 32, activeFlags(Shape, 1));
  // Every block has its 8 warps; in block 16, 45 threads are in bounds: warp
  // 0 full, warp 1 with 45 - 32 = 13 lanes, warps 2..7 with none.
  ASSERT_EQ(Warps.size(), 17u * 8u);
  const Warp &Full = Warps[16 * 8];
  const Warp &Tail = Warps[16 * 8 + 1];
  EXPECT_EQ(Full.Block, 16u);
  EXPECT_EQ(activeLanes(Full), 32u);
  EXPECT_EQ(activeLanes(Tail), 13u);
  EXPECT_EQ(inBoundsLanes(Tail), 13u);
  EXPECT_TRUE(Tail.Lanes[12].Active);
  EXPECT_FALSE(Tail.Lanes[13].InBounds);
  EXPECT_EQ(Tail.Lanes[12].Element, 4096u + 32u + 12u);
  for (std::size_t W = 16 * 8 + 2; W < Warps.size(); ++W)
    EXPECT_EQ(inBoundsLanes(Warps[W]), 0u);
  std::size_t Active = 0;
  for (const Warp &W : Warps)
    Active += activeLanes(W);
  EXPECT_EQ(Active, 4141u);
}

TEST(GpuHarnessLaunch, TwoDimensionalEdges) {
  LaunchShape Shape = standardShape("2d-edge");
  ASSERT_EQ(Shape.Width, 100u);
  ASSERT_EQ(Shape.Height, 37u);
  // 7 x 3 blocks of 16 x 16; each 16-wide warp covers two rows of a block.
  EXPECT_EQ(blockCount(Shape), 21u);
  std::vector<Warp> Warps = warpsOf(Shape, 32, activeFlags(Shape, 1));
  ASSERT_EQ(Warps.size(), 21u * 8u);
  std::vector<std::size_t> InBlock(21, 0);
  std::vector<int> Seen(100 * 37, 0);
  for (const Warp &W : Warps)
    for (const Lane &L : W.Lanes)
      if (L.InBounds) {
        ++InBlock[W.Block];
        ++Seen[L.Element];
      }
  // Right column (x 96..99): 4 x 16; bottom row (y 32..36): 16 x 5; the
  // corner block (id 2 * 7 + 6 = 20): 4 x 5.
  EXPECT_EQ(InBlock[0], 256u);
  EXPECT_EQ(InBlock[6], 64u);
  EXPECT_EQ(InBlock[14], 80u);
  EXPECT_EQ(InBlock[20], 20u);
  EXPECT_TRUE(std::all_of(Seen.begin(), Seen.end(), [](int N) { return N == 1; }));
  // Corner block, warp 0: rows 32 and 33, lanes 0..3 and 16..19 in bounds.
  const Warp &Corner = Warps[20 * 8];
  EXPECT_EQ(Corner.Block, 20u);
  EXPECT_EQ(inBoundsLanes(Corner), 8u);
  EXPECT_TRUE(Corner.Lanes[3].InBounds);
  EXPECT_FALSE(Corner.Lanes[4].InBounds);
  EXPECT_EQ(Corner.Lanes[16].Element, 33u * 100u + 96u);
  EXPECT_EQ(inBoundsLanes(Warps[20 * 8 + 2]), 4u); // row 36 only
  EXPECT_EQ(inBoundsLanes(Warps[20 * 8 + 3]), 0u);
}

TEST(GpuHarnessLaunch, OddLanesAndRandomMask) {
  LaunchShape Odd = standardShape("odd-lanes");
  std::vector<std::uint32_t> Flags = activeFlags(Odd, 1);
  for (std::size_t E = 0; E < Flags.size(); ++E)
    ASSERT_EQ(Flags[E], E % 2);
  for (const Warp &W : warpsOf(Odd, 32, Flags)) {
    ASSERT_EQ(activeLanes(W), 16u);
    ASSERT_TRUE(W.Lanes[1].Active);
    ASSERT_FALSE(W.Lanes[2].Active);
  }
  LaunchShape Rand = standardShape("random-mask");
  std::vector<std::uint32_t> A = activeFlags(Rand, 5);
  std::size_t On = std::count(A.begin(), A.end(), 1u);
  EXPECT_GT(On, 1800u);
  EXPECT_LT(On, 2300u);
  EXPECT_EQ(A, activeFlags(Rand, 5));
  EXPECT_NE(A, activeFlags(Rand, 6));
}

TEST(GpuHarnessLaunch, BlockNotAMultipleOfTheWarp) {
  LaunchShape Shape;
  Shape.Width = 40;
  Shape.BlockX = 20;
  std::vector<Warp> Warps = warpsOf(Shape, 32, activeFlags(Shape, 1));
  ASSERT_EQ(Warps.size(), 2u);
  EXPECT_EQ(inBoundsLanes(Warps[1]), 20u);
  EXPECT_EQ(Warps[1].Lanes[0].Element, 20u);
  EXPECT_FALSE(Warps[1].Lanes[20].InBounds);
}

//===--- Reference --------------------------------------------------------===//

TEST(GpuHarnessReference, IntegerReduceWrapsAndSkipsInactive) {
  std::vector<Warp> W = oneWarp({1, 1, 1, 1, 0, 0, 0, 0});
  std::vector<double> In{4294967295.0, 1, 5, 7, 100, 100, 100, 100};
  // 2^32 - 1 + 1 + 5 + 7 wraps to 12.
  Expected Sum = referenceWarpReduce(ValueType::U32, Op::Sum, In, W);
  ASSERT_EQ(Sum.Value.size(), 8u);
  EXPECT_EQ(Sum.Value[0], 12);
  EXPECT_EQ(Sum.Value[3], 12);
  EXPECT_TRUE(Sum.Defined[3]);
  EXPECT_FALSE(Sum.Defined[4]);
  EXPECT_EQ(Sum.Bound[0], 0);
  std::vector<double> Signed{2147483647.0, 1, 0, 0, 9, 9, 9, 9};
  EXPECT_EQ(referenceWarpReduce(ValueType::I32, Op::Sum, Signed, W).Value[1], -2147483648.0);
  // Products wrap too: 65536 * 65536 * 3 = 3 * 2^32 = 0 mod 2^32, and
  // -1 * 2147483647 * 2 = -4294967294 = 2 mod 2^32.
  std::vector<double> Big{65536, 65536, 3, 1, 0, 0, 0, 0};
  EXPECT_EQ(referenceWarpReduce(ValueType::U32, Op::Product, Big, W).Value[0], 0);
  std::vector<double> Neg{-1, 2147483647.0, 2, 1, 0, 0, 0, 0};
  EXPECT_EQ(referenceWarpReduce(ValueType::I32, Op::Product, Neg, W).Value[0], 2);
}

TEST(GpuHarnessReference, IntegerMinMaxAndBits) {
  std::vector<Warp> W = oneWarp({1, 1, 1, 1});
  std::vector<double> Signed{-5, 3, -2147483648.0, 7};
  EXPECT_EQ(referenceWarpReduce(ValueType::I32, Op::Max, Signed, W).Value[0], 7);
  EXPECT_EQ(referenceWarpReduce(ValueType::I32, Op::Min, Signed, W).Value[0], -2147483648.0);
  std::vector<double> Unsigned{4294967295.0, 3, 0, 8};
  EXPECT_EQ(referenceWarpReduce(ValueType::U32, Op::Max, Unsigned, W).Value[0], 4294967295.0);
  EXPECT_EQ(referenceWarpReduce(ValueType::U32, Op::Min, Unsigned, W).Value[0], 0);
  std::vector<double> Bits{0xF0F0, 0xFF00, 0xF00F, 0xF0F0};
  // F0F0 & FF00 & F00F & F0F0 = F000; | = FFFF; the two F0F0 cancel in ^.
  EXPECT_EQ(referenceWarpReduce(ValueType::U32, Op::BitAnd, Bits, W).Value[0], 0xF000);
  EXPECT_EQ(referenceWarpReduce(ValueType::U32, Op::BitOr, Bits, W).Value[0], 0xFFFF);
  EXPECT_EQ(referenceWarpReduce(ValueType::U32, Op::BitXor, Bits, W).Value[0], 0xF00F ^ 0xFF00);
  // Bit ops on the i32 pattern: -1 & 15 = 15; -1 ^ 0 ^ 0 ^ 1 = -2.
  std::vector<double> Mixed{-1, 15, -1, -1};
  EXPECT_EQ(referenceWarpReduce(ValueType::I32, Op::BitAnd, Mixed, W).Value[0], 15);
  std::vector<double> Xor{-1, 0, 0, 1};
  EXPECT_EQ(referenceWarpReduce(ValueType::I32, Op::BitXor, Xor, W).Value[0], -2);
  EXPECT_EQ(opName(Op::BitXor), "bit_xor");
}

TEST(GpuHarnessReference, FloatMinMaxIgnoreNaN) {
  std::vector<Warp> W = oneWarp({1, 1, 1, 1});
  std::vector<double> In{1, NAN, 3, -2};
  Expected Max = referenceWarpReduce(ValueType::F32, Op::Max, In, W);
  EXPECT_EQ(Max.Value[0], 3);
  EXPECT_EQ(Max.Bound[0], 0);
  EXPECT_EQ(referenceWarpReduce(ValueType::F32, Op::Min, In, W).Value[2], -2);
  std::vector<double> AllNaN{NAN, NAN, NAN, NAN};
  EXPECT_TRUE(std::isnan(referenceWarpReduce(ValueType::F32, Op::Max, AllNaN, W).Value[0]));
  std::vector<double> Inf{1, -INFINITY, 3, NAN};
  EXPECT_EQ(referenceWarpReduce(ValueType::F16, Op::Min, Inf, W).Value[0], -INFINITY);
}

TEST(GpuHarnessReference, FloatSumBounds) {
  std::vector<Warp> W = oneWarp({1, 1, 1, 0});
  double Tiny = std::ldexp(1.0, -24);
  std::vector<double> In{1, Tiny, Tiny, 5};
  // Exact sum 1 + 2^-23 (representable); n = 3, sum|x| = 1 + 2^-23:
  // bound = 2u(1 + 2^-23) + u(1 + 2^-23).
  Expected Sum = referenceWarpReduce(ValueType::F32, Op::Sum, In, W);
  EXPECT_EQ(Sum.Value[0], 1 + std::ldexp(1.0, -23));
  EXPECT_DOUBLE_EQ(Sum.Bound[0], 3 * U32 * (1 + std::ldexp(1.0, -23)));
  // Cancellation: 0.5 - 0.5 + 0.25: bound 2u * 1.25 + u * 0.25.
  std::vector<double> Cancel{0.5, -0.5, 0.25, 0};
  Expected C = referenceWarpReduce(ValueType::F32, Op::Sum, Cancel, W);
  EXPECT_EQ(C.Value[0], 0.25);
  EXPECT_DOUBLE_EQ(C.Bound[0], 2.75 * U32);
  // f16 uses its own unit roundoff: 0.5 + 0.25 + 0 -> 2u * 0.75 + u * 0.75.
  std::vector<double> Half{0.5, 0.25, 0, 0};
  EXPECT_DOUBLE_EQ(referenceWarpReduce(ValueType::F16, Op::Sum, Half, W).Bound[0], 2.25 * U16);
  // The expected value is rounded to the type: 1 + 2^-12 + 2^-12 in f16 is 1 + 2^-11 exactly,
  // which rounds (tie to even) to 1.
  std::vector<double> Round{1, std::ldexp(1.0, -12), std::ldexp(1.0, -12), 0};
  EXPECT_EQ(referenceWarpReduce(ValueType::F16, Op::Sum, Round, W).Value[0], 1);
}

TEST(GpuHarnessReference, FloatSumSpecialValues) {
  std::vector<Warp> W = oneWarp({1, 1, 1});
  Expected InfMinusInf = referenceWarpReduce(ValueType::F32, Op::Sum, {INFINITY, 1, -INFINITY}, W);
  EXPECT_TRUE(std::isnan(InfMinusInf.Value[0]));
  EXPECT_EQ(InfMinusInf.Bound[0], 0);
  Expected Inf = referenceWarpReduce(ValueType::F32, Op::Sum, {INFINITY, 1, 2}, W);
  EXPECT_EQ(Inf.Value[0], INFINITY);
  EXPECT_EQ(Inf.Bound[0], 0);
  EXPECT_TRUE(std::isnan(referenceWarpReduce(ValueType::F16, Op::Sum, {1, NAN, 2}, W).Value[1]));
  // 3e38 + 3e38 - 3e38 overflows or not depending on the order.
  Expected Over = referenceWarpReduce(ValueType::F32, Op::Sum, {3e38, 3e38, -3e38}, W);
  // The bound stays finite: an order that overflows gives +inf, and only that.
  EXPECT_EQ(Over.Value[0], roundTo(ValueType::F32, 3e38));
  EXPECT_TRUE(std::isfinite(Over.Bound[0]));
  EXPECT_EQ(Over.Overflow[0], MayPositiveInfinity);
  EXPECT_TRUE(acceptable(Over, 0, roundTo(ValueType::F32, 3e38)));
  EXPECT_TRUE(acceptable(Over, 0, INFINITY));
  EXPECT_FALSE(acceptable(Over, 0, -INFINITY));
  EXPECT_FALSE(acceptable(Over, 0, 0.0)); // a rewrite that zeroes huge inputs
  EXPECT_FALSE(acceptable(Over, 0, NAN));
}

TEST(GpuHarnessReference, EveryOrderOverflowsComparedAsBothOverflow) {
  std::vector<Warp> W = oneWarp({1, 1});
  Expected Both = referenceWarpReduce(ValueType::F32, Op::Sum, {3e38, 3e38}, W);
  EXPECT_EQ(Both.Value[0], INFINITY);
  EXPECT_EQ(Both.Bound[0], 0);
  EXPECT_EQ(Both.Overflow[0], MayPositiveInfinity | NoFiniteResult);
  EXPECT_TRUE(acceptable(Both, 0, INFINITY));
  EXPECT_FALSE(acceptable(Both, 0, maxFinite(ValueType::F32)));
  EXPECT_FALSE(acceptable(Both, 0, -INFINITY));
  // Positive and negative halves that each overflow: either infinity, or NaN
  // where they meet, or the finite result.
  Expected Mixed = referenceWarpReduce(ValueType::F32, Op::Sum, {3e38, 3e38, -3e38, -3e38, 1},
                                       oneWarp({1, 1, 1, 1, 1}));
  EXPECT_EQ(Mixed.Value[0], 1);
  EXPECT_EQ(Mixed.Overflow[0], MayPositiveInfinity | MayNegativeInfinity | MayNaN);
  EXPECT_TRUE(acceptable(Mixed, 0, NAN));
  EXPECT_TRUE(acceptable(Mixed, 0, 0.0)); // within the bound: 4u * 1.2e39
  EXPECT_FALSE(acceptable(Mixed, 0, 1e33));
  // An exact sum just past the maximum that some order keeps finite.
  double Max = maxFinite(ValueType::F32);
  Expected Edge = referenceWarpReduce(ValueType::F32, Op::Sum, {Max, std::ldexp(1.0, 103)}, W);
  EXPECT_EQ(Edge.Value[0], Max);
  EXPECT_TRUE(std::isfinite(Edge.Bound[0]));
  EXPECT_TRUE(acceptable(Edge, 0, Max));
  EXPECT_TRUE(acceptable(Edge, 0, INFINITY));
}

TEST(GpuHarnessReference, FloatProductBounds) {
  std::vector<Warp> W = oneWarp({1, 1, 1});
  // p = 2 * 3 * 0.5 = 3, n = 3, P (factors above 1) = 6:
  // bound = 2u * 3 + u * 3 + 3 * 2^-150 * 6.
  Expected P = referenceWarpReduce(ValueType::F32, Op::Product, {2, 3, 0.5}, W);
  EXPECT_EQ(P.Value[0], 3);
  EXPECT_DOUBLE_EQ(P.Bound[0], 9 * U32 + 18 * std::ldexp(1.0, -150));
  Expected Neg = referenceWarpReduce(ValueType::F32, Op::Product, {-2, 3, 0.5}, W);
  EXPECT_EQ(Neg.Value[0], -3);
  EXPECT_TRUE(
      std::isnan(referenceWarpReduce(ValueType::F32, Op::Product, {INFINITY, 0, 1}, W).Value[0]));
  Expected Inf = referenceWarpReduce(ValueType::F32, Op::Product, {INFINITY, -2, 1}, W);
  EXPECT_EQ(Inf.Value[0], -INFINITY);
  EXPECT_EQ(Inf.Bound[0], 0);
  Expected Zero = referenceWarpReduce(ValueType::F32, Op::Product, {0.0, -2, 1}, W);
  EXPECT_EQ(Zero.Value[0], 0);
  EXPECT_TRUE(std::signbit(Zero.Value[0]));
  EXPECT_EQ(Zero.Bound[0], 0);
  // 1e30 * 1e30 * 1e-30: overflows first or not, by order.
  Expected Over = referenceWarpReduce(ValueType::F32, Op::Product, {1e30, 1e30, 1e-30}, W);
  EXPECT_TRUE(std::isfinite(Over.Bound[0]));
  EXPECT_EQ(Over.Overflow[0], MayPositiveInfinity);
  EXPECT_TRUE(acceptable(Over, 0, INFINITY));
  EXPECT_FALSE(acceptable(Over, 0, -INFINITY));
  EXPECT_FALSE(acceptable(Over, 0, 1.0));
  // A zero times a partial product that may overflow: 0, or NaN (inf * 0).
  Expected ZeroOver = referenceWarpReduce(ValueType::F32, Op::Product, {1e30, 1e30, 0.0}, W);
  EXPECT_EQ(ZeroOver.Value[0], 0);
  EXPECT_TRUE(acceptable(ZeroOver, 0, NAN));
  EXPECT_FALSE(acceptable(ZeroOver, 0, 1.0));
  // f16: 0.001 * 0.001 * 0.5 = 5e-7 is in the denormal range; the bound
  // allows the absolute error of denormal rounding, 3 * 2^-25.
  Expected Small =
      referenceWarpReduce(ValueType::F16, Op::Product,
                          {roundTo(ValueType::F16, 0.001), roundTo(ValueType::F16, 0.001), 0.5}, W);
  EXPECT_GE(Small.Bound[0], 3 * std::ldexp(1.0, -25));
  EXPECT_EQ(Small.Value[0], roundTo(ValueType::F16, Small.Value[0]));
}

TEST(GpuHarnessReference, ScanInclusiveAndExclusive) {
  std::vector<Warp> W = oneWarp({1, 1, 0, 1, 1, 1, 1, 1});
  std::vector<double> In{1, 2, 100, 3, 4, 5, 6, 7};
  // Init 10; lane 2 inactive and skipped.
  Expected Inc = referenceWarpScan(ValueType::U32, Op::Sum, In, W, true, 10);
  Expected Exc = referenceWarpScan(ValueType::U32, Op::Sum, In, W, false, 10);
  std::vector<double> WantInc{11, 13, 0, 16, 20, 25, 31, 38};
  std::vector<double> WantExc{10, 11, 0, 13, 16, 20, 25, 31};
  for (std::size_t L = 0; L < 8; ++L) {
    EXPECT_EQ(Inc.Defined[L], L != 2) << L;
    if (L == 2)
      continue;
    EXPECT_EQ(Inc.Value[L], WantInc[L]) << L;
    EXPECT_EQ(Exc.Value[L], WantExc[L]) << L;
  }
  Expected Prod = referenceWarpScan(ValueType::I32, Op::Product, In, W, true, 1);
  EXPECT_EQ(Prod.Value[1], 2);
  EXPECT_EQ(Prod.Value[3], 6);
  // f32, Init 0: lane 1's inclusive prefix has terms {0, 1, 2}: n = 3,
  // bound 2u * 3 + u * 3; its exclusive prefix {0, 1}: u * 1 + u * 1.
  Expected F = referenceWarpScan(ValueType::F32, Op::Sum, In, W, true, 0);
  EXPECT_EQ(F.Value[1], 3);
  EXPECT_DOUBLE_EQ(F.Bound[1], 9 * U32);
  Expected FE = referenceWarpScan(ValueType::F32, Op::Sum, In, W, false, 0);
  EXPECT_EQ(FE.Value[1], 1);
  EXPECT_DOUBLE_EQ(FE.Bound[1], 2 * U32);
  EXPECT_EQ(FE.Value[0], 0);
}

TEST(GpuHarnessReference, BlockAtomic) {
  // 20 threads in blocks of 8: 8, 8 and 4 in bounds; warps of 4 lanes.
  LaunchShape Shape;
  Shape.Width = 20;
  Shape.BlockX = 8;
  std::vector<std::uint32_t> Flags(20, 1);
  Flags[3] = 0;
  for (std::size_t E = 16; E < 20; ++E)
    Flags[E] = 0; // block 2 has no active thread
  std::vector<Warp> Warps = warpsOf(Shape, 4, Flags);
  std::vector<double> In(20);
  for (std::size_t E = 0; E < 20; ++E)
    In[E] = static_cast<double>(E);
  ASSERT_EQ(blockCount(Shape), 3u);
  Expected Sum = referenceBlockAtomic(ValueType::U32, Op::Sum, In, Warps, 3, 5);
  ASSERT_EQ(Sum.Value.size(), 3u);
  // Block 0: 5 + (0+1+2+4+5+6+7) = 30; block 1: 5 + (8+...+15) = 97; block 2: 5.
  EXPECT_EQ(Sum.Value[0], 30);
  EXPECT_EQ(Sum.Value[1], 97);
  EXPECT_EQ(Sum.Value[2], 5);
  EXPECT_TRUE(Sum.Defined[2]);
  Expected Max = referenceBlockAtomic(ValueType::I32, Op::Max, In, Warps, 3, -1);
  EXPECT_EQ(Max.Value[0], 7);
  EXPECT_EQ(Max.Value[2], -1);
  // f32 block 1: n = 9 terms (Init 0 and 8 inputs), sum|x| = 92.
  Expected F = referenceBlockAtomic(ValueType::F32, Op::Sum, In, Warps, 3, 0);
  EXPECT_EQ(F.Value[1], 92);
  EXPECT_DOUBLE_EQ(F.Bound[1], 8 * U32 * 92 + U32 * 92);
}

//===--- Compare ----------------------------------------------------------===//

TEST(GpuHarnessCompare, UlpDistance) {
  EXPECT_EQ(ulpDistance(ValueType::F32, 1.0, std::nextafter(1.0f, 2.0f)), 1);
  EXPECT_EQ(ulpDistance(ValueType::F32, 1.0, 1.0), 0);
  EXPECT_EQ(ulpDistance(ValueType::F32, 0.0, -0.0), 0);
  double Denormal = std::ldexp(1.0, -149);
  EXPECT_EQ(ulpDistance(ValueType::F32, Denormal, -Denormal), 2);
  EXPECT_EQ(ulpDistance(ValueType::F32, NAN, 1), INFINITY);
  EXPECT_EQ(ulpDistance(ValueType::F32, NAN, NAN), 0);
  EXPECT_EQ(ulpDistance(ValueType::F32, INFINITY, -INFINITY), INFINITY);
  EXPECT_EQ(ulpDistance(ValueType::F32, FLT_MAX, INFINITY), 1);
  EXPECT_EQ(ulpDistance(ValueType::F32, 1.0, 2.0), 1 << 23);
  EXPECT_EQ(ulpDistance(ValueType::F16, 1.0, 1 + std::ldexp(1.0, -10)), 1);
  EXPECT_EQ(ulpDistance(ValueType::F16, 65504, INFINITY), 1);
  EXPECT_EQ(ulpDistance(ValueType::F16, std::ldexp(1.0, -24), -std::ldexp(1.0, -24)), 2);
  EXPECT_EQ(ulpDistance(ValueType::I32, 3, -7), 10);
  EXPECT_EQ(ulpDistance(ValueType::U32, 0, 4294967295.0), 4294967295.0);
}

TEST(GpuHarnessCompare, WithinAndOutsideTheBound) {
  Expected Want;
  Want.Value = {1.0, 5.0, NAN, 0.0, 2.0};
  Want.Defined = {true, false, true, true, true};
  Want.Bound = {std::ldexp(1.0, -23), 0, 0, 0, 0};
  Want.Overflow = {0, 0, 0, 0, MayNaN};
  // Element 0 exactly at the bound; 1 undefined; NaN matches NaN; -0 == +0;
  // element 4 also accepts the NaN of an order that overflows.
  Comparison Ok = compare(ValueType::F32, Want, {1 + std::ldexp(1.0, -23), 99, NAN, -0.0, NAN});
  EXPECT_TRUE(Ok.ok());
  EXPECT_EQ(Ok.Checked, 4u);
  EXPECT_EQ(Ok.MaxUlp, INFINITY); // element 4: NaN against 2
  Comparison Bad = compare(ValueType::F32, Want, {1 + std::ldexp(1.0, -22), 5, 1, 0, 2});
  EXPECT_FALSE(Bad.ok());
  EXPECT_EQ(Bad.Mismatches, 2u);
  EXPECT_EQ(Bad.FirstMismatch, 0u);
  EXPECT_EQ(Bad.Detail, "element 0: got 1.00000024, expected 1 (bound 1.19209e-07, 2 ulp)");
  // A short output is a mismatch, whatever the element accepts.
  Comparison Short = compare(ValueType::F32, Want, {1.0});
  EXPECT_EQ(Short.Mismatches, 3u); // elements 2, 3 and 4
  EXPECT_EQ(Short.FirstMismatch, 2u);
}

TEST(GpuHarnessCompare, IntegerDetail) {
  Expected Want;
  Want.Value = {0, 0, 2};
  Want.Defined = {true, true, true};
  Want.Bound = {0, 0, 0};
  Comparison C = compare(ValueType::I32, Want, {0, 0, 5});
  EXPECT_EQ(C.Mismatches, 1u);
  EXPECT_EQ(C.FirstMismatch, 2u);
  EXPECT_EQ(C.MaxUlp, 3);
  EXPECT_EQ(C.Detail, "element 2: got 5, expected 2 (bound 0, 3 ulp)");
}

TEST(GpuHarnessCompare, SameMultiset) {
  EXPECT_TRUE(sameMultiset({1, 2, NAN, 2}, {2, NAN, 1, 2}));
  EXPECT_FALSE(sameMultiset({1, 2, 2}, {1, 1, 2}));
  EXPECT_FALSE(sameMultiset({1, 2}, {1, 2, 2}));
  EXPECT_TRUE(sameMultiset({-0.0, 3}, {3, 0.0}));
  EXPECT_FALSE(sameMultiset({NAN, 1}, {1, 1}));
  EXPECT_TRUE(sameMultiset({}, {}));
}

TEST(GpuHarnessCompare, ReferenceAgainstItsOwnRounding) {
  // A warp sum computed sequentially in float lies within the bound.
  LaunchShape Shape = standardShape("random-mask");
  std::vector<std::uint32_t> Flags = activeFlags(Shape, 3);
  std::vector<Warp> Warps = warpsOf(Shape, 32, Flags);
  std::vector<double> In = makeInputs(ValueType::F32, InputSet::Uniform, Flags.size(), 3);
  Expected Want = referenceWarpReduce(ValueType::F32, Op::Sum, In, Warps);
  std::vector<double> Got(In.size(), 0);
  for (const Warp &W : Warps) {
    float Sum = 0;
    for (const Lane &L : W.Lanes)
      if (L.Active)
        Sum += static_cast<float>(In[L.Element]);
    for (const Lane &L : W.Lanes)
      if (L.Active)
        Got[L.Element] = Sum;
  }
  Comparison C = compare(ValueType::F32, Want, Got);
  EXPECT_TRUE(C.ok()) << C.Detail;
  EXPECT_GT(C.Checked, 1800u);
}

//===--- Stats ------------------------------------------------------------===//

TEST(GpuHarnessStats, Summarize) {
  Summary S = summarize({3, 1, 2, 4});
  EXPECT_EQ(S.Samples, 4u);
  EXPECT_EQ(S.Median, 2.5);
  EXPECT_EQ(S.Mean, 2.5);
  EXPECT_EQ(S.Min, 1);
  EXPECT_EQ(S.Max, 4);
  // Sample variance (2.25 + 0.25 + 0.25 + 2.25) / 3 = 5/3.
  EXPECT_DOUBLE_EQ(S.RelStdDev, std::sqrt(5.0 / 3.0) / 2.5);
  EXPECT_EQ(summarize({5, 1, 3}).Median, 3);
  EXPECT_EQ(summarize({}).Samples, 0u);
}

TEST(GpuHarnessStats, ConstantSamplesStopAtMinSamples) {
  Sampler S;
  std::size_t Added = 0;
  while (!S.done(0.001 * static_cast<double>(Added))) {
    S.add(1e-3);
    ++Added;
    ASSERT_LE(Added, 100u);
  }
  EXPECT_EQ(Added, 10u);
  Summary Sum = S.summary();
  EXPECT_EQ(Sum.StopReason, "noise below 0.5%");
  EXPECT_EQ(Sum.Samples, 10u);
  EXPECT_LT(Sum.RelStdDev, 1e-12); // the mean of ten 1e-3 is not exactly 1e-3
}

TEST(GpuHarnessStats, NoisySamplesStopWhenTheNoiseIsStable) {
  Sampler S;
  std::vector<double> Samples = noisy(1e-3, 0.05, 20000, 9);
  std::size_t Added = 0;
  while (!S.done(0) && Added < Samples.size())
    S.add(Samples[Added++]);
  Summary Sum = S.summary();
  EXPECT_TRUE(Sum.StopReason == "noise stable" || Sum.StopReason == "sample cap") << Sum.StopReason;
  EXPECT_GT(Sum.RelStdDev, 0.03);
  EXPECT_LT(Sum.RelStdDev, 0.07);
  EXPECT_GE(Sum.Samples, 20u);
}

TEST(GpuHarnessStats, ThrottledSamplesAreDiscarded) {
  Sampler S;
  S.add(1.0, 0.5);
  S.add(1.0, 0.74);
  S.add(1.0, 0.75);
  S.add(1.0);
  EXPECT_EQ(S.samples().size(), 2u);
  EXPECT_EQ(S.summary().Discarded, 2u);
}

TEST(GpuHarnessStats, TimeAndSampleCaps) {
  Sampler Slow;
  Slow.add(5.0);
  Slow.add(6.0);
  EXPECT_FALSE(Slow.done(10.0));
  EXPECT_TRUE(Slow.done(15.0));
  EXPECT_EQ(Slow.summary().StopReason, "time cap (below min samples)");

  StoppingRule Rule;
  Rule.MinSamples = 2;
  Rule.MaxSamples = 5;
  Sampler Capped(Rule);
  std::size_t Added = 0;
  while (!Capped.done(0))
    Capped.add(Added++ % 2 ? 1.0 : 2.0); // far too noisy to stop otherwise
  EXPECT_EQ(Added, 5u);
  EXPECT_EQ(Capped.summary().StopReason, "sample cap");

  Sampler Enough;
  for (double V : noisy(1.0, 0.05, 12, 4))
    Enough.add(V);
  EXPECT_TRUE(Enough.done(20.0));
  EXPECT_EQ(Enough.summary().StopReason, "time cap");
}

TEST(GpuHarnessStats, SpeedUpBootstrap) {
  std::vector<double> Before = noisy(2.0, 0.01, 200, 1);
  std::vector<double> After = noisy(1.0, 0.01, 200, 2);
  SpeedUp S = speedUp(Before, After);
  EXPECT_NEAR(S.Estimate, 2.0, 0.01);
  EXPECT_LE(S.Low, S.Estimate);
  EXPECT_GE(S.High, S.Estimate);
  EXPECT_LT(S.Low, 2.0);
  EXPECT_GT(S.High, 2.0);
  EXPECT_GT(S.Low, 1.9);
  EXPECT_LT(S.High, 2.1);
  EXPECT_EQ(S.Confidence, 0.95);
  SpeedUp Again = speedUp(Before, After);
  EXPECT_EQ(Again.Low, S.Low);
  EXPECT_EQ(Again.High, S.High);
  EXPECT_EQ(classify(S), Gain::Faster);
  EXPECT_EQ(speedUp({}, After).Estimate, 0);
}

TEST(GpuHarnessStats, Classify) {
  EXPECT_EQ(classify({1.5, 1.4, 1.6, 0.95}), Gain::Faster);
  EXPECT_EQ(classify({1.0, 0.97, 1.03, 0.95}), Gain::Parity);
  EXPECT_EQ(classify({0.5, 0.45, 0.55, 0.95}), Gain::Slower);
  EXPECT_EQ(classify({1.03, 1.01, 1.05, 0.95}), Gain::Parity); // low end within the margin
  EXPECT_EQ(classify({1.03, 1.01, 1.05, 0.95}, 0.0), Gain::Faster);
  EXPECT_STREQ(gainName(Gain::Parity), "parity");
}

//===--- Report -----------------------------------------------------------===//

namespace {

Comparison passing() {
  Comparison C;
  C.Checked = 4096;
  return C;
}

Comparison failing(double MaxUlp) {
  Comparison C;
  C.Checked = 4096;
  C.Mismatches = 3;
  C.MaxUlp = MaxUlp;
  C.FirstMismatch = 37;
  C.Detail = "element 37: got 1.5, expected 2 (bound 0, 4194304 ulp)";
  return C;
}

CaseResult result(std::string Rule, std::string Case, std::string Type, std::string Shape,
                  std::string Inputs, Comparison Before, Comparison After,
                  Verdict Outcome = Verdict::Equivalent) {
  CaseResult R;
  R.Outcome = Outcome;
  R.Rule = std::move(Rule);
  R.Case = std::move(Case);
  R.Type = std::move(Type);
  R.Shape = std::move(Shape);
  R.Inputs = std::move(Inputs);
  R.Before = std::move(Before);
  R.After = std::move(After);
  return R;
}

void setTiming(CaseResult &R, double BeforeSeconds, double AfterSeconds, SpeedUp S) {
  R.Timed = true;
  R.BeforeTime.Median = BeforeSeconds;
  R.BeforeTime.Samples = 40;
  R.BeforeTime.StopReason = "noise below 0.5%";
  R.AfterTime.Median = AfterSeconds;
  R.AfterTime.Samples = 25;
  R.AfterTime.Discarded = 2;
  R.AfterTime.StopReason = "noise stable";
  R.Speed = S;
  R.BeforeBatch = BeforeSeconds * 0.5; // batched launches hide the launch overhead
  R.AfterBatch = AfterSeconds * 0.5;
}

RunInfo run() { return {"NVIDIA H200", "570.86", "CUDA", "2026-11-30", "5cbe0af"}; }

std::vector<CaseResult> results() {
  std::vector<CaseResult> Out;
  Out.push_back(result("luisa-butterfly-reduction", "butterfly_sum", "u32", "full-warps", "uniform",
                       passing(), passing(), Verdict::Equivalent));
  setTiming(Out.back(), 4.1e-6, 1e-6, {4.10, 4.02, 4.18, 0.95});
  Out.push_back(result("luisa-butterfly-reduction", "butterfly_sum", "f32", "partial-tail",
                       "special", failing(INFINITY), passing(), Verdict::RewriteFixes));
  Out.push_back(result("luisa-sequential-scan", "scan_sum_inclusive", "f32", "full-warps",
                       "uniform", passing(), failing(3), Verdict::RewriteBreaks));
  setTiming(Out.back(), 2.5e-6, 2.5e-6, {1.00, 0.99, 1.01, 0.95});
  Out.push_back(result("luisa-sequential-scan", "scan_sum_inclusive", "i32", "odd-lanes", "uniform",
                       failing(1), failing(2), Verdict::BothWrong));
  return Out;
}

} // namespace

namespace {

/// One warp of four active lanes summing {1, 2, 3, 4} exactly: each lane's
/// reference is 10.
Expected fourLaneSum(ValueType Type = ValueType::U32) {
  return referenceWarpReduce(Type, Op::Sum, {1, 2, 3, 4}, oneWarp({1, 1, 1, 1}));
}

RunOutput output(std::vector<double> Values, std::vector<bool> Undefined = {}) {
  RunOutput Out;
  Out.Value = std::move(Values);
  Out.Undefined = std::move(Undefined);
  return Out;
}

} // namespace

TEST(GpuHarnessReport, VerdictsJudgeTheRewriteAgainstTheOriginal) {
  Expected Want = fourLaneSum();
  RunOutput Right = output({10, 10, 10, 10});
  EXPECT_EQ(judge(ValueType::U32, Want, Right, Right).Outcome, Verdict::Equivalent);
  // The original is right; the rewrite differs in one element, or leaves it undefined.
  Judgement Breaks = judge(ValueType::U32, Want, Right, output({10, 10, 9, 10}));
  EXPECT_EQ(Breaks.Outcome, Verdict::RewriteBreaks);
  EXPECT_EQ(Breaks.Detail, "element 2: 10 before, 9 after, expected 10 (bound 0)");
  EXPECT_EQ(judge(ValueType::U32, Want, Right, output({10, 10, 10, 10}, {0, 1, 0, 0})).Detail,
            "element 1: 10 before, undefined after, expected 10");
  // A group butterfly (defined, not the reference's whole-warp sum) widened to
  // the whole warp: the rewrite computes what the rule thinks, not what the
  // original does.
  RunOutput Groups = output({3, 3, 7, 7});
  Judgement Widened = judge(ValueType::U32, Want, Groups, Right);
  EXPECT_EQ(Widened.Outcome, Verdict::RewriteBreaks);
  EXPECT_EQ(Widened.Detail, "element 0: 3 before, 10 after, expected 10");
  // Both defined and equally off the reference: the case (or its reference) is wrong.
  EXPECT_EQ(judge(ValueType::U32, Want, Groups, Groups).Outcome, Verdict::BothWrong);
  // Where the original is undefined, the rewrite must be right or undefined.
  RunOutput Partial = output({10, 0, 10, 10}, {0, 1, 0, 0});
  EXPECT_EQ(judge(ValueType::U32, Want, Partial, Right).Outcome, Verdict::RewriteFixes);
  EXPECT_EQ(judge(ValueType::U32, Want, Partial, Partial).Outcome, Verdict::BothUndefined);
  Judgement Wrong = judge(ValueType::U32, Want, Partial, output({10, 11, 10, 10}));
  EXPECT_EQ(Wrong.Outcome, Verdict::BothWrong);
  EXPECT_EQ(Wrong.Detail, "element 1: undefined before, 11 after, expected 10");
  // Elements the reference does not define (nobody writes them) must stay as they were.
  Expected Half = referenceWarpReduce(ValueType::U32, Op::Sum, {1, 2, 3, 4}, oneWarp({1, 0, 1, 0}));
  EXPECT_EQ(judge(ValueType::U32, Half, output({4, 0, 4, 0}), output({4, 0, 4, 0})).Outcome,
            Verdict::Equivalent);
  EXPECT_EQ(judge(ValueType::U32, Half, output({4, 0, 4, 0}), output({4, 7, 4, 0})).Outcome,
            Verdict::RewriteBreaks);
  EXPECT_TRUE(isFailure(Verdict::RewriteBreaks));
  EXPECT_TRUE(isFailure(Verdict::BothWrong));
  EXPECT_FALSE(isFailure(Verdict::RewriteFixes));
  EXPECT_FALSE(isFailure(Verdict::BothUndefined));
  EXPECT_STREQ(verdictName(Verdict::RewriteFixes), "rewrite-fixes-original");
  EXPECT_STREQ(verdictName(Verdict::BothUndefined), "both-undefined");
  EXPECT_STREQ(verdictName(Verdict::BothWrong), "both-wrong");
}

TEST(GpuHarnessReport, VerdictsCountHazardsTheRewriteAdds) {
  Expected Want = fourLaneSum();
  RunOutput Before = output({10, 10, 10, 10}), After = Before;
  After.Hazards[static_cast<int>(Hazard::DivergentBarrier)] = 2;
  Judgement J = judge(ValueType::U32, Want, Before, After);
  EXPECT_EQ(J.Outcome, Verdict::RewriteBreaks);
  EXPECT_EQ(J.Detail, "the rewrite has 2 divergent barrier events, the original 0");
  After.Hazards[static_cast<int>(Hazard::DivergentBarrier)] = 0;
  After.Hazards[static_cast<int>(Hazard::Race)] = 1;
  EXPECT_EQ(judge(ValueType::U32, Want, Before, After).Detail,
            "the rewrite has 1 race events, the original 0");
  // A hazard the original has too is not the rewrite's doing.
  Before.Hazards[static_cast<int>(Hazard::Race)] = 1;
  EXPECT_EQ(judge(ValueType::U32, Want, Before, After).Outcome, Verdict::Equivalent);
}

TEST(GpuHarnessReport, FloatVerdictsUseTheOperandsBound) {
  // Huge inputs where some order overflows: a rewrite that returns 0 fails,
  // one that overflows or rounds differently passes.
  Expected Want =
      referenceWarpReduce(ValueType::F32, Op::Sum, {3e38, 3e38, -3e38, 1}, oneWarp({1, 1, 1, 1}));
  double Exact = roundTo(ValueType::F32, 3e38);
  RunOutput Before = output({Exact, Exact, Exact, Exact});
  EXPECT_EQ(judge(ValueType::F32, Want, Before, output({0, 0, 0, 0})).Outcome,
            Verdict::RewriteBreaks);
  EXPECT_EQ(judge(ValueType::F32, Want, Before, output({INFINITY, Exact, Exact, Exact})).Outcome,
            Verdict::Equivalent);
  // An original off the reference (the case's own ordering): the rewrite must
  // stay within twice the bound of it.
  Expected Small =
      referenceWarpReduce(ValueType::F32, Op::Sum, {1, 2, 3, 4}, oneWarp({1, 1, 1, 1}));
  RunOutput Off = output({11, 11, 11, 11});
  EXPECT_EQ(judge(ValueType::F32, Small, Off, output({11, 11, 11, 11})).Outcome,
            Verdict::BothWrong);
  EXPECT_EQ(judge(ValueType::F32, Small, Off, output({10, 10, 10, 10})).Outcome,
            Verdict::RewriteBreaks);
}

TEST(GpuHarnessReport, UndefinedElementsAreMismatches) {
  Expected Want = fourLaneSum();
  Comparison C = compare(ValueType::U32, Want, output({10, 10, 10, 10}, {0, 0, 1, 1}));
  EXPECT_EQ(C.Mismatches, 2u);
  EXPECT_EQ(C.FirstMismatch, 2u);
  EXPECT_EQ(C.Detail, "element 2: undefined (computed from an undefined read), 2 such elements");
}

TEST(GpuHarnessReference, AppendRegionsUndefinedAsAWhole) {
  std::vector<bool> Undefined{false, false, false, true, false, false, false};
  widenToRegions(Undefined, 2, AppendLayout{true, 3, false});
  EXPECT_EQ(Undefined, (std::vector<bool>{false, false, false, true, true, true, false}));
  std::vector<bool> Global{true, false, true, false};
  widenToRegions(Global, 1, AppendLayout{false, 3, false});
  EXPECT_EQ(Global, (std::vector<bool>{true, true, true, true}));
}

TEST(GpuHarnessReport, Json) {
  nlohmann::json J = nlohmann::json::parse(toJson(run(), results()));
  EXPECT_EQ(J["schema"], "kernel-tidy-gpu-harness/1");
  EXPECT_EQ(J["run"]["gpu"], "NVIDIA H200");
  EXPECT_EQ(J["run"]["driver"], "570.86");
  EXPECT_EQ(J["run"]["backend"], "CUDA");
  EXPECT_EQ(J["run"]["date"], "2026-11-30");
  EXPECT_EQ(J["run"]["kernel_tidy_commit"], "5cbe0af");
  ASSERT_EQ(J["results"].size(), 4u);
  const nlohmann::json &First = J["results"][0];
  EXPECT_EQ(First["rule"], "luisa-butterfly-reduction");
  EXPECT_EQ(First["case"], "butterfly_sum");
  EXPECT_EQ(First["type"], "u32");
  EXPECT_EQ(First["shape"], "full-warps");
  EXPECT_EQ(First["inputs"], "uniform");
  EXPECT_EQ(First["verdict"], "equivalent");
  EXPECT_EQ(First["before"]["checked"], 4096);
  EXPECT_EQ(First["before"]["mismatches"], 0);
  EXPECT_EQ(First["before"]["max_ulp"], 0);
  EXPECT_EQ(First["timing"]["before"]["median_s"], 4.1e-6);
  EXPECT_EQ(First["timing"]["before"]["samples"], 40);
  EXPECT_EQ(First["timing"]["after"]["discarded"], 2);
  EXPECT_EQ(First["timing"]["after"]["stop_reason"], "noise stable");
  EXPECT_TRUE(First["timing"]["before"].contains("rel_stddev"));
  EXPECT_EQ(First["timing"]["speed_up"]["estimate"], 4.10);
  EXPECT_DOUBLE_EQ(First["timing"]["batch_before_s"].get<double>(), 2.05e-6);
  EXPECT_EQ(First["timing"]["speed_up"]["low"], 4.02);
  EXPECT_EQ(First["timing"]["speed_up"]["high"], 4.18);
  EXPECT_EQ(First["timing"]["speed_up"]["confidence"], 0.95);
  const nlohmann::json &Second = J["results"][1];
  EXPECT_FALSE(Second.contains("timing"));
  EXPECT_EQ(Second["verdict"], "rewrite-fixes-original");
  EXPECT_EQ(Second["before"]["max_ulp"], "inf");
  EXPECT_EQ(Second["before"]["mismatches"], 3);
  EXPECT_EQ(Second["before"]["detail"], failing(0).Detail);
  EXPECT_EQ(J["results"][2]["verdict"], "rewrite-breaks");
  EXPECT_EQ(J["results"][3]["verdict"], "both-wrong");
  EXPECT_EQ(J["summary"]["cases"], 4);
  EXPECT_EQ(J["summary"]["equivalent"], 1);
  EXPECT_EQ(J["summary"]["rewrite_fixes_original"], 1);
  EXPECT_EQ(J["summary"]["both_undefined"], 0);
  EXPECT_EQ(J["summary"]["rewrite_breaks"], 1);
  EXPECT_EQ(J["summary"]["both_wrong"], 1);
}

TEST(GpuHarnessReport, Markdown) {
  std::string Md = toMarkdown(run(), results());
  EXPECT_NE(Md.find("GPU: NVIDIA H200\n"), std::string::npos);
  EXPECT_NE(Md.find("Driver: 570.86\n"), std::string::npos);
  EXPECT_NE(Md.find("Backend: CUDA\n"), std::string::npos);
  EXPECT_NE(Md.find("Date: 2026-11-30\n"), std::string::npos);
  std::string Header =
      "| rule | case | type | shape | inputs | verdict | max ulp before | max ulp "
      "after | before (us) | after (us) | speed-up [95% CI] | batch before (us) | batch after "
      "(us) |\n";
  std::size_t At = Md.find(Header);
  ASSERT_NE(At, std::string::npos);
  // Rows sorted: within butterfly_sum, f32 before u32.
  std::vector<std::string> Rows{
      "| luisa-butterfly-reduction | butterfly_sum | f32 | partial-tail | special | "
      "rewrite-fixes-original | inf | 0 | - | - | - | - | - |\n",
      "| luisa-butterfly-reduction | butterfly_sum | u32 | full-warps | uniform | equivalent | "
      "0 | 0 | 4.10 | 1.00 | 4.10x [4.02, 4.18] | 2.05 | 0.50 |\n",
      "| luisa-sequential-scan | scan_sum_inclusive | f32 | full-warps | uniform | "
      "rewrite-breaks | 0 | 3 | 2.50 | 2.50 | 1.00x [0.99, 1.01] | 1.25 | 1.25 |\n",
      "| luisa-sequential-scan | scan_sum_inclusive | i32 | odd-lanes | uniform | both-wrong | "
      "1 | 2 | - | - | - | - | - |\n"};
  std::size_t Last = At;
  for (const std::string &Row : Rows) {
    std::size_t Found = Md.find(Row);
    ASSERT_NE(Found, std::string::npos) << Row << "\n" << Md;
    EXPECT_GT(Found, Last) << Row;
    Last = Found;
  }
  std::size_t TableLines = 0;
  for (std::size_t Pos = At; (Pos = Md.find("\n| ", Pos)) != std::string::npos; ++Pos)
    ++TableLines;
  EXPECT_EQ(TableLines, 4u); // one per result (the header starts at At itself)
  EXPECT_NE(Md.find("4 cases: 1 equivalent, 1 rewrite-fixes-original, 0 both-undefined, "
                    "1 rewrite-breaks, 1 both-wrong."),
            std::string::npos);
}

TEST(GpuHarnessReport, MarkdownSaysSimtRowsAreNotTimed) {
  RunInfo Simt = run();
  Simt.Backend = "simt";
  std::string Md = toMarkdown(Simt, results());
  EXPECT_NE(Md.find("| rewrite-fixes-original | inf | 0 | not timed (simt) | not timed (simt) | "
                    "not timed (simt) | not timed (simt) | not timed (simt) |\n"),
            std::string::npos)
      << Md;
}

/// The compiled counts of a butterfly as docs/compiled-counts.json has them
/// (the kinds a verdict reads), for sm_75 and sm_80.
const char *const CompiledButterfly = R"({"archs": ["sm_75", "sm_80"], "cases": [
  {"case": "butterfly_sum", "suffix": "u32", "counts": {
    "sm_75": {"before": {"shfl": 5, "redux": 0, "total": 60, "loops": 0},
              "after": {"shfl": 5, "redux": 0, "total": 81, "loops": 0}},
    "sm_80": {"before": {"shfl": 5, "redux": 0, "total": 60, "loops": 0},
              "after": {"shfl": 0, "redux": 1, "total": 40, "loops": 0}}}}]})";

CostCounts costs(double Shuffles, double Reductions, double GlobalAtomicLanes,
                 double AtomicDepth = 0) {
  return {{"warps", 128},
          {"shuffles", Shuffles},
          {"reductions", Reductions},
          {"global_atomic_lanes", GlobalAtomicLanes},
          {"atomic_depth", AtomicDepth, true}};
}

TEST(GpuHarnessCosts, ExecutorVerdictNamesEachChangedCounterPerWarp) {
  EXPECT_EQ(executorVerdict(costs(0, 0, 32), costs(0, 0, 1)),
            "fewer: global atomic lanes 32 -> 1 per warp");
  // A maximum is no average: it comes last, without "per warp".
  EXPECT_EQ(executorVerdict(costs(0, 0, 32, 32), costs(0, 1, 1, 1)),
            "mixed: reductions 0 -> 1, global atomic lanes 32 -> 1 per warp; atomic depth 32 -> 1");
  EXPECT_EQ(executorVerdict(costs(0, 0, 0, 4), costs(0, 0, 0, 1)), "fewer: atomic depth 4 -> 1");
  EXPECT_EQ(executorVerdict(costs(5, 0, 0), costs(0, 1, 0)),
            "mixed: shuffles 5 -> 0, reductions 0 -> 1 per warp");
  EXPECT_EQ(executorVerdict(costs(0, 1, 0), costs(5, 1, 0)), "more: shuffles 0 -> 5 per warp");
  // The warp count is no cost: two runs of other sizes with the same work are the same.
  CostCounts Larger = costs(5, 0, 0);
  Larger[0].Value = 256;
  EXPECT_EQ(executorVerdict(costs(5, 0, 0), Larger), "same");
  EXPECT_EQ(executorVerdict(costs(0.5, 0, 0), costs(0.25, 0, 0)),
            "fewer: shuffles 0.5 -> 0.25 per warp");
}

TEST(GpuHarnessCosts, CompiledCountsVerdictsAsCompiledCountsPyDrawsThem) {
  CompiledCounts Cases = parseCompiledCounts(CompiledButterfly);
  ASSERT_EQ(Cases.count("butterfly_sum_u32"), 1u);
  const CompiledCase &Case = Cases.at("butterfly_sum_u32");
  ASSERT_EQ(Case.size(), 2u);
  EXPECT_EQ(compiledVerdict(Case[0]), "more");
  EXPECT_EQ(compiledVerdict(Case[1]), "fewer");
  EXPECT_EQ(compiledSummary(Case), "sm_75: more (total 60 -> 81); "
                                   "sm_80: fewer (shfl 5 -> 0, redux 0 -> 1, total 60 -> 40)");
  // Within 10% of the total (at least 2) and as much communication: the same; a loop
  // in either version decides nothing.
  CompiledArch Same{"sm_90", {{"shfl", 1}, {"total", 30}}, {{"shfl", 1}, {"total", 32}}};
  EXPECT_EQ(compiledVerdict(Same), "same");
  CompiledArch Mixed{"sm_90", {{"shfl", 1}, {"total", 30}}, {{"bar", 2}, {"total", 20}}};
  EXPECT_EQ(compiledVerdict(Mixed), "mixed");
  Same.After["loops"] = 1;
  EXPECT_EQ(compiledVerdict(Same), "loop");
  EXPECT_THROW(parseCompiledCounts("{\"cases\": 3}"), std::runtime_error);
  EXPECT_THROW(parseCompiledCounts("not json"), std::runtime_error);
  EXPECT_THROW(parseCompiledCounts(R"({"archs": ["sm_80"], "cases": [{"case": "x"}]})"),
               std::runtime_error);
}

TEST(GpuHarnessCosts, ReportHasTheCostsOfEachRunAndAVerdictPerFix) {
  std::vector<CaseResult> Results = results();
  // The full-warps uniform run stands for its fix, whatever the order of the runs.
  Results.insert(Results.begin(), result("luisa-butterfly-reduction", "butterfly_sum", "u32",
                                         "odd-lanes", "uniform", passing(), passing()));
  Results[0].BeforeCosts = costs(9, 9, 9);
  Results[0].AfterCosts = costs(9, 9, 9);
  Results[1].BeforeCosts = costs(5, 0, 0);
  Results[1].AfterCosts = costs(0, 1, 0);
  Results[2].BeforeCosts = costs(1, 0, 0);
  Results[2].AfterCosts = costs(1, 0, 0);
  CompiledCounts Compiled = parseCompiledCounts(CompiledButterfly);
  nlohmann::json J = nlohmann::json::parse(toJson(run(), Results, Compiled));
  EXPECT_EQ(J["results"][1]["costs"]["before"]["shuffles"], 5);
  EXPECT_EQ(J["results"][1]["costs"]["after"]["reductions"], 1);
  // Per result, the counters that are 0 are left out; per fix all are there.
  EXPECT_FALSE(J["results"][1]["costs"]["after"].contains("shuffles"));
  EXPECT_EQ(J["fixes"][0]["executor"]["after"]["shuffles"], 0);
  EXPECT_EQ(J["results"][1]["costs"]["verdict"],
            "mixed: shuffles 5 -> 0, reductions 0 -> 1 per warp");
  EXPECT_FALSE(J["results"][3].contains("costs"));
  // butterfly_sum u32 and f32 are fixes of their own; the scans have neither counters
  // nor compiled counts.
  ASSERT_EQ(J["fixes"].size(), 2u) << J["fixes"].dump(1);
  const nlohmann::json &Fix = J["fixes"][0];
  EXPECT_EQ(Fix["case"], "butterfly_sum");
  EXPECT_EQ(Fix["type"], "u32");
  EXPECT_EQ(Fix["executor"]["shape"], "full-warps");
  EXPECT_EQ(Fix["executor"]["verdict"], "mixed: shuffles 5 -> 0, reductions 0 -> 1 per warp");
  EXPECT_EQ(Fix["compiled"]["verdicts"]["sm_75"], "more");
  EXPECT_EQ(Fix["compiled"]["verdicts"]["sm_80"], "fewer");
  EXPECT_EQ(J["fixes"][1]["type"], "f32");
  EXPECT_EQ(J["fixes"][1]["executor"]["verdict"], "same");
  EXPECT_FALSE(J["fixes"][1].contains("compiled"));

  std::string Md = toMarkdown(run(), Results, Compiled);
  EXPECT_NE(Md.find("## Costs per fix"), std::string::npos);
  EXPECT_NE(Md.find("| luisa-butterfly-reduction | butterfly_sum | u32 | mixed: shuffles 5 -> 0, "
                    "reductions 0 -> 1 per warp | sm_75: more (total 60 -> 81); sm_80: fewer "
                    "(shfl 5 -> 0, redux 0 -> 1, total 60 -> 40) |\n"),
            std::string::npos)
      << Md;
  // Without counters or compiled counts there is no such table.
  EXPECT_EQ(toMarkdown(run(), results()).find("## Costs per fix"), std::string::npos);
}

TEST(GpuHarnessReport, ProfitabilityLines) {
  std::vector<CaseResult> Results = results();
  // A timed result on another input set is left out.
  Results.push_back(result("luisa-butterfly-reduction", "butterfly_max", "u32", "full-warps",
                           "special", passing(), passing()));
  setTiming(Results.back(), 2e-6, 1e-6, {2, 1.9, 2.1, 0.95});
  // An atomic add is reduced with a sum: the op comes from the case's Op,
  // not from its name.
  Results.push_back(result("luisa-shared-atomic-counter", "atomic_add", "f32", "full-warps",
                           "uniform", passing(), passing()));
  Results.back().Operation = std::string(profitabilityOp(Op::Sum));
  setTiming(Results.back(), 3e-6, 1e-6, {3, 2.9, 3.1, 0.95});
  EXPECT_EQ(
      toProfitabilityLines(run(), Results),
      "KERNEL_TIDY_GAIN(\"luisa-butterfly-reduction\", \"sum\", \"int\", \"cuda\", Faster, "
      "\"measured: NVIDIA H200, driver 570.86, 2026-11-30: 4.10x [4.02, 4.18]\")\n"
      "KERNEL_TIDY_GAIN(\"luisa-sequential-scan\", \"sum\", \"float\", \"cuda\", Parity, "
      "\"measured: NVIDIA H200, driver 570.86, 2026-11-30: 1.00x [0.99, 1.01]\")\n"
      "KERNEL_TIDY_GAIN(\"luisa-shared-atomic-counter\", \"sum\", \"float\", \"cuda\", Faster, "
      "\"measured: NVIDIA H200, driver 570.86, 2026-11-30: 3.00x [2.90, 3.10]\")\n");
  EXPECT_EQ("and", profitabilityOp(Op::BitAnd));
}

namespace {

TEST(GpuHarnessLaunch, OneIn32MaskSelectsOneLanePerWarp) {
  LaunchShape Shape{"one-in-32", 256, 1, 64, 1, LaneMask::OneIn32};
  std::vector<std::uint32_t> Flags = activeFlags(Shape, 1);
  std::uint32_t Active = 0;
  for (std::size_t I = 0; I < Flags.size(); ++I) {
    Active += Flags[I];
    EXPECT_EQ(Flags[I], I % 32 == 0 ? 1u : 0u) << I;
  }
  EXPECT_EQ(Active, 8u);
}

TEST(GpuHarnessReference, AppendsAreSortedRegions) {
  // Two blocks of 4 threads, 4-lane warps; threads 1, 2 of block 0 and 4 of
  // block 1 active.
  LaunchShape Shape{"tiny", 8, 1, 4, 1, LaneMask::All};
  std::vector<std::uint32_t> Flags{0, 1, 1, 0, 1, 0, 0, 0};
  std::vector<Warp> Warps = warpsOf(Shape, 4, Flags);
  std::vector<double> In{9, 7, 5, 3, 6, 1, 1, 1};
  Expected PerBlock = referenceAppend(In, Warps, 2, AppendLayout{true, 4, false}, 0);
  EXPECT_EQ(PerBlock.Value, (std::vector<double>{0, 0, 5, 7, 0, 0, 0, 6}));
  Expected Weighted = referenceAppend(In, Warps, 2, AppendLayout{false, 32, true}, 0);
  // (7 & 3) + 1 = 4, (5 & 3) + 1 = 2, (6 & 3) + 1 = 3 items: 9 in out[0].
  EXPECT_EQ(Weighted.Value[0], 9);
  EXPECT_EQ(std::count(Weighted.Value.begin() + 1, Weighted.Value.end(), 7.0), 4);
  EXPECT_EQ(std::count(Weighted.Value.begin() + 1, Weighted.Value.end(), 6.0), 3);
  // A device output in another order compares equal once sorted.
  std::vector<double> Device{9, 6, 6, 6, 7, 7, 7, 7, 5, 5};
  Device.resize(33, 0);
  sortAppendRegions(Device, 2, AppendLayout{false, 32, true});
  EXPECT_EQ(compare(ValueType::U32, Weighted, Device).Mismatches, 0u);
}

TEST(GpuHarnessReference, SubmissionStepsKeepTheirOrder) {
  // out = out * 3 + k for k = 0, 1, 2: 1 -> 3 -> 10 -> 32; 0 -> 0 -> 1 -> 5.
  Expected E = referenceSubmissionSteps({1, 0, 4294967295.0}, 3);
  EXPECT_EQ(E.Value[0], 32);
  EXPECT_EQ(E.Value[1], 5);
  // Wraps modulo 2^32: (2^32 - 1) * 3 = 2^32 - 3 -> ... -> 2^32 - 27 + 5.
  EXPECT_EQ(E.Value[2], 4294967296.0 - 27 + 5);
  // Steps 1 and 0 swapped: 1 -> 4 -> 12 -> 38 differs.
  EXPECT_EQ(compare(ValueType::U32, E, {38, 5, E.Value[2]}).Mismatches, 1u);
  EXPECT_EQ(compare(ValueType::U32, E, {32, 5, E.Value[2]}).Mismatches, 0u);
  EXPECT_EQ(referenceSubmissionSteps({7}, 0).Value[0], 7);
}

} // namespace
