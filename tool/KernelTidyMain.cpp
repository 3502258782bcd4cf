//===--- KernelTidyMain.cpp - The kernel-tidy command line ----------------===//
//
// kernel-tidy check [options] FILES... [-- COMPILER_ARGS]
// kernel-tidy rules [ID]
//
//===----------------------------------------------------------------------===//

#include "rules/RuleRegistry.h"
#include "src/driver/Analyzer.h"
#include "src/driver/ExportFixes.h"
#include "src/driver/FixApplier.h"
#include "src/driver/Report.h"

#include <CLI/CLI.hpp>
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include <csignal>
#include <cstdio>
#include <iostream>

namespace {

constexpr int ExitClean = 0;
constexpr int ExitFindings = 1;
constexpr int ExitError = 2;

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

struct CheckCommand {
  std::vector<std::string> Files;
  std::string Format = "text";
  std::string Checks;
  std::string ConfigFile;
  std::string BuildPath;
  unsigned WarpSize = 0;
  bool Fix = false;
  bool UnsafeFixes = false;
  bool Diff = false;
  bool BundledModel = false;
  std::string ExportFixes;
};

int runCheck(const CheckCommand &Cmd, std::vector<std::string> CompilerArgs,
             const std::string &Share) {
  kernel_tidy::AnalysisOptions Options;
  if (!Cmd.Checks.empty())
    Options.Checks = Cmd.Checks;
  if (!Cmd.ConfigFile.empty())
    Options.ConfigFile = Cmd.ConfigFile;
  if (Cmd.WarpSize)
    Options.WarpSize = Cmd.WarpSize;
  Options.BuildPath = Cmd.BuildPath;
  Options.ForceBundledModel = Cmd.BundledModel;
  Options.ExtraArgs = std::move(CompilerArgs);
  Options.ModelDir = Share + "/api-model";
  Options.ResourceDir = KERNEL_TIDY_CLANG_RESOURCE_DIR;
  if (!llvm::sys::fs::is_directory(Options.ModelDir)) {
    std::cerr << "kernel-tidy: error: bundled DSL model not found at '"
              << Options.ModelDir << "' (set KERNEL_TIDY_SHARE_DIR)\n";
    return ExitError;
  }
  std::string Error;
  auto Analyzer = kernel_tidy::Analyzer::create(Options, Error);
  if (!Analyzer) {
    std::cerr << "kernel-tidy: error: " << Error << "\n";
    return ExitError;
  }

  bool Failed = false;
  std::vector<kernel_tidy::FileResult> Results;
  for (const std::string &File : Cmd.Files) {
    kernel_tidy::FileResult Result = Analyzer->analyze(File);
    if (Cmd.Fix || Cmd.Diff)
      kernel_tidy::applyFixes(Result, *Analyzer, Cmd.UnsafeFixes);
    if (Result.Fixed && Cmd.Diff) {
      std::cout << kernel_tidy::unifiedDiff(File, Result.Original, *Result.Fixed);
    } else if (Result.Fixed && Cmd.Fix) {
      std::string WriteError =
          kernel_tidy::writeFileAtomically(File, *Result.Fixed, Result.Original);
      if (!WriteError.empty()) {
        Result.Errors.push_back({File, 0, 0, WriteError});
        Result.FixedCount = 0;
      }
    }
    Failed |= !Result.Errors.empty();
    Results.push_back(std::move(Result));
  }

  if (!Cmd.ExportFixes.empty()) {
    std::error_code EC;
    llvm::raw_fd_ostream Out(Cmd.ExportFixes, EC);
    if (!EC)
      Out << kernel_tidy::exportFixesYaml(Results, Cmd.UnsafeFixes);
    if (EC || Out.has_error()) {
      std::cerr << "kernel-tidy: error: cannot write '" << Cmd.ExportFixes
                << "': " << (EC ? EC : Out.error()).message() << "\n";
      Out.clear_error();
      Failed = true;
    }
  }
  if (Cmd.Format == "json")
    std::cout << kernel_tidy::formatJson(Results, KERNEL_TIDY_VERSION);
  else if (Cmd.Diff)
    std::cerr << kernel_tidy::formatText(Results);
  else
    std::cout << kernel_tidy::formatText(Results);
  if (Failed)
    return ExitError;
  kernel_tidy::RunSummary Summary = kernel_tidy::summarize(Results);
  unsigned Remaining = Summary.Diagnostics - (Cmd.Fix && !Cmd.Diff ? Summary.Fixed : 0);
  return Remaining ? ExitFindings : ExitClean;
}

int runRules(const std::string &Id, const std::string &Share) {
  if (Id.empty()) {
    for (const auto &Rule : kernel_tidy::rules::allRules())
      std::cout << Rule.Id.str() << "  [fix: " << Rule.FixKinds.str() << "]  "
                << Rule.Summary.str() << "\n";
    return ExitClean;
  }
  if (!kernel_tidy::rules::findRule(Id)) {
    std::cerr << "kernel-tidy: error: unknown rule '" << Id
              << "' (see 'kernel-tidy rules')\n";
    return ExitError;
  }
  std::string Path = Share + "/docs/rules/" + Id + ".md";
  auto Doc = llvm::MemoryBuffer::getFile(Path);
  if (!Doc) {
    std::cerr << "kernel-tidy: error: cannot read '" << Path
              << "': " << Doc.getError().message() << "\n";
    return ExitError;
  }
  std::cout << (*Doc)->getBuffer().str();
  return ExitClean;
}

} // namespace

