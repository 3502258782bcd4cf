//===--- SharedHeaderParse.cpp - Builds and caches the PCHs of preambles --===//

#include "src/driver/SharedHeaderParse.h"
#include "src/driver/AtomicFile.h"

#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/Utils.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/xxhash.h"
#include <chrono>
#include <map>
#include <set>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace clang;

namespace kernel_tidy {
namespace {

/// Serves one command, for the prefix header.
class OneCommandDatabase : public tooling::CompilationDatabase {
public:
  explicit OneCommandDatabase(tooling::CompileCommand Command) : Command(std::move(Command)) {}
  std::vector<tooling::CompileCommand> getCompileCommands(StringRef) const override {
    return {Command};
  }

private:
  tooling::CompileCommand Command;
};

/// Every file the header parse read, system headers included.
class AllDependencies : public DependencyCollector {
  bool needSystemDependencies() override { return true; }
};

/// Runs GeneratePCHAction on the invocation ClangTool makes from the command.
class GeneratePch : public tooling::ToolAction {
public:
  GeneratePch(std::string Output, std::shared_ptr<AllDependencies> Deps)
      : Output(std::move(Output)), Deps(std::move(Deps)) {}
  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation, FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCHContainerOps,
                     DiagnosticConsumer *DiagConsumer) override {
    // As clang-tidy sets up the files it analyses (the macros must match).
    Invocation->getPreprocessorOpts().SetUpStaticAnalyzer = true;
    Invocation->getLangOpts().PCHInstantiateTemplates = true;
    Invocation->getFrontendOpts().OutputFile = Output;
    Invocation->getFrontendOpts().ProgramAction = frontend::GeneratePCH;
    CompilerInstance Compiler(std::move(PCHContainerOps));
    Compiler.setInvocation(std::move(Invocation));
    Compiler.setFileManager(Files);
    Compiler.createDiagnostics(DiagConsumer, /*ShouldOwnClient=*/false);
    Compiler.createSourceManager(*Files);
    Compiler.addDependencyCollector(Deps);
    GeneratePCHAction Action;
    bool Ok = Compiler.ExecuteAction(Action) && !Compiler.getDiagnostics().hasErrorOccurred();
    Files->clearStatCache();
    return Ok;
  }

private:
  std::string Output;
  std::shared_ptr<AllDependencies> Deps;
};

std::string readAll(const std::string &Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  return Buffer ? (*Buffer)->getBuffer().str() : std::string();
}

/// How a child process that builds a PCH ends.
enum BuildExit { Built = 0, HeadersDoNotCompile = 10, CannotWrite = 11 };

/// One PCH to find in the cache or build.
struct PchJob {
  tooling::CompileCommand Command;
  std::string BasePch; ///< The PCH this one is chained on, if any.
  std::string Prefix;  ///< The text of prefix.h.
  std::string Dir, Header, Pch, Manifest;
  std::string Temp;
  std::unique_ptr<SignalCleanup> Cleanup;
  pid_t Child = -1;
  std::shared_ptr<PrecompiledHeader> Result;
};

PchJob makeJob(const tooling::CompileCommand &Command, const std::vector<std::string> &Includes,
               const HeaderCache &Cache, const PrecompiledHeader *Base) {
  PchJob Job;
  Job.Command = Command;
  Job.BasePch = Base ? Base->PchPath : "";
  Job.Prefix = "// kernel-tidy: the preamble of one or more files\n";
  for (const std::string &Include : Includes)
    Job.Prefix += "#include " + Include + "\n";
  std::string Key = "kernel-tidy pch 2\n" CLANG_VERSION_STRING "\n" + Command.Directory + "\n" +
                    llvm::join(Command.CommandLine, "\n") + "\nbase: " + Job.BasePch + "\n" +
                    Job.Prefix;
  Job.Dir = Cache.entryPath("pch-" + llvm::utohexstr(llvm::xxh3_64bits(Key)));
  Job.Header = Job.Dir + "/prefix.h";
  Job.Pch = Job.Dir + "/prefix.pch";
  Job.Manifest = Job.Dir + "/inputs";
  Job.Result = std::make_shared<PrecompiledHeader>();
  Job.Result->PchPath = Job.Pch;
  Job.Result->Includes = Includes;
  return Job;
}

bool isCached(const PchJob &Job) {
  return llvm::sys::fs::exists(Job.Pch) && dependenciesUnchanged(readAll(Job.Manifest));
}

/// Makes the entry's folder, header and temporary file; "" or why not.
std::string prepare(PchJob &Job) {
  if (std::error_code EC = llvm::sys::fs::create_directories(Job.Dir))
    return "cannot create '" + Job.Dir + "': " + EC.message();
  // The same text keeps its time stamp: other runs may be using the PCH.
  if (readAll(Job.Header) != Job.Prefix) {
    std::string Error = writeAtomically(Job.Header, Job.Prefix);
    if (!Error.empty())
      return Error;
  }
  llvm::sys::fs::remove(Job.Manifest);
  llvm::SmallString<256> Temp;
  int FD;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(Job.Pch + ".%%%%%%.tmp", FD, Temp))
    return "cannot create a file in '" + Job.Dir + "': " + EC.message();
  llvm::sys::Process::SafelyCloseFileDescriptor(FD);
  Job.Temp = Temp.str().str();
  Job.Cleanup = std::make_unique<SignalCleanup>(Job.Temp);
  return "";
}

