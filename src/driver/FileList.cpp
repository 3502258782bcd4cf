//===--- FileList.cpp - Which files a run analyses ------------------------===//

#include "src/driver/FileList.h"

#include "src/driver/CuteFrontend.h"
#include "src/driver/IgnoreFiles.h"
#include "src/driver/Paths.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <map>
#include <numeric>
#include <set>

namespace kernel_tidy {
namespace {

class ExcludeList {
public:
  bool parse(const std::vector<std::string> &Globs, std::string &Error) {
    for (const std::string &Glob : Globs) {
      auto Pattern = llvm::GlobPattern::create(Glob);
      if (!Pattern) {
        Error = "invalid --exclude pattern '" + Glob + "': " + llvm::toString(Pattern.takeError());
        return false;
      }
      Patterns.push_back(std::move(*Pattern));
    }
    return true;
  }
  bool excludes(llvm::StringRef Path) const {
    return llvm::any_of(Patterns, [&](const llvm::GlobPattern &P) { return P.match(Path); });
  }

private:
  std::vector<llvm::GlobPattern> Patterns;
};

/// Whether a Python file found in a folder may hold CuTe DSL code: the other
/// scripts of a C++ project are not linted (nor failed for a syntax error).
/// A .py named on the command line is always analysed.
bool mentionsCutlass(const std::string &Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  return Buffer && (*Buffer)->getBuffer().contains("cutlass");
}

/// Whether a compile database covers the files of \p Dir: one in it or in a
/// folder above it, where the analysis finds it.
bool hasCompileDatabase(const std::string &Dir) {
  llvm::SmallString<256> Folder(Dir);
  llvm::sys::fs::make_absolute(Folder);
  for (llvm::StringRef At = Folder; !At.empty(); At = llvm::sys::path::parent_path(At))
    for (const char *Name : {"compile_commands.json", "compile_flags.txt"})
      if (llvm::sys::fs::exists(At + "/" + Name))
        return true;
  return false;
}

/// Whether the C++ file \p Path includes a LuisaCompute header: its text
/// names `luisa` (`<luisa/...>`, `namespace luisa`) or the 2024 layout's
/// `<dsl/...>` and `<runtime/...>`, or a file it includes with quotes does.
bool usesLuisaCompute(const std::string &Path, std::map<std::string, bool> &Known,
                      unsigned Depth = 0) {
  auto [It, New] = Known.try_emplace(Path, false); // False while open: a cycle.
  if (!New || Depth > 32)
    return It->second;
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return false;
  llvm::StringRef Text = (*Buffer)->getBuffer();
  if (Text.contains("luisa") || Text.contains("<dsl/") || Text.contains("<runtime/")) {
    Known[Path] = true;
    return true;
  }
  llvm::StringRef Dir = llvm::sys::path::parent_path(Path);
  for (size_t At = Text.find("#include"); At != llvm::StringRef::npos;
       At = Text.find("#include", At + 1)) {
    llvm::StringRef Rest = Text.substr(At + 8).ltrim(" \t");
    if (!Rest.consume_front("\""))
      continue;
    llvm::StringRef Name = Rest.take_until([](char C) { return C == '"' || C == '\n'; });
    llvm::SmallString<256> Included(Dir);
    llvm::sys::path::append(Included, Name);
    if (llvm::sys::fs::is_regular_file(Included) &&
        usesLuisaCompute(Included.str().str(), Known, Depth + 1)) {
      Known[Path] = true;
      return true;
    }
  }
  return false;
}

bool isHidden(llvm::StringRef Path) {
  llvm::StringRef Name = llvm::sys::path::filename(Path);
  return Name.size() > 1 && Name.starts_with(".") && Name != "..";
}

/// Source files under \p Dir, sorted, so that runs list them in the same
/// order on every machine. Each real directory is entered once (symlinks to
/// a parent would otherwise make the walk endless), and only regular files
/// are taken: a FIFO or a device in the tree is not source code.
std::vector<std::string> walk(const std::string &Dir, const ExcludeList &Excludes,
                              bool RespectIgnoreFiles, std::string &Error) {
  std::vector<std::string> Files;
  std::optional<IgnoreFiles> Ignore;
  if (RespectIgnoreFiles)
    Ignore.emplace(Dir);
  std::set<llvm::sys::fs::UniqueID> Entered;
  llvm::sys::fs::file_status Root;
  if (!llvm::sys::fs::status(Dir, Root))
    Entered.insert(Root.getUniqueID());
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC)) {
    llvm::StringRef Path = It->path();
    llvm::sys::fs::file_status Status; // Of the target, for a symlink.
    if (llvm::sys::fs::status(Path, Status)) {
      It.no_push(); // A dangling symlink: nothing to analyse.
      continue;
    }
    if (Status.type() == llvm::sys::fs::file_type::directory_file) {
      if (isHidden(Path) || Excludes.excludes(Path) ||
          (Ignore && Ignore->ignored(Path.str(), true)) ||
          !Entered.insert(Status.getUniqueID()).second)
        It.no_push();
      else if (Ignore)
        Ignore->enter(Path.str());
      continue;
    }
    if (Status.type() == llvm::sys::fs::file_type::regular_file && isSourceFileName(Path.str()) &&
        !Excludes.excludes(Path) && !(Ignore && Ignore->ignored(Path.str(), false)) &&
        (!isPythonFile(Path) || mentionsCutlass(Path.str()))) {
      // `check .` lists `k.cpp`, not `./k.cpp`, as clang-tidy and Ruff do.
      llvm::SmallString<256> Listed(Path);
      llvm::sys::path::remove_dots(Listed, /*remove_dot_dot=*/false);
      Files.push_back(Listed.str().str());
    }
  }
  if (EC)
    Error = "cannot list '" + Dir + "': " + EC.message();
  std::sort(Files.begin(), Files.end());
  return Files;
}

