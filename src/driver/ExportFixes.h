//===--- ExportFixes.h - Fixes in clang-tidy's --export-fixes format ------===//

#ifndef KERNEL_TIDY_SRC_DRIVER_EXPORTFIXES_H
#define KERNEL_TIDY_SRC_DRIVER_EXPORTFIXES_H

#include "src/driver/Findings.h"
#include <string>
#include <vector>

namespace kernel_tidy {

/// The findings and their fixes as clang-tidy's `--export-fixes` YAML, which
/// `clang-apply-replacements` applies. Only the fixes `--fix` would apply
/// are exported: the safe ones, and the unsafe ones with \p IncludeUnsafe.
std::string exportFixesYaml(const std::vector<FileResult> &Results,
                            bool IncludeUnsafe);

} // namespace kernel_tidy

#endif // KERNEL_TIDY_SRC_DRIVER_EXPORTFIXES_H
