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
  unsigned Fixable = 0;
  unsigned Fixed = 0;
  unsigned AsErrors = 0; ///< Findings promoted by WarningsAsErrors.
};

RunSummary summarize(const std::vector<FileResult> &Results);

/// `--statistics`: the total, then one line per rule with its count.
std::string formatStatistics(const std::vector<FileResult> &Results,
                             unsigned HiddenByBaseline);

/// Findings as Clang prints diagnostics: location, message, source line,
/// caret, and the fix as a note.
std::string formatText(const std::vector<FileResult> &Results);

/// The versioned JSON report (docs/json-report.md).
std::string formatJson(const std::vector<FileResult> &Results,
                       const std::string &ToolVersion);

} // namespace kernel_tidy

#endif // KERNEL_TIDY_SRC_DRIVER_REPORT_H
