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
#include "src/driver/CheckRun.h"
#include "src/driver/HeaderCache.h"
#include "src/driver/LspServer.h"
#include "src/driver/Nesting.h"
#include "src/driver/Paths.h"
#include "src/driver/ReportMerge.h"
#include "tool/CliDocs.h"

#include <CLI/CLI.hpp>
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include <csignal>
#include <chrono>
#include <cstring>
#include <iostream>
#include <unistd.h>

namespace {

using kernel_tidy::ExitClean;
using kernel_tidy::ExitError;

/// Where the bundled DSL model and rule docs are: next to the executable.
std::string shareDir(const char *Argv0) {
  static int Anchor;
  return kernel_tidy::shareDirOf(llvm::sys::fs::getMainExecutable(Argv0, &Anchor));
}

/// Where the links to the rule pages point (`kernel-tidy rules`, the
/// language server).
std::string docsBase(const std::string &Share) {
  return kernel_tidy::installationAt(Share).DocsBase;
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
  auto Checker = kernel_tidy::Analyzer::create(
      kernel_tidy::installedOptions(kernel_tidy::installationAt(Share), Cmd.Checks, Cmd.ConfigFile),
      Error);
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

struct LspCommand {
  std::string Checks;
  std::string ConfigFile;
};

/// `kernel-tidy lsp`: LSP messages on stdin and stdout, and only they go to
/// stdout (whatever else a library prints there goes to stderr).
int runLsp(const LspCommand &Cmd, const std::string &Share) {
  std::signal(SIGPIPE, SIG_IGN); // A client that went away is a failed write.
  kernel_tidy::AnalysisOptions Options =
      kernel_tidy::installedOptions(kernel_tidy::installationAt(Share), Cmd.Checks, Cmd.ConfigFile);
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

  kernel_tidy::CheckCommand Cmd;
  CLI::App *Check = App.add_subcommand("check", "Lint DSL sources (and fix them)");
  kernel_tidy::addCheckOptions(*Check, Cmd);

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
      ->check(kernel_tidy::cacheSizeValidator());

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
  if (Check->parsed()) {
    kernel_tidy::CheckStreams Io{std::cin, std::cout, std::cerr,
                                 llvm::sys::Process::StandardOutIsDisplayed(),
                                 llvm::sys::Process::StandardErrIsDisplayed()};
    return kernel_tidy::runCheck(Cmd, std::move(CompilerArgs), kernel_tidy::installationAt(Share),
                                 Io);
  }
  if (Merge->parsed())
    return runMerge(Reports);
  if (Cache->parsed())
    return runCache(CacheCmd);
  if (Lsp->parsed())
    return runLsp(LspCmd, Share);
  return runRules(RulesCmd, Share);
}