int main(int argc, char **argv) {
  // Past a file-size limit (ulimit -f), fail the write with EFBIG and report
  // it instead of being killed halfway.
  std::signal(SIGXFSZ, SIG_IGN);
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

  CLI::App App{"kernel-tidy: a linter and optimizer for LuisaCompute DSL kernels"};
  App.set_version_flag("--version", std::string("kernel-tidy ") + KERNEL_TIDY_VERSION);
  App.require_subcommand(1);

  CheckCommand Cmd;
  CLI::App *Check = App.add_subcommand("check", "Lint DSL sources (and fix them)");
  Check->add_option("files", Cmd.Files, "Source files to check")->required();
  Check->add_option("--format", Cmd.Format, "Report format")
      ->check(CLI::IsMember({"text", "json"}));
  Check->add_option("--checks", Cmd.Checks,
                    "Checks to enable or disable, clang-tidy glob syntax "
                    "(added to the .clang-tidy configuration; default luisa-*)");
  Check->add_option("--config-file", Cmd.ConfigFile,
                    "Read the configuration from this file instead of .clang-tidy lookup");
  Check->add_option("-p", Cmd.BuildPath, "Build directory with compile_commands.json");
  Check->add_option("--warp-size", Cmd.WarpSize,
                    "Warp width when a kernel does not set it (default 32)")
      ->check(CLI::Range(2u, 1024u));
  Check->add_flag("--bundled-model", Cmd.BundledModel,
                  "Parse with the bundled DSL API model even where a compile database exists");
  Check->add_flag("--fix", Cmd.Fix, "Apply safe fixes in place");
  Check->add_flag("--unsafe-fixes", Cmd.UnsafeFixes,
                  "With --fix or --diff, also apply fixes that may change rounding");
  Check->add_flag("--diff", Cmd.Diff, "Print the fixes as a unified diff; write nothing");
  Check->add_option("--export-fixes", Cmd.ExportFixes,
                    "Write the fixes --fix would apply to this YAML file "
                    "(clang-tidy's format, for clang-apply-replacements)");

  std::string RuleId;
  CLI::App *Rules = App.add_subcommand("rules", "List the rules, or print one rule's documentation");
  Rules->add_option("id", RuleId, "Rule id");

  try {
    App.parse(ToolArgc, argv);
  } catch (const CLI::ParseError &E) {
    int Code = App.exit(E);
    return Code == 0 ? ExitClean : ExitError;
  }
  std::string Share = shareDir(argv[0]);
  if (Check->parsed())
    return runCheck(Cmd, std::move(CompilerArgs), Share);
  return runRules(RuleId, Share);
}
