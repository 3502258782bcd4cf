//===--- IgnoreFiles.cpp - .gitignore and .ignore for folder walks --------===//

#include "src/driver/IgnoreFiles.h"

#include "src/driver/Paths.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <functional>

namespace kernel_tidy {
namespace {

/// The files of one folder, in increasing precedence.
const char *const FolderFiles[] = {".gitignore", ".ignore"};

/// \p Line without its trailing blanks, unless a backslash escapes them.
llvm::StringRef trimTrailingBlanks(llvm::StringRef Line) {
  while (Line.ends_with(" ") && !Line.ends_with("\\ "))
    Line = Line.drop_back();
  return Line;
}

llvm::SmallVector<llvm::StringRef> components(llvm::StringRef Path) {
  llvm::SmallVector<llvm::StringRef> Parts;
  Path.split(Parts, '/', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  return Parts;
}

} // namespace

IgnoreFiles::IgnoreFiles(const std::string &Root) {
  std::string Start = absolutePath(Root);
  Top = Start;
  // The work tree holding the walk: its exclude file and the ignore files
  // of the folders between it and the walk's root apply too.
  for (llvm::StringRef At = Start; !At.empty(); At = llvm::sys::path::parent_path(At))
    if (llvm::sys::fs::exists(At + "/.git")) {
      Top = At.str();
      break;
    }
  if (llvm::sys::fs::is_directory(Top + "/.git"))
    read(Top, Top + "/.git/info/exclude");
  llvm::SmallVector<std::string> Between;
  for (llvm::StringRef At = Start; At.size() > Top.size(); At = llvm::sys::path::parent_path(At))
    Between.push_back(At.str());
  enter(Top);
  for (auto It = Between.rbegin(); It != Between.rend(); ++It)
    enter(*It);
}

void IgnoreFiles::enter(const std::string &Dir) {
  std::string Folder = absolutePath(Dir);
  for (const char *Name : FolderFiles)
    read(Folder, Folder + "/" + Name);
}

void IgnoreFiles::read(const std::string &Dir, const std::string &File) {
  if (!inputFileProblem(File).empty() || !llvm::sys::fs::is_regular_file(File))
    return;
  auto Buffer = llvm::MemoryBuffer::getFile(File, /*IsText=*/true);
  if (!Buffer)
    return;
  llvm::SmallVector<llvm::StringRef> Lines;
  (*Buffer)->getBuffer().split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    Line = trimTrailingBlanks(Line.rtrim('\r'));
    if (Line.empty() || Line.starts_with("#"))
      continue;
    Pattern P;
    P.Negated = Line.consume_front("!");
    P.DirOnly = Line.consume_back("/");
    // "\#" and "\!" start a pattern with those characters: GlobPattern reads
    // the backslash as an escape itself. A '/' left (at the start or inside)
    // ties the pattern to this folder.
    P.Anchored = Line.contains('/');
    Line.consume_front("/");
    if (Line.empty())
      continue;
    bool Valid = true;
    for (llvm::StringRef Part : components(Line)) {
      P.AnyDepth.push_back(Part == "**");
      PatternTexts.push_back(Part == "**" ? "*" : Part.str());
      auto Glob = llvm::GlobPattern::create(PatternTexts.back());
      if (!Glob) { // git ignores a pattern it cannot read; so do we.
        llvm::consumeError(Glob.takeError());
        Valid = false;
        break;
      }
      P.Parts.push_back(std::move(*Glob));
    }
    if (Valid)
      ByFolder[Dir].push_back(std::move(P));
  }
}

bool IgnoreFiles::matches(const Pattern &P, llvm::ArrayRef<llvm::StringRef> Path) {
  if (!P.Anchored) // A name alone matches the last component at any depth.
    return !Path.empty() && P.Parts.size() == 1 && P.Parts[0].match(Path.back());
  // Component by component; `**` takes any number of them, but a trailing
  // `**` at least one ("abc/**" is what is inside abc).
  std::function<bool(size_t, size_t)> From = [&](size_t I, size_t J) {
    if (I == P.Parts.size())
      return J == Path.size();
    if (P.AnyDepth[I]) {
      size_t Least = I + 1 == P.Parts.size() ? 1 : 0;
      for (size_t K = J + Least; K <= Path.size(); ++K)
        if (From(I + 1, K))
          return true;
      return false;
    }
    return J < Path.size() && P.Parts[I].match(Path[J]) && From(I + 1, J + 1);
  };
  return From(0, 0);
}

bool IgnoreFiles::ignored(const std::string &Path, bool IsDir) const {
  std::string Full = absolutePath(Path);
  llvm::StringRef Rest(Full);
  if (!Rest.consume_front(Top) || (!Rest.empty() && !Rest.consume_front("/")))
    return false;
  llvm::SmallVector<llvm::StringRef> Parts = components(Rest);
  bool Ignored = false;
  // Folders from the top down: a deeper file's verdict replaces a
  // shallower one's, and within a file the last matching line decides.
  std::string Folder = Top;
  for (size_t Depth = 0; Depth < Parts.size(); ++Depth) {
    if (Depth)
      Folder += "/" + Parts[Depth - 1].str();
    auto It = ByFolder.find(Folder);
    if (It == ByFolder.end())
      continue;
    llvm::ArrayRef<llvm::StringRef> Relative = llvm::ArrayRef(Parts).drop_front(Depth);
    for (const Pattern &P : It->second)
      if ((!P.DirOnly || IsDir) && matches(P, Relative))
        Ignored = !P.Negated;
  }
  return Ignored;
}

} // namespace kernel_tidy
