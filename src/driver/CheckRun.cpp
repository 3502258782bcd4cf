//===--- CheckRun.cpp - `kernel-tidy check` as a library -------------------===//

#include "src/driver/CheckRun.h"

#include "src/driver/AtomicFile.h"
#include "src/driver/Baseline.h"
#include "src/driver/CiFormats.h"
#include "src/driver/ExportFixes.h"
#include "src/driver/FileList.h"
#include "src/driver/FixApplier.h"
#include "src/driver/HeaderCache.h"
#include "src/driver/Nolint.h"
#include "src/driver/ParallelRun.h"
#include "src/driver/Paths.h"
#include "src/driver/RepeatedFindings.h"
#include "src/driver/Report.h"
#include "src/driver/Sarif.h"
#include "src/driver/UnifiedDiff.h"
#include "src/dsl/WarpWidth.h"

#include <CLI/CLI.hpp>
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Regex.h"
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <istream>
#include <mutex>
#include <ostream>
#include <thread>

namespace kernel_tidy {
namespace {

/// --color: always, never, or auto (a terminal, unless NO_COLOR is set to
/// something, https://no-color.org).
bool useColour(const std::string &Color, bool Terminal) {
  if (Color != "auto")
    return Color == "always";
  auto NoColor = llvm::sys::Process::GetEnv("NO_COLOR");
  return Terminal && !(NoColor && !NoColor->empty());
}

/// Progress is shown only to a person watching a run of some length.
constexpr size_t MinFilesForProgress = 4;

/// "K/N" with 1 <= K <= N.
bool parseShard(const std::string &Text, unsigned &K, unsigned &N) {
  auto [KText, NText] = llvm::StringRef(Text).split('/');
  return !KText.getAsInteger(10, K) && !NText.getAsInteger(10, N) && N >= 1 && K >= 1 && K <= N;
}

AnalysisOptions analysisOptions(const CheckCommand &Cmd, std::vector<std::string> CompilerArgs,
                                const Installation &Install) {
  AnalysisOptions Options = installedOptions(Install, Cmd.Checks, Cmd.ConfigFile);
  if (Cmd.WarpSize)
    Options.WarpSize = Cmd.WarpSize;
  if (!Cmd.Target.empty())
    Options.Target = dsl::parseTarget(Cmd.Target); // Checked by CLI11.
  Options.AssumeWarpReconvergence = Cmd.AssumeWarpReconvergence;
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
  Options.Pch = Cmd.NoPch ? PchMode::Off : PchMode::Auto;
  if (!Cmd.CacheSize.empty())
    Options.CacheLimit = parseCacheSize(Cmd.CacheSize); // Checked by CLI11.
  return Options;
}

std::optional<BaselineFilter> loadBaseline(const std::string &Path, std::string &Error) {
  if (!llvm::sys::fs::exists(Path)) {
    // The first run of a CI job that reads a baseline: say how to make one.
    Error = "the baseline '" + Path +
            "' does not exist; record the current findings in it with "
            "'kernel-tidy check --write-baseline " +
            Path + " FILES...'";
    return std::nullopt;
  }
  // Only a regular file of bounded size: /dev/zero or a FIFO would never end.
  auto Text = readInputFile(Path, Error);
  if (!Text) {
    Error = "cannot read the baseline: " + Error;
    return std::nullopt;
  }
  auto Entries = parseBaseline(*Text, Error);
  if (!Entries) {
    Error = "'" + Path + "': " + Error;
    return std::nullopt;
  }
  return BaselineFilter(*Entries);
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
  std::optional<SignalCleanup> Cleanup;
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

/// What the workers leave for the report, per file, in input order.
struct RunState {
  std::optional<BaselineFilter> Baseline;
  std::string Root;
  std::vector<std::vector<BaselineEntry>> Recorded;
  std::vector<std::string> Diffs;
  std::atomic<unsigned> Hidden{0};
  std::atomic<unsigned> NolintsAdded{0};
  std::vector<std::vector<std::string>> NolintSkips; ///< Per file.
};

/// --add-nolint: the file rewritten with a NOLINT comment on each line with
/// a finding; the findings commented are gone from the report.
void addNolintComments(RunState &State, size_t Index, FileResult &Result) {
  if (!Result.Errors.empty())
    return;
  unsigned Added = 0;
  std::string Text = withNolintComments(Result, Added, State.NolintSkips[Index]);
  if (Added == 0)
    return;
  std::string Error = writeFileAtomically(Result.File, Text, Result.Original);
  if (!Error.empty()) {
    Result.Errors.push_back({Result.File, 0, 0, Error});
    return;
  }
  State.NolintsAdded += Added;
  llvm::erase_if(Result.Findings, [&](const Finding &F) {
    return F.File == Result.File &&
           !llvm::any_of(State.NolintSkips[Index], [&](const std::string &Skip) {
             return llvm::StringRef(Skip).starts_with(F.File + ":" + std::to_string(F.Begin.Line) +
                                                      ":");
           });
  });
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

/// "[done/total] elapsed" on one terminal line of stderr: redrawn after each
/// file and, while a long file is parsed, a few times a second; erased
/// around what the report prints meanwhile and at the end.
class ProgressLine {
public:
  ProgressLine(std::ostream &Err, bool Enabled) : Err(Err), Enabled(Enabled) {
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
    char Line[64];
    std::snprintf(Line, sizeof(Line), "\r[%zu/%zu] %.1fs", Done, Total, Elapsed.count());
    Err << Line << std::flush;
    Drawn = true;
  }
  void erase() {
    if (Drawn)
      Err << "\r\033[K" << std::flush;
    Drawn = false;
  }

  std::ostream &Err;
  bool Enabled;
  bool Stop = false, Drawn = false;
  size_t Done = 0, Total = 0;
  std::mutex Lock;
  std::condition_variable Stopped;
  std::thread Ticker;
  std::chrono::steady_clock::time_point Start = std::chrono::steady_clock::now();
};

/// One run of `kernel-tidy check`: the options checked, the files selected
/// and analysed, the report written to the run's streams.
class CheckRun {
public:
  CheckRun(CheckCommand Cmd, const Installation &Install, CheckStreams &Io)
      : Cmd(std::move(Cmd)), Install(Install), Io(Io), In(Io.In), Out(Io.Out), Err(Io.Err) {}

  int run(std::vector<std::string> CompilerArgs) {
    // `check -` reads standard input, as Ruff's; --stdin-filename names it.
    if (llvm::is_contained(Cmd.Files, "-")) {
      if (Cmd.Files.size() > 1) {
        Err << "kernel-tidy: error: '-' (standard input) is checked on its own; give no "
               "other files with it\n";
        return ExitError;
      }
      Cmd.Files.clear();
      if (Cmd.StdinFilename.empty())
        Cmd.StdinFilename = "stdin.cpp";
    }
    if (std::string Problem = buildPathProblem(Cmd.BuildPath); !Problem.empty()) {
      Err << "kernel-tidy: error: " << Problem << "\n";
      return ExitError;
    }
    AnalysisOptions Options = analysisOptions(Cmd, std::move(CompilerArgs), Install);
    if (!llvm::sys::fs::is_directory(Options.ModelDir)) {
      Err << "kernel-tidy: error: bundled DSL model not found at '" << Options.ModelDir
          << "' (set KERNEL_TIDY_SHARE_DIR)\n";
      return ExitError;
    }
    if (Cmd.AddNolint &&
        (Cmd.Fix || Cmd.Diff || !Cmd.WriteBaseline.empty() || !Cmd.StdinFilename.empty())) {
      Err << "kernel-tidy: error: --add-nolint edits the files; it does not combine with "
             "--fix, --diff, --write-baseline or --stdin-filename\n";
      return ExitError;
    }
    // The exported offsets would name the text before the comments were added
    // (issue 49, item 4), or the text of standard input applied to the file of
    // that name (item 3).
    if (!Cmd.ExportFixes.empty() && (Cmd.AddNolint || !Cmd.StdinFilename.empty())) {
      Err << "kernel-tidy: error: --export-fixes writes offsets into the files on disk; it "
             "does not combine with "
          << (Cmd.AddNolint ? "--add-nolint, which changes them"
                            : "--stdin-filename, whose text is not the file's")
          << "\n";
      return ExitError;
    }
    if (!Cmd.WriteBaseline.empty() && (Cmd.Fix || Cmd.Diff)) {
      Err << "kernel-tidy: error: --write-baseline records findings; "
             "it does not combine with --fix or --diff\n";
      return ExitError;
    }
    for (const std::string &Output : {Cmd.WriteBaseline, Cmd.ExportFixes}) {
      llvm::StringRef Folder = llvm::sys::path::parent_path(Output);
      if (!Output.empty() && !llvm::sys::fs::is_directory(Folder.empty() ? "." : Folder)) {
        // Noticed before any source is fixed.
        Err << "kernel-tidy: error: cannot write '" << Output << "': no folder '" << Folder.str()
            << "'\n";
        return ExitError;
      }
    }
    if (Cmd.VerifyConfig)
      return verifyConfiguration(Options);
    if (Cmd.DumpConfig || Cmd.ExplainConfig || Cmd.ListChecks)
      return printConfiguration(Options);
    ProfileFolder Profiles(Cmd.CheckProfile);
    Options.ProfileDir = Profiles.Path;
    std::string Error;
    std::optional<std::vector<std::string>> Files;
    std::optional<std::string> Stdin;
    if (Cmd.StdinFilename.empty()) {
      Files = selectFiles(Error);
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
      Options.Pch = PchMode::Off;
    }
    RunState State;
    State.Root = Cmd.SarifRoot.empty() ? repositoryRoot(".") : Cmd.SarifRoot;
    if (Files && !Cmd.Baseline.empty())
      State.Baseline = loadBaseline(Cmd.Baseline, Error);
    if (!Files || (!Cmd.Baseline.empty() && !State.Baseline)) {
      Err << "kernel-tidy: error: " << Error << "\n";
      return ExitError;
    }
    if (Cmd.UnsafeFixes && !Cmd.Fix && !Cmd.Diff && Cmd.ExportFixes.empty())
      Err << "kernel-tidy: warning: --unsafe-fixes has no effect without --fix, --diff "
             "or --export-fixes\n";
    if (!outputsSpareTheInputs(*Files))
      return ExitError;
    *Files = RepeatedFindings::headersFirst(withoutRepeats(std::move(*Files)));
    if (!configurationUsable(*Files, Options))
      return ExitError;
    State.Recorded.resize(Files->size());
    State.Diffs.resize(Files->size());
    State.NolintSkips.resize(Files->size());

    ProgressLine Progress(Err,
                          !Cmd.Quiet && Files->size() >= MinFilesForProgress && Io.ErrIsTerminal);
    ParallelRunOptions Run;
    if (Stdin)
      Run.Contents[Cmd.StdinFilename] = *Stdin;
    Run.Jobs = Cmd.Jobs ? Cmd.Jobs : std::max(1u, std::thread::hardware_concurrency());
    Run.AfterAnalysis = [&](size_t Index, FileResult &Result, Analyzer &Analyzer) {
      afterAnalysis(State, Index, Result, Analyzer);
    };
    Run.OnProgress = [&](size_t Done, size_t Total) { Progress.update(Done, Total); };
    llvm::StringSet<> Warned;
    RepeatedFindings Repeats(*Files);
    Run.InOrder = [&](size_t Index, FileResult &Result) {
      Repeats.removeFrom(Result);
      if (!Cmd.WriteBaseline.empty())
        State.Recorded[Index] = baselineEntries(Result, State.Root);
      if (Cmd.Format == "text")
        Progress.around([&] { printFileReport(Result, State.Diffs[Index], Warned); });
    };
    auto Results = analyzeFiles(*Files, Options, Run, Error);
    Progress.finish();
    if (!Results) {
      Err << "kernel-tidy: error: " << Error << "\n";
      return ExitError;
    }
    printReport(*Results, State);
    // --fix of standard input: the fixed text goes to standard output.
    if (Stdin && Cmd.Fix && !Cmd.Diff)
      for (const FileResult &Result : *Results)
        Out << (Result.Fixed && Result.Errors.empty() ? *Result.Fixed : Result.Original);
    // A report that did not reach its reader (a full disk behind stdout) is
    // a failed run, not a clean one.
    if (!Out.flush()) {
      Err << "kernel-tidy: error: cannot write the report to standard output\n";
      return ExitError;
    }
    if (Cmd.CheckProfile)
      Err << formatCheckProfile(Profiles.read());
    if (!Cmd.WriteBaseline.empty() && !writeBaselineFile(State))
      return ExitError;
    if (!Cmd.ExportFixes.empty() && !writeExportedFixes(*Results))
      return ExitError;
    return exitCode(*Results);
  }

private:
  /// All of standard input, refused past the size of an input file.
  std::optional<std::string> readStandardInput(std::string &Error) {
    std::string Text;
    char Buffer[1 << 16];
    for (;;) {
      In.read(Buffer, sizeof(Buffer));
      size_t N = static_cast<size_t>(In.gcount());
      Text.append(Buffer, N);
      if (Text.size() > MaxInputBytes) {
        Error = "standard input is larger than " + formatBytes(MaxInputBytes);
        return std::nullopt;
      }
      if (N < sizeof(Buffer)) {
        if (In.bad()) {
          Error = "cannot read standard input";
          return std::nullopt;
        }
        return Text;
      }
    }
  }

  /// The files this run analyses: inputs expanded, excluded, and sharded.
  std::optional<std::vector<std::string>> selectFiles(std::string &Error) {
    if (Cmd.Files.empty() && Cmd.BuildPath.empty()) {
      Error = "no files to check (give files or folders, or -p with a compile database)";
      return std::nullopt;
    }
    unsigned SkippedCpp = 0;
    auto Files = collectFiles(Cmd.Files, Cmd.Excludes, Cmd.BuildPath, Error, &SkippedCpp,
                              /*RespectIgnoreFiles=*/!Cmd.NoRespectGitignore);
    if (!Files)
      return std::nullopt;
    if (SkippedCpp && !Cmd.Quiet)
      Err << "kernel-tidy: note: skipped " << SkippedCpp
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
          Err << "kernel-tidy: note: '" << Input << "' matches --exclude; skipped\n";
      }
    if (Files->empty() && Skipped > 0 && Skipped == Cmd.Files.size())
      return Files;
    // Folders without sources (a fresh project, a CI matrix entry) are no
    // mistake of the command: a warning, empty reports, exit code 0.
    if (Files->empty() && !Cmd.Files.empty() && llvm::all_of(Cmd.Files, [](const std::string &F) {
          return llvm::sys::fs::is_directory(F);
        })) {
      Err << "kernel-tidy: warning: no source files to check in "
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
    return N == 1 ? *Files : selectShard(*Files, K, N);
  }

  /// Runs on a worker thread for each analysed file: record, filter, fix.
  void afterAnalysis(RunState &State, size_t Index, FileResult &Result, Analyzer &Analyzer) {
    if (State.Baseline && Cmd.WriteBaseline.empty())
      State.Hidden += State.Baseline->removeKnown(Result, State.Root);
    if (Cmd.AddNolint) {
      addNolintComments(State, Index, Result);
      return;
    }
    if (!Cmd.Fix && !Cmd.Diff) {
      // Reports promise only the fixes that --fix would apply.
      verifyFixes(Result, Analyzer);
      return;
    }
    applyFixes(Result, Analyzer, Cmd.UnsafeFixes);
    if (Result.Fixed && Cmd.Diff) {
      State.Diffs[Index] = unifiedDiff(Result.File, Result.Original, *Result.Fixed);
    } else if (Result.Fixed && Cmd.Fix && Cmd.StdinFilename.empty()) {
      std::string WriteError = writeFileAtomically(Result.File, *Result.Fixed, Result.Original);
      if (!WriteError.empty()) {
        Result.Errors.push_back({Result.File, 0, 0, WriteError});
        Result.FixedCount = 0;
        for (Finding &F : Result.Findings)
          F.FixApplied = false;
      }
    }
  }

  /// Whether the report, in any format, goes to stderr: stdout carries the
  /// diff, or the fixed text of standard input alone (as clang-format and Ruff
  /// print it).
  bool reportToStderr() { return Cmd.Diff || (Cmd.Fix && !Cmd.StdinFilename.empty()); }

  TextOptions textOptions() {
    TextOptions Text;
    Text.Colour = useColour(Cmd.Color, reportToStderr() ? Io.ErrIsTerminal : Io.OutIsTerminal);
    Text.FixesWritten = Cmd.Fix && !Cmd.Diff;
    return Text;
  }

  void printWarnings(const FileResult &Result, llvm::StringSet<> &Warned) {
    for (const std::string &Warning : Result.Warnings)
      if (Warned.insert(Warning).second)
        Err << "kernel-tidy: warning: " << Warning << "\n";
  }

  /// One file's part of a text report (its new warnings, its diff, its
  /// findings), printed as soon as the file and those before it are done.
  void printFileReport(const FileResult &Result, const std::string &Diff,
                       llvm::StringSet<> &Warned) {
    printWarnings(Result, Warned);
    Out << Diff;
    // After --fix or --diff, --quiet leaves out what was fixed (the pre-commit
    // fix hooks pass it) but tells what remains, as Ruff's -q does.
    bool RemainingOnly = Cmd.Quiet && (Cmd.Fix || Cmd.Diff);
    (reportToStderr() ? Err : Out)
        << formatText(RemainingOnly ? remainingFindings({Result}) : std::vector<FileResult>{Result},
                      textOptions());
    Out.flush();
  }

  /// The rest of the report once every file is done: a JSON or SARIF
  /// document (text was streamed), then the summaries on stderr.
  void printReport(const std::vector<FileResult> &Results, const RunState &State) {
    if (Cmd.Format != "text") {
      llvm::StringSet<> Warned;
      for (const FileResult &Result : Results)
        printWarnings(Result, Warned);
      for (const std::string &Diff : State.Diffs)
        Out << Diff;
    }
    std::ostream &Document = reportToStderr() ? Err : Out;
    // After --fix, the CI formats report what remains: they have no way to
    // mark a finding fixed (JSON has "fixed"; issue 49, item 12).
    std::vector<FileResult> Remaining;
    if (Cmd.Fix && !Cmd.Diff && Cmd.Format != "json" && Cmd.Format != "text")
      Remaining = remainingFindings(Results);
    const std::vector<FileResult> &Shown = Remaining.empty() ? Results : Remaining;
    if (Cmd.Format == "json")
      Document << formatJson(Results, Install.Version);
    else if (Cmd.Format == "sarif")
      Document << formatSarif(
          Shown, {Install.Version, State.Root, Install.Share + "/docs/rules", Install.DocsBase});
    else if (Cmd.Format == "github")
      Document << formatGithub(Shown, State.Root);
    else if (Cmd.Format == "gitlab")
      Document << formatGitlab(Shown, State.Root);
    else if (Cmd.Format == "junit")
      Document << formatJunit(Shown);
    if (Cmd.ShowFixes && Cmd.Fix && !Cmd.Diff)
      Err << formatAppliedFixes(Results);
    if (Cmd.Fix || Cmd.Diff)
      Err << "kernel-tidy: " << formatFixSummary(Results, !Cmd.Diff);
    else if (Cmd.Format == "text" && !Cmd.Quiet) {
      std::string Footer = formatFixableFooter(Results);
      if (!Footer.empty())
        Err << "kernel-tidy: " << Footer;
    }
    if (Cmd.AddNolint) {
      for (const auto &Skips : State.NolintSkips)
        for (const std::string &Skip : Skips)
          Err << Skip << "\n";
      Err << "kernel-tidy: added " << State.NolintsAdded << " NOLINT comment(s)\n";
    }
    if (Cmd.Statistics)
      Err << formatStatistics(Results, State.Hidden);
    else if (State.Hidden && !Cmd.Quiet)
      Err << "kernel-tidy: " << State.Hidden << " finding(s) hidden by the baseline\n";
  }

  int exitCode(const std::vector<FileResult> &Results) {
    bool Failed = llvm::any_of(Results, [](const FileResult &R) { return !R.Errors.empty(); });
    if (Failed)
      return ExitError;
    if (!Cmd.WriteBaseline.empty())
      return ExitClean; // Recording is the point of the run.
    // With --fix, the findings whose fix was written are gone.
    bool Written = Cmd.Fix && !Cmd.Diff;
    bool Remaining = false, ErrorsRemaining = false;
    for (const FileResult &R : Results)
      for (const Finding &F : R.Findings)
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

  bool writeBaselineFile(const RunState &State) {
    std::vector<BaselineEntry> All;
    for (const auto &Entries : State.Recorded)
      All.insert(All.end(), Entries.begin(), Entries.end());
    std::string Error = writeAtomically(Cmd.WriteBaseline, formatBaseline(All));
    if (!Error.empty()) {
      Err << "kernel-tidy: error: cannot write the baseline: " << Error << "\n";
      return false;
    }
    if (!Cmd.Quiet)
      Err << "kernel-tidy: recorded " << All.size() << " finding(s) in " << Cmd.WriteBaseline
          << "\n";
    return true;
  }

  /// Writes --export-fixes; false when it cannot be written, or a fix cannot
  /// be exported byte for byte (the others are written, that one named).
  bool writeExportedFixes(const std::vector<FileResult> &Results) {
    ExportGaps Gaps;
    std::string Error =
        writeAtomically(Cmd.ExportFixes, exportFixesYaml(Results, Cmd.UnsafeFixes, &Gaps));
    if (!Error.empty()) {
      Err << "kernel-tidy: error: cannot export the fixes: " << Error << "\n";
      return false;
    }
    if (Gaps.PythonFixes > 0)
      Err << "kernel-tidy: warning: " << Gaps.PythonFixes
          << " fix(es) of .py files not exported to " << Cmd.ExportFixes
          << ": clang-apply-replacements cleans up around each replacement as C++ "
             "(it removes trailing commas such as in '(4,)'), which changes Python code; "
             "apply them with --fix\n";
    for (const std::string &Refused : Gaps.Refused)
      Err << "kernel-tidy: error: " << Refused << "\n";
    return Gaps.Refused.empty();
  }

  /// Whether every file's configuration can be used and enables a check (as
  /// clang-tidy, unless --allow-no-checks); prints the problems (each once)
  /// otherwise. Checked before anything is analysed, so that a bad
  /// configuration of one folder writes nothing anywhere.
  bool configurationUsable(const std::vector<std::string> &Files, const AnalysisOptions &Options,
                           unsigned *WarningCount = nullptr) {
    std::string Error;
    auto Checker = Analyzer::create(Options, Error);
    if (!Checker) {
      Err << "kernel-tidy: error: " << Error << "\n";
      return false;
    }
    llvm::StringSet<> Reported, Warned;
    std::vector<std::string> WithoutChecks;
    for (const std::string &File : Files) {
      for (const std::string &Warning : Checker->configurationWarnings(File))
        if (Warned.insert(Warning).second)
          Err << "kernel-tidy: warning: " << Warning << "\n";
      std::string Problem = Checker->configurationError(File);
      if (Problem.empty() && !Cmd.AllowNoChecks && Checker->enabledChecks(File).empty())
        WithoutChecks.push_back(File);
      if (!Problem.empty() && Reported.insert(Problem).second)
        Err << "kernel-tidy: error: " << Problem << "\n";
    }
    // One error for them all (`--checks='-*'` is one mistake, not one per file).
    if (!WithoutChecks.empty()) {
      std::string Which =
          WithoutChecks.size() == 1
              ? "'" + WithoutChecks[0] + "'"
              : std::to_string(WithoutChecks.size()) + " files ('" + WithoutChecks[0] + "', ...)";
      std::string Problem = "no checks enabled for " + Which +
                            ": the Checks match no check (--allow-no-checks accepts it)";
      Reported.insert(Problem);
      Err << "kernel-tidy: error: " << Problem << "\n";
    }
    if (WarningCount)
      *WarningCount = Warned.size();
    return Reported.empty();
  }

  /// --verify-config: the configuration of each file (or of the current
  /// folder) checked as a run would check it, and nothing analysed; exit code
  /// 2 on any error or warning, as clang-tidy's --verify-config fails.
  int verifyConfiguration(const AnalysisOptions &Options) {
    std::vector<std::string> Files = Cmd.Files;
    if (Files.empty())
      Files.push_back("kernel-tidy-verify-config.cpp"); // Stands for the current folder.
    unsigned Warnings = 0;
    if (!configurationUsable(Files, Options, &Warnings) || Warnings > 0)
      return ExitError;
    Err << "kernel-tidy: no configuration errors found\n";
    return ExitClean;
  }

  /// --dump-config, --explain-config and --list-checks, as clang-tidy prints
  /// them, for the first file named (or the current folder: its C++ checks
  /// and CuTe DSL rules both).
  int printConfiguration(const AnalysisOptions &Options) {
    std::string Error;
    auto Checker = Analyzer::create(Options, Error);
    std::vector<std::string> Files;
    if (!Cmd.Files.empty())
      Files.push_back(llvm::sys::fs::is_directory(Cmd.Files[0]) ? Cmd.Files[0] + "/kernel-tidy.cpp"
                                                                : Cmd.Files[0]);
    else
      Files = {"kernel-tidy.cpp", "kernel-tidy.py"}; // Stand for the current folder.
    if (Checker && Error.empty())
      Error = Checker->configurationError(Files[0]);
    if (!Error.empty()) {
      Err << "kernel-tidy: error: " << Error << "\n";
      return ExitError;
    }
    if (Cmd.DumpConfig) {
      Out << Checker->configurationText(Files[0]);
      return ExitClean;
    }
    std::vector<std::string> Lines;
    for (const std::string &File : Files)
      for (std::string &Line :
           Cmd.ExplainConfig ? Checker->explainConfiguration(File) : Checker->enabledChecks(File))
        Lines.push_back(std::move(Line));
    if (Cmd.ExplainConfig) {
      for (const std::string &Line : Lines)
        Out << Line << "\n";
      return ExitClean;
    }
    Out << "Enabled checks:\n";
    for (const std::string &Check : Lines)
      Out << "    " << Check << "\n";
    Out << "\n";
    return ExitClean;
  }

  /// Whether the outputs of the run (--write-baseline, --export-fixes) spare
  /// its inputs: an output that is a file of the run, the configuration, the
  /// compile database, the baseline read or the other output would replace it,
  /// and so would one whose name is an existing source file (a forgotten
  /// baseline name takes the next argument: `--write-baseline a.cpp b.cpp`).
  /// A new output with a source extension only gets a warning.
  bool outputsSpareTheInputs(const std::vector<std::string> &Files) {
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
        Err << "kernel-tidy: error: " << Option << " '" << *Output << "' is " << What
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
      if (isSourceFileName(*Output)) {
        if (Exists && llvm::sys::fs::is_regular_file(*Output))
          return Refuse("a source file (by its extension)");
        Err << "kernel-tidy: warning: " << Option << " '" << *Output
            << "' has a source file's extension; did you forget its name?\n";
      }
    }
    return true;
  }

  CheckCommand Cmd;
  const Installation &Install;
  CheckStreams &Io;
  std::istream &In;
  std::ostream &Out;
  std::ostream &Err;
};

} // namespace

/// The options of every command: the installed model, Clang's resource
/// folder and CuTe frontend, and the --checks / --config-file given.
Installation installationAt(const std::string &Share) {
  return {Share, KERNEL_TIDY_VERSION, KERNEL_TIDY_CLANG_RESOURCE_DIR,
          docsBase(KERNEL_TIDY_DOCS_URL, Share)};
}

std::string shareDirOf(const std::string &Executable) {
  if (auto Env = llvm::sys::Process::GetEnv("KERNEL_TIDY_SHARE_DIR"))
    return *Env;
  llvm::SmallString<256> Dir(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(Executable)));
  llvm::sys::path::append(Dir, KERNEL_TIDY_SHARE_SUBDIR);
  return Dir.str().str();
}

AnalysisOptions installedOptions(const Installation &Install, const std::string &Checks,
                                 const std::string &ConfigFile) {
  AnalysisOptions Options;
  if (!Checks.empty())
    Options.Checks = Checks;
  if (!ConfigFile.empty())
    Options.ConfigFile = ConfigFile;
  Options.ModelDir = Install.Share + "/api-model";
  Options.ResourceDir = Install.ResourceDir;
  Options.CuteFrontend = Install.Share + "/frontends/cute/run.py";
  return Options;
}

CLI::Validator cacheSizeValidator() {
  return CLI::Validator(
      [](std::string &Value) -> std::string {
        return parseCacheSize(Value)
                   ? ""
                   : "invalid cache size '" + Value + "' (expected e.g. 2G, 500M, 64K or bytes)";
      },
      "SIZE");
}

/// The options that say how files are parsed and what the kernels run on.
void addParseOptions(CLI::App &Check, CheckCommand &Cmd) {
  Check
      .add_option("--warp-size", Cmd.WarpSize,
                  "Warp width when a kernel does not set it: " + dsl::warpWidthChoices() +
                      " (default " + std::to_string(dsl::DefaultWarpWidth) + ")")
      ->transform(CLI::Validator(
          [](std::string &Value) -> std::string {
            // The rules' own parser; the value is rewritten to the number it
            // read, which is what CLI11 then converts.
            if (auto Width = dsl::parseWarpWidth(Value)) {
              Value = std::to_string(*Width);
              return "";
            }
            return "invalid value '" + Value + "' for option 'WarpSize': the warp width must be " +
                   dsl::warpWidthChoices();
          },
          "WIDTH"));
  Check
      .add_option("--target", Cmd.Target,
                  "Backend the kernels are compiled for: any (default), cuda, dx, vulkan, "
                  "metal; findings whose rewrite is not expected to be faster there get a note")
      ->check(CLI::Validator(
          [](std::string &Name) -> std::string {
            if (dsl::parseTarget(Name))
              return "";
            return "unknown target '" + Name + "' (expected " + dsl::targetChoices().str() + ")";
          },
          "TARGET"));
  Check.add_flag("--assume-warp-reconvergence", Cmd.AssumeWarpReconvergence,
                 "Assert that on every target the warps run together again after a divergent "
                 "$if (the AssumeWarpReconvergence option): the warp-slot rewrites rely on it "
                 "and are withheld without it, except for --target=dx");
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
  addParseOptions(Check, Cmd);
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

int runCheck(CheckCommand Cmd, std::vector<std::string> CompilerArgs, const Installation &Install,
             CheckStreams &Io) {
  return CheckRun(std::move(Cmd), Install, Io).run(std::move(CompilerArgs));
}

int runCheckCommandLine(const std::vector<std::string> &Args, const Installation &Install,
                        CheckStreams &Io) {
  // Everything after `--` goes to the compiler, as with clang-tidy.
  auto Dashes = std::find(Args.begin(), Args.end(), "--");
  std::vector<std::string> CompilerArgs(Dashes == Args.end() ? Dashes : Dashes + 1, Args.end());
  std::vector<const char *> Argv{"check"};
  for (auto It = Args.begin(); It != Dashes; ++It)
    Argv.push_back(It->c_str());
  CLI::App Check{"kernel-tidy check"};
  CheckCommand Cmd;
  addCheckOptions(Check, Cmd);
  try {
    Check.parse(static_cast<int>(Argv.size()), Argv.data());
  } catch (const CLI::ParseError &E) {
    return Check.exit(E, Io.Out, Io.Err) == 0 ? ExitClean : ExitError;
  }
  return runCheck(std::move(Cmd), std::move(CompilerArgs), Install, Io);
}

} // namespace kernel_tidy
