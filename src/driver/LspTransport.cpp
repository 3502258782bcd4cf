//===--- LspTransport.cpp - LSP base-protocol framing over file descriptors ===//

#include "src/driver/LspTransport.h"

#include "llvm/ADT/SmallVector.h"
#include <cerrno>
#include <poll.h>
#include <unistd.h>

namespace kernel_tidy::lsp {
namespace {

/// Appends what one read() of \p FD gives to \p Raw; false at the end.
bool readMore(int FD, std::string &Raw) {
  char Buffer[1 << 16];
  for (;;) {
    ssize_t N = ::read(FD, Buffer, sizeof(Buffer));
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    Raw.append(Buffer, N);
    return true;
  }
}

} // namespace

Framed readMessage(int FD, std::string &Raw, std::string &Body, size_t MaxBody, size_t MaxHeader) {
  Framed Result;
  // The header ends with an empty line ("\r\n\r\n", or bare "\n"s).
  size_t Searched = 0, Newline;
  for (;;) {
    Newline = Raw.find('\n', Searched);
    if (Newline != std::string::npos) {
      llvm::StringRef Before = llvm::StringRef(Raw).take_front(Newline).rtrim('\r');
      if (Before.empty() || Before.back() == '\n')
        break;
      Searched = Newline + 1;
      continue;
    }
    Searched = Raw.size();
    if (Searched > MaxHeader) {
      Result.K = Framed::HeaderTooLong;
      return Result;
    }
    if (!readMore(FD, Raw))
      return Result; // End.
  }
  Result.HeaderEnd = Newline + 1;
  bool HaveLength = false;
  llvm::SmallVector<llvm::StringRef, 4> Lines;
  llvm::StringRef(Raw).take_front(Newline).split(Lines, '\n');
  for (llvm::StringRef Header : Lines) {
    Header = Header.rtrim('\r');
    if (Header.consume_front_insensitive("content-length:"))
      HaveLength = !Header.trim().getAsInteger(10, Result.Length);
  }
  if (!HaveLength) {
    Result.K = Framed::NoLength;
    return Result;
  }
  if (Result.Length > MaxBody) {
    Result.K = Framed::TooLarge;
    return Result;
  }
  Result.BodyEnd = Result.HeaderEnd + Result.Length;
  while (Raw.size() < Result.BodyEnd)
    if (!readMore(FD, Raw))
      return Result; // End.
  Body = Raw.substr(Result.HeaderEnd, Result.Length);
  Result.K = Framed::Message;
  return Result;
}

bool holdsMessage(llvm::StringRef Raw) {
  size_t Searched = 0;
  for (;;) {
    size_t Newline = Raw.find('\n', Searched);
    if (Newline == llvm::StringRef::npos)
      return false;
    llvm::StringRef Before = Raw.take_front(Newline).rtrim('\r');
    if (Before.empty() || Before.back() == '\n') {
      size_t Length = 0;
      bool HaveLength = false;
      llvm::SmallVector<llvm::StringRef, 4> Lines;
      Raw.take_front(Newline).split(Lines, '\n');
      for (llvm::StringRef Header : Lines) {
        Header = Header.rtrim('\r');
        if (Header.consume_front_insensitive("content-length:"))
          HaveLength = !Header.trim().getAsInteger(10, Length);
      }
      // Without a length or past the limit, readMessage answers at once.
      return !HaveLength || Length > MaxMessageBytes || Raw.size() - (Newline + 1) >= Length;
    }
    Searched = Newline + 1;
  }
}

bool readable(int FD) {
  pollfd Poll = {FD, POLLIN, 0};
  int N;
  while ((N = ::poll(&Poll, 1, 0)) < 0 && errno == EINTR) {
  }
  return N != 0;
}

bool skipBytes(int FD, std::string &Raw, size_t Count) {
  while (Raw.size() < Count) {
    Count -= Raw.size();
    Raw.clear();
    if (!readMore(FD, Raw))
      return false;
  }
  Raw.erase(0, Count);
  return true;
}

bool writeAll(int FD, llvm::StringRef Data) {
  while (!Data.empty()) {
    ssize_t N = ::write(FD, Data.data(), Data.size());
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    Data = Data.drop_front(N);
  }
  return true;
}

std::string frame(llvm::StringRef Body) {
  return "Content-Length: " + std::to_string(Body.size()) + "\r\n\r\n" + Body.str();
}

} // namespace kernel_tidy::lsp
