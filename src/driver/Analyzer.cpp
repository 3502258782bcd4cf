//===--- Analyzer.cpp - Runs the kernel-tidy checks on files --------------===//

#include "src/driver/Analyzer.h"
#include "src/driver/AtomicFile.h"
#include "src/driver/CuteFrontend.h"
#include "src/driver/Nesting.h"
#include "src/driver/Paths.h"
#include "src/driver/SharedHeaderParse.h"
#include "src/driver/TidyFindings.h"
#include "rules/RuleRegistry.h"
#include "src/dsl/WarpWidth.h"

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang-tidy/GlobList.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <algorithm>
#include <atomic>
#include <map>
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/raw_ostream.h"
#include <csignal>
#include <pthread.h>
#include <cstring>
#include <mutex>

using namespace clang;
using namespace clang::tidy;

namespace kernel_tidy {

std::vector<std::string> bundledModelArgs(const std::string &ModelDir) {
  // Both include layouts name one model: <luisa/dsl/syntax.h>, and
  // <dsl/syntax.h> as the 2024 releases' users write with -I include/luisa.
  return {"-std=c++20", "-isystem", ModelDir, "-isystem", ModelDir + "/luisa"};
}

namespace {

/// clang-tidy's .clang-tidy lookup, except that a file that does not parse
/// is recorded instead of printed and skipped (clang-tidy then runs with
/// the defaults: a rule the file disables would still fix code).
class StrictFileOptionsProvider : public FileOptionsProvider {
public:
  StrictFileOptionsProvider(ClangTidyOptions Defaults, ClangTidyOptions Overrides,
                            llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS)
      : FileOptionsProvider(ClangTidyGlobalOptions(), std::move(Defaults), std::move(Overrides),
                            std::move(FS)) {
    ConfigHandlers = {
        {".clang-tidy", [this](llvm::MemoryBufferRef Config) { return parse(Config); }}};
  }
  /// The first configuration file that did not parse, with the reason.
  const std::string &problem() const { return Problem; }

private:
  llvm::ErrorOr<ClangTidyOptions> parse(llvm::MemoryBufferRef Config) {
    // LLVM's YAML parser recurses once per level: `Checks:` and 100,000 '['
    // overflowed the stack (issue 31, item 8).
    if (std::string Deep = nestingProblem(Config.getBuffer(), /*JsonStrings=*/false);
        !Deep.empty()) {
      if (Problem.empty())
        Problem =
            "invalid configuration file '" + Config.getBufferIdentifier().str() + "': " + Deep;
      return ClangTidyOptions();
    }
    std::string Diagnostics;
    auto Parsed = parseConfigurationWithDiags(Config, [&](const llvm::SMDiagnostic &D) {
      if (Diagnostics.empty())
        Diagnostics = std::to_string(D.getLineNo()) + ":" + std::to_string(D.getColumnNo() + 1) +
                      ": " + D.getMessage().str();
    });
    if (Parsed || !Problem.empty())
      return Parsed ? Parsed : ClangTidyOptions();
    Problem = "invalid configuration file '" + Config.getBufferIdentifier().str() +
              "': " + (Diagnostics.empty() ? Parsed.getError().message() : Diagnostics);
    return ClangTidyOptions(); // Stops the lookup here, without a message.
  }
  std::string Problem;
};

/// Why the WarpSize options of \p Sources (in increasing priority) cannot
/// be used, naming the option, its value and where it was set; "" if they
/// can.
std::string warpSizeProblem(const std::vector<ClangTidyOptionsProvider::OptionsSource> &Sources,
                            const std::optional<std::string> &ConfigFile) {
  auto Describe = [&](const std::string &Source) {
    if (Source == ClangTidyOptionsProvider::OptionsSourceTypeCheckCommandLineOption)
      return std::string("the command line");
    if (Source == ClangTidyOptionsProvider::OptionsSourceTypeConfigCommandLineOption)
      return "'" + ConfigFile.value_or("--config-file") + "'";
    return "'" + Source + "'";
  };
  std::map<std::string, std::pair<std::string, std::string>> Effective; // Value, source.
  for (const auto &[Options, Source] : Sources)
    for (const auto &[Key, Value] : Options.CheckOptions)
      if (Key == "WarpSize" || (Key.starts_with("luisa-") && Key.ends_with(".WarpSize")))
        Effective[Key.str()] = {Value.Value, Describe(Source)};
  for (const auto &[Key, Set] : Effective)
    if (!dsl::parseWarpWidth(Set.first))
      return "invalid value '" + Set.first + "' for option '" + Key + "' (from " + Set.second +
             "): the warp width must be " + dsl::warpWidthChoices();
  return "";
}

/// A compile database whose commands name their file by absolute path:
/// Bear and Meson write `"file"` relative to `"directory"`, and Clang would
/// then report (and fix) the file under its relative name.
class AbsoluteFileDatabase : public tooling::CompilationDatabase {
public:
  explicit AbsoluteFileDatabase(std::unique_ptr<tooling::CompilationDatabase> Inner)
      : Inner(std::move(Inner)) {}

