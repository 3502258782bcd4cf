//===--- KernelGenerator.h - Random DSL kernels from the rules' patterns -===//
//
// A structure-aware input generator: each source holds kernels assembled
// from the shapes the rules match (butterflies, lane-read loops, shuffle-down
// loops and scans, shared and global atomics, barriers, shared arrays,
// literal warp widths) and their near misses (a step missing, reordered or
// repeated, another variable or operator, thread-dependent indices, results
// used), with comments, preprocessor blocks, unrelated statements and
// branches in between. Same seed, same text.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_TEST_UNIT_KERNELGENERATOR_H
#define KERNEL_TIDY_TEST_UNIT_KERNELGENERATOR_H

#include <cstdint>
#include <string>

namespace kernel_tidy::test {

/// One translation unit of one to three generated kernels.
std::string generateKernelSource(uint32_t Seed);

} // namespace kernel_tidy::test

#endif // KERNEL_TIDY_TEST_UNIT_KERNELGENERATOR_H
