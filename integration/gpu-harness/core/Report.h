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
  Equivalent,    // both agree with the reference
  RewriteFixes,  // the original disagrees (e.g. reads inactive lanes), the rewrite agrees
  RewriteBreaks, // the original agrees, the rewrite does not: a failure
  BothWrong,     // neither agrees
};
const char *verdictName(Verdict V); // "equivalent", "rewrite-fixes-original", ...
Verdict verdictOf(const Comparison &Before, const Comparison &After);

struct CaseResult {
  std::string Rule;   // "luisa-butterfly-reduction"
  std::string Case;   // "butterfly_sum"
  std::string Type;   // "f32"
  std::string Shape;  // "full-warps"
  std::string Inputs; // "uniform"
  /// The op as src/dsl/Profitability.def spells it (profitabilityOp); when
  /// empty, the case name's second '_'-separated token.
  std::string Operation;
  Comparison Before, After;
  bool Timed = false;
  Summary BeforeTime, AfterTime;
  SpeedUp Speed;
  /// Seconds per launch in a batch of launches back to back (warm caches,
  /// launch overhead hidden), as NVBench's batch measurement.
  double BeforeBatch = 0, AfterBatch = 0;
};

struct RunInfo {
  std::string Gpu, Driver, Backend, Date, KernelTidyCommit;
};

/// \p O as src/dsl/Profitability.def spells it: "sum", "product", "min",
/// "max", "and", "or", "xor" (an atomic add or sub reduces with a sum).
std::string_view profitabilityOp(Op O);

/// The results as JSON (schema "kernel-tidy-gpu-harness/1"): "run", one
/// entry of "results" per case in the given order ("timing" only when
/// Timed) and a "summary" of verdict counts. Non-finite numbers (an infinite
/// max_ulp) are written as the strings "inf", "-inf" and "nan".
std::string toJson(const RunInfo &Run, const std::vector<CaseResult> &Results);
/// A Markdown report: the GPU, driver, backend and date, a table with one row
/// per case (rule, case, type, shape, inputs, verdict, max ulp before and
/// after, median times in microseconds, speed-up [low, high]; "-" when not
/// timed), sorted by rule, case, type, shape and inputs, and a line of
/// verdict counts.
std::string toMarkdown(const RunInfo &Run, const std::vector<CaseResult> &Results);
/// Per (rule, type, backend) the gain measured on the full-warp shape, as
/// lines of src/dsl/Profitability.def (see docs/gpu-harness.md): one
/// KERNEL_TIDY_GAIN line per timed "full-warps"/"uniform" result, in the
/// given order; the op is the case name's second '_'-separated token, the
/// value class "int" (u32, i32) or "float" (f32, f16), the target the
/// backend in lower case. Types of one class give one line each: the first
/// matching line wins, so the caller orders the results by preference.
std::string toProfitabilityLines(const RunInfo &Run, const std::vector<CaseResult> &Results);

} // namespace kernel_tidy::harness

#endif
