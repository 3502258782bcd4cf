//===--- KernelTidyMain.cpp - The kernel-tidy command line ----------------===//
//
// kernel-tidy check [options] FILES... [-- COMPILER_ARGS]
// kernel-tidy rules [ID]
// kernel-tidy cache [--stats | --clear]
// kernel-tidy lsp [--checks GLOBS] [--config-file FILE]
//
//===----------------------------------------------------------------------===//

#include "rules/RuleRegistry.h"
#include "src/driver/Analyzer.h"
#include "src/driver/AtomicFile.h"
#include "src/driver/ExportFixes.h"
#include "src/driver/Baseline.h"
#include "src/driver/CiFormats.h"
#include "src/driver/FileList.h"
#include "src/driver/FixApplier.h"
#include "src/driver/HeaderCache.h"
#include "src/driver/LspServer.h"
#include "src/driver/Nesting.h"
#include "src/driver/Nolint.h"
#include "src/driver/ParallelRun.h"
#include "src/driver/Paths.h"
#include "src/driver/RepeatedFindings.h"
#include "src/driver/Report.h"
#include "src/driver/ReportMerge.h"
#include "src/driver/Sarif.h"
#include "src/driver/UnifiedDiff.h"
#include "src/dsl/WarpWidth.h"
#include "tool/CliDocs.h"

#include <CLI/CLI.hpp>
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"
#include <csignal>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <thread>
#include <unistd.h>

namespace {

constexpr int ExitClean = 0;
constexpr int ExitFindings = 1;
constexpr int ExitError = 2;
/// Findings whose rule matches --warnings-as-errors (or the configuration's
/// WarningsAsErrors) remain.
constexpr int ExitFindingsAsErrors = 3;

/// Where the bundled DSL model and rule docs are: next to the executable, as
/// laid out by both the build tree and `cmake --install`.
std::string shareDir(const char *Argv0) {
  if (auto Env = llvm::sys::Process::GetEnv("KERNEL_TIDY_SHARE_DIR"))
    return *Env;
  static int Anchor;
  std::string Exe = llvm::sys::fs::getMainExecutable(Argv0, &Anchor);
  llvm::SmallString<256> Dir(llvm::sys::path::parent_path(llvm::sys::path::parent_path(Exe)));
  llvm::sys::path::append(Dir, KERNEL_TIDY_SHARE_SUBDIR);
  return Dir.str().str();
}

/// Where the links to the rule pages point (SARIF helpUri and help.markdown,
/// `kernel-tidy rules`, the language server).
std::string docsBase(const std::string &Share) {
  return kernel_tidy::docsBase(KERNEL_TIDY_DOCS_URL, Share);
}

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

/// --color: always, never, or auto (a terminal, unless NO_COLOR is set to
/// something, https://no-color.org).
bool useColour(const CheckCommand &Cmd, bool ToStderr) {
  if (Cmd.Color != "auto")
    return Cmd.Color == "always";
  auto NoColor = llvm::sys::Process::GetEnv("NO_COLOR");
  if (NoColor && !NoColor->empty())
    return false;
  return ToStderr ? llvm::sys::Process::StandardErrIsDisplayed()
                  : llvm::sys::Process::StandardOutIsDisplayed();
}

/// Progress is shown only to a person watching a run of some length.
constexpr size_t MinFilesForProgress = 4;

/// The options of every command: the installed model, Clang's resource
/// folder and CuTe frontend, and the --checks / --config-file given.
kernel_tidy::AnalysisOptions installedOptions(const std::string &Share, const std::string &Checks,
                                              const std::string &ConfigFile) {
  kernel_tidy::AnalysisOptions Options;
  if (!Checks.empty())
    Options.Checks = Checks;
  if (!ConfigFile.empty())
    Options.ConfigFile = ConfigFile;
  Options.ModelDir = Share + "/api-model";
  Options.ResourceDir = KERNEL_TIDY_CLANG_RESOURCE_DIR;
  Options.CuteFrontend = Share + "/frontends/cute/run.py";
  return Options;
}

kernel_tidy::AnalysisOptions analysisOptions(const CheckCommand &Cmd,
                                             std::vector<std::string> CompilerArgs,
                                             const std::string &Share) {
  kernel_tidy::AnalysisOptions Options = installedOptions(Share, Cmd.Checks, Cmd.ConfigFile);
  if (Cmd.WarpSize)
    Options.WarpSize = Cmd.WarpSize;
  if (!Cmd.Target.empty())
    Options.Target = kernel_tidy::dsl::parseTarget(Cmd.Target); // Checked by CLI11.
  if (!Cmd.WarningsAsErrors.empty())
    Options.WarningsAsErrors = Cmd.WarningsAsErrors;
  if (!Cmd.HeaderFilter.empty())
    Options.HeaderFilter = Cmd.HeaderFilter;
  if (!Cmd.ExcludeHeaderFilter.empty())
    Options.ExcludeHeaderFilter = Cmd.ExcludeHeaderFilter;
  Options.LineFilter = Cmd.LineFilter;
  Options.BuildPath = Cmd.BuildPath;
  Options.ForceBundledModel = Cmd.BundledModel;
  Options.Config = Cmd.Config;
  // clang-tidy puts --extra-arg after the arguments that follow `--`.
  Options.ExtraArgs = std::move(CompilerArgs);
  Options.ExtraArgs.insert(Options.ExtraArgs.end(), Cmd.ExtraArgs.begin(), Cmd.ExtraArgs.end());
  Options.ExtraArgsBefore = Cmd.ExtraArgsBefore;
  Options.Pch = Cmd.NoPch ? kernel_tidy::PchMode::Off : kernel_tidy::PchMode::Auto;
  if (!Cmd.CacheSize.empty())
    Options.CacheLimit = kernel_tidy::parseCacheSize(Cmd.CacheSize); // Checked by CLI11.
  return Options;
}

/// "K/N" with 1 <= K <= N.
bool parseShard(const std::string &Text, unsigned &K, unsigned &N) {
  auto [KText, NText] = llvm::StringRef(Text).split('/');
  return !KText.getAsInteger(10, K) && !NText.getAsInteger(10, N) && N >= 1 && K >= 1 && K <= N;
}

/// All of standard input, refused past the size of an input file.
std::optional<std::string> readStandardInput(std::string &Error) {
  std::string Text;
  char Buffer[1 << 16];
  for (;;) {
    size_t N = std::fread(Buffer, 1, sizeof(Buffer), stdin);
    Text.append(Buffer, N);
    if (Text.size() > kernel_tidy::MaxInputBytes) {
      Error =
          "standard input is larger than " + kernel_tidy::formatBytes(kernel_tidy::MaxInputBytes);
      return std::nullopt;
    }
    if (N < sizeof(Buffer)) {
      if (std::ferror(stdin)) {
        Error = "cannot read standard input";
        return std::nullopt;
      }
      return Text;
    }
  }
}

/// The files this run analyses: inputs expanded, excluded, and sharded.
std::optional<std::vector<std::string>> selectFiles(const CheckCommand &Cmd, std::string &Error) {
  if (Cmd.Files.empty() && Cmd.BuildPath.empty()) {
    Error = "no files to check (give files or folders, or -p with a compile database)";
    return std::nullopt;
  }
  unsigned SkippedCpp = 0;
  auto Files = kernel_tidy::collectFiles(Cmd.Files, Cmd.Excludes, Cmd.BuildPath, Error, &SkippedCpp,
                                         /*RespectIgnoreFiles=*/!Cmd.NoRespectGitignore);
  if (!Files)
    return std::nullopt;
  if (SkippedCpp && !Cmd.Quiet)
    std::cerr << "kernel-tidy: note: skipped " << SkippedCpp
              << " C++ file(s) that include no LuisaCompute header (no compile database; "
                 "name a file, or give -p, to check it anyway)\n";
  // A file named on the command line that --exclude matches is skipped, as
  // Ruff's --force-exclude does, so that hooks passing every changed file
  // do not fail on generated ones.
  unsigned Skipped = 0;
  for (const std::string &Input : Cmd.Files)
    if (!llvm::sys::fs::is_directory(Input) && !llvm::is_contained(*Files, Input)) {
      ++Skipped;
      if (!Cmd.Quiet)
        std::cerr << "kernel-tidy: note: '" << Input << "' matches --exclude; skipped\n";
    }
  if (Files->empty() && Skipped > 0 && Skipped == Cmd.Files.size())
    return Files;
  // Folders without sources (a fresh project, a CI matrix entry) are no
  // mistake of the command: a warning, empty reports, exit code 0.
  if (Files->empty() && !Cmd.Files.empty() && llvm::all_of(Cmd.Files, [](const std::string &F) {
        return llvm::sys::fs::is_directory(F);
      })) {
    std::cerr << "kernel-tidy: warning: no source files to check in "
              << (Cmd.Files.size() == 1 ? "'" + Cmd.Files[0] + "'" : "the folders given")
              << " (.cpp .cc .cxx .h .hpp .inl; .py that mention cutlass)\n";
    return Files;
  }
  if (Files->empty()) {
    Error = "no source files to check (" +
            std::string(".cpp .cc .cxx .h .hpp .inl; .py that mention cutlass") + ")";
    return std::nullopt;
  }
  unsigned K = 1, N = 1;
  if (!Cmd.Shard.empty() && !parseShard(Cmd.Shard, K, N)) {
    Error = "--shard wants K/N with 1 <= K <= N, not '" + Cmd.Shard + "'";
    return std::nullopt;
  }
  return N == 1 ? *Files : kernel_tidy::selectShard(*Files, K, N);
}

std::optional<kernel_tidy::BaselineFilter> loadBaseline(const std::string &Path,
                                                        std::string &Error) {
  if (!llvm::sys::fs::exists(Path)) {
    // The first run of a CI job that reads a baseline: say how to make one.
    Error = "the baseline '" + Path +
            "' does not exist; record the current findings in it with "
            "'kernel-tidy check --write-baseline " +
            Path + " FILES...'";
    return std::nullopt;
  }
  // Only a regular file of bounded size: /dev/zero or a FIFO would never end.
  auto Text = kernel_tidy::readInputFile(Path, Error);
  if (!Text) {
    Error = "cannot read the baseline: " + Error;
    return std::nullopt;
  }
  auto Entries = kernel_tidy::parseBaseline(*Text, Error);
  if (!Entries) {
    Error = "'" + Path + "': " + Error;
    return std::nullopt;
  }
  return kernel_tidy::BaselineFilter(*Entries);
}

/// "[done/total] elapsed" on one terminal line of stderr: redrawn after each
/// file and, while a long file is parsed, a few times a second; erased
/// around what the report prints meanwhile and at the end.
class ProgressLine {
public:
  explicit ProgressLine(bool Enabled) : Enabled(Enabled) {
    if (Enabled)
      Ticker = std::thread([this] {
        std::unique_lock<std::mutex> Hold(Lock);
        while (!Stopped.wait_for(Hold, std::chrono::milliseconds(250), [this] { return Stop; }))
          draw();
      });
  }
  ~ProgressLine() { finish(); }

