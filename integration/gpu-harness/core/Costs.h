//===--- Costs.h - What a rewrite costs, counted without a GPU ------------===//
//
// The SIMT executor's cost counters of each version (integration/simt's
// simt/Costs.h, per warp) and the compiled counts of docs/compiled-counts.json
// (PTX instructions per architecture), and the verdict per fix drawn from both
// (docs/gpu-harness.md#costs-per-fix).
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_GPU_HARNESS_COSTS_H
#define KERNEL_TIDY_GPU_HARNESS_COSTS_H

#include <map>
#include <string>
#include <vector>

namespace kernel_tidy::harness {

/// One cost counter of a version: its name ("shuffles") and its value per warp,
/// or, for a maximum ("atomic_depth"), the maximum.
struct CostCount {
  std::string Name;
  double Value = 0;
  bool IsMaximum = false;
};
using CostCounts = std::vector<CostCount>;

/// What the executor's counters say of \p After against \p Before: "fewer",
/// "more", "same" or "mixed", then each counter that changed, the maxima last
/// ("fewer: global atomic lanes 32 -> 1 per warp; atomic depth 32 -> 1"). The
/// "warps" counter is not a cost.
std::string executorVerdict(const CostCounts &Before, const CostCounts &After);

/// One architecture's PTX counts of a case, before and after (by kind:
/// "shfl", "redux", "total", "loops", ...).
struct CompiledArch {
  std::string Arch;
  std::map<std::string, double> Before, After;
};
/// The compiled counts of one case, architectures in the file's order.
using CompiledCase = std::vector<CompiledArch>;

/// docs/compiled-counts.json's cases by "NAME_SUFFIX" ("butterfly_sum_u32");
/// throws std::runtime_error when \p Json is not such a file.
std::map<std::string, CompiledCase> parseCompiledCounts(const std::string &Json);

/// The verdict of one architecture as compiled_counts.py's verdict() draws it:
/// "fewer", "more", "same", "mixed" or "loop".
std::string compiledVerdict(const CompiledArch &Counts);
/// Per architecture its verdict and the kinds that changed, architectures with
/// the same text together: "sm_80, sm_90, sm_120: fewer (shfl 5 -> 0, redux
/// 0 -> 1, total 60 -> 40); sm_75: more (total 60 -> 81)".
std::string compiledSummary(const CompiledCase &Case);

} // namespace kernel_tidy::harness

#endif
