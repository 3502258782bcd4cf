//===--- Report.h - Text and JSON reports ---------------------------------===//

#ifndef KERNEL_TIDY_SRC_DRIVER_REPORT_H
#define KERNEL_TIDY_SRC_DRIVER_REPORT_H

#include "src/driver/Findings.h"
#include <string>
#include <vector>

namespace kernel_tidy {

/// Counts over a run, as reported in the JSON summary.
struct RunSummary {
  unsigned Files = 0;
  unsigned Diagnostics = 0;
  unsigned Fixable = 0;       ///< Findings whose fix --fix applies (safe fixes).
  unsigned UnsafeFixable = 0; ///< Findings whose fix only --unsafe-fixes applies.
  unsigned Fixed = 0;
  unsigned AsErrors = 0; ///< Findings promoted by WarningsAsErrors.
};

RunSummary summarize(const std::vector<FileResult> &Results);

/// `--statistics`: the total, then one line per rule with its count.
std::string formatStatistics(const std::vector<FileResult> &Results, unsigned HiddenByBaseline);

/// How text reports are printed.
struct TextOptions {
  bool Colour = false;       ///< Clang's terminal colours.
  bool FixesWritten = false; ///< --fix wrote the applied fixes (clang-tidy's note).
};

/// \p Results without the findings whose fix was applied (or shown by
/// --diff): what remains, for `--quiet --fix` and the CI formats after --fix.
std::vector<FileResult> remainingFindings(std::vector<FileResult> Results);

/// Per file, its parse errors, its findings and the notes of its dropped
/// fixes, as clang-tidy prints them: by Clang's TextDiagnostic over the
/// analysed texts (location, message, the source lines of the ranges and
/// fix-its with carets, fix-it insertion lines, notes, why a fix is unsafe
/// or missing).
std::string formatText(const std::vector<FileResult> &Results, const TextOptions &Options = {});

/// --enable-check-profile: the time of each check summed over clang-tidy's
/// profile files (\p Profiles: their JSON texts), slowest first.
std::string formatCheckProfile(const std::vector<std::string> &Profiles);

/// After a check that fixed nothing, Ruff's footer on what --fix would do:
/// "3 fixable with --fix; 1 more with --fix --unsafe-fixes."; empty when no
/// finding has a fix.
std::string formatFixableFooter(const std::vector<FileResult> &Results);

/// After --fix or --diff, Ruff's summary: "Found 4 findings (3 fixed,
/// 1 remaining)." (\p Written: --fix wrote them; otherwise --diff shows them).
std::string formatFixSummary(const std::vector<FileResult> &Results, bool Written);

/// `--show-fixes`, Ruff's list of what --fix applied: "Fixed 3 findings:",
/// then per file the count of each rule's fixes.
std::string formatAppliedFixes(const std::vector<FileResult> &Results);

/// The versioned JSON report (docs/json-report.md).
std::string formatJson(const std::vector<FileResult> &Results, const std::string &ToolVersion);

} // namespace kernel_tidy

#endif // KERNEL_TIDY_SRC_DRIVER_REPORT_H