  void update(size_t Done, size_t Total) {
    std::lock_guard<std::mutex> Hold(Lock);
    this->Done = Done;
    this->Total = Total;
    draw();
  }
  /// Runs \p Print with the line erased, then draws it again.
  template <typename F> void around(F Print) {
    std::lock_guard<std::mutex> Hold(Lock);
    erase();
    Print();
    draw();
  }
  void finish() {
    if (!Enabled)
      return;
    {
      std::lock_guard<std::mutex> Hold(Lock);
      Stop = true;
      erase();
    }
    Stopped.notify_all();
    Ticker.join();
    Enabled = false;
  }

private:
  void draw() {
    if (!Enabled || Total == 0 || Stop)
      return;
    auto Elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start);
    std::fprintf(stderr, "\r[%zu/%zu] %.1fs", Done, Total, Elapsed.count());
    Drawn = true;
  }
  void erase() {
    if (Drawn)
      std::fprintf(stderr, "\r\033[K");
    Drawn = false;
  }

  bool Enabled;
  bool Stop = false, Drawn = false;
  size_t Done = 0, Total = 0;
  std::mutex Lock;
  std::condition_variable Stopped;
  std::thread Ticker;
  std::chrono::steady_clock::time_point Start = std::chrono::steady_clock::now();
};

/// What the workers leave for the report, per file, in input order.
struct RunState {
  std::optional<kernel_tidy::BaselineFilter> Baseline;
  std::string Root;
  std::vector<std::vector<kernel_tidy::BaselineEntry>> Recorded;
  std::vector<std::string> Diffs;
  std::atomic<unsigned> Hidden{0};
  std::atomic<unsigned> NolintsAdded{0};
  std::vector<std::vector<std::string>> NolintSkips; ///< Per file.
};

/// --add-nolint: the file rewritten with a NOLINT comment on each line with
/// a finding; the findings commented are gone from the report.
void addNolintComments(RunState &State, size_t Index, kernel_tidy::FileResult &Result) {
  if (!Result.Errors.empty())
    return;
  unsigned Added = 0;
  std::string Text = kernel_tidy::withNolintComments(Result, Added, State.NolintSkips[Index]);
  if (Added == 0)
    return;
  std::string Error = kernel_tidy::writeFileAtomically(Result.File, Text, Result.Original);
  if (!Error.empty()) {
    Result.Errors.push_back({Result.File, 0, 0, Error});
    return;
  }
  State.NolintsAdded += Added;
  llvm::erase_if(Result.Findings, [&](const kernel_tidy::Finding &F) {
    return F.File == Result.File &&
           !llvm::any_of(State.NolintSkips[Index], [&](const std::string &Skip) {
             return llvm::StringRef(Skip).starts_with(F.File + ":" + std::to_string(F.Begin.Line) +
                                                      ":");
           });
  });
}

/// Runs on a worker thread for each analysed file: record, filter, fix.
void afterAnalysis(const CheckCommand &Cmd, RunState &State, size_t Index,
                   kernel_tidy::FileResult &Result, kernel_tidy::Analyzer &Analyzer) {
  if (State.Baseline && Cmd.WriteBaseline.empty())
    State.Hidden += State.Baseline->removeKnown(Result, State.Root);
  if (Cmd.AddNolint) {
    addNolintComments(State, Index, Result);
    return;
  }
  if (!Cmd.Fix && !Cmd.Diff) {
    // Reports promise only the fixes that --fix would apply.
    kernel_tidy::verifyFixes(Result, Analyzer);
    return;
  }
  kernel_tidy::applyFixes(Result, Analyzer, Cmd.UnsafeFixes);
  if (Result.Fixed && Cmd.Diff) {
    State.Diffs[Index] = kernel_tidy::unifiedDiff(Result.File, Result.Original, *Result.Fixed);
  } else if (Result.Fixed && Cmd.Fix && Cmd.StdinFilename.empty()) {
    std::string WriteError =
        kernel_tidy::writeFileAtomically(Result.File, *Result.Fixed, Result.Original);
    if (!WriteError.empty()) {
      Result.Errors.push_back({Result.File, 0, 0, WriteError});
      Result.FixedCount = 0;
      for (kernel_tidy::Finding &F : Result.Findings)
        F.FixApplied = false;
    }
  }
}

/// Whether the report, in any format, goes to stderr: stdout carries the
/// diff, or the fixed text of standard input alone (as clang-format and Ruff
/// print it).
bool reportToStderr(const CheckCommand &Cmd) {
  return Cmd.Diff || (Cmd.Fix && !Cmd.StdinFilename.empty());
}

kernel_tidy::TextOptions textOptions(const CheckCommand &Cmd) {
  kernel_tidy::TextOptions Text;
  Text.Colour = useColour(Cmd, /*ToStderr=*/reportToStderr(Cmd));
  Text.FixesWritten = Cmd.Fix && !Cmd.Diff;
  return Text;
}

void printWarnings(const kernel_tidy::FileResult &Result, llvm::StringSet<> &Warned) {
  for (const std::string &Warning : Result.Warnings)
    if (Warned.insert(Warning).second)
      std::cerr << "kernel-tidy: warning: " << Warning << "\n";
}

