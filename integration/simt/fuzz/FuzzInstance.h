// One generated instance of the differential fuzzer (fuzz.py): a kernel in the form a
// rule matches (or a near miss of it), recorded twice: as generated ("before") and as
// `kernel-tidy check --fix --unsafe-fixes` rewrote it ("after").
#pragma once

#include <luisa/dsl/func.h>
#include <luisa/runtime/buffer.h>
#include <luisa/runtime/shader.h>
#include <luisa/runtime/stream.h>

#include <cstdint>
#include <span>

namespace kernel_tidy::simt::fuzz {

/// The scalar type of the values; `half` is rounded after each operation.
enum class ValueType { UInt, Int, Float, Half };

/// What the fix's applicability allows the two versions to differ in.
enum class Allowed {
  /// Nothing: every element the original defines is the same, bit for bit.
  Nothing,
  /// Floating-point reassociation: each component within the bound of a sum of the
  /// inputs in any order, 2 N u (sum |x| + max |out|) + u |element|, u = 2^-24 for
  /// float and 2^-11 for half (the unit roundoffs).
  Reassociation,
  /// Slots handed out in another order: `out` equal as a multiset, `aux` exactly.
  AppendOrder,
  /// An unsafe fix that changes what lanes other than lane 0 hold (a shuffle-down
  /// reduction not broadcast): only lane 0's elements (one per warp) compare.
  LaneZeroOnly,
  /// Both: lane 0's elements, within the reassociation bound (a float sum).
  LaneZeroReassociation,
  /// A fix meant to change results where the warp is not the width the code assumed
  /// (luisa-hardcoded-warp-width): only the events compare (no new barrier, index or
  /// undefined-use events).
  EventsOnly,
};

using Recorded = luisa::shared_ptr<const luisa::compute::detail::FunctionBuilder>;

struct Instance {
  const char *Name;
  ValueType Type;
  /// Components per value: 1 for a scalar, 2 to 4 for a vector (`float3`).
  uint32_t Dim;
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

/// What a host instance (luisa-stream-batching) works on: two streams, two buffers
/// of N elements, their host copies, and two order-sensitive shaders: step(x, k)
/// makes x = x * 3 + k, mix(x, y) makes x = x * 2 + y.
struct HostArgs {
  luisa::compute::Stream &S, &Other;
  luisa::compute::Buffer<luisa::uint> &A, &B;
  luisa::vector<luisa::uint> &HA, &HB;
  luisa::compute::Shader1D<luisa::compute::Buffer<luisa::uint>, luisa::uint> &Step;
  luisa::compute::Shader1D<luisa::compute::Buffer<luisa::uint>, luisa::compute::Buffer<luisa::uint>>
      &Mix;
  luisa::uint N;
};

/// One generated host function, as generated and as kernel-tidy rewrote it.
struct HostInstance {
  const char *Name;
  /// True if kernel-tidy changed the function: it must then submit fewer command lists.
  bool Rewritten;
  void (*Before)(HostArgs &);
  void (*After)(HostArgs &);
};

/// The host instances of this build (the generated Batch.cpp).
std::span<const HostInstance> hostInstances();

} // namespace kernel_tidy::simt::fuzz