  std::vector<tooling::CompileCommand> getCompileCommands(StringRef File) const override {
    std::vector<tooling::CompileCommand> Commands = Inner->getCompileCommands(File);
    for (tooling::CompileCommand &Command : Commands) {
      if (!llvm::sys::path::is_relative(Command.Filename))
        continue;
      llvm::SmallString<256> Absolute(Command.Filename);
      llvm::sys::fs::make_absolute(Command.Directory, Absolute);
      llvm::sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
      for (std::string &Arg : Command.CommandLine)
        if (Arg == Command.Filename)
          Arg = Absolute.str().str();
      Command.Filename = Absolute.str().str();
    }
    return Commands;
  }
  std::vector<std::string> getAllFiles() const override { return Inner->getAllFiles(); }

private:
  std::unique_ptr<tooling::CompilationDatabase> Inner;
};

/// Why the compile database files of \p Dir (compile_commands.json,
/// compile_flags.txt) cannot be read, before Clang's loader reads them: a
/// FIFO, a device such as /dev/zero or a huge file would hang it; "" if
/// they can (or are absent).
std::string databaseFileProblem(StringRef Dir) {
  for (const char *Name : {"compile_commands.json", "compile_flags.txt"}) {
    llvm::SmallString<256> Path(Dir);
    llvm::sys::path::append(Path, Name);
    if (std::string Problem = inputFileProblem(Path.str().str()); !Problem.empty())
      return "ignoring '" + Path.str().str() + "': it " + Problem;
  }
  return "";
}

/// databaseFileProblem() of the nearest folder above \p File that holds a
/// compile database (the one Clang's auto-detection would load).
std::string nearestDatabaseProblem(StringRef File) {
  for (StringRef Dir = llvm::sys::path::parent_path(File); !Dir.empty();
       Dir = llvm::sys::path::parent_path(Dir)) {
    llvm::SmallString<256> Json(Dir), Flags(Dir);
    llvm::sys::path::append(Json, "compile_commands.json");
    llvm::sys::path::append(Flags, "compile_flags.txt");
    if (llvm::sys::fs::exists(Json) || llvm::sys::fs::exists(Flags))
      return databaseFileProblem(Dir);
  }
  return "";
}

/// Why the compile_commands.json nearest above \p File (if there is one)
/// cannot be used; "" when there is none.
std::string unusableDatabaseWarning(StringRef File) {
  for (StringRef Dir = llvm::sys::path::parent_path(File); !Dir.empty();
       Dir = llvm::sys::path::parent_path(Dir)) {
    llvm::SmallString<256> Path(Dir);
    llvm::sys::path::append(Path, "compile_commands.json");
    if (!llvm::sys::fs::exists(Path))
      continue;
    std::string Error;
    tooling::JSONCompilationDatabase::loadFromFile(Path, Error,
                                                   tooling::JSONCommandLineSyntax::AutoDetect);
    return "ignoring '" + Path.str().str() + "' (" + StringRef(Error).trim().str() +
           "): parsed with the bundled DSL model";
  }
  return "";
}

} // namespace

// absolutePath() (Paths.h), without `.` and `..`, is the spelling the
// analysis, the configuration lookup and the PCH plan key files by.

struct Analyzer::Impl {
  AnalysisOptions Options;
  std::optional<ClangTidyOptions> ConfigOptions;
  /// --line-filter, parsed. Applied to findings here, not by clang-tidy,
  /// which would also drop compiler errors outside the lines (and a file
  /// that does not compile must never be fixed).
  std::vector<FileFilter> LineFilter;
  /// The CuTe DSL frontend's interpreter, started on this analyzer's first
  /// .py file and kept for the next ones.
  mutable std::unique_ptr<CuteFrontendProcess> Cute;

  bool passesLineFilter(const Finding &F) const {
    if (LineFilter.empty())
      return true;
    for (const FileFilter &Filter : LineFilter) {
      if (!llvm::StringRef(F.File).ends_with(Filter.Name))
        continue;
      if (Filter.LineRanges.empty())
        return true;
      for (const FileFilter::LineRange &Range : Filter.LineRanges)
        if (Range.first <= F.Begin.Line && F.Begin.Line <= Range.second)
          return true;
    }
    return false;
  }

  ClangTidyOptions overrides(std::optional<std::string> HeaderFilter,
                             const std::vector<std::string> &MoreArgs) const {
    ClangTidyOptions Overrides;
    if (Options.Checks)
      Overrides.Checks = *Options.Checks;
    if (Options.WarpSize)
      Overrides.CheckOptions["WarpSize"] =
          ClangTidyOptions::ClangTidyValue(std::to_string(*Options.WarpSize));
    if (Options.Target)
      Overrides.CheckOptions["Target"] =
          ClangTidyOptions::ClangTidyValue(dsl::targetName(*Options.Target));
    if (Options.AssumeWarpReconvergence)
      Overrides.CheckOptions["AssumeWarpReconvergence"] = ClangTidyOptions::ClangTidyValue("true");
    // The driver decides which fixes to apply (--unsafe-fixes), so it asks
    // the checks for every fix.
    Overrides.CheckOptions["UnsafeFixes"] = ClangTidyOptions::ClangTidyValue("true");
    if (Options.WarningsAsErrors)
      Overrides.WarningsAsErrors = *Options.WarningsAsErrors;
    Overrides.ExtraArgs = Options.ExtraArgs;
    Overrides.ExtraArgs->insert(Overrides.ExtraArgs->end(), MoreArgs.begin(), MoreArgs.end());
    // No "N warnings generated." on stderr: findings are reported by us.
    std::vector<std::string> Before{"-fno-caret-diagnostics"};
    if (!Options.ResourceDir.empty())
      Before.push_back("-resource-dir=" + Options.ResourceDir);
    Before.insert(Before.end(), Options.ExtraArgsBefore.begin(), Options.ExtraArgsBefore.end());
    Overrides.ExtraArgsBefore = Before;
    Overrides.UseColor = false;
    // --header-filter wins over the configuration; the file's own
    // configuration (HeaderFilter) over the working directory's.
    Overrides.HeaderFilterRegex =
        Options.HeaderFilter ? Options.HeaderFilter : std::move(HeaderFilter);
    Overrides.ExcludeHeaderFilterRegex = Options.ExcludeHeaderFilter;
    return Overrides;
  }

  static ClangTidyOptions defaults() {
    ClangTidyOptions Defaults = ClangTidyOptions::getDefaults();
    Defaults.Checks = "-*,luisa-*,cute-*";
    return Defaults;
  }

