//===--- FixApplier.h - Verified, atomic application of fixes -------------===//

#ifndef KERNEL_TIDY_SRC_DRIVER_FIXAPPLIER_H
#define KERNEL_TIDY_SRC_DRIVER_FIXAPPLIER_H

#include "src/driver/Findings.h"
#include <string>

namespace kernel_tidy {

class Analyzer;

/// Re-parses the file with its fixes applied (one parse when they compile
/// together) and turns each fix that does not compile into no fix, with the
/// compiler's error as Finding::NoFixReason: reports then promise only fixes
/// that --fix would apply. Files with parse errors are left alone.
void verifyFixes(FileResult &Result, Analyzer &Reparser);

/// Verifies the fixes as verifyFixes does, then computes Result.Fixed from
/// them (unsafe ones only with \p IncludeUnsafe), re-parsing the text to
/// write unless verification already parsed it. Files with parse errors are
/// never fixed.
void applyFixes(FileResult &Result, Analyzer &Reparser, bool IncludeUnsafe);

/// Replaces the file at \p Path by \p Contents with writeAtomically (a
/// temporary file in the same folder and a rename), keeping its
/// permissions, provided the file still holds \p Expected and is writable.
/// Returns an error message, or "" on success.
std::string writeFileAtomically(const std::string &Path, const std::string &Contents,
                                const std::string &Expected);

} // namespace kernel_tidy

#endif // KERNEL_TIDY_SRC_DRIVER_FIXAPPLIER_H
