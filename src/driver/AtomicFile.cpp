//===--- AtomicFile.cpp - The one way kernel-tidy replaces a file ---------===//

#include "src/driver/AtomicFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

namespace kernel_tidy {
namespace {

std::string lastError() { return std::strerror(errno); }

/// Writes all of \p Contents to \p FD; "" or why not.
std::string writeAll(int FD, llvm::StringRef Contents) {
  const char *Data = Contents.data();
  size_t Left = Contents.size();
  while (Left > 0) {
    ssize_t Written = ::write(FD, Data, Left);
    if (Written < 0) {
      if (errno == EINTR)
        continue;
      return "cannot write: " + lastError();
    }
    Data += Written;
    Left -= static_cast<size_t>(Written);
  }
  return "";
}

/// For a device or FIFO, which cannot be renamed over.
std::string writeInPlace(const std::string &Path, llvm::StringRef Contents) {
  int FD = ::open(Path.c_str(), O_WRONLY | O_CLOEXEC);
  if (FD < 0)
    return Path + ": cannot open: " + lastError();
  std::string Error = writeAll(FD, Contents);
  if (::close(FD) != 0 && Error.empty())
    Error = "cannot close: " + lastError();
  return Error.empty() ? "" : Path + ": " + Error;
}

/// The temporary files a signal handler must remove: fixed slots, so that
/// the handler reads them without locks or allocation.
constexpr int CleanupSlots = 64;
std::atomic<char *> CleanupPaths[CleanupSlots];

/// The child processes a signal handler must kill (0: a free slot).
std::atomic<int> KillPids[CleanupSlots];

void removeTemporariesAndExit(int Signal) {
  for (std::atomic<char *> &Slot : CleanupPaths)
    if (char *Path = Slot.load(); Path && ::unlink(Path) != 0 && errno == EISDIR) {
      // A temporary folder (--enable-check-profile's): fork, execve and
      // waitpid are async-signal-safe, a walk of the folder is not.
      if (pid_t Child = ::fork(); Child == 0) {
        char Rm[] = "rm", Flags[] = "-rf", End[] = "--";
        char *Argv[] = {Rm, Flags, End, Path, nullptr};
        ::execve("/bin/rm", Argv, environ);
        ::_exit(127);
      } else if (Child > 0) {
        int Status = 0;
        while (::waitpid(Child, &Status, 0) < 0 && errno == EINTR) {
        }
      }
    }
  for (std::atomic<int> &Pid : KillPids)
    if (int Child = Pid.load(); Child > 0)
      ::kill(Child, SIGKILL); // Async-signal-safe.
  ::_exit(128 + Signal);
}

/// Gives the temporary file \p FD the owner, group and extended attributes
/// of \p Original, as far as the user may set them (root may; others may
/// keep their own groups). Errors leave the temporary file's own.
void copyOwnership(const char *Original, int FD, const llvm::sys::fs::file_status &Status) {
  if (::fchown(FD, Status.getUser(), Status.getGroup()) != 0)
    (void)::fchown(FD, static_cast<uid_t>(-1), Status.getGroup());
  ssize_t Size = ::listxattr(Original, nullptr, 0);
  if (Size <= 0)
    return;
  std::string Names(static_cast<size_t>(Size), '\0');
  Size = ::listxattr(Original, Names.data(), Names.size());
  for (size_t At = 0; Size > 0 && At < static_cast<size_t>(Size);) {
    const char *Name = Names.data() + At;
    At += std::strlen(Name) + 1;
    ssize_t Length = ::getxattr(Original, Name, nullptr, 0);
    if (Length < 0)
      continue;
    std::string Value(static_cast<size_t>(Length), '\0');
    Length = ::getxattr(Original, Name, Value.data(), Value.size());
    if (Length >= 0)
      (void)::fsetxattr(FD, Name, Value.data(), static_cast<size_t>(Length), 0);
  }
}

unsigned newFileMode() {
  mode_t Mask = ::umask(0);
  ::umask(Mask);
  return 0666 & ~Mask;
}

} // namespace

SignalCleanup::SignalCleanup(llvm::StringRef Path) {
  char *Copy = ::strdup(Path.str().c_str());
  for (int I = 0; I < CleanupSlots && Copy; ++I) {
    char *Empty = nullptr;
    if (CleanupPaths[I].compare_exchange_strong(Empty, Copy)) {
      Slot = I;
      return;
    }
  }
  std::free(Copy); // More than 64 at once: this one is not cleaned up.
}

SignalCleanup::~SignalCleanup() {
  if (Slot >= 0)
    std::free(CleanupPaths[Slot].exchange(nullptr));
}

SignalKill::SignalKill(int Pid) {
  for (int I = 0; I < CleanupSlots; ++I) {
    int Empty = 0;
    if (KillPids[I].compare_exchange_strong(Empty, Pid)) {
      Slot = I;
      return;
    }
  }
  // More than 64 at once: this one still ends when it sees its parent gone.
}

SignalKill::~SignalKill() {
  if (Slot >= 0)
    KillPids[Slot].store(0);
}

void removeTemporaryFilesOnSignals() {
  for (int Signal : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction Action = {};
    Action.sa_handler = removeTemporariesAndExit;
    sigemptyset(&Action.sa_mask);
    sigaction(Signal, &Action, nullptr);
  }
}

std::string writeAtomically(const std::string &Path, llvm::StringRef Contents,
                            std::optional<unsigned> Mode,
                            const std::function<std::string()> &BeforeRename) {
  llvm::SmallString<256> Target(Path);
  std::optional<llvm::sys::fs::file_status> Existing;
  if (llvm::sys::fs::exists(Path)) {
    if (std::error_code EC = llvm::sys::fs::real_path(Path, Target))
      return Path + ": cannot resolve path: " + EC.message();
    llvm::sys::fs::file_status Status;
    if (std::error_code EC = llvm::sys::fs::status(Target, Status))
      return Path + ": " + EC.message();
    if (Status.type() != llvm::sys::fs::file_type::regular_file)
      return writeInPlace(Target.str().str(), Contents);
    if (!Mode)
      Mode = Status.permissions();
    Existing = Status;
  }
  unsigned Permissions = Mode.value_or(newFileMode());

  llvm::SmallString<256> Model(llvm::sys::path::parent_path(Target));
  if (Model.empty())
    Model = ".";
  llvm::sys::path::append(Model, ".kernel-tidy-%%%%%%%%.tmp");
  int FD = -1;
  llvm::SmallString<256> Temp;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(Model, FD, Temp))
    return Path + ": cannot create a temporary file next to it: " + EC.message();
  SignalCleanup Cleanup(Temp);
  auto Fail = [&](const std::string &Why) {
    if (FD >= 0)
      ::close(FD);
    llvm::sys::fs::remove(Temp);
    return Path + ": " + Why;
  };
  if (std::string Error = writeAll(FD, Contents); !Error.empty())
    return Fail(Error);
  if (::fsync(FD) != 0)
    return Fail("cannot sync: " + lastError());
  if (Existing)
    copyOwnership(Target.c_str(), FD, *Existing);
  // After fchown, which clears the setuid and setgid bits.
  if (::fchmod(FD, Permissions) != 0)
    return Fail("cannot set permissions: " + lastError());
  int Closing = FD;
  FD = -1;
  if (::close(Closing) != 0)
    return Fail("cannot close: " + lastError());
  if (BeforeRename)
    if (std::string Error = BeforeRename(); !Error.empty()) {
      llvm::sys::fs::remove(Temp);
      return Error;
    }
  if (std::error_code EC = llvm::sys::fs::rename(Temp, Target))
    return Fail("cannot replace the file: " + EC.message());
  return "";
}

} // namespace kernel_tidy
