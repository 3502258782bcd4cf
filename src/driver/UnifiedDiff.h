//===--- UnifiedDiff.h - Line diffs as GNU `diff -u` prints them ----------===//
//
// LLVM 19 has no line-diff API (llvm::ComputeEditDistance gives a distance,
// not the edits), so the diff is computed here the way GNU diffutils does
// (analyze.c): Myers' O(ND) algorithm in linear space (E. W. Myers, "An
// O(ND) Difference Algorithm and Its Variations", Algorithmica 1986), its
// cost cutoff for huge inputs, and shift_boundaries, which slides each run
// of changes over identical lines to where GNU diff shows it.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_SRC_DRIVER_UNIFIEDDIFF_H
#define KERNEL_TIDY_SRC_DRIVER_UNIFIEDDIFF_H

#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace kernel_tidy {

/// Which lines of two texts a shortest edit script deletes and inserts.
struct LineChanges {
  std::vector<bool> Deleted;  ///< Per line of the old text.
  std::vector<bool> Inserted; ///< Per line of the new text.
};

/// The changes from \p Old to \p New (lines with their '\n').
LineChanges diffLines(const std::vector<llvm::StringRef> &Old,
                      const std::vector<llvm::StringRef> &New);

/// A unified diff of \p Before and \p After with 3 lines of context, as
/// `diff -u --label Path --label Path` prints it ("" when they are equal).
std::string unifiedDiff(const std::string &Path, const std::string &Before,
                        const std::string &After);

} // namespace kernel_tidy

#endif // KERNEL_TIDY_SRC_DRIVER_UNIFIEDDIFF_H
