//===--- Report.h - JSON and Markdown results of a harness run ------------===//

#ifndef KERNEL_TIDY_GPU_HARNESS_REPORT_H
#define KERNEL_TIDY_GPU_HARNESS_REPORT_H

#include "Compare.h"
#include "Costs.h"
#include "Stats.h"
#include <string>
#include <vector>

namespace kernel_tidy::harness {

/// What a case's rewrite did, judged against the original element by element
/// (judge()); the reference says which of the original's values are right.
enum class Verdict {
  Equivalent,    // the original defines every element and is right; the rewrite agrees
  RewriteFixes,  // the rewrite agrees wherever the original defines an element, and is
                 // right where the original is undefined
  BothUndefined, // as RewriteFixes, but where the original is undefined so is the rewrite
  RewriteBreaks, // an element the original defines differs or is undefined after, or the
                 // rewrite adds a hazard: a failure
  BothWrong,     // the rewrite repeats a wrong value of the original, or is wrong where
                 // the original is undefined: a failure
};
const char *verdictName(Verdict V); // "equivalent", "rewrite-fixes-original", ...
/// Whether the harness fails on \p V (exit code 1).
bool isFailure(Verdict V);

/// A verdict and the first element or hazard that decided it ("" when equivalent).
struct Judgement {
  Verdict Outcome = Verdict::Equivalent;
  std::string Detail;
};

/// Judges \p After (the rewrite) against \p Before (the original), element by
/// element of the output, with \p Want saying what is right:
/// - where the original's element is right (acceptable()), the rewrite's must
///   be right too, and defined;
/// - where it is defined but not right (or Want defines nothing there: an
///   element nobody writes), the rewrite must hold the same value, within
///   twice the element's bound (each may be off the exact value by the bound),
///   and is then both-wrong unless Want defines nothing there;
/// - where it is undefined, the rewrite must be right or undefined;
/// - and the rewrite must not have more of any Hazard than the original.
Judgement judge(ValueType Type, const Expected &Want, const RunOutput &Before,
                const RunOutput &After);

struct CaseResult {
  std::string Rule;   // "luisa-butterfly-reduction"
  std::string Case;   // "butterfly_sum"
  std::string Type;   // "f32"
  std::string Shape;  // "full-warps"
  std::string Inputs; // "uniform"
  /// The op as src/dsl/Profitability.def spells it (profitabilityOp); when
  /// empty, the case name's second '_'-separated token.
  std::string Operation;
  Comparison Before, After; // each version against the reference
  Verdict Outcome = Verdict::Equivalent;
  std::string Why; // what decided a verdict other than equivalent
  bool Timed = false;
  Summary BeforeTime, AfterTime;
  SpeedUp Speed;
  /// Seconds per launch in a batch of launches back to back (warm caches,
  /// launch overhead hidden), as NVBench's batch measurement.
  double BeforeBatch = 0, AfterBatch = 0;
  /// The SIMT executor's cost counters of each version's run (empty on a GPU).
  CostCounts BeforeCosts, AfterCosts;
};

struct RunInfo {
  std::string Gpu, Driver, Backend, Date, KernelTidyCommit;
};

/// \p O as src/dsl/Profitability.def spells it: "sum", "product", "min",
/// "max", "and", "or", "xor" (an atomic add or sub reduces with a sum).
std::string_view profitabilityOp(Op O);

/// The compiled counts of the cases by "NAME_SUFFIX" (parseCompiledCounts).
using CompiledCounts = std::map<std::string, CompiledCase>;

/// The results as JSON (schema "kernel-tidy-gpu-harness/1"): "run", one
/// entry of "results" per case in the given order ("timing" only when
/// Timed; "costs" only with cost counters, those that are 0 left out), a
/// "summary" of verdict counts,
/// and "fixes": per rule, case and type the cost counters of its full-warps
/// uniform run, \p Compiled's counts of the case and the verdicts of both
/// (omitted when neither is known). Non-finite numbers (an infinite max_ulp)
/// are written as the strings "inf", "-inf" and "nan".
std::string toJson(const RunInfo &Run, const std::vector<CaseResult> &Results,
                   const CompiledCounts &Compiled = {});
/// A Markdown report: the GPU, driver, backend and date, a table with one row
/// per case (rule, case, type, shape, inputs, verdict, max ulp before and
/// after, median times in microseconds, speed-up [low, high]; "-" when not
/// timed), sorted by rule, case, type, shape and inputs, and a line of
/// verdict counts; then, when any case has cost counters or compiled counts,
/// a table "Costs per fix" with the verdicts of toJson's "fixes".
std::string toMarkdown(const RunInfo &Run, const std::vector<CaseResult> &Results,
                       const CompiledCounts &Compiled = {});
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