/// One file's part of a text report (its new warnings, its diff, its
/// findings), printed as soon as the file and those before it are done.
void printFileReport(const CheckCommand &Cmd, const kernel_tidy::FileResult &Result,
                     const std::string &Diff, llvm::StringSet<> &Warned) {
  printWarnings(Result, Warned);
  std::cout << Diff;
  // After --fix or --diff, --quiet leaves out what was fixed (the pre-commit
  // fix hooks pass it) but tells what remains, as Ruff's -q does.
  bool RemainingOnly = Cmd.Quiet && (Cmd.Fix || Cmd.Diff);
  (reportToStderr(Cmd) ? std::cerr : std::cout)
      << kernel_tidy::formatText(RemainingOnly ? kernel_tidy::remainingFindings({Result})
                                               : std::vector<kernel_tidy::FileResult>{Result},
                                 textOptions(Cmd));
  std::cout.flush();
}

/// The rest of the report once every file is done: a JSON or SARIF
/// document (text was streamed), then the summaries on stderr.
void printReport(const CheckCommand &Cmd, const std::vector<kernel_tidy::FileResult> &Results,
                 const RunState &State, const std::string &Share) {
  if (Cmd.Format != "text") {
    llvm::StringSet<> Warned;
    for (const kernel_tidy::FileResult &Result : Results)
      printWarnings(Result, Warned);
    for (const std::string &Diff : State.Diffs)
      std::cout << Diff;
  }
  std::ostream &Document = reportToStderr(Cmd) ? std::cerr : std::cout;
  // After --fix, the CI formats report what remains: they have no way to
  // mark a finding fixed (JSON has "fixed"; issue 49, item 12).
  std::vector<kernel_tidy::FileResult> Remaining;
  if (Cmd.Fix && !Cmd.Diff && Cmd.Format != "json" && Cmd.Format != "text")
    Remaining = kernel_tidy::remainingFindings(Results);
  const std::vector<kernel_tidy::FileResult> &Shown = Remaining.empty() ? Results : Remaining;
  if (Cmd.Format == "json")
    Document << kernel_tidy::formatJson(Results, KERNEL_TIDY_VERSION);
  else if (Cmd.Format == "sarif")
    Document << kernel_tidy::formatSarif(
        Shown, {KERNEL_TIDY_VERSION, State.Root, Share + "/docs/rules", docsBase(Share)});
  else if (Cmd.Format == "github")
    Document << kernel_tidy::formatGithub(Shown, State.Root);
  else if (Cmd.Format == "gitlab")
    Document << kernel_tidy::formatGitlab(Shown, State.Root);
  else if (Cmd.Format == "junit")
    Document << kernel_tidy::formatJunit(Shown);
  if (Cmd.ShowFixes && Cmd.Fix && !Cmd.Diff)
    std::cerr << kernel_tidy::formatAppliedFixes(Results);
  if (Cmd.Fix || Cmd.Diff)
    std::cerr << "kernel-tidy: " << kernel_tidy::formatFixSummary(Results, !Cmd.Diff);
  else if (Cmd.Format == "text" && !Cmd.Quiet) {
    std::string Footer = kernel_tidy::formatFixableFooter(Results);
    if (!Footer.empty())
      std::cerr << "kernel-tidy: " << Footer;
  }
  if (Cmd.AddNolint) {
    for (const auto &Skips : State.NolintSkips)
      for (const std::string &Skip : Skips)
        std::cerr << Skip << "\n";
    std::cerr << "kernel-tidy: added " << State.NolintsAdded << " NOLINT comment(s)\n";
  }
  if (Cmd.Statistics)
    std::cerr << kernel_tidy::formatStatistics(Results, State.Hidden);
  else if (State.Hidden && !Cmd.Quiet)
    std::cerr << "kernel-tidy: " << State.Hidden << " finding(s) hidden by the baseline\n";
}

int exitCode(const CheckCommand &Cmd, const std::vector<kernel_tidy::FileResult> &Results) {
  bool Failed =
      llvm::any_of(Results, [](const kernel_tidy::FileResult &R) { return !R.Errors.empty(); });
  if (Failed)
    return ExitError;
  if (!Cmd.WriteBaseline.empty())
    return ExitClean; // Recording is the point of the run.
  // With --fix, the findings whose fix was written are gone.
  bool Written = Cmd.Fix && !Cmd.Diff;
  bool Remaining = false, ErrorsRemaining = false;
  for (const kernel_tidy::FileResult &R : Results)
    for (const kernel_tidy::Finding &F : R.Findings)
      if (!(Written && F.FixApplied)) {
        Remaining = true;
        ErrorsRemaining |= F.AsError;
      }
  if (Cmd.ExitZero)
    return ExitClean;
  if (ErrorsRemaining)
    return ExitFindingsAsErrors;
  return Remaining ? ExitFindings : ExitClean;
}

bool writeBaselineFile(const CheckCommand &Cmd, const RunState &State) {
  std::vector<kernel_tidy::BaselineEntry> All;
  for (const auto &Entries : State.Recorded)
    All.insert(All.end(), Entries.begin(), Entries.end());
  std::string Error =
      kernel_tidy::writeAtomically(Cmd.WriteBaseline, kernel_tidy::formatBaseline(All));
  if (!Error.empty()) {
    std::cerr << "kernel-tidy: error: cannot write the baseline: " << Error << "\n";
    return false;
  }
  if (!Cmd.Quiet)
    std::cerr << "kernel-tidy: recorded " << All.size() << " finding(s) in " << Cmd.WriteBaseline
              << "\n";
  return true;
}

/// Writes --export-fixes; false when it cannot be written, or a fix cannot
/// be exported byte for byte (the others are written, that one named).
bool writeExportedFixes(const CheckCommand &Cmd,
                        const std::vector<kernel_tidy::FileResult> &Results) {
  kernel_tidy::ExportGaps Gaps;
  std::string Error = kernel_tidy::writeAtomically(
      Cmd.ExportFixes, kernel_tidy::exportFixesYaml(Results, Cmd.UnsafeFixes, &Gaps));
  if (!Error.empty()) {
    std::cerr << "kernel-tidy: error: cannot export the fixes: " << Error << "\n";
    return false;
  }
  if (Gaps.PythonFixes > 0)
    std::cerr << "kernel-tidy: warning: " << Gaps.PythonFixes
              << " fix(es) of .py files not exported to " << Cmd.ExportFixes
              << ": clang-apply-replacements cleans up around each replacement as C++ "
                 "(it removes trailing commas such as in '(4,)'), which changes Python code; "
                 "apply them with --fix\n";
  for (const std::string &Refused : Gaps.Refused)
    std::cerr << "kernel-tidy: error: " << Refused << "\n";
  return Gaps.Refused.empty();
}

/// Whether every file's configuration can be used and enables a check (as
/// clang-tidy, unless --allow-no-checks); prints the problems (each once)
/// otherwise. Checked before anything is analysed, so that a bad
/// configuration of one folder writes nothing anywhere.
bool configurationUsable(const CheckCommand &Cmd, const std::vector<std::string> &Files,
                         const kernel_tidy::AnalysisOptions &Options,
                         unsigned *WarningCount = nullptr) {
  std::string Error;
  auto Checker = kernel_tidy::Analyzer::create(Options, Error);
  if (!Checker) {
    std::cerr << "kernel-tidy: error: " << Error << "\n";
    return false;
  }
  llvm::StringSet<> Reported, Warned;
  std::vector<std::string> WithoutChecks;
  for (const std::string &File : Files) {
    for (const std::string &Warning : Checker->configurationWarnings(File))
      if (Warned.insert(Warning).second)
        std::cerr << "kernel-tidy: warning: " << Warning << "\n";
    std::string Problem = Checker->configurationError(File);
    if (Problem.empty() && !Cmd.AllowNoChecks && Checker->enabledChecks(File).empty())
      WithoutChecks.push_back(File);
    if (!Problem.empty() && Reported.insert(Problem).second)
      std::cerr << "kernel-tidy: error: " << Problem << "\n";
  }
  // One error for them all (`--checks='-*'` is one mistake, not one per file).
  if (!WithoutChecks.empty()) {
    std::string Which = WithoutChecks.size() == 1 ? "'" + WithoutChecks[0] + "'"
                                                  : std::to_string(WithoutChecks.size()) +
                                                        " files ('" + WithoutChecks[0] + "', ...)";
    std::string Problem = "no checks enabled for " + Which +
                          ": the Checks match no check (--allow-no-checks accepts it)";
    Reported.insert(Problem);
    std::cerr << "kernel-tidy: error: " << Problem << "\n";
  }
  if (WarningCount)
    *WarningCount = Warned.size();
  return Reported.empty();
}