  std::unique_ptr<ClangTidyOptionsProvider>
  makeOptionsProvider(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
                      std::optional<std::string> HeaderFilter = std::nullopt,
                      const std::vector<std::string> &MoreArgs = {}) const {
    ClangTidyOptions Overrides = overrides(std::move(HeaderFilter), MoreArgs);
    if (ConfigOptions)
      return std::make_unique<ConfigOptionsProvider>(ClangTidyGlobalOptions(), defaults(),
                                                     *ConfigOptions, Overrides, FS);
    return std::make_unique<StrictFileOptionsProvider>(defaults(), Overrides, FS);
  }

  /// Why the configuration of \p AbsFile cannot be used: a .clang-tidy
  /// that does not parse, or a WarpSize that is not a warp width ("" when
  /// it can be used).
  std::string configurationProblem(const std::string &AbsFile,
                                   llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS) const {
    if (ConfigOptions) // Parsed when the analyzer was created.
      return warpSizeProblem(makeOptionsProvider(std::move(FS))->getRawOptions(AbsFile),
                             Options.ConfigFile);
    StrictFileOptionsProvider Provider(defaults(), overrides(std::nullopt, {}), std::move(FS));
    auto Sources = Provider.getRawOptions(AbsFile);
    return Provider.problem().empty() ? warpSizeProblem(Sources, std::nullopt) : Provider.problem();
  }

  /// The project's compile database for \p File, or the bundled DSL model
  /// (with \p Warning saying why, when a database was found but not usable).
  std::unique_ptr<tooling::CompilationDatabase>
  compilationDatabase(const std::string &File, std::string &Error, std::string *Warning = nullptr,
                      bool *UsesModel = nullptr) const {
    std::unique_ptr<tooling::CompilationDatabase> DB;
    if (Options.ForceBundledModel) {
      // Fall through to the bundled model.
    } else if (!Options.BuildPath.empty()) {
      if (std::string Problem = databaseFileProblem(Options.BuildPath); !Problem.empty()) {
        Error = Problem;
        return nullptr;
      }
      DB = tooling::CompilationDatabase::loadFromDirectory(Options.BuildPath, Error);
      if (!DB)
        return nullptr;
    } else if (std::string Problem = nearestDatabaseProblem(File); !Problem.empty()) {
      // Not read at all: a FIFO or /dev/zero would hang the run.
      if (Warning)
        *Warning = Problem + ": parsed with the bundled DSL model";
    } else {
      std::string Ignored;
      DB = tooling::CompilationDatabase::autoDetectFromSource(File, Ignored);
      if (!DB && Warning)
        *Warning = unusableDatabaseWarning(File);
    }
    if (DB)
      return std::make_unique<AbsoluteFileDatabase>(
          tooling::inferMissingCompileCommands(std::move(DB)));
    if (UsesModel)
      *UsesModel = true;
    std::vector<std::string> ModelArgs = bundledModelArgs(Options.ModelDir);
    // Without a database, Clang would take a .h for C and an .inl for an
    // object file.
    if (isHeaderLike(File))
      ModelArgs.insert(ModelArgs.begin(), {"-x", "c++-header"});
    // Arguments after `--` are the user's, relative to where kernel-tidy
    // runs, as clang-tidy takes them (`-I include` from the project root).
    SmallString<256> WorkingDir;
    if (llvm::sys::fs::current_path(WorkingDir))
      WorkingDir = llvm::sys::path::parent_path(File);
    return std::make_unique<tooling::FixedCompilationDatabase>(WorkingDir, ModelArgs);
  }

  /// The cute-* rules (analysed by the CuTe DSL frontend) that \p Opts enable.
  static std::vector<std::string> cuteChecks(const ClangTidyOptions &Opts) {
    CachedGlobList Enabled(Opts.Checks.value_or(""));
    std::vector<std::string> Checks;
    for (const rules::RuleInfo &Rule : rules::allRules())
      if (Rule.Language == "Python" && Enabled.contains(Rule.Id))
        Checks.push_back(Rule.Id.str());
    return Checks;
  }

  /// A .py file, \p Read holding its text: configured as a C++ file is, and
  /// analysed by the CuTe DSL frontend.
  FileResult analyzePython(const std::string &AbsFile, FileResult Read) const {
    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS = llvm::vfs::getRealFileSystem();
    std::string Problem = configurationProblem(AbsFile, FS);
    if (!Problem.empty()) {
      Read.Errors.push_back({Read.File, 0, 0, Problem});
      return Read;
    }
    ClangTidyOptions Opts = makeOptionsProvider(FS)->getOptions(AbsFile);
    CuteRequest Request{Read.File, Read.Original, cuteChecks(Opts),
                        {},        AbsFile,       Options.PythonModules};
    if (Request.Checks.empty())
      return Read;
    for (const auto &[Key, Value] : Opts.CheckOptions)
      if (Key.starts_with("cute-"))
        Request.Options[Key.str()] = Value.Value;
    CachedGlobList AsErrorGlobs(Opts.WarningsAsErrors.value_or(""));
    std::vector<std::string> AsErrors;
    for (const std::string &Check : Request.Checks)
      if (AsErrorGlobs.contains(Check))
        AsErrors.push_back(Check);
    if (!Cute)
      Cute = std::make_unique<CuteFrontendProcess>(Options.CuteFrontend, Options.CancelPython);
    FileResult Result = Cute->analyze(Request, AsErrors);
    Result.ReadFromDisk = Read.ReadFromDisk;
    // --line-filter, as for C++ files (issue 31, item 14).
    llvm::erase_if(Result.Findings, [&](const Finding &F) { return !passesLineFilter(F); });
    return Result;
  }

