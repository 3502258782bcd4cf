//===--- TidyFindings.h - clang-tidy's diagnostics as kernel-tidy findings ===//
//
// The C++ twin of the CuTe frontend's reply parser (parseCuteReport): what
// clang-tidy reported on one file becomes the Findings, Fixes and ParseErrors
// that both frontends produce. The fix's applicability is read back from the
// notes as rules/FixProtocol.h writes them.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_SRC_DRIVER_TIDYFINDINGS_H
#define KERNEL_TIDY_SRC_DRIVER_TIDYFINDINGS_H

#include "src/driver/Findings.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <string>
#include <vector>

namespace kernel_tidy {

/// The file whose clang-tidy diagnostics are converted.
struct TidyInput {
  std::string File;    ///< As the user named it (findings in it are shown so).
  std::string AbsFile; ///< As clang-tidy names it.
  std::string Text;    ///< What was analysed (other files are read from disk).
  /// Where relative paths of a diagnostic are resolved when clang-tidy did
  /// not record its build directory: the compile command's directory.
  std::string CommandDirectory;
};

/// Adds clang-tidy's \p Errors on \p Input to \p Result: a compiler error or
/// an unmatched NOLINTBEGIN as a ParseError, a check's diagnostic as a
/// Finding when \p Keep accepts it; clang-tidy's configuration diagnostics
/// (which reach the user through stderr) are dropped.
void addTidyDiagnostics(std::vector<clang::tidy::ClangTidyError> Errors, const TidyInput &Input,
                        FileResult &Result, llvm::function_ref<bool(const Finding &)> Keep);

} // namespace kernel_tidy

#endif // KERNEL_TIDY_SRC_DRIVER_TIDYFINDINGS_H