std::optional<std::vector<std::string>> databaseFiles(const std::string &BuildPath,
                                                      std::string &Error) {
  // Not handed to Clang's loader unless it is a regular file: a FIFO or a
  // link to /dev/zero would never end.
  for (const char *Name : {"/compile_commands.json", "/compile_flags.txt"})
    if (std::string Problem = inputFileProblem(BuildPath + Name); !Problem.empty()) {
      Error = "cannot load compilation database: '" + BuildPath + Name + "' " + Problem;
      return std::nullopt;
    }
  std::string LoadError;
  auto DB = clang::tooling::CompilationDatabase::loadFromDirectory(BuildPath, LoadError);
  if (!DB) {
    Error = "cannot load compilation database: " + LoadError;
    return std::nullopt;
  }
  return DB->getAllFiles();
}

uint64_t sizeOnDisk(const std::string &File) {
  uint64_t Size = 0;
  if (llvm::sys::fs::file_size(File, Size))
    return 0;
  return Size;
}

} // namespace

bool isSourceFileName(const std::string &Path) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  return llvm::is_contained({".cpp", ".cc", ".cxx", ".h", ".hpp", ".inl", ".py"}, Ext);
}

std::optional<std::vector<std::string>> collectFiles(const std::vector<std::string> &Inputs,
                                                     const std::vector<std::string> &Excludes,
                                                     const std::string &BuildPath,
                                                     std::string &Error, unsigned *SkippedCpp,
                                                     bool RespectIgnoreFiles) {
  ExcludeList Exclude;
  if (!Exclude.parse(Excludes, Error))
    return std::nullopt;
  std::vector<std::string> Candidates;
  if (Inputs.empty()) {
    auto FromDatabase = databaseFiles(BuildPath, Error);
    if (!FromDatabase)
      return std::nullopt;
    Candidates = std::move(*FromDatabase);
  }
  for (const std::string &Input : Inputs) {
    if (!llvm::sys::fs::is_directory(Input)) {
      Candidates.push_back(Input); // Missing files are reported by the analysis.
      continue;
    }
    std::vector<std::string> Found = walk(Input, Exclude, RespectIgnoreFiles, Error);
    if (!Error.empty())
      return std::nullopt;
    if (BuildPath.empty() && !hasCompileDatabase(Input)) {
      std::map<std::string, bool> Known;
      size_t Before = Found.size();
      llvm::erase_if(Found, [&](const std::string &File) {
        return !isPythonFile(File) && !usesLuisaCompute(File, Known);
      });
      if (SkippedCpp)
        *SkippedCpp += Before - Found.size();
    }
    Candidates.insert(Candidates.end(), Found.begin(), Found.end());
  }
  std::vector<std::string> Files;
  llvm::StringSet<> Seen;
  for (std::string &File : Candidates)
    if (!Exclude.excludes(File) && Seen.insert(File).second)
      Files.push_back(std::move(File));
  return Files;
}

std::vector<std::string> selectShard(const std::vector<std::string> &Files, unsigned K,
                                     unsigned N) {
  std::vector<size_t> Order(Files.size());
  std::iota(Order.begin(), Order.end(), 0);
  std::vector<uint64_t> Sizes;
  for (const std::string &File : Files)
    Sizes.push_back(sizeOnDisk(File));
  std::sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    if (Sizes[A] != Sizes[B])
      return Sizes[A] > Sizes[B];
    return Files[A] < Files[B];
  });
  // Largest first to the lightest shard (ties: the lowest shard number).
  // Past one shard per file the rest stay empty: no need to count them
  // (--shard 1/4294967295 must not allocate 4 billion loads).
  std::vector<uint64_t> Load(std::min<size_t>(N, Files.size()), 0);
  std::vector<bool> Mine(Files.size(), false);
  for (size_t Index : Order) {
    unsigned Lightest = std::min_element(Load.begin(), Load.end()) - Load.begin();
    Load[Lightest] += Sizes[Index] + 1; // +1: empty files count too.
    Mine[Index] = Lightest + 1 == K;
  }
  std::vector<std::string> Shard;
  for (size_t I = 0; I < Files.size(); ++I)
    if (Mine[I])
      Shard.push_back(Files[I]);
  return Shard;
}

} // namespace kernel_tidy
