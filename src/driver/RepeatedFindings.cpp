//===--- RepeatedFindings.cpp - Each finding of a run reported once -------===//

#include "src/driver/RepeatedFindings.h"

#include "src/driver/Paths.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <cassert>

namespace kernel_tidy {

RepeatedFindings::RepeatedFindings(const std::vector<std::string> &Files) {
  assert(llvm::is_sorted(Files,
                         [](const std::string &A, const std::string &B) {
                           return isHeaderLike(A) && !isHeaderLike(B);
                         }) &&
         "the run's headers come first");
}

std::vector<std::string> RepeatedFindings::headersFirst(std::vector<std::string> Files) {
  std::stable_partition(Files.begin(), Files.end(),
                        [](const std::string &File) { return isHeaderLike(File); });
  return Files;
}

const std::string &RepeatedFindings::identity(const std::string &Path) {
  auto [It, New] = Identities.try_emplace(Path);
  if (New) {
    llvm::SmallString<256> Real;
    if (llvm::sys::fs::real_path(Path, Real)) {
      Real = Path;
      llvm::sys::fs::make_absolute(Real);
      llvm::sys::path::remove_dots(Real, /*remove_dot_dot=*/true);
    }
    It->second = Real.str().str();
  }
  return It->second;
}

void RepeatedFindings::removeFrom(FileResult &Result) {
  const std::string Own = identity(Result.File);
  std::vector<std::string> Gone; // The "FILE:LINE: " their fix notes start with.
  llvm::erase_if(Result.Findings, [&](const Finding &F) {
    const std::string &File = identity(F.File);
    bool First = Reported.insert({File, F.Begin.Offset, F.Rule, F.Message}).second;
    if (File == Own)
      return false;
    if (!First) {
      Gone.push_back(F.File + ":" + std::to_string(F.Begin.Line) + ": ");
      return true;
    }
    return false;
  });
  llvm::erase_if(Result.FixNotes, [&](const std::string &Note) {
    return llvm::any_of(
        Gone, [&](const std::string &Prefix) { return llvm::StringRef(Note).starts_with(Prefix); });
  });
}

} // namespace kernel_tidy