/// Builds the PCH into the temporary file, renames it into place and writes
/// the inventory (run in the child process).
BuildExit build(const PchJob &Job) {
  tooling::CompileCommand PchCommand = Job.Command;
  PchCommand.Filename = Job.Header;
  if (!Job.BasePch.empty())
    PchCommand.CommandLine.insert(PchCommand.CommandLine.end(), {"-include-pch", Job.BasePch});
  PchCommand.CommandLine.insert(PchCommand.CommandLine.end(), {"-x", "c++-header", Job.Header});
  OneCommandDatabase DB(PchCommand);
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> FS(
      new llvm::vfs::OverlayFileSystem(llvm::vfs::createPhysicalFileSystem()));
  tooling::ClangTool Tool(DB, {Job.Header}, std::make_shared<PCHContainerOperations>(), FS);
  IgnoringDiagConsumer Quiet;
  Tool.setDiagnosticConsumer(&Quiet);
  Tool.setPrintErrorMessage(false);
  auto Deps = std::make_shared<AllDependencies>();
  GeneratePch Action(Job.Temp, Deps);
  if (Tool.run(&Action) != 0)
    return HeadersDoNotCompile;
  std::vector<std::string> Inputs;
  for (const std::string &File : Deps->getDependencies()) {
    llvm::SmallString<256> Path(File);
    llvm::sys::fs::make_absolute(Job.Command.Directory, Path);
    Inputs.push_back(Path.str().str());
  }
  if (!Job.BasePch.empty())
    Inputs.push_back(Job.BasePch); // Rebuilt base, stale chain.
  if (llvm::sys::fs::rename(Job.Temp, Job.Pch))
    return CannotWrite;
  // The PCH itself too: a damaged cached PCH is rebuilt, not read (Clang
  // aborts on some corruptions).
  Inputs.push_back(Job.Pch);
  std::string Inventory = describeDependencies(Inputs);
  return !Inventory.empty() && writeAtomically(Job.Manifest, Inventory).empty() ? Built
                                                                                : CannotWrite;
}

/// Finds or builds PCHs, Jobs children at a time, keeping the cache within
/// its limit.
class PchBuilder {
public:
  PchBuilder(const HeaderCache &Cache, unsigned Jobs, std::set<std::string> &Warnings)
      : Cache(Cache), Jobs(std::max(1u, Jobs)), Warnings(Warnings) {}

  /// Finds or builds every job; Result of a job is left null when it
  /// cannot be used.
  void run(std::vector<PchJob> &All) {
    std::vector<PchJob *> Queue, Running;
    for (PchJob &Job : All) {
      if (isCached(Job)) {
        HeaderCache::touch(Job.Dir);
        InUse.insert(Job.Dir);
        continue;
      }
      Queue.push_back(&Job);
    }
    size_t Next = 0;
    while (Next < Queue.size() || !Running.empty()) {
      while (Next < Queue.size() && Running.size() < Jobs) {
        PchJob &Job = *Queue[Next++];
        // After one cache problem the others would fail alike, each after
        // a whole header parse.
        std::string Problem = Broken ? "skipped" : prepare(Job);
        if (!Problem.empty()) {
          cacheProblem(Problem);
          Job.Result = nullptr;
          continue;
        }
        // Built in a child process: Clang ends the process ("LLVM ERROR")
        // when the PCH cannot be written (a full disk, ulimit -f), and a
        // cache problem must never fail the run.
        Job.Child = ::fork();
        if (Job.Child == 0)
          ::_exit(build(Job));
        if (Job.Child < 0) {
          finish(Job, build(Job));
          continue;
        }
        Running.push_back(&Job);
      }
      bool Reaped = false;
      for (size_t I = 0; I < Running.size(); ++I) {
        int Status = 0;
        pid_t Done = ::waitpid(Running[I]->Child, &Status, Running.size() > 1 ? WNOHANG : 0);
        if (Done == 0)
          continue;
        int Exit = Done == Running[I]->Child && WIFEXITED(Status) ? WEXITSTATUS(Status)
                                                                   : CannotWrite;
        finish(*Running[I], Exit);
        Running.erase(Running.begin() + I--);
        Reaped = true;
      }
      if (!Reaped && !Running.empty())
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }

private:
  void finish(PchJob &Job, int Exit) {
    llvm::sys::fs::remove(Job.Temp);
    Job.Cleanup.reset();
    if (Exit == HeadersDoNotCompile || !isCached(Job)) {
      if (Exit != HeadersDoNotCompile)
        cacheProblem("cannot write the precompiled header in '" + Job.Dir +
                     "' (a full disk or a file size limit?)");
      Job.Result = nullptr;
      return;
    }
    HeaderCache::touch(Job.Dir);
    InUse.insert(Job.Dir);
    // Older entries go first; this run's own entries are in use.
    if (Cache.evict(InUse) > Cache.limit()) {
      llvm::sys::fs::remove_directories(Job.Dir);
      InUse.erase(Job.Dir);
      Job.Result = nullptr;
      Warnings.insert("the header cache '" + Cache.directory() + "' is limited to " +
                      formatBytes(Cache.limit()) +
                      " (--cache-size, KERNEL_TIDY_CACHE_SIZE): some headers were parsed "
                      "without it");
    }
  }

  void cacheProblem(const std::string &Problem) {
    if (!Broken)
      Warnings.insert("header cache: " + Problem + "; files are parsed without it");
    Broken = true;
  }

  const HeaderCache &Cache;
  unsigned Jobs;
  std::set<std::string> &Warnings;
  std::set<std::string> InUse;
  bool Broken = false; ///< A cache problem was met (and said).
};

} // namespace

