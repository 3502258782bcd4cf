//===--- SharedHeaderParse.cpp - Builds and caches the PCHs of preambles --===//

#include "src/driver/SharedHeaderParse.h"
#include "src/driver/AtomicFile.h"
#include "src/dsl/Names.h"

#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Frontend/Utils.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/xxhash.h"
#include <chrono>
#include <fcntl.h>
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

/// Lets the parser skip the bodies of non-template library functions
/// (dsl::isLibraryFunction): no analysis looks into them, and Sema itself
/// keeps the bodies it may need (constexpr functions, deduced return types).
/// Template bodies stay: files instantiate them.
class LibraryBodySkipper : public ASTConsumer {
public:
  explicit LibraryBodySkipper(const SourceManager &SM) : SM(SM) {}
  bool shouldSkipFunctionBody(Decl *D) override {
    const FunctionDecl *FD = D->getAsFunction();
    // A function template's pattern is templated too.
    return FD && !FD->isTemplated() && dsl::isLibraryFunction(FD, SM);
  }

private:
  const SourceManager &SM;
};

/// GeneratePCHAction that skips library function bodies, as clangd's
/// preamble skips all bodies.
class GeneratePchSkippingLibraryBodies : public GeneratePCHAction {
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, StringRef File) override {
    std::vector<std::unique_ptr<ASTConsumer>> Consumers;
    Consumers.push_back(GeneratePCHAction::CreateASTConsumer(CI, File));
    if (!Consumers.back())
      return nullptr;
    Consumers.push_back(std::make_unique<LibraryBodySkipper>(CI.getSourceManager()));
    return std::make_unique<MultiplexConsumer>(std::move(Consumers));
  }
};

/// Runs GeneratePCHAction on the invocation ClangTool makes from the command.
class GeneratePch : public tooling::ToolAction {
public:
  GeneratePch(std::string Output, std::shared_ptr<AllDependencies> Deps, bool SkipLibraryBodies)
      : Output(std::move(Output)), Deps(std::move(Deps)), SkipLibraryBodies(SkipLibraryBodies) {}
  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation, FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCHContainerOps,
                     DiagnosticConsumer *DiagConsumer) override {
    // As clang-tidy sets up the files it analyses (the macros must match).
    Invocation->getPreprocessorOpts().SetUpStaticAnalyzer = true;
    Invocation->getLangOpts().PCHInstantiateTemplates = true;
    Invocation->getFrontendOpts().SkipFunctionBodies = SkipLibraryBodies;
    Invocation->getFrontendOpts().OutputFile = Output;
    Invocation->getFrontendOpts().ProgramAction = frontend::GeneratePCH;
    CompilerInstance Compiler(std::move(PCHContainerOps));
    Compiler.setInvocation(std::move(Invocation));
    Compiler.setFileManager(Files);
    Compiler.createDiagnostics(DiagConsumer, /*ShouldOwnClient=*/false);
    Compiler.createSourceManager(*Files);
    Compiler.addDependencyCollector(Deps);
    std::unique_ptr<GeneratePCHAction> Action =
        SkipLibraryBodies ? std::make_unique<GeneratePchSkippingLibraryBodies>()
                          : std::make_unique<GeneratePCHAction>();
    bool Ok = Compiler.ExecuteAction(*Action) && !Compiler.getDiagnostics().hasErrorOccurred();
    Files->clearStatCache();
    return Ok;
  }

private:
  std::string Output;
  std::shared_ptr<AllDependencies> Deps;
  bool SkipLibraryBodies;
};

} // namespace

std::string readCacheFile(const std::string &Path) {
  llvm::sys::fs::file_status Status;
  if (llvm::sys::fs::status(Path, Status, /*Follow=*/false))
    return std::string();
  if (Status.type() != llvm::sys::fs::file_type::regular_file) {
    // A FIFO or a device (damaged, or made by someone else) would block
    // every run that reads or writes it (issue 49, item 17).
    ::unlink(Path.c_str()); // llvm::sys::fs::remove() removes regular files only.
    return std::string();
  }
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  return Buffer ? (*Buffer)->getBuffer().str() : std::string();
}

