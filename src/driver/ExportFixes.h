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
/// Fixes of .py files are left out (their findings stay), counted in
/// \p PythonFixesLeftOut: clang-apply-replacements cleans up around each
/// replacement as C++ (it would turn `(4,)` into `(4)` on an untouched line),
/// so the files it wrote would not be the ones `--fix` writes.
std::string exportFixesYaml(const std::vector<FileResult> &Results, bool IncludeUnsafe,
                            unsigned *PythonFixesLeftOut = nullptr);

} // namespace kernel_tidy

#endif // KERNEL_TIDY_SRC_DRIVER_EXPORTFIXES_H
