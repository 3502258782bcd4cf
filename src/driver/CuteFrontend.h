//===--- CuteFrontend.h - CuTe DSL (Python) files through the Python frontend ===//
//
// A .py file is analysed by frontends/cute (Python's own parser, the cute-*
// rules) in a python3 subprocess; its JSON report becomes the FileResult that
// the C++ frontend's files get, so that reports, baselines, NOLINT, fix
// verification and atomic writes are shared (docs/architecture.md).
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_SRC_DRIVER_CUTEFRONTEND_H
#define KERNEL_TIDY_SRC_DRIVER_CUTEFRONTEND_H

#include "src/driver/Findings.h"
#include "llvm/ADT/StringRef.h"
#include <map>
#include <string>
#include <vector>

namespace kernel_tidy {

/// Whether \p Path is a Python source, analysed by the CuTe DSL frontend.
bool isPythonFile(llvm::StringRef Path);

/// What the frontend is asked about one file.
struct CuteRequest {
  std::string Path;                  ///< As reported (the display name).
  std::string Text;                  ///< The contents to analyse.
  std::vector<std::string> Checks;   ///< The enabled cute-* rules.
  std::map<std::string, std::string> Options; ///< CheckOptions of the file.
};

/// What the frontend reads on stdin: one line of JSON (version, path, checks,
/// options), then the text.
std::string formatCuteRequest(const CuteRequest &Request);

/// Converts the frontend's JSON report on \p Original (the analysed text)
/// into findings and errors of \p File; findings of \p AsErrors rules are
/// marked AsError. A report that is not the protocol's is an error of the file.
FileResult parseCuteReport(llvm::StringRef Json, const std::string &File,
                           const std::string &Original,
                           const std::vector<std::string> &AsErrors);

/// Runs `PYTHON -I -B FRONTEND` on \p Request: the interpreter is
/// $KERNEL_TIDY_PYTHON or python3 on PATH.
FileResult runCuteFrontend(const std::string &Frontend, const CuteRequest &Request,
                           const std::vector<std::string> &AsErrors);

} // namespace kernel_tidy

#endif // KERNEL_TIDY_SRC_DRIVER_CUTEFRONTEND_H
