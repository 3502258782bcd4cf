//===--- Paths.cpp - File names as reports and baselines spell them -------===//

#include "src/driver/Paths.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

namespace kernel_tidy {

std::string absolutePath(const std::string &Path) {
  llvm::SmallString<256> Absolute(Path);
  llvm::sys::fs::make_absolute(Absolute);
  llvm::sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
  return Absolute.str().str();
}

std::string repositoryRoot(const std::string &Dir) {
  std::string Start = absolutePath(Dir);
  for (llvm::StringRef Current = Start; !Current.empty();
       Current = llvm::sys::path::parent_path(Current)) {
    llvm::SmallString<256> Git(Current);
    llvm::sys::path::append(Git, ".git");
    if (llvm::sys::fs::exists(Git))
      return Current.str();
  }
  return Start;
}

namespace {

/// \p File (absolute) relative to the folder \p Root (absolute), if it lies in it.
std::optional<std::string> pathUnder(llvm::StringRef File, std::string Root) {
  if (!llvm::StringRef(Root).ends_with("/"))
    Root += '/';
  if (!File.consume_front(Root))
    return std::nullopt;
  return llvm::sys::path::convert_to_slash(File);
}

/// \p Path with the symbolic links of its folder resolved (the file's own
/// name is kept: a linked file is reported where it was named).
std::optional<std::string> realFolderPath(const std::string &Path) {
  llvm::SmallString<256> Folder;
  if (llvm::sys::fs::real_path(llvm::sys::path::parent_path(Path), Folder))
    return std::nullopt;
  llvm::sys::path::append(Folder, llvm::sys::path::filename(Path));
  return Folder.str().str();
}

} // namespace

std::string relativeToRoot(const std::string &Path, const std::string &Root) {
  std::string File = absolutePath(Path);
  std::string Folder = absolutePath(Root);
  if (auto Relative = pathUnder(File, Folder))
    return *Relative;
  // The root or the file named through a symbolic link (a checkout under a
  // linked folder, a compile database with resolved paths): a file in the
  // root is still in it.
  llvm::SmallString<256> RealRoot;
  std::optional<std::string> RealFile = realFolderPath(File);
  if (RealFile && !llvm::sys::fs::real_path(Folder, RealRoot))
    if (auto Relative = pathUnder(*RealFile, RealRoot.str().str()))
      return *Relative;
  return llvm::sys::path::convert_to_slash(File);
}

std::string inputFileProblem(const std::string &Path) {
  llvm::sys::fs::file_status Status;
  if (llvm::sys::fs::status(Path, Status))
    return "";
  if (Status.type() == llvm::sys::fs::file_type::directory_file)
    return "is a directory";
  if (Status.type() != llvm::sys::fs::file_type::regular_file)
    return "is not a regular file";
  if (Status.getSize() > MaxInputBytes)
    return "is larger than " + std::to_string(MaxInputBytes >> 20) + " MiB";
  return "";
}

std::optional<std::string> readInputFile(const std::string &Path, std::string &Error) {
  if (std::string Problem = inputFileProblem(Path); !Problem.empty()) {
    Error = "'" + Path + "' " + Problem;
    return std::nullopt;
  }
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!Buffer) {
    Error = "cannot read '" + Path + "': " + Buffer.getError().message();
    return std::nullopt;
  }
  return (*Buffer)->getBuffer().str();
}

bool isHeaderLike(llvm::StringRef File) {
  llvm::StringRef Ext = llvm::sys::path::extension(File);
  return Ext == ".h" || Ext == ".hpp" || Ext == ".inl";
}

std::string encodeUriPath(llvm::StringRef Path) {
  std::string Out;
  for (unsigned char C : Path) {
    if (llvm::isAlnum(C) || llvm::StringRef("/-._~").contains(C))
      Out += C;
    else
      Out += "%" + llvm::utohexstr(C, /*LowerCase=*/false, 2);
  }
  return Out;
}

std::string docsUri(const std::string &DocsBase) {
  std::string Base = llvm::StringRef(DocsBase).contains("://")
                         ? DocsBase
                         : "file://" + encodeUriPath(absolutePath(DocsBase));
  if (!llvm::StringRef(Base).ends_with("/"))
    Base += "/";
  return Base;
}

std::string docsBase(llvm::StringRef Configured, const std::string &ShareDir) {
  if (auto Url = llvm::sys::Process::GetEnv("KERNEL_TIDY_DOCS_URL"); Url && !Url->empty())
    return *Url;
  return Configured.empty() ? ShareDir + "/docs" : Configured.str();
}

std::string ruleDocUri(llvm::StringRef Rule, const std::string &DocsBase) {
  return docsUri(DocsBase) + "rules/" + Rule.str() + ".md";
}

} // namespace kernel_tidy
