//===--- PrecompiledPrefix.cpp - One header parse shared by many files ---===//

#include "src/driver/PrecompiledPrefix.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"
#include <algorithm>
#include <chrono>

namespace kernel_tidy {

/// Skips blanks and comments; false on an unterminated block comment.
static bool skipBlanksAndComments(llvm::StringRef &Text) {
  while (true) {
    Text = Text.ltrim(" \t\r\n\f\v");
    if (Text.starts_with("//")) {
      size_t End = Text.find('\n');
      // A comment continued with a backslash: too unusual to handle here.
      llvm::StringRef Line = Text.substr(0, End);
      if (Line.rtrim("\r").ends_with("\\"))
        return false;
      Text = End == llvm::StringRef::npos ? llvm::StringRef() : Text.substr(End);
    } else if (Text.starts_with("/*")) {
      size_t End = Text.find("*/", 2);
      if (End == llvm::StringRef::npos)
        return false;
      Text = Text.substr(End + 2);
    } else {
      return true;
    }
  }
}

std::vector<std::string> leadingIncludes(llvm::StringRef Text) {
  std::vector<std::string> Includes;
  if (Text.starts_with("\xEF\xBB\xBF"))
    Text = Text.drop_front(3);
  while (skipBlanksAndComments(Text) && Text.consume_front("#")) {
    size_t LineEnd = Text.find('\n');
    llvm::StringRef Line = Text.substr(0, LineEnd).rtrim("\r");
    if (Line.ends_with("\\"))
      break;
    Line = Line.ltrim(" \t");
    if (!Line.consume_front("include"))
      break;
    Line = Line.ltrim(" \t");
    char Close = Line.starts_with("<") ? '>' : Line.starts_with("\"") ? '"' : 0;
    if (!Close)
      break;
    size_t End = Line.find(Close, 1);
    if (End == llvm::StringRef::npos || End == 1)
      break;
    llvm::StringRef Name = Line.substr(0, End + 1);
    llvm::StringRef Rest = Line.substr(End + 1).ltrim(" \t");
    // Only a comment may follow on the line (a block comment must end on it).
    if (!Rest.empty() && !Rest.starts_with("//") &&
        !(Rest.starts_with("/*") && Rest.rtrim(" \t").ends_with("*/") &&
          Rest.find("*/") == Rest.rtrim(" \t").size() - 2))
      break;
    Includes.push_back(Name.str());
    Text = LineEnd == llvm::StringRef::npos ? llvm::StringRef() : Text.substr(LineEnd);
  }
  return Includes;
}

std::vector<std::string> preambleIncludes(llvm::StringRef Text, llvm::StringRef FileDir) {
  std::vector<std::string> Includes = leadingIncludes(Text);
  for (std::string &Include : Includes) {
    if (Include.front() != '"')
      continue;
    llvm::StringRef Name = llvm::StringRef(Include).drop_front().drop_back();
    // The shared header lives in the cache, not beside the file: a name
    // found beside the file is spelled by its absolute path. Others are
    // found on the include path, as from the file (the cache folder holds
    // no headers).
    llvm::SmallString<256> Beside(Name);
    if (llvm::sys::path::is_relative(Name)) {
      Beside = FileDir;
      llvm::sys::path::append(Beside, Name);
    }
    llvm::sys::path::remove_dots(Beside, /*remove_dot_dot=*/true);
    if (llvm::sys::fs::is_regular_file(Beside))
      Include = "\"" + Beside.str().str() + "\"";
  }
  return Includes;
}

bool prefixApplies(const PrecompiledHeader &Header, llvm::StringRef Text, llvm::StringRef FileDir) {
  std::vector<std::string> Includes = preambleIncludes(Text, FileDir);
  return Includes.size() >= Header.Includes.size() &&
         std::equal(Header.Includes.begin(), Header.Includes.end(), Includes.begin());
}

/// "SIZE HASH" of a file, or "" when it cannot be read. No time stamp: a
/// checkout or a restored cache gives the same text new times.
static std::string fingerprint(llvm::StringRef Path) {
  llvm::sys::fs::file_status Status;
  // Only regular files: an inventory naming /dev/zero or a FIFO (damaged, or
  // written by someone else) would hang every run that checks the entry.
  if (llvm::sys::fs::status(Path, Status) ||
      Status.type() != llvm::sys::fs::file_type::regular_file)
    return "";
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return "";
  return std::to_string(Status.getSize()) + " " +
         llvm::utohexstr(llvm::xxh3_64bits((*Buffer)->getBuffer()));
}

std::string describeDependencies(const std::vector<std::string> &Files) {
  std::string Manifest;
  for (const std::string &File : Files) {
    std::string Print = fingerprint(File);
    if (Print.empty())
      return ""; // Cannot be validated later: do not cache.
    Manifest += Print + " " + File + "\n";
  }
  return Manifest;
}

bool dependenciesUnchanged(llvm::StringRef Manifest) {
  if (Manifest.empty())
    return false;
  llvm::SmallVector<llvm::StringRef> Lines;
  Manifest.split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Line : Lines) {
    // SIZE HASH PATH (the path may hold spaces).
    size_t Spaces = 0, Pos = 0;
    for (; Pos < Line.size() && Spaces < 2; ++Pos)
      if (Line[Pos] == ' ')
        ++Spaces;
    if (Spaces != 2)
      return false;
    if (fingerprint(Line.substr(Pos)) != Line.substr(0, Pos - 1))
      return false;
  }
  return true;
}

} // namespace kernel_tidy
