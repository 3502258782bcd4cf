//===--- PipedProcess.h - A child process that answers lines over pipes ---===//
//
// A long-lived helper process (the CuTe DSL frontend's interpreter) that
// reads requests on its stdin and answers each with one line on stdout. No
// temporary files: the request goes through a socket, the answer and the
// child's stderr through pipes, all read and written in one poll() loop, so a
// child that writes before it reads cannot deadlock the driver. The child is
// killed when the object goes, and when SIGINT, SIGTERM or SIGHUP ends the
// driver (removeTemporaryFilesOnSignals).
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_SRC_DRIVER_PIPEDPROCESS_H
#define KERNEL_TIDY_SRC_DRIVER_PIPEDPROCESS_H

#include "llvm/ADT/StringRef.h"
#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace kernel_tidy {

class SignalKill;

/// A child process started with its stdin, stdout and stderr connected to
/// the driver; one request and answer at a time.
class PipedProcess {
public:
  PipedProcess();
  ~PipedProcess();
  PipedProcess(const PipedProcess &) = delete;
  PipedProcess &operator=(const PipedProcess &) = delete;

  /// Starts \p Program (a path) with \p Args (Args[0] included); "" or why
  /// it cannot be started.
  std::string start(const std::string &Program, const std::vector<std::string> &Args);
  bool running() const { return Pid > 0; }
  /// Whether the child wrote more than the answers read so far (out of step).
  bool hasUnreadOutput() const { return !Pending.empty(); }
  /// Kills the child (if any) and waits for it.
  void stop();

  /// What an exchange ended with.
  struct Answer {
    enum Kind {
      Line,      ///< Text holds the answer, without its line break.
      Ended,     ///< The child closed its output first (Status says how it ended).
      TimedOut,  ///< No answer before the deadline.
      TooLong,   ///< The answer grew past the limit.
      Early,     ///< A line came before the whole request was sent (out of step).
      Cancelled, ///< The caller's cancel flag was set first.
    } What = Ended;
    std::string Text;
    std::string Status; ///< "exit 1", "signal 11" (for Ended).
    std::string Stderr; ///< The last 2,000 bytes the child wrote on stderr.
  };

  /// Writes \p Request to the child's stdin and reads one line of its stdout,
  /// before \p Deadline and at most \p MaxLine bytes long, or until
  /// \p Cancel (when given; another thread sets it) becomes true. The child
  /// is stopped after any answer but a Line.
  Answer exchange(llvm::StringRef Request, std::chrono::steady_clock::time_point Deadline,
                  size_t MaxLine, const std::atomic<bool> *Cancel = nullptr);

private:
  void readStderr();
  std::string reap();

  int Pid = -1;
  int ToChild = -1, FromChild = -1, ErrFromChild = -1;
  std::string Pending; ///< Output read past the last answer's line break.
  std::string ErrTail;
  std::unique_ptr<SignalKill> KillOnSignal;
};

} // namespace kernel_tidy

#endif // KERNEL_TIDY_SRC_DRIVER_PIPEDPROCESS_H
