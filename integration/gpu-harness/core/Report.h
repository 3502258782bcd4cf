//===--- Report.h - JSON and Markdown results of a harness run ------------===//

#ifndef KERNEL_TIDY_GPU_HARNESS_REPORT_H
#define KERNEL_TIDY_GPU_HARNESS_REPORT_H

#include "Compare.h"
#include "Stats.h"
#include <string>
#include <vector>

namespace kernel_tidy::harness {

/// What a case's two versions did against the reference.
enum class Verdict {
  Equivalent,      // both agree with the reference
  RewriteFixes,    // the original disagrees (e.g. reads inactive lanes), the rewrite agrees
  RewriteBreaks,   // the original agrees, the rewrite does not: a failure
  BothWrong,       // neither agrees
};
const char *verdictName(Verdict V); // "equivalent", "rewrite-fixes-original", ...
Verdict verdictOf(const Comparison &Before, const Comparison &After);

struct CaseResult {
  std::string Rule;    // "luisa-butterfly-reduction"
  std::string Case;    // "butterfly_sum"
  std::string Type;    // "f32"
  std::string Shape;   // "full-warps"
  std::string Inputs;  // "uniform"
  Comparison Before, After;
  bool Timed = false;
  Summary BeforeTime, AfterTime;
  SpeedUp Speed;
};

struct RunInfo {
  std::string Gpu, Driver, Backend, Date, KernelTidyCommit;
};

/// The results as JSON (schema "kernel-tidy-gpu-harness/1").
std::string toJson(const RunInfo &Run, const std::vector<CaseResult> &Results);
/// A Markdown table: rule, type, shape, inputs, equivalent?, before, after,
/// speed-up [low, high], followed by the GPU and driver.
std::string toMarkdown(const RunInfo &Run, const std::vector<CaseResult> &Results);
/// Per (rule, type, backend) the gain measured on the full-warp shape, as
/// lines of src/dsl/Profitability.def (see docs/gpu-harness.md).
std::string toProfitabilityLines(const RunInfo &Run, const std::vector<CaseResult> &Results);

} // namespace kernel_tidy::harness

#endif