std::shared_ptr<const PrecompiledHeader>
cachedPrefixPch(const tooling::CompileCommand &Command, const std::vector<std::string> &Includes,
                const HeaderCache &Cache, std::string &Warning, const PrecompiledHeader *Base) {
  if (Cache.directory().empty()) {
    Warning = "header cache: no folder for it (set KERNEL_TIDY_CACHE_DIR)";
    return nullptr;
  }
  std::vector<PchJob> Jobs;
  Jobs.push_back(makeJob(Command, Includes, Cache, Base));
  std::set<std::string> Warnings;
  PchBuilder(Cache, 1, Warnings).run(Jobs);
  if (!Warnings.empty())
    Warning = *Warnings.begin();
  return Jobs.front().Result;
}

PrefixPlan planSharedParses(const std::vector<PreambleFile> &Files, const HeaderCache &Cache,
                            unsigned Jobs) {
  PrefixPlan Plan;
  if (Files.empty())
    return Plan;
  if (Cache.directory().empty()) {
    Plan.Warnings.push_back("header cache: no folder for it (set KERNEL_TIDY_CACHE_DIR); "
                            "files are parsed without it");
    return Plan;
  }
  // Same directory, arguments and first include.
  std::map<std::string, std::vector<const PreambleFile *>> Groups;
  for (const PreambleFile &File : Files)
    if (!File.Includes.empty())
      Groups[File.Command.Directory + '\0' + llvm::join(File.Command.CommandLine, "\0") +
             '\0' + File.Includes.front()]
          .push_back(&File);

  std::set<std::string> Warnings;
  PchBuilder Builder(Cache, Jobs, Warnings);
  // First each group's common includes, then the files' whole preambles on
  // top of them.
  std::vector<PchJob> Shared;
  for (const auto &[Key, Members] : Groups) {
    std::vector<std::string> Common = Members.front()->Includes;
    for (const PreambleFile *M : Members) {
      size_t N = 0;
      while (N < Common.size() && N < M->Includes.size() && Common[N] == M->Includes[N])
        ++N;
      Common.resize(N);
    }
    Shared.push_back(makeJob(Members.front()->Command, Common, Cache, nullptr));
  }
  Builder.run(Shared);

  std::vector<PchJob> Own;
  std::map<std::string, size_t> OwnJob; // Entry folder -> index in Own.
  std::vector<std::pair<const PreambleFile *, size_t>> Uses;
  size_t GroupIndex = 0;
  for (const auto &[Key, Members] : Groups) {
    const PchJob &Group = Shared[GroupIndex++];
    if (!Group.Result)
      continue;
    for (const PreambleFile *M : Members) {
      Plan.Files[M->File] = Group.Result;
      if (M->Includes.size() == Group.Result->Includes.size())
        continue;
      PchJob Job = makeJob(M->Command, M->Includes, Cache, Group.Result.get());
      auto [It, New] = OwnJob.try_emplace(Job.Dir, Own.size());
      if (New)
        Own.push_back(std::move(Job));
      Uses.push_back({M, It->second});
    }
  }
  Builder.run(Own);
  for (const auto &[File, Index] : Uses)
    if (Own[Index].Result)
      Plan.Files[File->File] = Own[Index].Result;
  Plan.Warnings.assign(Warnings.begin(), Warnings.end());
  return Plan;
}

} // namespace kernel_tidy