/// --verify-config: the configuration of each file (or of the current
/// folder) checked as a run would check it, and nothing analysed; exit code
/// 2 on any error or warning, as clang-tidy's --verify-config fails.
int verifyConfiguration(const CheckCommand &Cmd, const kernel_tidy::AnalysisOptions &Options) {
  std::vector<std::string> Files = Cmd.Files;
  if (Files.empty())
    Files.push_back("kernel-tidy-verify-config.cpp"); // Stands for the current folder.
  unsigned Warnings = 0;
  if (!configurationUsable(Cmd, Files, Options, &Warnings) || Warnings > 0)
    return ExitError;
  std::cerr << "kernel-tidy: no configuration errors found\n";
  return ExitClean;
}

/// --dump-config, --explain-config and --list-checks, as clang-tidy prints
/// them, for the first file named (or the current folder: its C++ checks
/// and CuTe DSL rules both).
int printConfiguration(const CheckCommand &Cmd, const kernel_tidy::AnalysisOptions &Options) {
  std::string Error;
  auto Checker = kernel_tidy::Analyzer::create(Options, Error);
  std::vector<std::string> Files;
  if (!Cmd.Files.empty())
    Files.push_back(llvm::sys::fs::is_directory(Cmd.Files[0]) ? Cmd.Files[0] + "/kernel-tidy.cpp"
                                                              : Cmd.Files[0]);
  else
    Files = {"kernel-tidy.cpp", "kernel-tidy.py"}; // Stand for the current folder.
  if (Checker && Error.empty())
    Error = Checker->configurationError(Files[0]);
  if (!Error.empty()) {
    std::cerr << "kernel-tidy: error: " << Error << "\n";
    return ExitError;
  }
  if (Cmd.DumpConfig) {
    std::cout << Checker->configurationText(Files[0]);
    return ExitClean;
  }
  std::vector<std::string> Lines;
  for (const std::string &File : Files)
    for (std::string &Line :
         Cmd.ExplainConfig ? Checker->explainConfiguration(File) : Checker->enabledChecks(File))
      Lines.push_back(std::move(Line));
  if (Cmd.ExplainConfig) {
    for (const std::string &Line : Lines)
      std::cout << Line << "\n";
    return ExitClean;
  }
  std::cout << "Enabled checks:\n";
  for (const std::string &Check : Lines)
    std::cout << "    " << Check << "\n";
  std::cout << "\n";
  return ExitClean;
}

/// Why -p \p BuildPath cannot work, in one line with what to do; "" when
/// it names a folder with a compile database.
std::string buildPathProblem(const std::string &BuildPath) {
  if (BuildPath.empty())
    return "";
  if (!llvm::sys::fs::is_directory(BuildPath))
    return "-p '" + BuildPath + "': no such folder (-p names the build folder that holds " +
           "compile_commands.json)";
  for (const char *Name : {"/compile_commands.json", "/compile_flags.txt"})
    if (llvm::sys::fs::exists(BuildPath + Name))
      return "";
  return "-p '" + BuildPath +
         "': no compile_commands.json in it (CMake writes one when configured with "
         "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON; without -p, kernel-tidy finds one above each file "
         "or parses with the bundled DSL model)";
}

/// --enable-check-profile: the temporary folder clang-tidy stores each
/// analysis' profile in, removed at the end of the run, and by the signal
/// handlers when a run is interrupted (issue 49, item 15).
struct ProfileFolder {
  explicit ProfileFolder(bool Wanted) {
    llvm::SmallString<128> Dir;
    if (Wanted && !llvm::sys::fs::createUniqueDirectory("kernel-tidy-profile", Dir)) {
      Path = Dir.str().str();
      Cleanup.emplace(Path);
    }
  }
  ~ProfileFolder() {
    if (!Path.empty())
      llvm::sys::fs::remove_directories(Path);
  }
  /// The JSON texts of the profiles stored so far.
  std::vector<std::string> read() const {
    std::vector<std::string> Texts;
    std::error_code EC;
    for (llvm::sys::fs::recursive_directory_iterator It(Path, EC), End; !EC && It != End;
         It.increment(EC))
      if (llvm::StringRef(It->path()).ends_with(".json"))
        if (auto Text = llvm::MemoryBuffer::getFile(It->path()))
          Texts.push_back((*Text)->getBuffer().str());
    return Texts;
  }
  std::string Path;
  std::optional<kernel_tidy::SignalCleanup> Cleanup;
};

/// The files without repeats: one file named twice (or through a symlink)
/// is analysed and fixed once.
std::vector<std::string> withoutRepeats(std::vector<std::string> Files) {
  llvm::StringSet<> Seen;
  std::vector<std::string> Unique;
  for (std::string &File : Files) {
    llvm::SmallString<256> Real;
    if (llvm::sys::fs::real_path(File, Real))
      Real = File; // Missing files are reported by the analysis.
    if (Seen.insert(Real).second)
      Unique.push_back(std::move(File));
  }
  return Unique;
}

/// Whether the outputs of the run (--write-baseline, --export-fixes) spare
/// its inputs: an output that is a file of the run, the configuration, the
/// compile database, the baseline read or the other output would replace it,
/// and so would one whose name is an existing source file (a forgotten
/// baseline name takes the next argument: `--write-baseline a.cpp b.cpp`).
/// A new output with a source extension only gets a warning.
bool outputsSpareTheInputs(const CheckCommand &Cmd, const std::vector<std::string> &Files) {
  std::vector<std::pair<std::string, std::string>> Inputs; // What it is, path.
  for (const std::string &File : Cmd.Files)
    Inputs.push_back({"named on the command line as a file to check", File});
  for (const std::string &File : Files)
    Inputs.push_back({"a file this run checks", File});
  if (!Cmd.ConfigFile.empty())
    Inputs.push_back({"the --config-file", Cmd.ConfigFile});
  if (!Cmd.BuildPath.empty())
    Inputs.push_back({"the compile database", Cmd.BuildPath + "/compile_commands.json"});
  if (!Cmd.Baseline.empty())
    Inputs.push_back({"the --baseline", Cmd.Baseline});
  const std::pair<const char *, const std::string *> Outputs[] = {
      {"--write-baseline", &Cmd.WriteBaseline}, {"--export-fixes", &Cmd.ExportFixes}};
  for (const auto &[Option, Output] : Outputs) {
    if (Output->empty())
      continue;
    llvm::sys::fs::UniqueID Id;
    bool Exists = !llvm::sys::fs::getUniqueID(*Output, Id);
    auto Refuse = [&](const std::string &What) {
      std::cerr << "kernel-tidy: error: " << Option << " '" << *Output << "' is " << What
                << "; refusing to overwrite it (nothing was analysed or written)\n";
      return false;
    };
    if (Exists) {
      for (const auto &[What, Input] : Inputs) {
        llvm::sys::fs::UniqueID InputId;
        // The baseline read may be rewritten by --write-baseline: it is read first.
        if (!llvm::sys::fs::getUniqueID(Input, InputId) && InputId == Id &&
            !(What == "the --baseline" && Output == &Cmd.WriteBaseline))
          return Refuse(What);
      }
      if (Output == &Cmd.ExportFixes && !Cmd.WriteBaseline.empty() &&
          llvm::sys::fs::equivalent(Cmd.WriteBaseline, Cmd.ExportFixes))
        return Refuse("also the --write-baseline");
    } else if (Output == &Cmd.ExportFixes && Cmd.WriteBaseline == Cmd.ExportFixes) {
      return Refuse("also the --write-baseline");
    }
    if (kernel_tidy::isSourceFileName(*Output)) {
      if (Exists && llvm::sys::fs::is_regular_file(*Output))
        return Refuse("a source file (by its extension)");
      std::cerr << "kernel-tidy: warning: " << Option << " '" << *Output
                << "' has a source file's extension; did you forget its name?\n";
    }
  }
  return true;
}

