//===--- TestSupport.h - Shared helpers of the kernel-tidy tests ----------===//

#ifndef KERNEL_TIDY_TEST_UNIT_TESTSUPPORT_H
#define KERNEL_TIDY_TEST_UNIT_TESTSUPPORT_H

#include "src/driver/Analyzer.h"
#include <memory>
#include <string>
#include <vector>

namespace kernel_tidy::test {

std::string sourceDir();
/// KERNEL_TIDY_CACHE_DIR of the kernel-tidy runs of the tests (set at start).
std::string testCacheDir();
std::string modelDir();
std::string readFile(const std::string &Path);
void writeFile(const std::string &Path, const std::string &Contents);
bool fileExists(const std::string &Path);

/// Files in \p Dir whose names end with \p Suffix, sorted.
std::vector<std::string> listFiles(const std::string &Dir, const std::string &Suffix);

/// An analyzer that parses with the bundled DSL model.
std::unique_ptr<Analyzer> modelAnalyzer(AnalysisOptions Options = {});

/// The compile arguments of a file parsed with the bundled model, and the
/// includes every fixture and snippet opens with.
std::vector<std::string> modelCompileArgs();
extern const char *const ModelIncludes;

/// The driver's PCH (cachedPrefixPch) of ModelIncludes with modelCompileArgs(),
/// in the tests' cache: built once per build, shared by every test process.
/// "" when it cannot be built (parse plainly then).
std::string modelPch();

/// Like modelAnalyzer, but \p File (read from disk) parses its leading
/// includes from a precompiled header kept in the build tree and shared by
/// every test process, as the CLI shares one among the files of a run: the
/// bundled model is then parsed once per build, not once per test.
std::unique_ptr<Analyzer> sharedPrefixAnalyzer(AnalysisOptions Options, const std::string &File);

/// Findings as `LINE:COL: warning: MESSAGE [RULE] (fix: KIND)` lines, each
/// followed by `LINE:COL: note: no automatic fix: REASON` when the rule gave
/// one and its other notes without a fix as `LINE:COL: note: MESSAGE` lines.
std::string describeFindings(const FileResult &Result);

/// A fresh empty folder under the system temp folder.
std::string makeTempDir();

/// How many times \p Needle occurs in \p Text (overlapping occurrences included).
size_t count(const std::string &Text, const std::string &Needle);

/// Runs the kernel-tidy binary; returns its exit code, stdout and stderr.
struct ProcessResult {
  int ExitCode = -1;
  std::string Out;
  std::string Err;
};
ProcessResult runKernelTidy(const std::vector<std::string> &Args);

} // namespace kernel_tidy::test

#endif // KERNEL_TIDY_TEST_UNIT_TESTSUPPORT_H
