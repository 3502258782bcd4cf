//===--- CaseKernel.h - What every harness case kernel looks like ---------===//
//
// Each case is one kernel in the "before" form of a rule, written once with
// @T@ for the value type (cases/*.cpp.in). The build configures it per type,
// and the "after" form is what `kernel-tidy check --fix --unsafe-fixes` makes
// of that file. Both are compiled into the harness, in namespaces `before`
// and `after` (KERNEL_TIDY_CASE_VERSION).
//
// Kernel arguments: in (one value per element), out (one per element, or one
// per block for the block-level patterns), active (1 where the thread runs
// the pattern: divergent masks), repeats (how often the pattern runs: 1 to
// check results, more to time the pattern rather than the memory traffic).
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_GPU_HARNESS_CASE_KERNEL_H
#define KERNEL_TIDY_GPU_HARNESS_CASE_KERNEL_H

#include <luisa/luisa-compute.h>

#ifndef KERNEL_TIDY_CASE_VERSION
#define KERNEL_TIDY_CASE_VERSION before
#endif

namespace kernel_tidy::harness {

template<typename T>
using CaseKernel = luisa::compute::Kernel2D<luisa::compute::Buffer<T>, luisa::compute::Buffer<T>,
                                            luisa::compute::Buffer<luisa::uint>, luisa::uint>;

/// Host-side cases (cases/Cases.cmake, KERNEL_TIDY_HARNESS_HOST_CASES): a
/// host function `void NAME_SUFFIX(Stream &, StepShader &, Buffer<uint> &out,
/// uint steps, uint threads)` that submits `steps` dispatches of the step
/// shader (out = out * 3 + k, k = 0 .. steps - 1) over `threads` elements.
using StepShader = luisa::compute::Shader1D<luisa::compute::Buffer<luisa::uint>, luisa::uint>;
using HostCase = void(luisa::compute::Stream &, StepShader &,
                      luisa::compute::Buffer<luisa::uint> &, luisa::uint, luisa::uint);

} // namespace kernel_tidy::harness

#endif