int runCheck(CheckCommand Cmd, std::vector<std::string> CompilerArgs, const std::string &Share) {
  // `check -` reads standard input, as Ruff's; --stdin-filename names it.
  if (llvm::is_contained(Cmd.Files, "-")) {
    if (Cmd.Files.size() > 1) {
      std::cerr << "kernel-tidy: error: '-' (standard input) is checked on its own; give no "
                   "other files with it\n";
      return ExitError;
    }
    Cmd.Files.clear();
    if (Cmd.StdinFilename.empty())
      Cmd.StdinFilename = "stdin.cpp";
  }
  if (std::string Problem = buildPathProblem(Cmd.BuildPath); !Problem.empty()) {
    std::cerr << "kernel-tidy: error: " << Problem << "\n";
    return ExitError;
  }
  kernel_tidy::AnalysisOptions Options = analysisOptions(Cmd, std::move(CompilerArgs), Share);
  if (!llvm::sys::fs::is_directory(Options.ModelDir)) {
    std::cerr << "kernel-tidy: error: bundled DSL model not found at '" << Options.ModelDir
              << "' (set KERNEL_TIDY_SHARE_DIR)\n";
    return ExitError;
  }
  if (Cmd.AddNolint &&
      (Cmd.Fix || Cmd.Diff || !Cmd.WriteBaseline.empty() || !Cmd.StdinFilename.empty())) {
    std::cerr << "kernel-tidy: error: --add-nolint edits the files; it does not combine with "
                 "--fix, --diff, --write-baseline or --stdin-filename\n";
    return ExitError;
  }
  // The exported offsets would name the text before the comments were added
  // (issue 49, item 4), or the text of standard input applied to the file of
  // that name (item 3).
  if (!Cmd.ExportFixes.empty() && (Cmd.AddNolint || !Cmd.StdinFilename.empty())) {
    std::cerr << "kernel-tidy: error: --export-fixes writes offsets into the files on disk; it "
                 "does not combine with "
              << (Cmd.AddNolint ? "--add-nolint, which changes them"
                                : "--stdin-filename, whose text is not the file's")
              << "\n";
    return ExitError;
  }
  if (!Cmd.WriteBaseline.empty() && (Cmd.Fix || Cmd.Diff)) {
    std::cerr << "kernel-tidy: error: --write-baseline records findings; "
                 "it does not combine with --fix or --diff\n";
    return ExitError;
  }
  for (const std::string &Output : {Cmd.WriteBaseline, Cmd.ExportFixes}) {
    llvm::StringRef Folder = llvm::sys::path::parent_path(Output);
    if (!Output.empty() && !llvm::sys::fs::is_directory(Folder.empty() ? "." : Folder)) {
      // Noticed before any source is fixed.
      std::cerr << "kernel-tidy: error: cannot write '" << Output << "': no folder '"
                << Folder.str() << "'\n";
      return ExitError;
    }
  }
  if (Cmd.VerifyConfig)
    return verifyConfiguration(Cmd, Options);
  if (Cmd.DumpConfig || Cmd.ExplainConfig || Cmd.ListChecks)
    return printConfiguration(Cmd, Options);
  ProfileFolder Profiles(Cmd.CheckProfile);
  Options.ProfileDir = Profiles.Path;
  std::string Error;
  std::optional<std::vector<std::string>> Files;
  std::optional<std::string> Stdin;
  if (Cmd.StdinFilename.empty()) {
    Files = selectFiles(Cmd, Error);
  } else if (!Cmd.Files.empty()) {
    Error = "--stdin-filename names the file that standard input holds; give no files with it";
  } else if (llvm::StringRef Name = Cmd.StdinFilename;
             Name == "-" || llvm::sys::path::filename(Name).empty() || Name.ends_with("/")) {
    // One message, not the Clang driver's (issue 49, item 16).
    Error = "--stdin-filename '" + Cmd.StdinFilename +
            "' names no file: give the path of the file whose text standard input holds (its "
            "extension, configuration and compile command are taken from it)";
  } else if (llvm::StringRef Folder = llvm::sys::path::parent_path(Name);
             !llvm::sys::fs::is_directory(Folder.empty() ? "." : Folder)) {
    // Once, not once per configuration lookup.
    Error = "--stdin-filename '" + Cmd.StdinFilename + "': there is no folder '" + Folder.str() +
            "' (the file's configuration and compile command are looked up from its folder)";
  } else if ((Stdin = readStandardInput(Error))) {
    Files = std::vector<std::string>{Cmd.StdinFilename};
    // Its preamble is read from the text, not from the file of that name.
    Options.Pch = kernel_tidy::PchMode::Off;
  }
  RunState State;
  State.Root = Cmd.SarifRoot.empty() ? kernel_tidy::repositoryRoot(".") : Cmd.SarifRoot;
  if (Files && !Cmd.Baseline.empty())
    State.Baseline = loadBaseline(Cmd.Baseline, Error);
  if (!Files || (!Cmd.Baseline.empty() && !State.Baseline)) {
    std::cerr << "kernel-tidy: error: " << Error << "\n";
    return ExitError;
  }
  if (Cmd.UnsafeFixes && !Cmd.Fix && !Cmd.Diff && Cmd.ExportFixes.empty())
    std::cerr << "kernel-tidy: warning: --unsafe-fixes has no effect without --fix, --diff "
                 "or --export-fixes\n";
  if (!outputsSpareTheInputs(Cmd, *Files))
    return ExitError;
  *Files = kernel_tidy::RepeatedFindings::headersFirst(withoutRepeats(std::move(*Files)));
  if (!configurationUsable(Cmd, *Files, Options))
    return ExitError;
  State.Recorded.resize(Files->size());
  State.Diffs.resize(Files->size());
  State.NolintSkips.resize(Files->size());

  ProgressLine Progress(!Cmd.Quiet && Files->size() >= MinFilesForProgress &&
                        llvm::sys::Process::StandardErrIsDisplayed());
  kernel_tidy::ParallelRunOptions Run;
  if (Stdin)
    Run.Contents[Cmd.StdinFilename] = *Stdin;
  Run.Jobs = Cmd.Jobs ? Cmd.Jobs : std::max(1u, std::thread::hardware_concurrency());
  Run.AfterAnalysis = [&](size_t Index, kernel_tidy::FileResult &Result,
                          kernel_tidy::Analyzer &Analyzer) {
    afterAnalysis(Cmd, State, Index, Result, Analyzer);
  };
  Run.OnProgress = [&](size_t Done, size_t Total) { Progress.update(Done, Total); };
  llvm::StringSet<> Warned;
  kernel_tidy::RepeatedFindings Repeats(*Files);
  Run.InOrder = [&](size_t Index, kernel_tidy::FileResult &Result) {
    Repeats.removeFrom(Result);
    if (!Cmd.WriteBaseline.empty())
      State.Recorded[Index] = kernel_tidy::baselineEntries(Result, State.Root);
    if (Cmd.Format == "text")
      Progress.around([&] { printFileReport(Cmd, Result, State.Diffs[Index], Warned); });
  };
  auto Results = kernel_tidy::analyzeFiles(*Files, Options, Run, Error);
  Progress.finish();
  if (!Results) {
    std::cerr << "kernel-tidy: error: " << Error << "\n";
    return ExitError;
  }
  printReport(Cmd, *Results, State, Share);
  // --fix of standard input: the fixed text goes to standard output.
  if (Stdin && Cmd.Fix && !Cmd.Diff)
    for (const kernel_tidy::FileResult &Result : *Results)
      std::cout << (Result.Fixed && Result.Errors.empty() ? *Result.Fixed : Result.Original);
  // A report that did not reach its reader (a full disk behind stdout) is
  // a failed run, not a clean one.
  if (!std::cout.flush()) {
    std::cerr << "kernel-tidy: error: cannot write the report to standard output\n";
    return ExitError;
  }
  if (Cmd.CheckProfile)
    std::cerr << kernel_tidy::formatCheckProfile(Profiles.read());
  if (!Cmd.WriteBaseline.empty() && !writeBaselineFile(Cmd, State))
    return ExitError;
  if (!Cmd.ExportFixes.empty() && !writeExportedFixes(Cmd, *Results))
    return ExitError;
  return exitCode(Cmd, *Results);
}

