// The GPU harness's oracle against deliberately wrong rewrites of its own cases (issue 45
// item 7): for each class of wrong rewrite, an original written as the harness's case is
// and a rewrite with that one fault, run on the executor on the harness's shapes and input
// sets and judged as the harness judges (core/Report.h, judge). Each wrong rewrite must
// fail on some launch; the right rewrite of the same original must pass on every one, so
// that a failure is the fault's and not the oracle's.
#include <simt/Simt.h>

#include "CaseKernel.h"
#include "CaseTable.h"
#include "Inputs.h"
#include "Launch.h"
#include "Report.h"

#include <luisa/dsl/sugar.h>

#include <gtest/gtest.h>

#include <cstring>
#include <type_traits>

using namespace luisa;
using namespace luisa::compute;
namespace simt = kernel_tidy::simt;
namespace harness = kernel_tidy::harness;
using harness::CaseKernel;
using harness::Judgement;
using harness::ValueType;
using harness::Verdict;

namespace {

/// One launch of a case version on the executor, as the harness reads it back.
template <typename T>
harness::RunOutput execute(const CaseKernel<T> &Kernel, ValueType Type, const harness::LaunchShape &Shape,
                           const std::vector<double> &In, const std::vector<std::uint32_t> &Flags,
                           std::size_t Outputs, double Init) {
  simt::Buffer InB(luisa::compute::Type::of<T>(), In.size());
  simt::Buffer OutB(luisa::compute::Type::of<T>(), Outputs);
  std::vector<std::byte> InBytes = harness::toDeviceBytes(Type, In);
  std::vector<std::byte> OutBytes = harness::toDeviceBytes(Type, std::vector<double>(Outputs, Init));
  std::memcpy(InB.data(), InBytes.data(), InBytes.size());
  std::memcpy(OutB.data(), OutBytes.data(), OutBytes.size());
  simt::Buffer ActiveB = simt::Buffer::of(Flags);
  std::vector<simt::Argument> Args{&InB, &OutB, &ActiveB, simt::Uniform::of(1u)};
  simt::LaunchOptions O;
  O.DispatchSize[0] = Shape.Width;
  O.DispatchSize[1] = Shape.Height;
  O.Seed = 20261130;
  simt::RunResult R = simt::run(Kernel.function()->function(), Args, O);
  harness::RunOutput Out;
  Out.Value = harness::fromDeviceBytes(Type, OutB.data(), Outputs);
  for (std::size_t I = 0; I < Outputs; ++I)
    Out.Undefined.push_back(OutB.undefined(I));
  Out.Hazards[int(harness::Hazard::DivergentBarrier)] = R.count(simt::EventKind::DivergentBarrier);
  Out.Hazards[int(harness::Hazard::OutOfBounds)] = R.count(simt::EventKind::OutOfBounds);
  Out.Hazards[int(harness::Hazard::UndefinedUse)] = R.count(simt::EventKind::UndefinedUse);
  Out.Hazards[int(harness::Hazard::Race)] = R.count(simt::EventKind::Race);
  return Out;
}

/// The first failing verdict of \p Rewrite against \p Original over \p Shapes and every
/// input set of \p Type, as "shape/inputs: detail"; "" when every launch passes.
template <typename T>
std::string firstFailure(const char *CaseName, ValueType Type, const CaseKernel<T> &Original,
                         const CaseKernel<T> &Rewrite, const std::vector<harness::LaunchShape> &Shapes) {
  const harness::CaseSpec &Spec = *harness::findCase(CaseName);
  double Init = harness::initialValue(Spec, Type);
  for (const harness::LaunchShape &Shape : Shapes) {
    std::vector<std::uint32_t> Flags = harness::activeFlags(Shape, 20261130);
    std::vector<harness::Warp> Warps = harness::warpsOf(Shape, 32, Flags);
    std::uint32_t Blocks = harness::blockCount(Shape);
    for (harness::InputSet Set : {harness::InputSet::Uniform, harness::InputSet::Special, harness::InputSet::AllEqual,
                                  harness::InputSet::Extremes, harness::InputSet::Duplicates}) {
      if (!harness::appliesTo(Set, Type))
        continue;
      std::vector<double> In = harness::makeInputs(Type, Set, std::size_t(Shape.Width) * Shape.Height, 20261130);
      harness::Expected Want;
      std::size_t Outputs = In.size();
      switch (Spec.Kind) {
      case harness::Pattern::WarpReduce:
        Want = harness::referenceWarpReduce(Type, Spec.Operation, In, Warps);
        break;
      case harness::Pattern::WarpScanInclusive:
        Want = harness::referenceWarpScan(Type, Spec.Operation, In, Warps, true, Init);
        break;
      case harness::Pattern::BlockReduce:
        Want = harness::referenceBlockAtomic(Type, Spec.Operation, In, Warps, Blocks, Init);
        Outputs = Blocks;
        break;
      case harness::Pattern::GlobalAtomic: {
        std::vector<harness::Warp> One = Warps;
        for (harness::Warp &W : One)
          W.Block = 0;
        Want = harness::referenceBlockAtomic(Type, Spec.Operation, In, One, 1, Init);
        Outputs = 1;
        break;
      }
      default:
        ADD_FAILURE() << "pattern not used here";
        return "";
      }
      harness::RunOutput Before = execute(Original, Type, Shape, In, Flags, Outputs, Init);
      harness::RunOutput After = execute(Rewrite, Type, Shape, In, Flags, Outputs, Init);
      Judgement J = harness::judge(Type, Want, Before, After);
      if (harness::isFailure(J.Outcome))
        return Shape.Name + "/" + std::string(harness::inputSetName(Set)) + ": " + harness::verdictName(J.Outcome) +
               ": " + J.Detail;
    }
  }
  return "";
}

std::vector<harness::LaunchShape> shapesNamed(std::vector<harness::LaunchShape> All,
                                              std::initializer_list<const char *> Names) {
  std::vector<harness::LaunchShape> Chosen;
  for (const harness::LaunchShape &S : All)
    for (const char *Name : Names)
      if (S.Name == Name)
        Chosen.push_back(S);
  return Chosen;
}

// --- the originals, as the harness's cases write them ----------------------------------

template <typename T> CaseKernel<T> globalCounter() {
  return [](BufferVar<T> in, BufferVar<T> out, BufferUInt active, UInt repeats) noexcept {
    set_block_size(256u, 1u, 1u);
    UInt element = dispatch_y() * dispatch_size_x() + dispatch_x();
    $if (active.read(element) != 0u) {
      Var<T> x = in.read(element);
      $for (r, repeats) { out.atomic(0u).fetch_add(x); };
    };
  };
}

/// block_privatized_counter's rewrite, with the faults of \p Zeroed (the Shared
/// accumulator set to 0 first) and \p LastBarrierForAll (else only warp 0 waits at it).
template <typename T> CaseKernel<T> privatizedCounter(bool Zeroed, bool LastBarrierForAll) {
  return [=](BufferVar<T> in, BufferVar<T> out, BufferUInt active, UInt repeats) noexcept {
    set_block_size(256u, 1u, 1u);
    Shared<T> block_sum{1u};
    if (Zeroed) {
      $if (thread_x() == 0u) { block_sum.write(0u, T(0)); };
    }
    sync_block();
    UInt element = dispatch_y() * dispatch_size_x() + dispatch_x();
    $if (active.read(element) != 0u) {
      Var<T> x = in.read(element);
      $for (r, repeats) {
        auto warp_sum = warp_active_sum(x);
        $if (warp_is_first_active_lane()) { block_sum.atomic(0u).fetch_add(warp_sum); };
      };
    };
    if (LastBarrierForAll) {
      sync_block();
    } else {
      $if (thread_x() < 32u) { sync_block(); };
    }
    $if (thread_x() == 0u) { out.atomic(0u).fetch_add(block_sum.read(0u)); };
  };
}

/// warp_global_counter's rewrite: the warp's leader adds the warp's sum, atomically or
/// (the fault) with a plain read and write.
template <typename T> CaseKernel<T> warpAggregatedCounter(bool Atomic) {
  return [=](BufferVar<T> in, BufferVar<T> out, BufferUInt active, UInt repeats) noexcept {
    set_block_size(256u, 1u, 1u);
    UInt element = dispatch_y() * dispatch_size_x() + dispatch_x();
    $if (active.read(element) != 0u) {
      Var<T> x = in.read(element);
      $for (r, repeats) {
        auto warp_sum = warp_active_sum(x);
        $if (warp_is_first_active_lane()) {
          if (Atomic) {
            out.atomic(0u).fetch_add(warp_sum);
          } else {
            out.write(0u, out.read(0u) + warp_sum);
          }
        };
      };
    };
  };
}

/// tree_sum_256 / tree_max_256 as the harness writes them.
template <typename T> CaseKernel<T> tree256(bool Max) {
  return [=](BufferVar<T> in, BufferVar<T> out, BufferUInt active, UInt repeats) noexcept {
    set_block_size(256u, 1u, 1u);
    Shared<T> s{256u};
    UInt tid = thread_x();
    UInt element = dispatch_x();
    Var<T> x = out.read(block_x());
    $if (active.read(element) != 0u) { x = in.read(element); };
    s[tid] = x;
    sync_block();
    for (uint stride = 128u; stride > 0u; stride >>= 1u) {
      $if (tid < stride) {
        if (Max) {
          s[tid] = max(s[tid], s[tid + stride]);
        } else {
          s[tid] = s[tid] + s[tid + stride];
        }
      };
      sync_block();
    }
    $if (tid == 0u) { out.write(block_x(), s[0u]); };
  };
}

/// The tree's rewrite: warp partials in Shared, then one warp combines them. Faults:
/// \p ExtraPartial reads one partial more than the warps wrote; \p ZeroIdentity pads the
/// inactive threads with 0 instead of out's initial value (the lowest for max).
template <typename T> CaseKernel<T> warpTree256(bool Max, bool ExtraPartial, bool ZeroIdentity) {
  return [=](BufferVar<T> in, BufferVar<T> out, BufferUInt active, UInt repeats) noexcept {
    set_block_size(256u, 1u, 1u);
    Shared<T> partial{9u};
    UInt tid = thread_x();
    UInt element = dispatch_x();
    Var<T> x = out.read(block_x());
    if (ZeroIdentity)
      x = T(0);
    $if (active.read(element) != 0u) { x = in.read(element); };
    auto warp_total = Max ? warp_active_max(x) : warp_active_sum(x);
    $if (warp_is_first_active_lane()) { partial[tid / 32u] = warp_total; };
    sync_block();
    $if (tid < (ExtraPartial ? 9u : 8u)) {
      Var<T> p = partial[tid];
      auto block_total = Max ? warp_active_max(p) : warp_active_sum(p);
      $if (tid == 0u) { out.write(block_x(), block_total); };
    };
  };
}

/// scan_sum_inclusive as the harness writes it, and its rewrite (\p Inclusive false: the
/// fault, an exclusive prefix in its place).
template <typename T> CaseKernel<T> inclusiveScan() {
  return [](BufferVar<T> in, BufferVar<T> out, BufferUInt active, UInt repeats) noexcept {
    set_block_size(256u, 1u, 1u);
    UInt element = dispatch_y() * dispatch_size_x() + dispatch_x();
    $if (active.read(element) != 0u) {
      UInt lane = warp_lane_id();
      Var<T> x = in.read(element);
      Var<T> total = out.read(element);
      for (auto i : dynamic_range(lane + 1u)) { total += warp_read_lane(x, i); }
      out.write(element, total);
    };
  };
}
template <typename T> CaseKernel<T> prefixScan(bool Inclusive) {
  return [=](BufferVar<T> in, BufferVar<T> out, BufferUInt active, UInt repeats) noexcept {
    set_block_size(256u, 1u, 1u);
    UInt element = dispatch_y() * dispatch_size_x() + dispatch_x();
    $if (active.read(element) != 0u) {
      Var<T> x = in.read(element);
      Var<T> total = out.read(element);
      if (Inclusive)
        total += warp_prefix_sum(x) + x;
      else
        total += warp_prefix_sum(x);
      out.write(element, total);
    };
  };
}

/// A butterfly sum over groups of \p Lanes lanes (32: butterfly_sum).
template <typename T> CaseKernel<T> butterfly(uint Lanes) {
  return [=](BufferVar<T> in, BufferVar<T> out, BufferUInt active, UInt repeats) noexcept {
    set_block_size(256u, 1u, 1u);
    UInt element = dispatch_y() * dispatch_size_x() + dispatch_x();
    $if (active.read(element) != 0u) {
      UInt lane = warp_lane_id();
      Var<T> v = in.read(element);
      for (uint Offset = Lanes / 2u; Offset > 0u; Offset /= 2u) { v = v + warp_read_lane(v, lane ^ Offset); }
      out.write(element, v);
    };
  };
}

/// The butterfly's rewrite, a whole-warp sum; \p DropHuge: the fault, finite inputs of
/// a magnitude past 1e30 left out (zeroed) before the sum.
template <typename T> CaseKernel<T> warpSum(bool DropHuge) {
  return [=](BufferVar<T> in, BufferVar<T> out, BufferUInt active, UInt repeats) noexcept {
    set_block_size(256u, 1u, 1u);
    UInt element = dispatch_y() * dispatch_size_x() + dispatch_x();
    $if (active.read(element) != 0u) {
      Var<T> x = in.read(element);
      if constexpr (std::is_floating_point_v<T>)
        if (DropHuge) // infinities stay
          x = ite((abs(x) > T(1e30f)) & !isinf(x), T(0), x);
      out.write(element, warp_active_sum(x));
    };
  };
}

const std::vector<harness::LaunchShape> Blocks256 = harness::blockShapes(256);
const std::vector<harness::LaunchShape> FullWarps = shapesNamed(harness::standardShapes(), {"full-warps"});

TEST(HarnessMutations, SharedAccumulatorNeverZeroed) {
  auto Original = globalCounter<int>();
  EXPECT_EQ(firstFailure("block_privatized_counter", ValueType::I32, Original, privatizedCounter<int>(true, true),
                         Blocks256),
            "");
  std::string Why =
      firstFailure("block_privatized_counter", ValueType::I32, Original, privatizedCounter<int>(false, true), Blocks256);
  EXPECT_NE(Why.find("rewrite-breaks: element 0: "), std::string::npos) << Why;
  EXPECT_NE(Why.find("undefined after"), std::string::npos) << Why;
}

TEST(HarnessMutations, LastBarrierReachedByOneWarpOnly) {
  std::string Why = firstFailure("block_privatized_counter", ValueType::I32, globalCounter<int>(),
                                 privatizedCounter<int>(true, false), Blocks256);
  EXPECT_NE(Why.find("divergent barrier events, the original 0"), std::string::npos) << Why;
}

TEST(HarnessMutations, PlainReadModifyWriteInsteadOfAnAtomic) {
  auto Original = globalCounter<int>();
  EXPECT_EQ(firstFailure("warp_global_counter", ValueType::I32, Original, warpAggregatedCounter<int>(true),
                         Blocks256),
            "");
  std::string Why =
      firstFailure("warp_global_counter", ValueType::I32, Original, warpAggregatedCounter<int>(false), Blocks256);
  EXPECT_NE(Why.find("race events, the original 0"), std::string::npos) << Why;
}

TEST(HarnessMutations, SecondStageReadsAnUnwrittenPartial) {
  auto Original = tree256<int>(false);
  EXPECT_EQ(firstFailure("tree_sum_256", ValueType::I32, Original, warpTree256<int>(false, false, false), Blocks256),
            "");
  std::string Why =
      firstFailure("tree_sum_256", ValueType::I32, Original, warpTree256<int>(false, true, false), Blocks256);
  EXPECT_NE(Why.find("undefined after"), std::string::npos) << Why;
}

TEST(HarnessMutations, MaxPaddedWithZeroInsteadOfTheLowestValue) {
  auto Original = tree256<int>(true);
  EXPECT_EQ(firstFailure("tree_max_256", ValueType::I32, Original, warpTree256<int>(true, false, false), Blocks256),
            "");
  // Caught on a block whose active values are all negative (the all-equal set, -3).
  std::string Why =
      firstFailure("tree_max_256", ValueType::I32, Original, warpTree256<int>(true, false, true), Blocks256);
  EXPECT_NE(Why.find("all-equal: rewrite-breaks: element 0: -3 before, 0 after"), std::string::npos) << Why;
}

TEST(HarnessMutations, InclusiveScanReplacedByAnExclusiveOne) {
  auto Original = inclusiveScan<int>();
  EXPECT_EQ(firstFailure("scan_sum_inclusive", ValueType::I32, Original, prefixScan<int>(true), FullWarps), "");
  std::string Why = firstFailure("scan_sum_inclusive", ValueType::I32, Original, prefixScan<int>(false), FullWarps);
  EXPECT_NE(Why.find("full-warps/uniform: rewrite-breaks: element 0: "), std::string::npos) << Why;
}

TEST(HarnessMutations, SixteenLaneGroupWidenedToTheWholeWarp) {
  // The original sums groups of 16 lanes (defined on full warps, not the reference's
  // whole-warp sum); a rewrite to the whole warp agrees with the reference, not with it.
  std::string Why = firstFailure("butterfly_sum", ValueType::I32, butterfly<int>(16), warpSum<int>(false), FullWarps);
  EXPECT_NE(Why.find("full-warps/uniform: rewrite-breaks: element 0: "), std::string::npos) << Why;
}

TEST(HarnessMutations, FloatSumThatDropsHugeInputs) {
  auto Original = butterfly<float>(32);
  EXPECT_EQ(firstFailure("butterfly_sum", ValueType::F32, Original, warpSum<float>(false), FullWarps), "");
  std::string Why = firstFailure("butterfly_sum", ValueType::F32, Original, warpSum<float>(true), FullWarps);
  EXPECT_NE(Why.find("full-warps/extremes: rewrite-breaks: "), std::string::npos) << Why;
}

} // namespace
