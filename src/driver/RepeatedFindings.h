//===--- RepeatedFindings.h - Each finding of a run reported once ---------===//
//
// A header that several files of a run include is analysed with each of
// them, and its findings come back once per includer, under the spelling
// each used (`proj/k.h`, `/abs/proj/k.h`). A header that is itself a file of
// the run is analysed on its own too, and only that analysis can fix it
// (a fix is applied to the file analysed), so its own findings are the ones
// reported; but code in a template is checked only where a file
// instantiates it, so a finding that only an includer sees is kept.
// clang-tidy's run-clang-tidy.py leaves such repeats to
// clang-apply-replacements; the tool's own reports, counts and exit code
// take each finding once (issue 31 item 17, issue 32 item 8).
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_SRC_DRIVER_REPEATEDFINDINGS_H
#define KERNEL_TIDY_SRC_DRIVER_REPEATEDFINDINGS_H

#include "src/driver/Findings.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace kernel_tidy {

/// Drops the findings of a run's results that another result reports too.
class RepeatedFindings {
public:
  explicit RepeatedFindings(const std::vector<std::string> &RunFiles);

  /// Removes from \p Result its findings in other files that an earlier
  /// result reported. Called on the results in the order of the files, the
  /// run's headers first (headersFirst).
  void removeFrom(FileResult &Result);

  /// \p Files with the headers first, in their order, then the rest: a
  /// header's own findings must be known before its includers' copies.
  static std::vector<std::string> headersFirst(std::vector<std::string> Files);

private:
  /// The file's real path, or its absolute spelling when it has none.
  const std::string &identity(const std::string &Path);

  llvm::StringMap<std::string> Identities;
  std::set<std::tuple<std::string, unsigned, std::string, std::string>> Reported;
};

} // namespace kernel_tidy

#endif // KERNEL_TIDY_SRC_DRIVER_REPEATEDFINDINGS_H
