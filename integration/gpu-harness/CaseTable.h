//===--- CaseTable.h - What each harness case computes --------------------===//
//
// One entry per case template in cases/ (the types each runs for are listed
// in cases/Cases.cmake): the rule whose "before" form it holds and the CPU
// reference its results are checked against.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_GPU_HARNESS_CASE_TABLE_H
#define KERNEL_TIDY_GPU_HARNESS_CASE_TABLE_H

#include "Reference.h"
#include <cmath>
#include <cstdint>
#include <limits>
#include <string_view>

namespace kernel_tidy::harness {

/// The CPU reference a case is checked against.
enum class Pattern {
  WarpReduce,
  WarpScan,
  WarpScanInclusive,
  BlockAtomic,
  GlobalAtomic,    ///< One global counter: out[0] = Init OP every active input.
  SharedAppend,    ///< Slots from a shared counter, per block (AppendLayout).
  GlobalAppend,    ///< Slots from a global counter in out[0].
  WeightedAppend,  ///< The same, each thread taking (x & 3) + 1 slots.
  HostSubmissions, ///< A host function submitting step dispatches (HostCase).
  BlockReduce,     ///< One element per block: OP over its active threads' inputs
                   ///< (the others contribute the identity, out's initial value).
};

/// Whether a case is an atomic pattern, which the contention sweep runs.
inline bool isContended(Pattern P) {
  return P != Pattern::WarpReduce && P != Pattern::WarpScan && P != Pattern::WarpScanInclusive &&
         P != Pattern::HostSubmissions && P != Pattern::BlockReduce;
}

struct CaseSpec {
  std::string_view Rule;
  std::string_view Name;
  Pattern Kind;
  Op Operation;
  /// The constant block size the case's kernel sets (1D); its launch shapes
  /// use it (blockShapes). 0: the kernel takes the shape's block size.
  std::uint32_t Block = 0;
  /// The warp widths the fix claims to hold at (docs/gpu-harness.md): what its
  /// finding names; every width the executor runs when it names none.
  std::uint32_t MinWidth = 8, MaxWidth = 128;
};

inline constexpr CaseSpec CaseTable[] = {
    {"luisa-butterfly-reduction", "butterfly_sum", Pattern::WarpReduce, Op::Sum, 0, 32, 32},
    {"luisa-butterfly-reduction", "butterfly_max", Pattern::WarpReduce, Op::Max, 0, 32, 32},
    {"luisa-sequential-lane-reads", "scan_sum", Pattern::WarpScan, Op::Sum},
    {"luisa-sequential-lane-reads", "scan_sum_inclusive", Pattern::WarpScanInclusive, Op::Sum},
    {"luisa-shared-atomic-counter", "atomic_add", Pattern::BlockAtomic, Op::Sum},
    {"luisa-shared-atomic-counter", "atomic_max", Pattern::BlockAtomic, Op::Max},
    {"luisa-warp-aggregated-atomic", "warp_append_shared", Pattern::SharedAppend, Op::Sum},
    {"luisa-warp-aggregated-atomic", "warp_append_global", Pattern::GlobalAppend, Op::Sum},
    {"luisa-warp-aggregated-atomic", "warp_append_weighted", Pattern::WeightedAppend, Op::Sum},
    {"luisa-warp-aggregated-atomic", "warp_global_counter", Pattern::GlobalAtomic, Op::Sum},
    {"luisa-warp-aggregated-atomic", "warp_global_max_unbraced", Pattern::GlobalAtomic, Op::Max},
    {"luisa-shuffle-reduction", "shuffle_down_sum", Pattern::WarpReduce, Op::Sum},
    {"luisa-shuffle-reduction", "lane_shift_scan", Pattern::WarpScanInclusive, Op::Sum, 0, 32, 32},
    {"luisa-stream-batching", "stream_batching", Pattern::HostSubmissions, Op::Sum},
    {"luisa-block-privatized-atomic", "block_privatized_counter", Pattern::GlobalAtomic, Op::Sum,
     256},
    {"luisa-block-privatized-atomic", "block_privatized_append", Pattern::GlobalAppend, Op::Sum,
     256},
    {"luisa-shared-tree-reduction", "tree_sum_256", Pattern::BlockReduce, Op::Sum, 256, 16},
    {"luisa-shared-tree-reduction", "tree_max_256", Pattern::BlockReduce, Op::Max, 256, 16},
    {"luisa-shared-tree-reduction", "tree_sum_two_partials", Pattern::BlockReduce, Op::Sum, 256,
     16},
    {"luisa-shared-tree-reduction", "tree_sum_1024", Pattern::BlockReduce, Op::Sum, 1024, 32},
    {"luisa-shared-tree-reduction", "tree_max_1024", Pattern::BlockReduce, Op::Max, 1024, 32},
};

/// The case named \p Name, or nullptr.
inline const CaseSpec *findCase(std::string_view Name) {
  for (const CaseSpec &Spec : CaseTable)
    if (Spec.Name == Name)
      return &Spec;
  return nullptr;
}

/// The value the output holds before the kernel runs: a scan adds to it (a
/// non-zero start shows that the rewrite keeps the accumulator's value), a
/// block atomic starts from it and a block reduction pads inactive threads
/// with it (the identity of max, so the inputs decide).
inline double initialValue(const CaseSpec &Spec, ValueType Type) {
  if (Spec.Kind == Pattern::WarpScan || Spec.Kind == Pattern::WarpScanInclusive)
    return isFloat(Type) ? 0.5 : 1.0;
  if ((Spec.Kind != Pattern::BlockAtomic && Spec.Kind != Pattern::BlockReduce) ||
      Spec.Operation != Op::Max)
    return 0.0;
  if (isFloat(Type))
    return -std::numeric_limits<double>::infinity();
  return Type == ValueType::I32 ? -2147483648.0 : 0.0;
}

} // namespace kernel_tidy::harness

#endif
