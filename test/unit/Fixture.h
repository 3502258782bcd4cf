//===--- Fixture.h - Rule fixtures with inline expectations ---------------===//
//
// A fixture is test/fixtures/<rule>/<case>.cpp with its expectations written
// beside the code, in the style of clang-tidy's lit tests
// (test/fixtures/README.md):
//
//   // RUN-ARGS-CUDA: --target=cuda
//   m = max(m, warp_read_lane(m, lane ^ 16u));
//   // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: MESSAGE [RULE] (fix: safe)
//   // CHECK-MESSAGES-CUDA: :[[@LINE-2]]:9: note: MESSAGE
//
// The directive lines are removed before analysis; what is left (Input) is
// the analysed text, and <case>[.SUFFIX].fixed.cpp its exact text after
// --fix --unsafe-fixes.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_TEST_UNIT_FIXTURE_H
#define KERNEL_TIDY_TEST_UNIT_FIXTURE_H

#include "src/driver/Analyzer.h"
#include <optional>
#include <string>
#include <vector>

namespace kernel_tidy::test {

/// One `// RUN-ARGS[-SUFFIX]: ARGS` line: the fixture analysed with ARGS.
struct FixtureRun {
  std::string Suffix; ///< Empty for `// RUN-ARGS:` (and the implicit run).
  std::string Args;
  AnalysisOptions Options;
};

/// One `// CHECK-MESSAGES[-SUFFIX]: :[[@LINE+-N]]:COL: TEXT` line, resolved
/// to a line of the analysed text.
struct Expectation {
  std::string Suffix; ///< Empty: expected in every run.
  unsigned Line = 0;  ///< In Input, 1-based.
  unsigned Column = 0;
  std::string Text; ///< `warning: MESSAGE [RULE] (fix: KIND)` or `note: MESSAGE`.
};

/// A parsed fixture file.
struct Fixture {
  std::string Path;  ///< The <case>.cpp.
  std::string Input; ///< The analysed text: the file without its directives.
  std::vector<FixtureRun> Runs;
  std::vector<Expectation> Expectations; ///< In file order.
  std::vector<std::string> Errors;       ///< Malformed directives, stray files.

  const FixtureRun *run(const std::string &Suffix) const;
  /// The findings \p Run must produce, as describeFindings writes them.
  std::string expectedFindings(const FixtureRun &Run) const;
  /// The file holding \p Run's text after fixing: <case>.SUFFIX.fixed.cpp,
  /// else <case>.fixed.cpp; std::nullopt when neither exists (no change).
  std::optional<std::string> fixedFile(const FixtureRun &Run) const;
  /// \p Run's expected text after --fix --unsafe-fixes.
  std::string expectedFixed(const FixtureRun &Run) const;
  bool expectsWarning() const;
};

/// Parses the fixture \p Path (a <case>.cpp).
Fixture loadFixture(const std::string &Path);

/// The text analysed for the fixture \p Path (its directives removed).
std::string fixtureInput(const std::string &Path);

/// Every test/fixtures/<rule>/<case>.cpp, sorted.
std::vector<std::string> fixtureFiles();

/// The findings and fixed text of one run, for rewriting expectations.
struct RunOutput {
  std::string Suffix;
  FileResult Result;
  std::optional<std::string> Fixed; ///< After --fix --unsafe-fixes; nullopt: unchanged.
};

/// Rewrites \p F's CHECK-MESSAGES lines and .fixed.cpp files from \p Outputs
/// (one per run, in run order). Returns an error, or "" on success.
std::string updateFixture(const Fixture &F, const std::vector<RunOutput> &Outputs);

} // namespace kernel_tidy::test

#endif // KERNEL_TIDY_TEST_UNIT_FIXTURE_H
