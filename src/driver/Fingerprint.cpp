//===--- Fingerprint.cpp - Line-independent identities of findings --------===//

#include "src/driver/Fingerprint.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/xxhash.h"
#include <cctype>
#include <map>

namespace kernel_tidy {
namespace {

std::string collapseWhitespace(llvm::StringRef Text) {
  std::string Out;
  bool PendingSpace = false;
  for (char C : Text) {
    if (std::isspace(static_cast<unsigned char>(C))) {
      PendingSpace = !Out.empty();
      continue;
    }
    if (PendingSpace)
      Out += ' ';
    PendingSpace = false;
    Out += C;
  }
  return Out;
}

/// The code a finding points at: its range, or its whole line for a point.
/// Findings in other files (headers) have no text here: their message
/// stands in for it.
llvm::StringRef reportedCode(const FileResult &Result, const Finding &F) {
  if (F.File != Result.File || F.Begin.Offset > Result.Original.size())
    return F.Message;
  llvm::StringRef Text(Result.Original);
  if (F.End.Offset > F.Begin.Offset && F.End.Offset <= Text.size())
    return Text.slice(F.Begin.Offset, F.End.Offset);
  size_t LineBegin = Text.rfind('\n', F.Begin.Offset);
  LineBegin = LineBegin == llvm::StringRef::npos ? 0 : LineBegin + 1;
  return Text.slice(LineBegin, Text.find('\n', F.Begin.Offset));
}

} // namespace

std::vector<std::string> fingerprintFindings(const FileResult &Result) {
  std::vector<std::string> Prints;
  std::map<std::string, unsigned> Seen;
  for (const Finding &F : Result.Findings) {
    std::string Key = F.Rule + '\0' + collapseWhitespace(reportedCode(Result, F));
    std::string Hash = llvm::utohexstr(llvm::xxh3_64bits(Key), /*LowerCase=*/true, 16);
    Prints.push_back(Hash + ":" + std::to_string(++Seen[Hash]));
  }
  return Prints;
}

} // namespace kernel_tidy
