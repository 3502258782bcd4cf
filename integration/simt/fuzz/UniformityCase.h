// One generated kernel of the uniformity property test (uniformity.py): its marked
// expressions `probe(rec, ID, CTX, E)` have ids FirstProbe .. EndProbe - 1.
#pragma once

#include <luisa/dsl/func.h>

#include <cstdint>
#include <span>

namespace kernel_tidy::simt::uniformity {

using Recorded = luisa::shared_ptr<const luisa::compute::detail::FunctionBuilder>;

struct Case {
  const char *Name;
  uint32_t FirstProbe, EndProbe;
  Recorded (*Kernel)(uint32_t BlockSize);
};

/// The words of a thread's region of `rec` (a count, then Records records of 8
/// words: id, context, value, the warp's 128-bit active mask, unused).
extern const uint32_t Stride, Records;

/// The kernels of this build (the generated Batch.cpp).
std::span<const Case> cases();

} // namespace kernel_tidy::simt::uniformity
