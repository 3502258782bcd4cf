//===--- FixApplier.h - Verified, atomic application of fixes -------------===//

#ifndef KERNEL_TIDY_SRC_DRIVER_FIXAPPLIER_H
#define KERNEL_TIDY_SRC_DRIVER_FIXAPPLIER_H

#include "src/driver/Findings.h"
#include <string>

namespace kernel_tidy {

class Analyzer;

/// Computes Result.Fixed from the fixes of Result.Findings (unsafe ones only
/// with \p IncludeUnsafe). Every candidate text is re-parsed with
/// \p Reparser; fixes whose result does not compile are dropped with a note.
/// Files with parse errors are never fixed.
void applyFixes(FileResult &Result, Analyzer &Reparser, bool IncludeUnsafe);

/// Replaces the file at \p Path by \p Contents through a temporary file in
/// the same folder and a rename, keeping its permissions, provided the file
/// still holds \p Expected. Returns an error message, or "" on success.
std::string writeFileAtomically(const std::string &Path,
                                const std::string &Contents,
                                const std::string &Expected);

/// A unified diff of \p Before and \p After ("" when they are equal).
std::string unifiedDiff(const std::string &Path, const std::string &Before,
                        const std::string &After);

} // namespace kernel_tidy

#endif // KERNEL_TIDY_SRC_DRIVER_FIXAPPLIER_H
