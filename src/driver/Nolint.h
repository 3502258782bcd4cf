//===--- Nolint.h - NOLINT comments at the current findings ---------------===//
//
// `--add-nolint`, as Ruff's `--add-noqa`: each line with a finding gets a
// NOLINT(rule, ...) comment that suppresses what is reported there today,
// `// NOLINT(...)` appended to a C++ line (clang-tidy reads NOLINT anywhere
// on the line, also inside a comment already there), `# NOLINT(...)` on a
// Python line (put first in a comment already there, whose text is kept). A
// line whose end lies inside a string that goes on (a raw string, Python's
// triple quotes) or that goes on with a backslash would change meaning with
// a comment at its end: it is left alone, and said so.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_SRC_DRIVER_NOLINT_H
#define KERNEL_TIDY_SRC_DRIVER_NOLINT_H

#include "src/driver/Findings.h"
#include <string>
#include <vector>

namespace kernel_tidy {

/// One insertion into a file's text: a NOLINT comment, or rules added to the
/// list of one already there.
struct NolintInsertion {
  size_t Offset = 0;
  std::string Text;
};

/// The insertions that give \p Result's findings in that file their NOLINT
/// comments, one per line and in the order of the text (editors offer them
/// as code actions); \p Skipped gets "FILE:LINE: why" for each line left
/// alone.
std::vector<NolintInsertion> nolintInsertions(const FileResult &Result,
                                              std::vector<std::string> &Skipped);

/// \p Result's text with NOLINT comments for its findings in that file;
/// \p Added counts the lines commented, \p Skipped gets "FILE:LINE: why"
/// for each line left alone.
std::string withNolintComments(const FileResult &Result, unsigned &Added,
                               std::vector<std::string> &Skipped);

} // namespace kernel_tidy

#endif // KERNEL_TIDY_SRC_DRIVER_NOLINT_H
