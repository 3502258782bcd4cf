//===--- Analyzer.cpp - Runs the kernel-tidy checks on files --------------===//

#include "src/driver/Analyzer.h"

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/StringMap.h"
#include <map>
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"

using namespace clang;
using namespace clang::tidy;

namespace kernel_tidy {

Position positionAt(const std::string &Text, unsigned Offset) {
  Position Result;
  Result.Offset = Offset;
  size_t End = std::min<size_t>(Offset, Text.size());
  for (size_t I = 0; I < End; ++I) {
    if (Text[I] == '\n') {
      ++Result.Line;
      Result.Column = 1;
    } else {
      ++Result.Column;
    }
  }
  return Result;
}

static bool isHeaderLike(llvm::StringRef File) {
  llvm::StringRef Ext = llvm::sys::path::extension(File);
  return Ext == ".h" || Ext == ".hpp" || Ext == ".inl";
}

struct Analyzer::Impl {
  AnalysisOptions Options;
  std::optional<ClangTidyOptions> ConfigOptions;

  std::unique_ptr<ClangTidyOptionsProvider>
  makeOptionsProvider(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
                      std::optional<std::string> HeaderFilter = std::nullopt) const {
    ClangTidyOptions Defaults = ClangTidyOptions::getDefaults();
    Defaults.Checks = "-*,luisa-*";
    ClangTidyOptions Overrides;
    if (Options.Checks)
      Overrides.Checks = *Options.Checks;
    if (Options.WarpSize)
      Overrides.CheckOptions["WarpSize"] =
          ClangTidyOptions::ClangTidyValue(std::to_string(*Options.WarpSize));
    if (Options.WarningsAsErrors)
      Overrides.WarningsAsErrors = *Options.WarningsAsErrors;
    Overrides.ExtraArgs = Options.ExtraArgs;
    // No "N warnings generated." on stderr: findings are reported by us.
    std::vector<std::string> Before{"-fno-caret-diagnostics"};
    if (!Options.ResourceDir.empty())
      Before.push_back("-resource-dir=" + Options.ResourceDir);
    Overrides.ExtraArgsBefore = Before;
    Overrides.UseColor = false;
    Overrides.HeaderFilterRegex = std::move(HeaderFilter);
    if (ConfigOptions)
      return std::make_unique<ConfigOptionsProvider>(
          ClangTidyGlobalOptions(), Defaults, *ConfigOptions, Overrides, FS);
    return std::make_unique<FileOptionsProvider>(ClangTidyGlobalOptions(),
                                                 Defaults, Overrides, FS);
  }

