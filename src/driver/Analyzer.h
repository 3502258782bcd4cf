//===--- Analyzer.h - Runs the kernel-tidy checks on files ----------------===//

#ifndef KERNEL_TIDY_SRC_DRIVER_ANALYZER_H
#define KERNEL_TIDY_SRC_DRIVER_ANALYZER_H

#include "src/driver/Findings.h"
#include "src/driver/PrecompiledPrefix.h"
#include "src/dsl/Profitability.h"
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang::tooling {
class CompilationDatabase;
}

namespace kernel_tidy {

/// How files are parsed and which checks run on them.
struct AnalysisOptions {
  std::optional<std::string> Checks;     ///< clang-tidy glob; adds to config.
  std::optional<std::string> ConfigFile; ///< Instead of .clang-tidy lookup.
  /// clang-tidy's --config: the configuration's YAML or JSON text, instead
  /// of .clang-tidy lookup.
  std::optional<std::string> Config;
  std::optional<unsigned> WarpSize;  ///< Overrides the WarpSize option.
  std::optional<dsl::Target> Target; ///< Overrides the Target option.
  /// Sets the AssumeWarpReconvergence option (the user's assertion that
  /// warps run together again after a divergent `$if` on every target).
  bool AssumeWarpReconvergence = false;
  /// Checks whose findings are errors (clang-tidy's WarningsAsErrors globs,
  /// added to the configuration's).
  std::optional<std::string> WarningsAsErrors;
  /// clang-tidy's --header-filter and --exclude-header-filter: the headers
  /// whose findings are reported (overriding the configuration's).
  std::optional<std::string> HeaderFilter;
  std::optional<std::string> ExcludeHeaderFilter;
  /// clang-tidy's --line-filter (JSON: [{"name": "k.cpp", "lines": [[1, 9]]}]):
  /// only findings on these lines of these files; empty: every line.
  std::string LineFilter;
  /// Where clang-tidy stores each analysis' time per check (a folder per
  /// analysis, JSON); empty: no profiling.
  std::string ProfileDir;
  std::string BuildPath;                    ///< -p: where compile_commands.json is.
  std::vector<std::string> ExtraArgs;       ///< --extra-arg, and after `--` on the command line.
  std::vector<std::string> ExtraArgsBefore; ///< --extra-arg-before.
  bool ForceBundledModel = false;           ///< Ignore compile databases.
  std::string ModelDir;                     ///< The bundled DSL model's include directory.
  std::string ResourceDir;                  ///< Clang's resource directory.
  /// The CuTe DSL frontend's entry script (frontends/cute/run.py), which
  /// analyses .py files.
  std::string CuteFrontend;
  /// The run's Python files (absolute; set by analyzeFiles when there are
  /// several): the frontend reads what their calls pass to a file's functions.
  std::shared_ptr<const std::vector<std::string>> PythonModules;
  /// Whether analyzeFiles shares one header parse among files (see
  /// PrecompiledPrefix.h). Off by default for a lone Analyzer.
  PchMode Pch = PchMode::Off;
  /// The precompiled prefixes files use (set by planPrecompiledPrefixes).
  std::shared_ptr<const PrefixPlan> Prefixes;
  /// The header cache's size limit (--cache-size); else
  /// KERNEL_TIDY_CACHE_SIZE, else DefaultCacheLimit.
  std::optional<uint64_t> CacheLimit;
  /// While set and true, a running CuTe DSL frontend analysis stops and its
  /// file is reported as not analysed (`kernel-tidy lsp`: the text changed).
  std::shared_ptr<const std::atomic<bool>> CancelPython;
};

/// The compile arguments of a file parsed with the bundled DSL model in
/// \p ModelDir (both include layouts: `<luisa/dsl/syntax.h>` and the older
/// `<dsl/syntax.h>`).
std::vector<std::string> bundledModelArgs(const std::string &ModelDir);

/// Parses files as their compile database says (or with the bundled DSL
/// model when there is none) and runs the enabled checks on them.
class Analyzer {
public:
  /// Fails with a message when the options cannot work (bad config file...).
  static std::unique_ptr<Analyzer> create(AnalysisOptions Options, std::string &Error);
  ~Analyzer();

  /// Analyses \p File; with \p Contents, analyses that text in its place
  /// (used to verify fixes before anything is written).
  FileResult analyze(const std::string &File,
                     const std::optional<std::string> &Contents = std::nullopt);

  /// The PCHs of \p Files' preambles (see SharedHeaderParse.h), found in
  /// the cache or built, \p Jobs at a time; files it cannot help are left
  /// out of the plan.
  std::shared_ptr<const PrefixPlan> planPrecompiledPrefixes(const std::vector<std::string> &Files,
                                                            unsigned Jobs = 1);

  /// Why the configuration of \p File cannot be used (a .clang-tidy that
  /// does not parse, a WarpSize that is not a power of two from 8 to 128),
  /// naming the file or the option; "" when it can. analyze() reports it as
  /// an error of the file; the CLI asks first, so that nothing is written.
  std::string configurationError(const std::string &File);

  /// The names of the checks enabled for \p File.
  std::vector<std::string> enabledChecks(const std::string &File);

  /// The configuration of \p File as clang-tidy's --dump-config prints it
  /// (YAML), without what the driver sets for itself.
  std::string configurationText(const std::string &File);

  /// For each check enabled for \p File, where it is enabled, as
  /// clang-tidy's --explain-config says it ("'X' is enabled in the ...").
  std::vector<std::string> explainConfiguration(const std::string &File);

  /// What is suspicious in the configuration of \p File, as clang-tidy
  /// warns: a glob of --checks that matches no check, or a `luisa-`/`cute-`
  /// glob of a configuration file that matches none (other tools' globs in a shared
  /// .clang-tidy are not ours to judge).
  std::vector<std::string> configurationWarnings(const std::string &File);

private:
  explicit Analyzer(AnalysisOptions Options);
  struct Impl;
  std::unique_ptr<Impl> State;
};

} // namespace kernel_tidy

#endif // KERNEL_TIDY_SRC_DRIVER_ANALYZER_H