  /// How \p AbsFile's headers are parsed into a PCH (Includes left empty):
  /// the command clang-tidy would run, with its file name left out and the
  /// configuration's extra arguments in place; std::nullopt when the file
  /// cannot share a precompiled prefix.
  std::optional<PreambleFile> preambleFile(const std::string &AbsFile) const;
};

std::optional<PreambleFile> Analyzer::Impl::preambleFile(const std::string &AbsFile) const {
  std::string Error;
  auto DB = compilationDatabase(AbsFile, Error);
  if (!DB)
    return std::nullopt;
  std::vector<tooling::CompileCommand> Commands = DB->getCompileCommands(AbsFile);
  if (Commands.size() != 1)
    return std::nullopt;
  ClangTidyOptions Opts =
      makeOptionsProvider(llvm::vfs::createPhysicalFileSystem())->getOptions(AbsFile);
  // Diagnostics inside headers are wanted: they come from the header parse,
  // which a PCH does once, elsewhere.
  if ((Opts.HeaderFilterRegex && !Opts.HeaderFilterRegex->empty()) ||
      Opts.SystemHeaders.value_or(false))
    return std::nullopt;
  tooling::CompileCommand Command = Commands.front();
  std::vector<std::string> Args;
  for (size_t I = 0; I < Command.CommandLine.size(); ++I) {
    const std::string &Arg = Command.CommandLine[I];
    llvm::SmallString<256> Path(Arg);
    if (I > 0 && !llvm::StringRef(Arg).starts_with("-")) {
      llvm::sys::fs::make_absolute(Command.Directory, Path);
      llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
    }
    if (I > 0 && (Arg == Command.Filename || Path == AbsFile))
      continue;
    Args.push_back(Arg);
  }
  if (Opts.ExtraArgsBefore && !Args.empty())
    Args.insert(Args.begin() + 1, Opts.ExtraArgsBefore->begin(), Opts.ExtraArgsBefore->end());
  if (Opts.ExtraArgs)
    Args.insert(Args.end(), Opts.ExtraArgs->begin(), Opts.ExtraArgs->end());
  for (const auto &Adjust :
       {tooling::getClangStripOutputAdjuster(), tooling::getClangSyntaxOnlyAdjuster(),
        tooling::getClangStripDependencyFileAdjuster(), tooling::getStripPluginsAdjuster()})
    Args = Adjust(Args, AbsFile);
  Command.CommandLine = std::move(Args);
  Command.Filename.clear();
  Command.Output.clear();
  // The static analyzer follows calls into library bodies; the other checks
  // do not.
  bool RunsStaticAnalyzer =
      llvm::any_of(getCheckNames(Opts, /*AllowEnablingAnalyzerAlphaCheckers=*/true),
                   [](llvm::StringRef Name) { return Name.starts_with("clang-analyzer-"); });
  return PreambleFile{AbsFile, std::move(Command), {}, !RunsStaticAnalyzer};
}

namespace {

/// The stack of the thread each analysis runs on. Clang recurses on deeply
/// nested code (a 200,000-term expression needs over 8 MiB, a thread's
/// usual stack); Clang's driver, too, runs its compiler on a thread of its
/// own. Only what is used is ever committed.
constexpr unsigned AnalysisStackBytes = 256u << 20;

/// Where the signal handler runs when a thread's stack is exhausted: on the
/// exhausted stack it could not run, and the process would end.
constexpr size_t SignalStackBytes = 256u << 10;

/// The lowest address of the stack of the analysis on this thread, and where
/// to note that a fault hit its end (a stack overflow).
thread_local uintptr_t AnalysisStackLow = 0;
thread_local volatile sig_atomic_t *AnalysisStackOverflowed = nullptr;
/// LLVM's crash recovery handler of SIGSEGV, which onSegv hands over to.
struct sigaction RecoverySegv;

/// Notes a fault at the end of an analysis' stack, then recovers as LLVM does.
void onSegv(int Signal, siginfo_t *Info, void *Context) {
  uintptr_t At = reinterpret_cast<uintptr_t>(Info->si_addr);
  if (AnalysisStackOverflowed && AnalysisStackLow && At + (1u << 20) >= AnalysisStackLow &&
      At < AnalysisStackLow + (64u << 10))
    *AnalysisStackOverflowed = 1;
  if (RecoverySegv.sa_flags & SA_SIGINFO)
    RecoverySegv.sa_sigaction(Signal, Info, Context);
  else if (RecoverySegv.sa_handler != SIG_DFL && RecoverySegv.sa_handler != SIG_IGN)
    RecoverySegv.sa_handler(Signal);
}

/// Runs \p Body on a thread with a large stack so that a crash in it (a
/// signal such as SIGSEGV, a stack overflow, a fatal LLVM error) ends
/// \p Body only, as Clang runs its in-process compiler: "" when it
/// returned, else what ended it. What it had allocated is leaked.
std::string runRecoveringFromCrashes(llvm::function_ref<void()> Body) {
  static std::once_flag Enabled;
  std::call_once(Enabled, [] {
    llvm::CrashRecoveryContext::Enable();
    // LLVM's handlers run on the faulting stack, which an overflow has
    // used up: SIGSEGV and SIGBUS are handled on a signal stack instead.
    struct sigaction Action;
    if (::sigaction(SIGBUS, nullptr, &Action) == 0) {
      Action.sa_flags |= SA_ONSTACK;
      ::sigaction(SIGBUS, &Action, nullptr);
    }
    if (::sigaction(SIGSEGV, nullptr, &RecoverySegv) == 0) {
      Action = RecoverySegv;
      Action.sa_sigaction = onSegv;
      Action.sa_flags |= SA_ONSTACK | SA_SIGINFO;
      ::sigaction(SIGSEGV, &Action, nullptr);
    }
  });
  const void *StackTrace = llvm::SavePrettyStackState();
  std::vector<char> SignalStack(SignalStackBytes);
  volatile sig_atomic_t Overflowed = 0;
  llvm::CrashRecoveryContext Recovery;
  bool Returned = Recovery.RunSafelyOnThread(
      [&] {
        stack_t Alternate = {};
        Alternate.ss_sp = SignalStack.data();
        Alternate.ss_size = SignalStack.size();
        ::sigaltstack(&Alternate, nullptr);
        pthread_attr_t Attributes;
        void *Low = nullptr;
        size_t Size = 0;
        if (::pthread_getattr_np(::pthread_self(), &Attributes) == 0) {
          ::pthread_attr_getstack(&Attributes, &Low, &Size);
          ::pthread_attr_destroy(&Attributes);
        }
        AnalysisStackLow = reinterpret_cast<uintptr_t>(Low);
        AnalysisStackOverflowed = &Overflowed;
        Body();
        AnalysisStackOverflowed = nullptr;
        stack_t Off = {};
        Off.ss_flags = SS_DISABLE;
        ::sigaltstack(&Off, nullptr);
      },
      AnalysisStackBytes);
  if (Returned)
    return "";
  // The entries of the frames that were left are gone.
  llvm::RestorePrettyStackState(StackTrace);
  if (Overflowed)
    return "stack overflow: the code is nested more deeply than a " +
           std::to_string(AnalysisStackBytes >> 20) + " MiB stack allows";
  int Code = Recovery.RetCode;
  if (Code > 128 && Code < 128 + NSIG)
    return "signal " + std::to_string(Code - 128) + ", " + ::strsignal(Code - 128);
  return "fatal error, exit code " + std::to_string(Code);
}

/// Test-only: how the environment variable KERNEL_TIDY_TEST_CRASH_IN asks
/// the analysis of \p AbsFile to crash, so that tests can check that one
/// file's crash fails that file only: a value that ends the path raises
/// SIGSEGV; "overflow:" followed by one exhausts the stack.
enum class TestCrash { None, Signal, StackOverflow };
TestCrash crashRequestedFor(llvm::StringRef AbsFile) {
  const char *Value = std::getenv("KERNEL_TIDY_TEST_CRASH_IN");
  llvm::StringRef Suffix = Value ? Value : "";
  bool Overflow = Suffix.consume_front("overflow:");
  if (Suffix.empty() || !AbsFile.ends_with(Suffix))
    return TestCrash::None;
  return Overflow ? TestCrash::StackOverflow : TestCrash::Signal;
}

/// Recurses until the stack is exhausted (KERNEL_TIDY_TEST_CRASH_IN).
[[gnu::noinline]] unsigned exhaustStack(unsigned Depth) {
  volatile char Frame[1024];
  Frame[0] = static_cast<char>(Depth);
  if (Depth == ~0u)
    return Frame[0];
  return exhaustStack(Depth + 1) + Frame[Depth % 1024];
}

std::string readAll(const std::string &Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  return Buffer ? (*Buffer)->getBuffer().str() : std::string();
}

/// Collects the main file's top-level declarations and, before the checks'
/// matchers run, restricts the AST traversal to them: the declarations of
/// the headers (parsed, or deserialized from a PCH) are not walked. Only
/// used when findings in headers are not wanted (no HeaderFilterRegex).
class MainFileScope : public ASTConsumer {
public:
  void Initialize(ASTContext &Context) override { SM = &Context.getSourceManager(); }
  bool HandleTopLevelDecl(DeclGroupRef Group) override {
    for (Decl *D : Group) {
      SourceLocation Loc = D->getLocation();
      if (Loc.isValid() && SM->getFileID(SM->getExpansionLoc(Loc)) == SM->getMainFileID())
        Decls.push_back(D);
    }
    return true;
  }
  void HandleTranslationUnit(ASTContext &Context) override { Context.setTraversalScope(Decls); }

private:
  SourceManager *SM = nullptr;
  std::vector<Decl *> Decls;
};

/// clang-tidy's runClangTidy, with the matchers' traversal restricted to the
/// main file when \p MainFileOnly, and without ClangTool's "Error while
/// processing" line when \p Quiet.
std::vector<ClangTidyError> runChecks(ClangTidyContext &Context,
                                      const tooling::CompilationDatabase &Compilations,
                                      const std::string &File,
                                      llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS,
                                      bool MainFileOnly, bool Quiet) {
  tooling::ClangTool Tool(Compilations, {File}, std::make_shared<PCHContainerOperations>(), BaseFS);
  Tool.appendArgumentsAdjuster(
      [&Context](const tooling::CommandLineArguments &Args, StringRef Filename) {
        ClangTidyOptions Opts = Context.getOptionsForFile(Filename);
        tooling::CommandLineArguments Adjusted = Args;
        if (Opts.ExtraArgsBefore) {
          auto I = Adjusted.begin();
          if (I != Adjusted.end() && !StringRef(*I).starts_with("-"))
            ++I; // The compiler's name.
          Adjusted.insert(I, Opts.ExtraArgsBefore->begin(), Opts.ExtraArgsBefore->end());
        }
        if (Opts.ExtraArgs)
          Adjusted.insert(Adjusted.end(), Opts.ExtraArgs->begin(), Opts.ExtraArgs->end());
        return Adjusted;
      });
  Tool.appendArgumentsAdjuster(tooling::getStripPluginsAdjuster());
  Tool.setPrintErrorMessage(!Quiet);
  ClangTidyDiagnosticConsumer DiagConsumer(Context, nullptr, true, /*GetFixesFromNotes=*/true);
  DiagnosticsEngine DE(new DiagnosticIDs(), new DiagnosticOptions(), &DiagConsumer,
                       /*ShouldOwnClient=*/false);
  Context.setDiagnosticsEngine(&DE);
  Tool.setDiagnosticConsumer(&DiagConsumer);

  class Factory : public tooling::FrontendActionFactory {
  public:
    Factory(ClangTidyContext &Context,
            llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS, bool MainFileOnly)
        : Consumers(Context, std::move(BaseFS)), MainFileOnly(MainFileOnly) {}
    std::unique_ptr<FrontendAction> create() override { return std::make_unique<Action>(*this); }
    bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation, FileManager *Files,
                       std::shared_ptr<PCHContainerOperations> PCHContainerOps,
                       DiagnosticConsumer *DiagConsumer) override {
      // As clang-tidy: __clang_analyzer__ is defined.
      Invocation->getPreprocessorOpts().SetUpStaticAnalyzer = true;
      return FrontendActionFactory::runInvocation(Invocation, Files, PCHContainerOps, DiagConsumer);
    }

  private:
    class Action : public ASTFrontendAction {
    public:
      explicit Action(Factory &Parent) : Parent(Parent) {}
      std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &Compiler,
                                                     StringRef File) override {
        std::unique_ptr<ASTConsumer> Checks = Parent.Consumers.createASTConsumer(Compiler, File);
        if (!Parent.MainFileOnly || !Checks)
          return Checks;
        std::vector<std::unique_ptr<ASTConsumer>> Both;
        Both.push_back(std::make_unique<MainFileScope>());
        Both.push_back(std::move(Checks));
        return std::make_unique<MultiplexConsumer>(std::move(Both));
      }

    private:
      Factory &Parent;
    };
    ClangTidyASTConsumerFactory Consumers;
    bool MainFileOnly;
  };
  Factory Actions(Context, std::move(BaseFS), MainFileOnly);
  Tool.run(&Actions);
  return DiagConsumer.take();
}

} // namespace

