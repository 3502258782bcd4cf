//===--- Nolint.h - NOLINT comments at the current findings ---------------===//
//
// `--add-nolint`, as Ruff's `--add-noqa`: each line with a finding gets a
// NOLINT(rule, ...) comment that suppresses what is reported there today,
// appended after what the line holds, so that a pragma read from the start
// of a comment keeps its place: `# NOLINT(...)` at the end of a Python line
// (after `# type: ignore[...]`, `# noqa: ...`; rules join a NOLINT(...)
// list already there), `// NOLINT(...)` at the end of a C++ line, or
// `/* NOLINT(...) */` before a `//` comment that ends it (`// clang-format
// off` is read whole). Python's line ends are those of Python's own
// tokenizer (the CuTe frontend runs it), never a scan of the characters. A
// line whose end lies inside a string that goes on or that goes on with a
// backslash (blanks after it included) is left alone, and said so; a C++
// text with its comments is lexed again and must give the same tokens.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_SRC_DRIVER_NOLINT_H
#define KERNEL_TIDY_SRC_DRIVER_NOLINT_H

#include "src/driver/Findings.h"
#include "llvm/ADT/StringRef.h"
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

/// Whether \p After gives the tokens of \p Before (comments left out) on
/// the same lines, lexed raw as C++: inserted comments changed nothing else.
bool lexesTheSame(llvm::StringRef Before, llvm::StringRef After);

/// \p Result's text with NOLINT comments for its findings in that file;
/// \p Added counts the lines commented, \p Skipped gets "FILE:LINE: why"
/// for each line left alone.
std::string withNolintComments(const FileResult &Result, unsigned &Added,
                               std::vector<std::string> &Skipped);

} // namespace kernel_tidy

#endif // KERNEL_TIDY_SRC_DRIVER_NOLINT_H
