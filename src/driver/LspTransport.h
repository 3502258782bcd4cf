//===--- LspTransport.h - LSP base-protocol framing over file descriptors ===//
//
// The Language Server Protocol's base protocol: a header ("Content-Length:
// N", lines ending in "\r\n", or bare "\n" as clangd accepts), an empty line,
// then N bytes of JSON. kernel-clangd reads it to patch and filter clangd's
// messages, `kernel-tidy lsp` to serve them; both read in blocks (a byte per
// read() took a minute for a 50 MB header line) and refuse to allocate a body
// past a limit.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_SRC_DRIVER_LSPTRANSPORT_H
#define KERNEL_TIDY_SRC_DRIVER_LSPTRANSPORT_H

#include "llvm/ADT/StringRef.h"
#include <cstddef>
#include <string>

namespace kernel_tidy::lsp {

/// clangd refuses messages over 1 GB; so does kernel-tidy lsp.
constexpr size_t MaxMessageBytes = size_t(1) << 30;

/// What readMessage found at the start of its buffer.
struct Framed {
  enum Kind {
    Message,       ///< A whole message: Body holds its content.
    End,           ///< The input ended (or failed) before a whole message.
    NoLength,      ///< A header without a valid Content-Length.
    TooLarge,      ///< A Content-Length over the limit (Length); the body is unread.
    HeaderTooLong, ///< No end of the header within the header limit.
  } K = End;
  size_t HeaderEnd = 0; ///< Offset in Raw just past the header's empty line.
  size_t BodyEnd = 0;   ///< Message: offset in Raw just past the body.
  size_t Length = 0;    ///< The Content-Length, when there was one.
};

/// Reads one message from \p FD: \p Raw keeps every byte read, which may go
/// past the message (the caller erases what it consumed), \p Body receives
/// the content of a Message.
/// A header longer than \p MaxHeader is not read to its end (HeaderTooLong).
Framed readMessage(int FD, std::string &Raw, std::string &Body, size_t MaxBody = MaxMessageBytes,
                   size_t MaxHeader = std::string::npos);

/// Whether \p Raw begins with a whole message (or a header readMessage
/// answers without reading more), so that readMessage would not wait.
bool holdsMessage(llvm::StringRef Raw);

/// Whether \p FD has input (or its end) to read now, without waiting.
bool readable(int FD);

/// Reads and drops \p Count bytes from \p FD, of which \p Raw already holds
/// the first ones (they are erased); false if the input ended first.
bool skipBytes(int FD, std::string &Raw, size_t Count);

/// Writes all of \p Data to \p FD; false if it cannot.
bool writeAll(int FD, llvm::StringRef Data);

/// \p Body framed: "Content-Length: N\r\n\r\n" then \p Body.
std::string frame(llvm::StringRef Body);

} // namespace kernel_tidy::lsp

#endif // KERNEL_TIDY_SRC_DRIVER_LSPTRANSPORT_H