std::shared_ptr<const PrefixPlan>
Analyzer::planPrecompiledPrefixes(const std::vector<std::string> &Files, unsigned Jobs) {
  std::vector<PreambleFile> Preambles;
  for (const std::string &File : Files) {
    std::string AbsFile = absolutePath(File);
    if (isPythonFile(AbsFile))
      continue; // Not C++: the CuTe DSL frontend reads it.
    // Not a FIFO or device: reading would block or never end (analyze()
    // reports them).
    llvm::sys::fs::file_status Status;
    if (llvm::sys::fs::status(AbsFile, Status) ||
        Status.type() != llvm::sys::fs::file_type::regular_file)
      continue;
    std::vector<std::string> Includes =
        preambleIncludes(readAll(AbsFile), llvm::sys::path::parent_path(AbsFile));
    if (Includes.empty())
      continue;
    std::optional<PreambleFile> Preamble = State->preambleFile(AbsFile);
    if (!Preamble)
      continue;
    Preamble->Includes = std::move(Includes);
    Preambles.push_back(std::move(*Preamble));
  }
  std::string Warning;
  HeaderCache Cache = HeaderCache::fromEnvironment(State->Options.CacheLimit, Warning);
  auto Plan = std::make_shared<PrefixPlan>(planSharedParses(Preambles, Cache, Jobs));
  if (!Warning.empty())
    Plan->Warnings.insert(Plan->Warnings.begin(), Warning);
  return Plan;
}

