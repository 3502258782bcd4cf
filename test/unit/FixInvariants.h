//===--- FixInvariants.h - What every fix of every input must keep -------===//
//
// The checks the generated-kernel run, the fuzz-corpus replay and the
// libFuzzer target apply to any input: its fixes compile (none is dropped by
// verification), leave nothing to fix, are a fixed point, and never delete a
// comment or a preprocessor directive.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_TEST_UNIT_FIXINVARIANTS_H
#define KERNEL_TIDY_TEST_UNIT_FIXINVARIANTS_H

#include "src/driver/Analyzer.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace kernel_tidy::test {

/// What one input did, for the run's totals.
struct InvariantOutcome {
  bool Parsed = false;   ///< The input compiled.
  unsigned Findings = 0; ///< Findings on the input.
  unsigned Fixed = 0;    ///< Fixes applied (safe and unsafe).
  /// Each broken invariant, in words; empty when all held.
  std::vector<std::string> Violations;
};

/// The comments and preprocessor directive lines of \p Text (raw lexing, so
/// also those in inactive `#if` blocks), each as written.
std::vector<std::string> commentsAndDirectives(llvm::StringRef Text);

/// Analyses \p Text as the file \p Path, applies all its fixes and checks the
/// invariants on the result.
InvariantOutcome checkFixInvariants(Analyzer &Analyzer, const std::string &Path,
                                    const std::string &Text);

} // namespace kernel_tidy::test

#endif // KERNEL_TIDY_TEST_UNIT_FIXINVARIANTS_H