int runMerge(const std::vector<std::string> &Reports) {
  std::vector<std::string> Texts;
  for (const std::string &Path : Reports) {
    std::string Error;
    auto Text = kernel_tidy::readInputFile(Path, Error);
    if (!Text) {
      std::cerr << "kernel-tidy: error: " << Error << "\n";
      return ExitError;
    }
    // Refused before parsing, naming the file (issue 31, item 6).
    if (std::string Deep = kernel_tidy::nestingProblem(*Text, true); !Deep.empty()) {
      std::cerr << "kernel-tidy: error: '" << Path << "' is " << Deep << "\n";
      return ExitError;
    }
    Texts.push_back(std::move(*Text));
  }
  std::string Error;
  auto Merged = kernel_tidy::mergeReports(Texts, Error);
  if (!Merged) {
    std::cerr << "kernel-tidy: error: " << Error << "\n";
    return ExitError;
  }
  std::cout << *Merged;
  return ExitClean;
}

/// Which configuration `kernel-tidy rules` shows: the current folder's
/// .clang-tidy (as `check` reads it), or --config-file, plus --checks.
struct RulesCommand {
  std::string Id;
  std::string Checks;
  std::string ConfigFile;
};

/// The rules whose id matches \p Glob (every rule for an empty one) in
/// aligned columns: id, whether the configuration enables it, what kind of
/// problem it finds, the kinds of fix its findings can have, and what it
/// does; then where each rule's page is.
int listRules(const RulesCommand &Cmd, const std::string &Share, llvm::StringRef Glob) {
  auto Pattern = llvm::GlobPattern::create(Glob.empty() ? "*" : Glob);
  if (!Pattern) {
    std::cerr << "kernel-tidy: error: invalid rule pattern '" << Glob.str()
              << "': " << llvm::toString(Pattern.takeError()) << "\n";
    return ExitError;
  }
  std::vector<const kernel_tidy::rules::RuleInfo *> Shown;
  for (const auto &Rule : kernel_tidy::rules::allRules())
    if (Pattern->match(Rule.Id))
      Shown.push_back(&Rule);
  if (Shown.empty()) {
    std::cerr << "kernel-tidy: error: no rule matches '" << Glob.str()
              << "' (see 'kernel-tidy rules')\n";
    return ExitError;
  }
  std::string Error;
  auto Checker =
      kernel_tidy::Analyzer::create(installedOptions(Share, Cmd.Checks, Cmd.ConfigFile), Error);
  if (!Checker) {
    std::cerr << "kernel-tidy: error: " << Error << "\n";
    return ExitError;
  }
  std::string Problem = Checker->configurationError("kernel-tidy-rules.cpp");
  if (!Problem.empty()) {
    std::cerr << "kernel-tidy: error: " << Problem << "\n";
    return ExitError;
  }
  // The C++ checks as a .cpp file is configured, the CuTe DSL rules as a .py.
  std::vector<std::string> Enabled = Checker->enabledChecks("kernel-tidy-rules.cpp");
  for (std::string &Rule : Checker->enabledChecks("kernel-tidy-rules.py"))
    Enabled.push_back(std::move(Rule));
  size_t IdWidth = std::strlen("RULE"), KindWidth = std::strlen("KIND"),
         FixWidth = std::strlen("FIX");
  for (const auto *Rule : Shown) {
    IdWidth = std::max(IdWidth, Rule->Id.size());
    KindWidth = std::max(KindWidth, Rule->Kind.size());
    FixWidth = std::max(FixWidth, Rule->FixKinds.size());
  }
  auto Pad = [](llvm::StringRef Text, size_t Width) {
    return Text.str() + std::string(Width - Text.size() + 2, ' ');
  };
  auto Row = [&](llvm::StringRef Id, llvm::StringRef On, llvm::StringRef Kind, llvm::StringRef Fix,
                 llvm::StringRef What) {
    std::cout << Pad(Id, IdWidth) << Pad(On, 7) << Pad(Kind, KindWidth) << Pad(Fix, FixWidth)
              << What.str() << "\n";
  };
  Row("RULE", "ENABLED", "KIND", "FIX", "WHAT");
  for (const auto *Rule : Shown)
    Row(Rule->Id, llvm::is_contained(Enabled, Rule->Id.str()) ? "yes" : "no", Rule->Kind,
        Rule->FixKinds, Rule->Summary);
  std::cout << "\nA rule's page: kernel-tidy rules RULE, or "
            << kernel_tidy::ruleDocUri("RULE", docsBase(Share)) << "\n";
  return ExitClean;
}

int runRules(const RulesCommand &Cmd, const std::string &Share) {
  const std::string &Id = Cmd.Id;
  // A glob (as --checks takes) lists the rules it matches.
  if (Id.empty() || Id.find_first_of("*?[") != std::string::npos)
    return listRules(Cmd, Share, Id);
  if (!kernel_tidy::rules::findRule(Id)) {
    std::cerr << "kernel-tidy: error: unknown rule '" << Id << "' (see 'kernel-tidy rules')\n";
    return ExitError;
  }
  std::string Path = Share + "/docs/rules/" + Id + ".md";
  auto Doc = llvm::MemoryBuffer::getFile(Path);
  if (!Doc) {
    std::cerr << "kernel-tidy: error: cannot read '" << Path << "': " << Doc.getError().message()
              << "\n";
    return ExitError;
  }
  std::cout << (*Doc)->getBuffer().str();
  return ExitClean;
}

/// A regular expression as clang-tidy's header filters read it (llvm::Regex).
CLI::Validator regexValidator() {
  return CLI::Validator(
      [](std::string &Value) -> std::string {
        std::string Problem;
        // Empty: no filter, as clang-tidy reads it.
        if (Value.empty() || llvm::Regex(Value).isValid(Problem))
          return "";
        return "invalid regular expression '" + Value + "': " + Problem;
      },
      "REGEX");
}

CLI::Validator cacheSizeValidator() {
  return CLI::Validator(
      [](std::string &Value) -> std::string {
        return kernel_tidy::parseCacheSize(Value)
                   ? ""
                   : "invalid cache size '" + Value + "' (expected e.g. 2G, 500M, 64K or bytes)";
      },
      "SIZE");
}

struct CacheCommand {
  bool Stats = false;
  bool Clear = false;
  std::string Size;
};

/// `kernel-tidy cache --stats | --clear`.
int runCache(const CacheCommand &Cmd) {
  std::string Warning;
  std::optional<uint64_t> Limit;
  if (!Cmd.Size.empty())
    Limit = kernel_tidy::parseCacheSize(Cmd.Size);
  kernel_tidy::HeaderCache Cache = kernel_tidy::HeaderCache::fromEnvironment(Limit, Warning);
  if (!Warning.empty())
    std::cerr << "kernel-tidy: warning: " << Warning << "\n";
  if (Cache.directory().empty()) {
    std::cerr << "kernel-tidy: error: no header cache folder (set KERNEL_TIDY_CACHE_DIR)\n";
    return ExitError;
  }
  if (Cmd.Clear) {
    std::vector<kernel_tidy::CacheEntry> Before = Cache.entries();
    std::string Error = Cache.clear();
    if (!Error.empty()) {
      std::cerr << "kernel-tidy: error: " << Error << "\n";
      return ExitError;
    }
    uint64_t Bytes = 0;
    for (const kernel_tidy::CacheEntry &Entry : Before)
      Bytes += Entry.Bytes;
    std::cout << "removed " << Before.size() << " entries (" << kernel_tidy::formatBytes(Bytes)
              << ") from " << Cache.directory() << "\n";
    // Folders named like entries that kernel-tidy did not make stay: say so.
    for (const std::string &Foreign : Cache.foreignEntries())
      std::cerr << "kernel-tidy: note: kept '" << Foreign
                << "': not made by kernel-tidy (it has no entry marker)\n";
    return ExitClean;
  }
  std::vector<kernel_tidy::CacheEntry> Entries = Cache.entries();
  uint64_t Bytes = 0;
  for (const kernel_tidy::CacheEntry &Entry : Entries)
    Bytes += Entry.Bytes;
  std::cout << "folder:  " << Cache.directory() << "\n"
            << "entries: " << Entries.size() << "\n"
            << "size:    " << kernel_tidy::formatBytes(Bytes) << " (" << Bytes << " bytes)\n"
            << "limit:   " << kernel_tidy::formatBytes(Cache.limit()) << " (" << Cache.limit()
            << " bytes)\n";
  auto Age = [](std::chrono::system_clock::time_point Time) {
    auto Seconds =
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now() - Time)
            .count();
    return Seconds < 3600        ? std::to_string(Seconds / 60) + " min ago"
           : Seconds < 2 * 86400 ? std::to_string(Seconds / 3600) + " h ago"
                                 : std::to_string(Seconds / 86400) + " days ago";
  };
  if (!Entries.empty())
    std::cout << "used:    last " << Age(Entries.back().LastUse) << ", least recently "
              << Age(Entries.front().LastUse) << "\n";
  return ExitClean;
}

