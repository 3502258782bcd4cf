//===--- CheckRun.h - `kernel-tidy check` as a library ---------------------===//
//
// The check command of the kernel-tidy binary, callable in process: the
// binary parses its command line into a CheckCommand and runs it on the
// process's streams; a test or another program runs the same with its own
// streams (runCheckCommandLine takes the arguments as they follow `check`).
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_SRC_DRIVER_CHECKRUN_H
#define KERNEL_TIDY_SRC_DRIVER_CHECKRUN_H

#include "src/driver/Analyzer.h"
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
class Validator;
} // namespace CLI

namespace kernel_tidy {

/// The exit codes of kernel-tidy's commands.
enum ExitCode : int {
  ExitClean = 0,
  ExitFindings = 1,
  ExitError = 2,
  /// Findings whose rule matches --warnings-as-errors (or the
  /// configuration's WarningsAsErrors) remain.
  ExitFindingsAsErrors = 3,
};

/// The options of `kernel-tidy check`, as its command line gives them.
struct CheckCommand {
  std::vector<std::string> Files;
  std::vector<std::string> Excludes;
  bool NoRespectGitignore = false;
  std::string Format = "text";
  std::string Checks;
  std::string ConfigFile;
  std::optional<std::string> Config;
  std::vector<std::string> ExtraArgs;
  std::vector<std::string> ExtraArgsBefore;
  bool DumpConfig = false;
  bool ExplainConfig = false;
  bool ListChecks = false;
  std::string BuildPath;
  std::string WarningsAsErrors;
  std::string Shard;
  std::string SarifRoot;
  std::string Baseline;
  std::string WriteBaseline;
  unsigned WarpSize = 0;
  std::string Target;
  bool AssumeWarpReconvergence = false;
  unsigned Jobs = 0;
  bool Fix = false;
  bool UnsafeFixes = false;
  bool Diff = false;
  bool BundledModel = false;
  bool Pch = false;
  bool NoPch = false;
  std::string CacheSize;
  std::string ExportFixes;
  bool Statistics = false;
  bool ExitZero = false;
  bool AddNolint = false;
  std::string StdinFilename;
  bool ShowFixes = false;
  bool Quiet = false;
  bool AllowNoChecks = false;
  bool VerifyConfig = false;
  bool CheckProfile = false;
  std::string Color = "auto";
  std::string HeaderFilter;
  std::string ExcludeHeaderFilter;
  std::string LineFilter;
};
/// The files of an installation that a run reads, and the version it reports.
struct Installation {
  std::string Share;       ///< The bundled DSL model, the rule pages, the CuTe frontend.
  std::string Version;     ///< In JSON and SARIF reports.
  std::string ResourceDir; ///< Clang's builtin headers.
  std::string DocsBase;    ///< Where the links to the rule pages point.
};

/// Where a run reads standard input and writes its report and messages.
struct CheckStreams {
  std::istream &In;
  std::ostream &Out;
  std::ostream &Err;
  bool OutIsTerminal = false; ///< --color=auto colours only a terminal's report,
  bool ErrIsTerminal = false; ///< and progress is shown on a terminal only.
};

/// The installation whose share folder is \p Share, with this build's
/// version, Clang resource folder and docs address.
Installation installationAt(const std::string &Share);

/// The share folder of the kernel-tidy executable \p Executable: the
/// environment's KERNEL_TIDY_SHARE_DIR, else share/kernel-tidy beside its
/// bin folder (the layout of both the build tree and `cmake --install`).
std::string shareDirOf(const std::string &Executable);

/// The analysis options of every command: the installation's model, Clang's
/// resource folder and CuTe frontend, and the --checks / --config-file given.
AnalysisOptions installedOptions(const Installation &Install, const std::string &Checks,
                                 const std::string &ConfigFile);

/// --cache-size's check (also `kernel-tidy cache --cache-size`).
CLI::Validator cacheSizeValidator();

/// Defines the options of `check` on \p Check, stored in \p Cmd (the man
/// page, README's tables and the completions are made from them too).
void addCheckOptions(CLI::App &Check, CheckCommand &Cmd);

/// Runs `kernel-tidy check` with \p Cmd and the compiler arguments that
/// followed `--`; returns its exit code.
int runCheck(CheckCommand Cmd, std::vector<std::string> CompilerArgs, const Installation &Install,
             CheckStreams &Io);

/// `kernel-tidy check ARGS...` in process: \p Args as they follow `check`
/// (`--` and the compiler's arguments included). A command line that the
/// options refuse gets CLI11's message on Io.Err and ExitError.
int runCheckCommandLine(const std::vector<std::string> &Args, const Installation &Install,
                        CheckStreams &Io);

} // namespace kernel_tidy

#endif // KERNEL_TIDY_SRC_DRIVER_CHECKRUN_H