Analyzer::Analyzer(AnalysisOptions Options) : State(std::make_unique<Impl>()) {
  State->Options = std::move(Options);
}

Analyzer::~Analyzer() = default;

std::unique_ptr<Analyzer> Analyzer::create(AnalysisOptions Options, std::string &Error) {
  std::unique_ptr<Analyzer> Result(new Analyzer(std::move(Options)));
  const std::string &LineFilter = Result->State->Options.LineFilter;
  if (!LineFilter.empty()) {
    // Parsed as YAML, which recurses once per level: 60,000 '[' overflowed
    // the stack (issue 31, item 7). The text itself is not repeated.
    if (std::string Deep = nestingProblem(LineFilter, /*JsonStrings=*/false); !Deep.empty()) {
      Error = "invalid --line-filter: " + Deep;
      return nullptr;
    }
    ClangTidyGlobalOptions Parsed;
    if (std::error_code EC = parseLineFilter(LineFilter, Parsed)) {
      Error = "invalid --line-filter '" + LineFilter + "': " + EC.message();
      return nullptr;
    }
    Result->State->LineFilter = std::move(Parsed.LineFilter);
  }
  const AnalysisOptions &Given = Result->State->Options;
  if (Given.ConfigFile && Given.Config) {
    Error = "--config and --config-file both give the configuration; use one";
    return nullptr;
  }
  std::unique_ptr<llvm::MemoryBuffer> ConfigText;
  std::string ConfigName;
  if (const auto &Path = Given.ConfigFile) {
    // Only a regular file of bounded size: /dev/zero would never end.
    if (std::string Problem = inputFileProblem(*Path); !Problem.empty()) {
      Error = "cannot read config file '" + *Path + "': it " + Problem;
      return nullptr;
    }
    auto Text = llvm::MemoryBuffer::getFile(*Path);
    if (!Text) {
      Error = "cannot read config file '" + *Path + "': " + Text.getError().message();
      return nullptr;
    }
    ConfigText = std::move(*Text);
    ConfigName = "config file '" + *Path + "'";
  } else if (Given.Config) {
    ConfigText = llvm::MemoryBuffer::getMemBufferCopy(*Given.Config, "--config");
    ConfigName = "--config";
  }
  if (ConfigText) {
    if (std::string Deep = nestingProblem(ConfigText->getBuffer(), /*JsonStrings=*/false);
        !Deep.empty()) {
      Error = "invalid " + ConfigName + ": " + Deep;
      return nullptr;
    }
    std::string Diagnostics;
    auto Parsed = parseConfigurationWithDiags(
        ConfigText->getMemBufferRef(),
        [&](const llvm::SMDiagnostic &D) { Diagnostics += D.getMessage().str(); });
    if (!Parsed) {
      Error = "invalid " + ConfigName + ": " +
              (Diagnostics.empty() ? Parsed.getError().message() : Diagnostics);
      return nullptr;
    }
    Result->State->ConfigOptions = std::move(*Parsed);
  }
  return Result;
}