void addCheckOptions(CLI::App &Check, CheckCommand &Cmd) {
  Check.add_option("files", Cmd.Files,
                   "Source files and folders (searched recursively for .cpp .cc .cxx .h "
                   ".hpp .inl, and .py files that mention cutlass: CuTe DSL kernels); "
                   "none with -p: every file of the compile database");
  Check
      .add_option("--exclude", Cmd.Excludes,
                  "Leave out files and folders whose path matches this glob (repeatable)")
      ->allow_extra_args(false); // One glob per --exclude: files may follow.
  Check.add_flag("--no-respect-gitignore", Cmd.NoRespectGitignore,
                 "Also walk what .gitignore, .ignore and .git/info/exclude ignore");
  Check.add_option("--format", Cmd.Format, "Report format")
      ->check(CLI::IsMember({"text", "json", "sarif", "github", "gitlab", "junit"}));
  Check.add_option("--sarif-root", Cmd.SarifRoot,
                   "Folder that SARIF URIs and baseline paths are relative to "
                   "(default: the git work tree holding the current folder)");
  Check.add_option("--checks", Cmd.Checks,
                   "Checks to enable or disable, clang-tidy glob syntax "
                   "(added to the .clang-tidy configuration; default luisa-*,cute-*)");
  Check.add_option("--warnings-as-errors", Cmd.WarningsAsErrors,
                   "Checks whose findings are errors (clang-tidy globs); exit code 3 "
                   "when one remains");
  auto *ConfigFile =
      Check.add_option("--config-file", Cmd.ConfigFile,
                       "Read the configuration from this file instead of .clang-tidy lookup");
  Check
      .add_option("--config", Cmd.Config,
                  "The configuration as YAML or JSON text instead of .clang-tidy lookup, as "
                  "clang-tidy's: '{Checks: \"-*,luisa-*\", CheckOptions: {WarpSize: 64}}'")
      ->excludes(ConfigFile);
  Check.add_flag("--dump-config", Cmd.DumpConfig,
                 "Print the configuration of the first file (or of the current folder) as YAML "
                 "and exit, as clang-tidy's --dump-config");
  Check.add_flag("--explain-config", Cmd.ExplainConfig,
                 "Say for each enabled check where it is enabled, and exit (clang-tidy's option)");
  Check.add_flag("--list-checks", Cmd.ListChecks,
                 "List the enabled checks and exit (clang-tidy's option)");
  Check
      .add_option("--extra-arg", Cmd.ExtraArgs,
                  "An argument to append to the compile command (repeatable; clang-tidy's)")
      ->allow_extra_args(false);
  Check
      .add_option("--extra-arg-before", Cmd.ExtraArgsBefore,
                  "An argument to prepend to the compile command (repeatable; clang-tidy's)")
      ->allow_extra_args(false);
  Check.add_option("-p", Cmd.BuildPath, "Build directory with compile_commands.json");
  Check
      .add_option(
          "--warp-size", Cmd.WarpSize,
          "Warp width when a kernel does not set it: " + kernel_tidy::dsl::warpWidthChoices() +
              " (default " + std::to_string(kernel_tidy::dsl::DefaultWarpWidth) + ")")
      ->transform(CLI::Validator(
          [](std::string &Value) -> std::string {
            // The rules' own parser; the value is rewritten to the number it
            // read, which is what CLI11 then converts.
            if (auto Width = kernel_tidy::dsl::parseWarpWidth(Value)) {
              Value = std::to_string(*Width);
              return "";
            }
            return "invalid value '" + Value + "' for option 'WarpSize': the warp width must be " +
                   kernel_tidy::dsl::warpWidthChoices();
          },
          "WIDTH"));
  Check
      .add_option("--target", Cmd.Target,
                  "Backend the kernels are compiled for: any (default), cuda, dx, vulkan, "
                  "metal; findings whose rewrite is not expected to be faster there get a note")
      ->check(CLI::Validator(
          [](std::string &Name) -> std::string {
            if (kernel_tidy::dsl::parseTarget(Name))
              return "";
            return "unknown target '" + Name + "' (expected " +
                   kernel_tidy::dsl::targetChoices().str() + ")";
          },
          "TARGET"));
  Check.add_flag("--bundled-model", Cmd.BundledModel,
                 "Parse with the bundled DSL API model even where a compile database exists");
  auto *Pch = Check.add_flag(
      "--pch", Cmd.Pch,
      "Parse the leading #include <...> lines once into a cached precompiled header, "
      "also for a single file (the default; kept for scripts that pass it)");
  Check.add_flag("--no-pch", Cmd.NoPch, "Never use a shared precompiled header")->excludes(Pch);
  Check
      .add_option("--cache-size", Cmd.CacheSize,
                  "Size limit of the header cache, e.g. 2G or 500M (default: "
                  "$KERNEL_TIDY_CACHE_SIZE, else 2G); least recently used entries go first")
      ->check(cacheSizeValidator());
  Check.add_flag("--fix", Cmd.Fix, "Apply safe fixes in place");
  Check.add_flag("--unsafe-fixes", Cmd.UnsafeFixes,
                 "With --fix or --diff, also apply fixes that may change rounding");
  Check.add_flag("--diff", Cmd.Diff, "Print the fixes as a unified diff; write nothing");
  Check.add_option("--export-fixes", Cmd.ExportFixes,
                   "Write the fixes --fix would apply to this YAML file "
                   "(clang-tidy's format, for clang-apply-replacements)");
  Check.add_option("-j,--jobs", Cmd.Jobs, "Files analysed in parallel (default: the cores)")
      ->check(CLI::Range(1u, 1024u));
  Check.add_option("--shard", Cmd.Shard,
                   "K/N: analyse only the K-th of N balanced shards of the file list");
  Check.add_option("--baseline", Cmd.Baseline, "Hide the findings recorded in this baseline file");
  Check.add_option("--write-baseline", Cmd.WriteBaseline,
                   "Record the current findings in this file (exit code 0 unless errors)");
  Check.add_flag("--exit-zero", Cmd.ExitZero,
                 "Exit code 0 even when findings remain (errors still exit 2), as Ruff's "
                 "--exit-zero");
  Check.add_flag("--show-fixes", Cmd.ShowFixes,
                 "With --fix, list the fixes applied per file and rule on stderr");
  Check.add_option("--stdin-filename", Cmd.StdinFilename,
                   "Check the text on standard input as the file of this name (its "
                   "configuration and compile command); with --fix the fixed text goes to "
                   "standard output and the findings to stderr");
  Check.add_flag("--add-nolint", Cmd.AddNolint,
                 "Add a NOLINT(rule) comment on each line with a finding (C++ '//', Python "
                 "'#', joining a comment already there), as Ruff's --add-noqa");
  Check.add_flag("--statistics", Cmd.Statistics, "Print the number of findings per rule on stderr");
  Check.add_flag("--quiet", Cmd.Quiet,
                 "No progress and no notes on stderr (after --fix or --diff, only the counts)");
  Check
      .add_option("--header-filter", Cmd.HeaderFilter,
                  "Also report findings in headers whose path matches this regular expression "
                  "(clang-tidy's option; overrides HeaderFilterRegex)")
      ->check(regexValidator());
  Check
      .add_option("--exclude-header-filter", Cmd.ExcludeHeaderFilter,
                  "Of those, leave out headers whose path matches this regular expression "
                  "(clang-tidy's option)")
      ->check(regexValidator());
  Check.add_option("--line-filter", Cmd.LineFilter,
                   "Report only findings on these lines, clang-tidy's JSON: "
                   "'[{\"name\":\"k.cpp\",\"lines\":[[1,30]]}]'");
  Check.add_flag("--enable-check-profile", Cmd.CheckProfile,
                 "Print the time each check took, summed over the files, on stderr "
                 "(clang-tidy's option)");
  Check.add_flag("--verify-config", Cmd.VerifyConfig,
                 "Check the configuration of the files (or of the current folder) and exit, "
                 "as clang-tidy's --verify-config");
  Check
      .add_option("--color", Cmd.Color,
                  "Colour the text report as Clang does: auto (on a terminal, unless "
                  "NO_COLOR is set), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  Check.add_flag("--allow-no-checks", Cmd.AllowNoChecks,
                 "Accept a configuration that enables no check (otherwise exit code 2, "
                 "as clang-tidy)");
}

