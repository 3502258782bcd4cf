//===--- TestSupport.cpp - Shared helpers of the kernel-tidy tests --------===//

#include "test/unit/TestSupport.h"

#include "src/driver/SharedHeaderParse.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace kernel_tidy::test {

namespace {
/// The kernel-tidy runs of the tests keep their PCH cache in the build tree
/// (not the user's ~/.cache), shared by every test process: the bundled
/// model's PCH is built once per build, not once per test. Tests of the
/// cache itself point KERNEL_TIDY_CACHE_DIR at a folder of their own.
struct TestCacheDir {
  std::string Dir = KERNEL_TIDY_TEST_PCH_CACHE;
  TestCacheDir() {
    llvm::sys::fs::create_directories(Dir);
    ::setenv("KERNEL_TIDY_CACHE_DIR", Dir.c_str(), /*overwrite=*/1);
  }
} TheTestCacheDir;
} // namespace

std::string testCacheDir() { return TheTestCacheDir.Dir; }

std::string sourceDir() { return KERNEL_TIDY_SOURCE_DIR; }
std::string modelDir() { return sourceDir() + "/src/dsl/api-model"; }

std::string readFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  std::stringstream Buffer;
  Buffer << In.rdbuf();
  return Buffer.str();
}

void writeFile(const std::string &Path, const std::string &Contents) {
  std::ofstream Out(Path, std::ios::binary);
  Out << Contents;
}

bool fileExists(const std::string &Path) { return llvm::sys::fs::exists(Path); }

std::vector<std::string> listFiles(const std::string &Dir, const std::string &Suffix) {
  std::vector<std::string> Files;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC))
    if (llvm::StringRef(It->path()).ends_with(Suffix))
      Files.push_back(It->path());
  std::sort(Files.begin(), Files.end());
  return Files;
}

std::unique_ptr<Analyzer> modelAnalyzer(AnalysisOptions Options) {
  Options.ForceBundledModel = true;
  Options.ModelDir = modelDir();
  Options.CuteFrontend = sourceDir() + "/frontends/cute/run.py";
  Options.ResourceDir = KERNEL_TIDY_CLANG_RESOURCE_DIR;
  std::string Error;
  return Analyzer::create(Options, Error);
}

std::vector<std::string> modelCompileArgs() {
  return {"-std=c++20", "-isystem", modelDir(), "-resource-dir=" KERNEL_TIDY_CLANG_RESOURCE_DIR};
}

const char *const ModelIncludes = "#include <luisa/luisa-compute.h>\n"
                                  "#include <luisa/dsl/sugar.h>\n";

std::string modelPch() {
  static const std::string Path = [] {
    // The driver's own shared header parse, as a kernel-tidy run would build
    // it, in the tests' cache.
    clang::tooling::CompileCommand Command;
    Command.Directory = modelDir();
    Command.CommandLine = modelCompileArgs();
    Command.CommandLine.insert(Command.CommandLine.begin(), "clang++");
    std::string Warning;
    auto Pch = cachedPrefixPch(Command, {"<luisa/luisa-compute.h>", "<luisa/dsl/sugar.h>"},
                               HeaderCache(testCacheDir(), DefaultCacheLimit), Warning,
                               /*Base=*/nullptr, /*SkipLibraryBodies=*/true);
    return Pch ? Pch->PchPath : std::string();
  }();
  return Path;
}

std::unique_ptr<Analyzer> sharedPrefixAnalyzer(AnalysisOptions Options, const std::string &File) {
  Options.Pch = PchMode::Auto;
  auto Planner = modelAnalyzer(Options);
  if (!Planner)
    return nullptr;
  Options.Prefixes = Planner->planPrecompiledPrefixes({File});
  return modelAnalyzer(Options);
}

std::string describeFindings(const FileResult &Result) {
  std::string Out;
  for (const Finding &F : Result.Findings) {
    const char *Kind = !F.FixIt ? "none" : F.FixIt->Kind == Applicability::Safe ? "safe" : "unsafe";
    Out += std::to_string(F.Begin.Line) + ":" + std::to_string(F.Begin.Column) +
           ": warning: " + F.Message + " [" + F.Rule + "] (fix: " + Kind + ")\n";
    // The rule's note saying why there is no fix, where the rule put it.
    if (!F.NoFixReason.empty())
      Out += std::to_string(F.Begin.Line) + ":" + std::to_string(F.Begin.Column) +
             ": note: " + fix_protocol::noFixNote(F.NoFixReason) + "\n";
    for (const Note &N : F.Notes)
      Out += std::to_string(N.At.Line) + ":" + std::to_string(N.At.Column) +
             ": note: " + N.Message + "\n";
  }
  for (const ParseError &E : Result.Errors)
    Out += "error: " + E.File + ":" + std::to_string(E.Line) + ":" + std::to_string(E.Column) +
           ": " + E.Message + "\n";
  return Out;
}

size_t count(const std::string &Text, const std::string &Needle) {
  size_t N = 0;
  for (size_t At = Text.find(Needle); At != std::string::npos; At = Text.find(Needle, At + 1))
    ++N;
  return N;
}

std::string makeTempDir() {
  llvm::SmallString<128> Dir;
  llvm::sys::fs::createUniqueDirectory("kernel-tidy-test", Dir);
  return Dir.str().str();
}

ProcessResult runKernelTidy(const std::vector<std::string> &Args) {
  std::string Dir = makeTempDir();
  std::string OutPath = Dir + "/stdout", ErrPath = Dir + "/stderr";
  std::vector<llvm::StringRef> Argv{KERNEL_TIDY_BINARY};
  for (const std::string &A : Args)
    Argv.push_back(A);
  std::optional<llvm::StringRef> Redirects[] = {std::nullopt, llvm::StringRef(OutPath),
                                                llvm::StringRef(ErrPath)};
  ProcessResult Result;
  Result.ExitCode = llvm::sys::ExecuteAndWait(KERNEL_TIDY_BINARY, Argv, std::nullopt, Redirects,
                                              /*SecondsToWait=*/300);
  Result.Out = readFile(OutPath);
  Result.Err = readFile(ErrPath);
  llvm::sys::fs::remove_directories(Dir);
  return Result;
}

} // namespace kernel_tidy::test