FileResult Analyzer::analyze(const std::string &File, const std::optional<std::string> &Contents) {
  FileResult Result;
  Result.File = File;
  std::string AbsFile = absolutePath(File);

  if (Contents) {
    Result.Original = *Contents;
  } else {
    // Only regular files: a FIFO would block (and be opened twice), a
    // device such as /dev/zero never ends.
    llvm::sys::fs::file_status Status;
    if (!llvm::sys::fs::status(AbsFile, Status) &&
        Status.type() != llvm::sys::fs::file_type::regular_file) {
      Result.Errors.push_back({File, 0, 0,
                               Status.type() == llvm::sys::fs::file_type::directory_file
                                   ? "is a directory"
                                   : "is not a regular file"});
      return Result;
    }
    auto Buffer = llvm::MemoryBuffer::getFile(AbsFile, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!Buffer) {
      Result.Errors.push_back({File, 0, 0, "cannot read file: " + Buffer.getError().message()});
      return Result;
    }
    Result.Original = (*Buffer)->getBuffer().str();
    Result.ReadFromDisk = true;
  }
  if (isPythonFile(AbsFile))
    return State->analyzePython(AbsFile, std::move(Result));

  std::string DBError, DBWarning;
  bool UsesModel = false;
  auto DB = State->compilationDatabase(AbsFile, DBError, &DBWarning, &UsesModel);
  if (!DB) {
    Result.Errors.push_back({File, 0, 0, "cannot load compilation database: " + DBError});
    return Result;
  }
  if (!DBWarning.empty())
    Result.Warnings.push_back(DBWarning);
  // An empty database has no command to infer one from: the file would be
  // skipped, and a CI gate pass without analysing it.
  std::vector<tooling::CompileCommand> Commands = DB->getCompileCommands(AbsFile);
  if (Commands.empty()) {
    Result.Errors.push_back(
        {File, 0, 0, "cannot analyse: the compilation database has no command for it"});
    return Result;
  }
  // Clang's tooling aborts the whole process when it cannot enter a compile
  // command's directory (text given in memory for a path whose folder does
  // not exist: found by the fuzzer).
  for (const tooling::CompileCommand &Command : Commands)
    if (!llvm::sys::fs::is_directory(Command.Directory)) {
      Result.Errors.push_back(
          {File, 0, 0,
           "cannot analyse: its compile directory '" + Command.Directory + "' does not exist"});
      return Result;
    }
  // A physical file system with its own working directory: the shared real
  // one would make Clang's per-command chdir process-wide, which races when
  // several analyzers run in parallel threads.
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> FS(
      new llvm::vfs::OverlayFileSystem(llvm::vfs::createPhysicalFileSystem()));
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> Memory(new llvm::vfs::InMemoryFileSystem);
  // Always parse the text that was read, so that what is fixed later is
  // exactly what was analysed.
  Memory->addFile(AbsFile, 0, llvm::MemoryBuffer::getMemBufferCopy(Result.Original));
  FS->pushOverlay(Memory);

  std::string ConfigProblem = State->configurationProblem(AbsFile, FS);
  if (!ConfigProblem.empty()) {
    Result.Errors.push_back({File, 0, 0, ConfigProblem});
    return Result;
  }
  // clang-tidy reads HeaderFilterRegex once, from the configuration of the
  // working directory; take it from the file's own configuration instead.
  ClangTidyOptions FileOptions = State->makeOptionsProvider(FS)->getOptions(AbsFile);
  std::optional<std::string> HeaderFilter = FileOptions.HeaderFilterRegex;
  // Findings in headers are not wanted: the checks walk the file's own code.
  bool MainFileOnly =
      !(HeaderFilter && !HeaderFilter->empty()) && !FileOptions.SystemHeaders.value_or(false);
  // A shared precompiled prefix, when the plan has one that still fits.
  std::shared_ptr<const PrecompiledHeader> Pch;
  if (const auto &Plan = State->Options.Prefixes) {
    Result.Warnings.insert(Result.Warnings.end(), Plan->Warnings.begin(), Plan->Warnings.end());
    auto It = Plan->Files.find(AbsFile);
    if (It != Plan->Files.end() &&
        prefixApplies(*It->second, Result.Original, llvm::sys::path::parent_path(AbsFile)))
      Pch = It->second;
  }
  auto Run = [&](bool UsePch) {
    std::vector<std::string> PchArgs;
    if (UsePch)
      PchArgs = {"-include-pch", Pch->PchPath, "-Xclang", "-fvalidate-ast-input-files-content"};
    ClangTidyContext Context(State->makeOptionsProvider(FS, HeaderFilter, PchArgs));
    if (!State->Options.ProfileDir.empty()) {
      // clang-tidy names a profile after the file and the second it was
      // made: one folder per analysis keeps every one.
      static std::atomic<unsigned> Analyses{0};
      Context.setEnableProfiling(true);
      Context.setProfileStoragePrefix(State->Options.ProfileDir + "/" + std::to_string(Analyses++));
    }
    // A text given in memory (a fix being verified) that does not compile
    // is the caller's business: no "Error while processing" on stderr. Nor
    // for a parse with the PCH: one that fails is repeated without it.
    if (TestCrash Crash = crashRequestedFor(AbsFile); Crash == TestCrash::Signal)
      ::raise(SIGSEGV);
    else if (Crash == TestCrash::StackOverflow)
      exhaustStack(0);
    return runChecks(Context, *DB, AbsFile, FS, MainFileOnly, Contents.has_value() || UsePch);
  };
  std::vector<ClangTidyError> Errors;
  std::string Crash = runRecoveringFromCrashes([&] { Errors = Run(Pch != nullptr); });
  // A file that does not compile is reported exactly as a plain parse
  // reports it (and a PCH made stale behind our back falls back here too),
  // and a crash reading the PCH (a Clang bug) is retried without it.
  if (Pch && (!Crash.empty() || llvm::any_of(Errors, [](const ClangTidyError &E) {
        return E.DiagLevel == tooling::Diagnostic::Error &&
               StringRef(E.DiagnosticName).starts_with("clang-diagnostic-");
      }))) {
    Errors.clear();
    Crash = runRecoveringFromCrashes([&] { Errors = Run(false); });
  }
  if (!Crash.empty()) {
    Result.Errors.push_back(
        {File, 0, 0, "the analysis crashed (" + Crash + "); nothing of this file is reported"});
    return Result;
  }
  if (UsesModel && llvm::any_of(Errors, [](const ClangTidyError &E) {
        return E.DiagLevel == tooling::Diagnostic::Error &&
               StringRef(E.DiagnosticName).starts_with("clang-diagnostic-");
      }))
    Result.Warnings.push_back(
        "a file that does not parse with the bundled DSL model may use API or headers the "
        "model lacks: analyse it with its project's compile database (-p BUILD_DIR, "
        "CMake's CMAKE_EXPORT_COMPILE_COMMANDS=ON); headers of the project or of third "
        "parties (stb, Eigen...) can be added after `--`, e.g. -- -I include -isystem "
        "third_party/stb");

  addTidyDiagnostics(std::move(Errors),
                     {File, AbsFile, Result.Original, Commands.front().Directory}, Result,
                     [&](const Finding &F) { return State->passesLineFilter(F); });
  return Result;
}