struct LspCommand {
  std::string Checks;
  std::string ConfigFile;
};

/// `kernel-tidy lsp`: LSP messages on stdin and stdout, and only they go to
/// stdout (whatever else a library prints there goes to stderr).
int runLsp(const LspCommand &Cmd, const std::string &Share) {
  std::signal(SIGPIPE, SIG_IGN); // A client that went away is a failed write.
  kernel_tidy::AnalysisOptions Options = installedOptions(Share, Cmd.Checks, Cmd.ConfigFile);
  // As `check` refuses it (issue 49, item 16): a server that reports nothing
  // would look like clean files.
  if (!Cmd.Checks.empty() || !Cmd.ConfigFile.empty()) {
    std::string Error;
    auto Checker = kernel_tidy::Analyzer::create(Options, Error);
    std::string Here = kernel_tidy::absolutePath("kernel.py");
    if (Checker && Error.empty())
      Error = Checker->configurationError(Here);
    if (Error.empty() && Checker->enabledChecks(Here).empty())
      Error = "no checks enabled: the Checks match no check";
    if (!Error.empty()) {
      std::cerr << "kernel-tidy: error: " << Error << "\n";
      return ExitError;
    }
  }
  // An editor waits on each analysis: a CuTe file the frontend has not
  // finished in 30 s (not a run's 300 s) is reported as not analysed, and
  // the others go on (issue 49, item 6).
  ::setenv("KERNEL_TIDY_PYTHON_TIMEOUT", "30", /*overwrite=*/0);
  int Out = ::dup(STDOUT_FILENO);
  if (Out < 0 || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    std::cerr << "kernel-tidy: error: cannot set up standard output\n";
    return ExitError;
  }
  return kernel_tidy::serveLanguageServer(STDIN_FILENO, Out, std::move(Options),
                                          KERNEL_TIDY_VERSION, docsBase(Share));
}

/// The options of \p Sub that \p Args misspell: for each argument that
/// looks like an option Sub does not have, the nearest that it has (at most
/// two edits away), as "'--fixx': did you mean '--fix'?".
std::vector<std::string> misspelledOptions(const CLI::App &Sub, llvm::ArrayRef<const char *> Args) {
  std::vector<std::string> Hints;
  for (llvm::StringRef Arg : Args) {
    if (Arg == "--")
      break; // The compiler's arguments follow.
    llvm::StringRef Name = Arg.split('=').first;
    if (!Name.starts_with("--") || Sub.get_option_no_throw(Name.str()))
      continue;
    std::string Best;
    unsigned BestDistance = 3;
    for (const CLI::Option *Option : Sub.get_options())
      for (const std::string &Long : Option->get_lnames())
        if (unsigned D = Name.drop_front(2).edit_distance(Long); D < BestDistance) {
          BestDistance = D;
          Best = "--" + Long;
        }
    if (!Best.empty())
      Hints.push_back("'" + Name.str() + "': did you mean '" + Best + "'?");
  }
  return Hints;
}

} // namespace

int main(int argc, char **argv) {
  // Past a file-size limit (ulimit -f), fail the write with EFBIG and report
  // it instead of being killed halfway.
  std::signal(SIGXFSZ, SIG_IGN);
  // Interrupted (Ctrl-C, kill, a closed terminal): no temporary file stays.
  kernel_tidy::removeTemporaryFilesOnSignals();
  // Everything after `--` goes to the compiler, as with clang-tidy.
  std::vector<std::string> CompilerArgs;
  int ToolArgc = argc;
  for (int I = 1; I < argc; ++I) {
    if (std::string(argv[I]) == "--") {
      CompilerArgs.assign(argv + I + 1, argv + argc);
      ToolArgc = I;
      break;
    }
  }

  CLI::App App{"kernel-tidy: a linter and optimizer for LuisaCompute DSL (C++) and CuTe DSL "
               "(Python) kernels"};
  App.set_version_flag("--version", std::string("kernel-tidy ") + KERNEL_TIDY_VERSION);
  App.require_subcommand(1);

  CheckCommand Cmd;
  CLI::App *Check = App.add_subcommand("check", "Lint DSL sources (and fix them)");
  addCheckOptions(*Check, Cmd);

  std::vector<std::string> Reports;
  CLI::App *Merge = App.add_subcommand(
      "merge", "Merge the SARIF logs, JSON reports or baselines of --shard runs");
  Merge->add_option("reports", Reports, "Report files of one kind")->required();

  RulesCommand RulesCmd;
  CLI::App *Rules =
      App.add_subcommand("rules", "List the rules, or print one rule's documentation");
  Rules->add_option("id", RulesCmd.Id,
                    "Rule id, or a glob ('cute-*') to list the rules it matches");
  Rules->add_option("--checks", RulesCmd.Checks,
                    "Checks to enable or disable on top of the configuration (as for check)");
  Rules->add_option("--config-file", RulesCmd.ConfigFile,
                    "Show what this configuration file enables instead of the current folder's");

  CacheCommand CacheCmd;
  CLI::App *Cache = App.add_subcommand(
      "cache", "Show the header cache's size (--stats, the default) or empty it (--clear)");
  auto *Stats =
      Cache->add_flag("--stats", CacheCmd.Stats,
                      "Print the folder, the number of entries, their size and the limit");
  Cache->add_flag("--clear", CacheCmd.Clear, "Remove every entry")->excludes(Stats);
  Cache->add_option("--cache-size", CacheCmd.Size, "The limit to show (as for check)")
      ->check(cacheSizeValidator());

  LspCommand LspCmd;
  CLI::App *Lsp = App.add_subcommand(
      "lsp", "Serve CuTe DSL (.py) files to an editor: a language server on stdin/stdout");
  Lsp->add_option("--checks", LspCmd.Checks,
                  "Checks to enable or disable on top of the configuration (as for check)");
  Lsp->add_option("--config-file", LspCmd.ConfigFile,
                  "Use this configuration file instead of each file's .clang-tidy");

  // `kernel-tidy k.cpp`: a file where the command goes.
  // The man page's options, README.md's option tables and the shell
  // completions are made from the definitions above (scripts/cli-docs.py).
  if (argc == 3 && llvm::StringRef(argv[1]) == "__cli-docs") {
    std::string Docs = kernel_tidy::cli_docs::generate(App, argv[2]);
    if (Docs.empty()) {
      std::cerr << "kernel-tidy: error: __cli-docs takes man, options, bash or zsh\n";
      return ExitError;
    }
    std::cout << Docs;
    return ExitClean;
  }
  if (ToolArgc > 1 && argv[1][0] != '-' &&
      !llvm::is_contained({"check", "merge", "rules", "cache", "lsp"}, llvm::StringRef(argv[1])) &&
      llvm::sys::fs::exists(argv[1])) {
    std::cerr << "kernel-tidy: error: '" << argv[1]
              << "' is not a command; did you mean: kernel-tidy check";
    for (int I = 1; I < argc; ++I)
      std::cerr << " " << argv[I];
    std::cerr << "\n";
    return ExitError;
  }
  try {
    App.parse(ToolArgc, argv);
  } catch (const CLI::ParseError &E) {
    int Code = App.exit(E);
    std::vector<CLI::App *> Parsed = App.get_subcommands();
    for (const std::string &Hint : misspelledOptions(Parsed.empty() ? App : *Parsed.front(),
                                                     llvm::ArrayRef(argv + 1, argc - 1)))
      std::cerr << "kernel-tidy: " << Hint << "\n";
    return Code == 0 ? ExitClean : ExitError;
  }
  std::string Share = shareDir(argv[0]);
  if (Check->parsed())
    return runCheck(Cmd, std::move(CompilerArgs), Share);
  if (Merge->parsed())
    return runMerge(Reports);
  if (Cache->parsed())
    return runCache(CacheCmd);
  if (Lsp->parsed())
    return runLsp(LspCmd, Share);
  return runRules(RulesCmd, Share);
}