namespace {

/// How a child process that builds a PCH ends.
enum BuildExit { Built = 0, HeadersDoNotCompile = 10, CannotWrite = 11 };

/// One PCH to find in the cache or build.
struct PchJob {
  tooling::CompileCommand Command;
  bool SkipLibraryBodies = false;
  std::string BasePch; ///< The PCH this one is chained on, if any.
  int BaseJob = -1;    ///< The job that builds BasePch in the same run, if any.
  std::string Prefix;  ///< The text of prefix.h.
  std::string Dir, Header, Pch, Manifest;
  std::string Temp;
  std::unique_ptr<SignalCleanup> Cleanup;
  pid_t Child = -1;
  std::shared_ptr<PrecompiledHeader> Result;
};

/// Whether an argument is a path that a working directory could change
/// (or may be one: a response file, an argument of an unknown meaning).
bool mayBeRelativePath(llvm::StringRef Arg, llvm::StringRef Previous) {
  if (Arg.starts_with("@"))
    return true;
  if (!Arg.starts_with("-")) {
    // A value of the option before it: a path unless known otherwise.
    static const char *const NotPaths[] = {"-x", "-D", "-U", "-target", "-std", "-arch"};
    if (llvm::is_contained(NotPaths, Previous) && !Arg.contains('/'))
      return false;
    return !llvm::sys::path::is_absolute(Arg);
  }
  if (Arg.starts_with("-D") || Arg.starts_with("-U") || Arg.starts_with("-W"))
    return false; // Macros name no file a working directory finds.
  static const char *const PathOptions[] = {"-I",
                                            "-isystem",
                                            "-iquote",
                                            "-idirafter",
                                            "-include-pch",
                                            "-include",
                                            "-imacros",
                                            "-isysroot",
                                            "--sysroot=",
                                            "--sysroot",
                                            "-iframework",
                                            "-F",
                                            "-B",
                                            "-iprefix",
                                            "-iwithprefixbefore",
                                            "-iwithprefix",
                                            "-cxx-isystem",
                                            "-ivfsoverlay",
                                            "-resource-dir=",
                                            "-resource-dir",
                                            "--gcc-toolchain=",
                                            "-working-directory"};
  for (llvm::StringRef Option : PathOptions)
    if (Arg.starts_with(Option)) {
      llvm::StringRef Value = Arg.drop_front(Option.size());
      // A separate value is checked as the next argument.
      return Option == "-working-directory" ||
             (!Value.empty() && !llvm::sys::path::is_absolute(Value));
    }
  // Other options: `-std=c++20`, `-O2`; one with a relative path after `=`
  // (`-fmodule-map-file=x/y`) may depend on it.
  llvm::StringRef Value = Arg.split('=').second;
  return Value.contains('/') && !llvm::sys::path::is_absolute(Value);
}

/// The compile directory as far as the header parse depends on it: "" when
/// every path in the command is absolute, so files compiled in different
/// folders (CMake's per-target build folders) share their headers' PCHs.
std::string effectiveDirectory(const tooling::CompileCommand &Command) {
  const std::vector<std::string> &Args = Command.CommandLine;
  if (!Args.empty() && llvm::StringRef(Args.front()).contains('/') &&
      !llvm::sys::path::is_absolute(Args.front()))
    return Command.Directory;
  for (size_t I = 1; I < Args.size(); ++I)
    if (mayBeRelativePath(Args[I], Args[I - 1]))
      return Command.Directory;
  return "";
}

/// What the header parse of \p Command depends on besides the headers: the
/// directory where it matters, the arguments, whether bodies are skipped.
std::string commandKey(const tooling::CompileCommand &Command, bool SkipLibraryBodies) {
  return effectiveDirectory(Command) + "\n" + llvm::join(Command.CommandLine, "\n") +
         (SkipLibraryBodies ? "\nlibrary bodies skipped\n" : "\n");
}

/// Whether \p File, compiled with \p Command, has the parsing of template
/// bodies delayed to the end of the file (-fdelayed-template-parsing; the
/// default of clang-cl and MSVC targets before C++20). Clang 19 crashes
/// (ASTReader::ReadLateParsedTemplates) reading the late-parsed templates of
/// a PCH chained on another, so those files get no chained PCH. True also
/// when the driver cannot read the command.
bool delaysTemplateParsing(const tooling::CompileCommand &Command, const std::string &File) {
  std::vector<const char *> Args;
  for (const std::string &Arg : Command.CommandLine)
    Args.push_back(Arg.c_str());
  Args.push_back(File.c_str());
  IgnoringDiagConsumer Quiet;
  CreateInvocationOptions Options;
  Options.Diags = CompilerInstance::createDiagnostics(new DiagnosticOptions, &Quiet,
                                                      /*ShouldOwnClient=*/false);
  Options.VFS = llvm::vfs::createPhysicalFileSystem();
  std::unique_ptr<CompilerInvocation> Invocation = createInvocation(Args, std::move(Options));
  return !Invocation || Invocation->getLangOpts().DelayedTemplateParsing;
}

PchJob makeJob(const tooling::CompileCommand &Command, const std::vector<std::string> &Includes,
               const HeaderCache &Cache, bool SkipLibraryBodies, const std::string &BasePch = "") {
  PchJob Job;
  Job.Command = Command;
  Job.SkipLibraryBodies = SkipLibraryBodies;
  Job.BasePch = BasePch;
  Job.Prefix = "// kernel-tidy: the preamble of one or more files\n";
  for (const std::string &Include : Includes)
    Job.Prefix += "#include " + Include + "\n";
  std::string Key = "kernel-tidy pch 5\n" CLANG_VERSION_STRING "\n" +
                    commandKey(Command, SkipLibraryBodies) + "base: " + Job.BasePch + "\n" +
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
  return llvm::sys::fs::exists(Job.Pch) && HeaderCache::isOwnEntry(Job.Dir) &&
         dependenciesUnchanged(readCacheFile(Job.Manifest));
}

/// Makes the entry's folder (with its marker), header and temporary file;
/// "" or why not.
std::string prepare(PchJob &Job, const HeaderCache &Cache) {
  if (std::string Error = Cache.claim(Job.Dir); !Error.empty())
    return Error;
  // The same text keeps its time stamp: other runs may be using the PCH.
  if (readCacheFile(Job.Header) != Job.Prefix) {
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
  // Valid by content, not by time stamps, so that a fresh checkout (new
  // times, same text) and a cache restored by CI (issue 52, item 1) use it:
  // no times in the PCH, and Clang compares a header's contents where its
  // time differs. Paths stay absolute: the key holds them.
  PchCommand.CommandLine.insert(PchCommand.CommandLine.end(),
                                {"-Xclang", "-fno-pch-timestamp", "-Xclang",
                                 "-fvalidate-ast-input-files-content", "-x", "c++-header",
                                 Job.Header});
  OneCommandDatabase DB(PchCommand);
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> FS(
      new llvm::vfs::OverlayFileSystem(llvm::vfs::createPhysicalFileSystem()));
  tooling::ClangTool Tool(DB, {Job.Header}, std::make_shared<PCHContainerOperations>(), FS);
  IgnoringDiagConsumer Quiet;
  Tool.setDiagnosticConsumer(&Quiet);
  Tool.setPrintErrorMessage(false);
  auto Deps = std::make_shared<AllDependencies>();
  GeneratePch Action(Job.Temp, Deps, Job.SkipLibraryBodies);
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

  /// Finds or builds every job, a job chained on another (BaseJob) as soon
  /// as that one is done; Result of a job is left null when it cannot be
  /// used.
  void run(std::vector<PchJob> &All) {
    std::vector<size_t> Waiting;
    for (size_t I = 0; I < All.size(); ++I)
      Waiting.push_back(I);
    std::vector<bool> Done(All.size());
    std::vector<size_t> Running;
    while (!Waiting.empty() || !Running.empty()) {
      for (size_t K = 0; K < Waiting.size();) {
        size_t I = Waiting[K];
        PchJob &Job = All[I];
        bool BaseDone = Job.BaseJob < 0 || Done[Job.BaseJob];
        // Only with a free slot, also for a job that may be cached: the
        // cache check hashes the entry's inputs, too slow to repeat while
        // waiting.
        if (!BaseDone || Running.size() >= Jobs) {
          ++K;
          continue;
        }
        Waiting.erase(Waiting.begin() + K);
        if (start(Job, Job.BaseJob < 0 || All[Job.BaseJob].Result != nullptr))
          Running.push_back(I);
        else
          Done[I] = true;
      }
      if (Running.empty())
        continue; // Every job waited on a base that is done now.
      // Never blocking on one child: a slot that another frees is filled at once.
      bool Reaped = false;
      for (size_t K = 0; K < Running.size(); ++K) {
        PchJob &Job = All[Running[K]];
        int Status = 0;
        pid_t Ended = ::waitpid(Job.Child, &Status, WNOHANG);
        if (Ended == 0)
          continue;
        finish(Job, Ended == Job.Child && WIFEXITED(Status) ? WEXITSTATUS(Status) : CannotWrite);
        Done[Running[K]] = true;
        Running.erase(Running.begin() + K--);
        Reaped = true;
      }
      if (!Reaped)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }

private:
  /// Takes the cached entry or starts the build of \p Job; true when a
  /// child process builds it.
  bool start(PchJob &Job, bool BaseUsable) {
    if (!BaseUsable) {
      Job.Result = nullptr;
      return false;
    }
    if (isCached(Job)) {
      HeaderCache::touch(Job.Dir);
      InUse.insert(Job.Dir);
      return false;
    }
    // Clang cannot parse from a folder that is gone; the analysis says so.
    if (!llvm::sys::fs::is_directory(Job.Command.Directory)) {
      Job.Result = nullptr;
      return false;
    }
    // After one cache problem the others would fail alike, each after a
    // whole header parse.
    std::string Problem = Broken ? "skipped" : prepare(Job, Cache);
    if (!Problem.empty()) {
      cacheProblem(Problem);
      Job.Result = nullptr;
      return false;
    }
    // Built in a child process: Clang ends the process ("LLVM ERROR") when
    // the PCH cannot be written (a full disk, ulimit -f), and a cache
    // problem must never fail the run.
    Job.Child = ::fork();
    if (Job.Child == 0) {
      // What went wrong is said once, by the parent, in the tool's words;
      // Clang's own "LLVM ERROR: ..." lines would come once per child.
      int Null = ::open("/dev/null", O_WRONLY);
      if (Null >= 0)
        ::dup2(Null, STDERR_FILENO);
      ::_exit(build(Job));
    }
    if (Job.Child < 0) {
      finish(Job, build(Job));
      return false;
    }
    return true;
  }

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
                const HeaderCache &Cache, std::string &Warning, const PrecompiledHeader *Base,
                bool SkipLibraryBodies) {
  if (Cache.directory().empty()) {
    Warning = "header cache: no folder for it (set KERNEL_TIDY_CACHE_DIR)";
    return nullptr;
  }
  std::vector<PchJob> Jobs;
  Jobs.push_back(makeJob(Command, Includes, Cache, SkipLibraryBodies, Base ? Base->PchPath : ""));
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
  // Same command (as the cache key sees it) and first include.
  std::map<std::string, std::vector<const PreambleFile *>> Groups;
  for (const PreambleFile &File : Files)
    if (!File.Includes.empty())
      Groups[commandKey(File.Command, File.SkipLibraryBodies) + File.Includes.front()].push_back(
          &File);

  // Each group's common includes (first: the files' PCHs wait for them),
  // and each file's whole preamble chained on them, built as soon as its
  // group's PCH is there.
  std::vector<PchJob> All;
  std::map<std::string, size_t> JobOf; // Entry folder -> index in All.
  std::vector<std::pair<const PreambleFile *, size_t>> Uses;
  std::vector<std::pair<const std::vector<const PreambleFile *> *, size_t>> GroupJobs;
  for (const auto &[Key, Members] : Groups) {
    std::vector<std::string> Common = Members.front()->Includes;
    for (const PreambleFile *M : Members) {
      size_t N = 0;
      while (N < Common.size() && N < M->Includes.size() && Common[N] == M->Includes[N])
        ++N;
      Common.resize(N);
    }
    const PreambleFile &First = *Members.front();
    PchJob Job = makeJob(First.Command, Common, Cache, First.SkipLibraryBodies);
    auto [It, New] = JobOf.try_emplace(Job.Dir, All.size());
    if (New)
      All.push_back(std::move(Job));
    GroupJobs.push_back({&Members, It->second});
  }
  for (const auto &[Members, Group] : GroupJobs)
    for (const PreambleFile *M : *Members) {
      Uses.push_back({M, Group});
      if (M->Includes.size() == All[Group].Result->Includes.size() ||
          delaysTemplateParsing(M->Command, M->File))
        continue;
      PchJob Job = makeJob(M->Command, M->Includes, Cache, M->SkipLibraryBodies, All[Group].Pch);
      Job.BaseJob = static_cast<int>(Group);
      auto [It, New] = JobOf.try_emplace(Job.Dir, All.size());
      if (New)
        All.push_back(std::move(Job));
      Uses.push_back({M, It->second});
    }
  std::set<std::string> Warnings;
  PchBuilder(Cache, Jobs, Warnings).run(All);
  // The file's own PCH when it could be kept, else its group's.
  for (const auto &[File, Index] : Uses)
    if (All[Index].Result)
      Plan.Files[File->File] = All[Index].Result;
  Plan.Warnings.assign(Warnings.begin(), Warnings.end());
  return Plan;
}

} // namespace kernel_tidy
