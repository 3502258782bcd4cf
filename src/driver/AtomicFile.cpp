//===--- AtomicFile.cpp - The one way kernel-tidy replaces a file ---------===//

#include "src/driver/AtomicFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
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

unsigned newFileMode() {
  mode_t Mask = ::umask(0);
  ::umask(Mask);
  return 0666 & ~Mask;
}

} // namespace

std::string writeAtomically(const std::string &Path, llvm::StringRef Contents,
                            std::optional<unsigned> Mode) {
  llvm::SmallString<256> Target(Path);
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
  if (::fchmod(FD, Permissions) != 0)
    return Fail("cannot set permissions: " + lastError());
  int Closing = FD;
  FD = -1;
  if (::close(Closing) != 0)
    return Fail("cannot close: " + lastError());
  if (std::error_code EC = llvm::sys::fs::rename(Temp, Target))
    return Fail("cannot replace the file: " + EC.message());
  return "";
}

} // namespace kernel_tidy
