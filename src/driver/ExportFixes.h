//===--- ExportFixes.h - Fixes in clang-tidy's --export-fixes format ------===//

#ifndef KERNEL_TIDY_SRC_DRIVER_EXPORTFIXES_H
#define KERNEL_TIDY_SRC_DRIVER_EXPORTFIXES_H

#include "src/driver/Findings.h"
#include <string>
#include <vector>

namespace kernel_tidy {

/// What an export left out, and why.
struct ExportGaps {
  /// Fixes of .py files: clang-apply-replacements cleans up around each
  /// replacement as C++ (it would turn `(4,)` into `(4)` on an untouched
  /// line), so the files it wrote would not be the ones `--fix` writes.
  unsigned PythonFixes = 0;
  /// "FILE:LINE:COLUMN: why" for each fix whose bytes the YAML cannot carry
  /// exactly (a replacement or file name that is not UTF-8): LLVM's YAML
  /// reader stops at such a byte, so clang-apply-replacements would apply a
  /// text cut short. Their findings are exported without the fix.
  std::vector<std::string> Refused;
};

/// The findings and their fixes as clang-tidy's `--export-fixes` YAML, which
/// `clang-apply-replacements` applies. Only the fixes `--fix` would apply
/// are exported (the safe ones, and the unsafe ones with \p IncludeUnsafe),
/// each byte for byte or not at all: the document is read back as
/// clang-apply-replacements reads it, and a fix that does not come back
/// exactly is left out and named in \p Gaps. Messages, which nothing
/// applies, have bytes that are not UTF-8 replaced by U+FFFD.
std::string exportFixesYaml(const std::vector<FileResult> &Results, bool IncludeUnsafe,
                            ExportGaps *Gaps = nullptr);

} // namespace kernel_tidy

#endif // KERNEL_TIDY_SRC_DRIVER_EXPORTFIXES_H
