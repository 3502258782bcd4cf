// One generated instance of the differential fuzzer (fuzz.py): a kernel in the form a
// rule matches (or a near miss of it), recorded twice: as generated ("before") and as
// `kernel-tidy check --fix --unsafe-fixes` rewrote it ("after").
#pragma once

#include <luisa/dsl/func.h>

#include <cstdint>
#include <span>

namespace kernel_tidy::simt::fuzz {

enum class ValueType { UInt, Int, Float };

/// What the fix's applicability allows the two versions to differ in.
enum class Allowed {
  /// Nothing: every element the original defines is the same, bit for bit.
  Nothing,
  /// Floating-point reassociation: each element within the bound of a sum of the
  /// inputs in any order, (N - 1) * 2^-24 * sum |x| (+ the element's own magnitude).
  Reassociation,
  /// Slots handed out in another order: `out` equal as a multiset, `aux` exactly.
  AppendOrder,
  /// An unsafe fix that changes what lanes other than lane 0 hold (a shuffle-down
  /// reduction not broadcast): only lane 0's elements (one per warp) compare.
  LaneZeroOnly,
  /// A fix meant to change results where the warp is not the width the code assumed
  /// (luisa-hardcoded-warp-width): only the events compare (no new barrier, index or
  /// undefined-use events).
  EventsOnly,
};

using Recorded = luisa::shared_ptr<const luisa::compute::detail::FunctionBuilder>;

struct Instance {
  const char *Name;
  ValueType Type;
  Allowed Differences;
  /// The block size the kernel sets; 0 when it takes it from the launch (BlockSize).
  uint32_t Block;
  /// The width the kernel sets with set_warp_size; 0 when it runs at the launch's.
  uint32_t Warp;
  /// The width kernel-tidy assumed for it (--warp-size), where the kernel sets none.
  uint32_t AssumedWarp;
  /// Launch whole blocks only: the pattern reads the Shared slots of every thread of
  /// the block, which a thread past the dispatch edge never writes (undefined on a GPU).
  bool WholeBlocks;
  Recorded (*Before)(uint32_t BlockSize);
  Recorded (*After)(uint32_t BlockSize);
};

/// The instances of this build (the generated Batch.cpp).
std::span<const Instance> instances();

} // namespace kernel_tidy::simt::fuzz
