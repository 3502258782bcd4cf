//===--- Baseline.h - Findings that already existed -----------------------===//

#ifndef KERNEL_TIDY_SRC_DRIVER_BASELINE_H
#define KERNEL_TIDY_SRC_DRIVER_BASELINE_H

#include "src/driver/Findings.h"
#include <optional>
#include <string>
#include <vector>

namespace kernel_tidy {

/// A recorded finding: what identifies it across edits (rule, file relative
/// to the root, fingerprint) and, for people reviewing the file, its message.
struct BaselineEntry {
  std::string Rule;
  std::string File;
  std::string Fingerprint;
  std::string Message;
};

/// The entries that record the findings of \p Result; files are named
/// relative to \p Root.
std::vector<BaselineEntry> baselineEntries(const FileResult &Result, const std::string &Root);

/// The baseline file (JSON, docs/ci.md) holding \p Entries.
std::string formatBaseline(const std::vector<BaselineEntry> &Entries);

/// Reads a baseline file's text; std::nullopt with \p Error when malformed.
std::optional<std::vector<BaselineEntry>> parseBaseline(const std::string &Text,
                                                        std::string &Error);

/// Answers whether a finding is recorded in a baseline. Each entry hides
/// one finding.
class BaselineFilter {
public:
  explicit BaselineFilter(const std::vector<BaselineEntry> &Entries);

  /// Removes the findings of \p Result that the baseline records (files
  /// named relative to \p Root); returns how many.
  unsigned removeKnown(FileResult &Result, const std::string &Root) const;

private:
  std::vector<std::string> Keys; ///< Sorted rule/file/fingerprint keys.
};

} // namespace kernel_tidy

#endif // KERNEL_TIDY_SRC_DRIVER_BASELINE_H