  /// The project's compile database for \p File, or the bundled DSL model.
  std::unique_ptr<tooling::CompilationDatabase>
  compilationDatabase(const std::string &File, std::string &Error) const {
    std::unique_ptr<tooling::CompilationDatabase> DB;
    if (Options.ForceBundledModel) {
      // Fall through to the bundled model.
    } else if (!Options.BuildPath.empty()) {
      DB = tooling::CompilationDatabase::loadFromDirectory(Options.BuildPath,
                                                           Error);
      if (!DB)
        return nullptr;
    } else {
      std::string Ignored;
      DB = tooling::CompilationDatabase::autoDetectFromSource(File, Ignored);
    }
    if (DB)
      return tooling::inferMissingCompileCommands(std::move(DB));
    std::vector<std::string> ModelArgs{"-std=c++20", "-isystem",
                                       Options.ModelDir};
    // Without a database, Clang would take a .h for C and an .inl for an
    // object file.
    if (isHeaderLike(File))
      ModelArgs.insert(ModelArgs.begin(), {"-x", "c++-header"});
    return std::make_unique<tooling::FixedCompilationDatabase>(
        llvm::sys::path::parent_path(File), ModelArgs);
  }
};

Analyzer::Analyzer(AnalysisOptions Options) : State(std::make_unique<Impl>()) {
  State->Options = std::move(Options);
}

Analyzer::~Analyzer() = default;

std::unique_ptr<Analyzer> Analyzer::create(AnalysisOptions Options,
                                           std::string &Error) {
  std::unique_ptr<Analyzer> Result(new Analyzer(std::move(Options)));
  if (const auto &Path = Result->State->Options.ConfigFile) {
    auto Text = llvm::MemoryBuffer::getFile(*Path);
    if (!Text) {
      Error = "cannot read config file '" + *Path + "': " + Text.getError().message();
      return nullptr;
    }
    std::string Diagnostics;
    auto Parsed = parseConfigurationWithDiags(
        (*Text)->getMemBufferRef(), [&](const llvm::SMDiagnostic &D) {
          Diagnostics += D.getMessage().str();
        });
    if (!Parsed) {
      Error = "invalid config file '" + *Path + "': " +
              (Diagnostics.empty() ? Parsed.getError().message() : Diagnostics);
      return nullptr;
    }
    Result->State->ConfigOptions = std::move(*Parsed);
  }
  return Result;
}

/// Reads files that findings point into, once each.
class ContentCache {
public:
  const std::string &get(const std::string &Path) {
    auto It = Cache.find(Path);
    if (It != Cache.end())
      return It->second;
    std::string Text;
    if (auto Buffer = llvm::MemoryBuffer::getFile(Path))
      Text = (*Buffer)->getBuffer().str();
    return Cache[Path] = std::move(Text);
  }
  void put(const std::string &Path, std::string Text) {
    Cache[Path] = std::move(Text);
  }

private:
  std::map<std::string, std::string> Cache;
};

static std::vector<Edit> toEdits(const llvm::StringMap<tooling::Replacements> &Fix,
                                 ContentCache &Contents) {
  std::vector<Edit> Edits;
  for (const auto &FileFix : Fix) {
    for (const tooling::Replacement &R : FileFix.second) {
      const std::string &Text = Contents.get(R.getFilePath().str());
      Edits.push_back(Edit{R.getFilePath().str(), positionAt(Text, R.getOffset()),
                           positionAt(Text, R.getOffset() + R.getLength()),
                           R.getReplacementText().str()});
    }
  }
  return Edits;
}

FileResult Analyzer::analyze(const std::string &File,
                             const std::optional<std::string> &Contents) {
  FileResult Result;
  Result.File = File;
  llvm::SmallString<256> Absolute(File);
  llvm::sys::fs::make_absolute(Absolute);
  llvm::sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
  std::string AbsFile = Absolute.str().str();

  if (Contents) {
    Result.Original = *Contents;
  } else {
    if (llvm::sys::fs::is_directory(AbsFile)) {
      Result.Errors.push_back({File, 0, 0, "is a directory"});
      return Result;
    }
    auto Buffer = llvm::MemoryBuffer::getFile(AbsFile, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!Buffer) {
      Result.Errors.push_back(
          {File, 0, 0, "cannot read file: " + Buffer.getError().message()});
      return Result;
    }
    Result.Original = (*Buffer)->getBuffer().str();
  }

  std::string DBError;
  auto DB = State->compilationDatabase(AbsFile, DBError);
  if (!DB) {
    Result.Errors.push_back({File, 0, 0, "cannot load compilation database: " + DBError});
    return Result;
  }
  // A physical file system with its own working directory: the shared real
  // one would make Clang's per-command chdir process-wide, which races when
  // several analyzers run in parallel threads.
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> FS(
      new llvm::vfs::OverlayFileSystem(llvm::vfs::createPhysicalFileSystem()));
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> Memory(
      new llvm::vfs::InMemoryFileSystem);
  // Always parse the text that was read, so that what is fixed later is
  // exactly what was analysed.
  Memory->addFile(AbsFile, 0, llvm::MemoryBuffer::getMemBufferCopy(Result.Original));
  FS->pushOverlay(Memory);

  // clang-tidy reads HeaderFilterRegex once, from the configuration of the
  // working directory; take it from the file's own configuration instead.
  std::optional<std::string> HeaderFilter =
      State->makeOptionsProvider(FS)->getOptions(AbsFile).HeaderFilterRegex;
  ClangTidyContext Context(State->makeOptionsProvider(FS, HeaderFilter));
  std::vector<ClangTidyError> Errors =
      runClangTidy(Context, *DB, {AbsFile}, FS, /*ApplyAnyFix=*/true);

  ContentCache Cache;
  Cache.put(AbsFile, Result.Original);
  auto DisplayName = [&](const std::string &Path) {
    return Path == AbsFile ? File : Path;
  };
  for (ClangTidyError &Error : Errors) {
    const tooling::DiagnosticMessage &Message = Error.Message;
    bool IsCompilerDiag = StringRef(Error.DiagnosticName).starts_with("clang-diagnostic-");
    const std::string &Text = Cache.get(Message.FilePath);
    Position Begin = positionAt(Text, Message.FileOffset);
    if (IsCompilerDiag && Error.DiagLevel == tooling::Diagnostic::Error) {
      Result.Errors.push_back({Message.FilePath.empty() ? File : DisplayName(Message.FilePath),
                               Message.FilePath.empty() ? 0 : Begin.Line,
                               Message.FilePath.empty() ? 0 : Begin.Column,
                               Message.Message});
      continue;
    }
    if (StringRef(Error.DiagnosticName).starts_with("clang-tidy-"))
      continue; // Configuration problems reach the user through stderr.
    Finding F;
    F.Rule = Error.DiagnosticName;
    F.Message = Message.Message;
    F.File = DisplayName(Message.FilePath);
    F.Begin = Begin;
    F.End = Begin;
    F.AsError = Error.IsWarningAsError;
    if (!Message.Ranges.empty() && Message.Ranges[0].FilePath == Message.FilePath)
      F.End = positionAt(Text, Message.Ranges[0].FileOffset + Message.Ranges[0].Length);
    if (!Message.Fix.empty()) {
      F.FixIt = Fix{Applicability::Safe, toEdits(Message.Fix, Cache)};
    } else {
      for (const tooling::DiagnosticMessage &Note : Error.Notes) {
        if (Note.Fix.empty())
          continue;
        F.FixIt = Fix{Applicability::Unsafe, toEdits(Note.Fix, Cache)};
        break;
      }
    }
    for (const tooling::DiagnosticMessage &Note : Error.Notes)
      F.Notes.push_back(Note.Message);
    if (F.FixIt)
      for (Edit &E : F.FixIt->Edits)
        E.File = DisplayName(E.File);
    Result.Findings.push_back(std::move(F));
  }
  return Result;
}

std::vector<std::string> Analyzer::enabledChecks(const std::string &File) {
  auto Provider = State->makeOptionsProvider(llvm::vfs::getRealFileSystem());
  return getCheckNames(Provider->getOptions(File), false);
}

} // namespace kernel_tidy
