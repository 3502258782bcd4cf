//===--- CuteFrontend.h - CuTe DSL (Python) files through the Python frontend ===//
//
// A .py file is analysed by frontends/cute (Python's own parser, the cute-*
// rules) in a long-lived python3 process per worker; its JSON report becomes
// the FileResult that the C++ frontend's files get, so that reports,
// baselines, NOLINT, fix verification and atomic writes are shared
// (docs/architecture.md).
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_SRC_DRIVER_CUTEFRONTEND_H
#define KERNEL_TIDY_SRC_DRIVER_CUTEFRONTEND_H

#include "src/driver/Findings.h"
#include "src/driver/PipedProcess.h"
#include "llvm/ADT/StringRef.h"
#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace kernel_tidy {

/// Whether \p Path is a Python source, analysed by the CuTe DSL frontend.
bool isPythonFile(llvm::StringRef Path);

/// What the frontend is asked about one file.
struct CuteRequest {
  std::string Path;                           ///< As reported (the display name).
  std::string Text;                           ///< The contents to analyse.
  std::vector<std::string> Checks;            ///< The enabled cute-* rules.
  std::map<std::string, std::string> Options; ///< CheckOptions of the file.
  /// The file's absolute path and the run's Python files (absolute): the
  /// frontend reads what their calls pass to this file's functions; none: the
  /// file alone.
  std::string AbsolutePath;
  std::shared_ptr<const std::vector<std::string>> Modules;
};

/// One request as the frontend reads it on stdin: one line of JSON (version,
/// path, checks, options, length; file and modules with the run's other Python
/// files), then the text.
std::string formatCuteRequest(const CuteRequest &Request);

/// Converts the frontend's JSON report on \p Original (the analysed text)
/// into findings and errors of \p File; findings of \p AsErrors rules are
/// marked AsError. A report that is not the protocol's is an error of the
/// file, and sets \p Valid (when given) to false.
FileResult parseCuteReport(llvm::StringRef Json, const std::string &File,
                           const std::string &Original, const std::vector<std::string> &AsErrors,
                           bool *Valid = nullptr);

/// The interpreter that runs the frontend: $KERNEL_TIDY_PYTHON (a path, or a
/// name looked up on PATH as a shell does) or python3 on PATH; "" with
/// \p Error when there is none.
std::string cuteInterpreter(std::string &Error);

/// `PYTHON -I -B FRONTEND`, started on the first .py file and kept for the
/// next ones (an interpreter's start costs more than a typical file). A
/// frontend that ends (a crash, a bad answer) is started again for the next
/// file; one that does not answer in time (KERNEL_TIDY_PYTHON_TIMEOUT
/// seconds, default 300) is stopped, and the later files sent to this object
/// fail at once instead of waiting again. While \p Cancel (when given) is
/// true, an analysis is stopped and its file reported as not analysed; the
/// next file starts a new interpreter.
class CuteFrontendProcess {
public:
  explicit CuteFrontendProcess(std::string Frontend,
                               std::shared_ptr<const std::atomic<bool>> Cancel = nullptr)
      : Frontend(std::move(Frontend)), Cancel(std::move(Cancel)) {}

  FileResult analyze(const CuteRequest &Request, const std::vector<std::string> &AsErrors);

private:
  std::string Frontend;
  std::shared_ptr<const std::atomic<bool>> Cancel;
  std::string Python;
  PipedProcess Process;
  std::string Stopped; ///< Why no more files are sent (a timeout), else "".
};

} // namespace kernel_tidy

#endif // KERNEL_TIDY_SRC_DRIVER_CUTEFRONTEND_H