std::string Analyzer::configurationError(const std::string &File) {
  return State->configurationProblem(absolutePath(File), llvm::vfs::createPhysicalFileSystem());
}

std::vector<std::string> Analyzer::enabledChecks(const std::string &File) {
  auto Provider = State->makeOptionsProvider(llvm::vfs::getRealFileSystem());
  if (isPythonFile(File))
    return Impl::cuteChecks(Provider->getOptions(File));
  return getCheckNames(Provider->getOptions(File), false);
}

std::string Analyzer::configurationText(const std::string &File) {
  ClangTidyOptions Opts =
      State->makeOptionsProvider(llvm::vfs::getRealFileSystem())->getOptions(absolutePath(File));
  // What the driver adds for itself is not the user's configuration.
  Opts.CheckOptions.erase("UnsafeFixes");
  Opts.UseColor.reset();
  Opts.ExtraArgsBefore = State->Options.ExtraArgsBefore;
  Opts.ExtraArgs = State->Options.ExtraArgs;
  return configurationAsText(Opts);
}

std::vector<std::string> Analyzer::explainConfiguration(const std::string &File) {
  std::string AbsFile = absolutePath(File);
  auto Provider = State->makeOptionsProvider(llvm::vfs::getRealFileSystem());
  auto Sources = Provider->getRawOptions(AbsFile);
  std::vector<std::string> Lines;
  for (const std::string &Check : enabledChecks(AbsFile))
    for (const auto &[Opts, Source] : llvm::reverse(Sources))
      if (Opts.Checks && GlobList(*Opts.Checks).contains(Check)) {
        Lines.push_back(
            "'" + Check + "' is enabled in the " +
            (Source == ClangTidyOptionsProvider::OptionsSourceTypeDefaultBinary
                 ? std::string("kernel-tidy defaults (") + *Impl::defaults().Checks + ")"
                 : Source) +
            ".");
        break;
      }
  return Lines;
}

std::vector<std::string> Analyzer::configurationWarnings(const std::string &File) {
  auto Provider = State->makeOptionsProvider(llvm::vfs::getRealFileSystem());
  std::vector<std::string> Warnings;
  // The options the kernel-tidy checks read: "luisa-rule.Name", and "Name"
  // alone for every rule (a global option, as clang-tidy reads them).
  static const NamesAndOptions Known = getAllChecksAndOptions();
  llvm::StringSet<> Globals;
  for (const auto &Option : Known.Options)
    if (Option.getKey().starts_with("luisa-"))
      Globals.insert(Option.getKey().rsplit('.').second);
  for (const auto &[Options, Source] : Provider->getRawOptions(absolutePath(File))) {
    std::string From = Source == ClangTidyOptionsProvider::OptionsSourceTypeCheckCommandLineOption
                           ? std::string("the command line")
                           : "'" + Source + "'";
    for (const auto &[Key, Value] : Options.CheckOptions) {
      auto [Check, Name] = Key.rsplit('.');
      bool Unknown =
          Name.empty()
              ? !Globals.contains(Key) &&
                    llvm::any_of(Globals.keys(),
                                 [&](llvm::StringRef G) { return Key.edit_distance(G) <= 2; })
              : Check.starts_with("luisa-") && !Known.Options.contains(Key);
      if (!Unknown)
        continue;
      // The nearest known spelling, as clang-tidy's --verify-config says it.
      std::string Nearest;
      unsigned Best = 3;
      for (const auto &Option : Name.empty() ? Globals : Known.Options) {
        llvm::StringRef Candidate = Option.getKey();
        if (!Name.empty() && !Candidate.starts_with((Check + ".").str()))
          continue;
        unsigned Distance = Key.edit_distance(Candidate);
        if (Distance < Best)
          Best = Distance, Nearest = Candidate.str();
      }
      Warnings.push_back("unknown check option '" + Key.str() + "' (from " + From + ")" +
                         (Nearest.empty() ? "" : "; did you mean '" + Nearest + "'?"));
    }
    if (!Options.Checks)
      continue;
    bool FromCommandLine =
        Source == ClangTidyOptionsProvider::OptionsSourceTypeCheckCommandLineOption;
    llvm::SmallVector<llvm::StringRef> Globs;
    llvm::StringRef(*Options.Checks).split(Globs, ',');
    for (llvm::StringRef Glob : Globs) {
      Glob = Glob.trim();
      if (Glob.empty() || Glob.starts_with("-") ||
          (!FromCommandLine && !Glob.starts_with("luisa-") && !Glob.starts_with("cute-")))
        continue;
      ClangTidyOptions Only = ClangTidyOptions::getDefaults();
      Only.Checks = Glob.str();
      if (getCheckNames(Only, false).empty() && Impl::cuteChecks(Only).empty())
        Warnings.push_back("check glob '" + Glob.str() + "' (" +
                           (FromCommandLine ? std::string("--checks") : "from '" + Source + "'") +
                           ") enables no check");
    }
  }
  return Warnings;
}

} // namespace kernel_tidy
