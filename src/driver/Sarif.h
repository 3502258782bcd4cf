//===--- Sarif.h - SARIF 2.1.0 logs ---------------------------------------===//

#ifndef KERNEL_TIDY_SRC_DRIVER_SARIF_H
#define KERNEL_TIDY_SRC_DRIVER_SARIF_H

#include "src/driver/Findings.h"
#include <string>
#include <vector>

namespace kernel_tidy {

struct SarifOptions {
  std::string ToolVersion;
  std::string Root;        ///< Artifact URIs are relative to this folder.
  std::string RuleDocsDir; ///< <share>/docs/rules: each rule's help text.
  /// The installed docs (a folder, or a URL ending in '/'): relative links of
  /// the rule pages point there in help.markdown. Empty: links are kept.
  std::string DocsBase;
};

/// A SARIF 2.1.0 log with one run: every registered rule, one result per
/// finding (with fixes where the rule offers one), and the files that could
/// not be analysed as tool execution notifications. Columns count Unicode
/// code points (columnKind "unicodeCodePoints").
std::string formatSarif(const std::vector<FileResult> &Results, const SarifOptions &Options);

} // namespace kernel_tidy

#endif // KERNEL_TIDY_SRC_DRIVER_SARIF_H
