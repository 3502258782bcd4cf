//===--- AtomicFile.h - The one way kernel-tidy replaces a file -----------===//

#ifndef KERNEL_TIDY_SRC_DRIVER_ATOMICFILE_H
#define KERNEL_TIDY_SRC_DRIVER_ATOMICFILE_H

#include "llvm/ADT/StringRef.h"
#include <functional>
#include <optional>
#include <string>

namespace kernel_tidy {

/// Replaces (or creates) the file at \p Path with \p Contents so that a
/// reader, a crash or a full disk leaves the old file or the new one, never
/// a part: the text goes to a temporary file in the same folder, is fsynced,
/// given \p Mode (default: the old file's permissions, or 0666 less the
/// umask for a new file) and renamed over the file that \p Path names
/// (through symbolic links). A path that names a device or FIFO
/// (/dev/stdout) is written directly, with every write checked. Returns ""
/// or an error message starting with \p Path; no temporary file remains.
///
/// The replaced file keeps its owner and group (where the user may set them)
/// and its extended attributes. \p BeforeRename, when given, runs right
/// before the rename; a non-empty result cancels the write with that error.
std::string writeAtomically(const std::string &Path, llvm::StringRef Contents,
                            std::optional<unsigned> Mode = std::nullopt,
                            const std::function<std::string()> &BeforeRename = nullptr);

/// Registers a temporary file, or a temporary folder with what it holds, for
/// removal when SIGINT, SIGTERM or SIGHUP ends the process (see
/// removeTemporaryFilesOnSignals), while it lives.
class SignalCleanup {
public:
  explicit SignalCleanup(llvm::StringRef Path);
  ~SignalCleanup();
  SignalCleanup(const SignalCleanup &) = delete;
  SignalCleanup &operator=(const SignalCleanup &) = delete;

private:
  int Slot = -1;
};

/// Kills the child process \p Pid (SIGKILL) when SIGINT, SIGTERM or SIGHUP
/// ends the process (see removeTemporaryFilesOnSignals), while it lives: a
/// helper process must not outlive the run.
class SignalKill {
public:
  explicit SignalKill(int Pid);
  ~SignalKill();
  SignalKill(const SignalKill &) = delete;
  SignalKill &operator=(const SignalKill &) = delete;

private:
  int Slot = -1;
};

/// Installs handlers for SIGINT, SIGTERM and SIGHUP that remove the
/// registered temporary files, kill the registered children and exit with 128 + the signal number
/// (130, 143, 129), as a shell reports a process the signal ended.
void removeTemporaryFilesOnSignals();

} // namespace kernel_tidy

#endif // KERNEL_TIDY_SRC_DRIVER_ATOMICFILE_H
