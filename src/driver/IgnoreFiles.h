//===--- IgnoreFiles.h - .gitignore and .ignore for folder walks ----------===//

#ifndef KERNEL_TIDY_SRC_DRIVER_IGNOREFILES_H
#define KERNEL_TIDY_SRC_DRIVER_IGNOREFILES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/GlobPattern.h"
#include <deque>
#include <map>
#include <string>
#include <vector>

namespace kernel_tidy {

/// The ignore files a folder walk respects, read as git reads .gitignore
/// (gitignore(5)): `.gitignore` and `.ignore` (ripgrep's and Ruff's, which
/// wins over `.gitignore` in the same folder) of every folder from the
/// repository's work tree (or the walk's root outside a repository) down,
/// and the repository's `.git/info/exclude`. A deeper file wins over a
/// shallower one, a later line over an earlier one, and `!` re-includes.
class IgnoreFiles {
public:
  /// Reads the ignore files that apply above and at the folder \p Root,
  /// where a walk starts.
  explicit IgnoreFiles(const std::string &Root);

  /// Reads the ignore files of \p Dir, a folder the walk entered.
  void enter(const std::string &Dir);

  /// Whether \p Path (a file, or a folder when \p IsDir) is ignored by the
  /// files read so far for its folders.
  bool ignored(const std::string &Path, bool IsDir) const;

private:
  /// One line of an ignore file.
  struct Pattern {
    std::vector<llvm::GlobPattern> Parts; ///< Components; none for `**`.
    std::vector<bool> AnyDepth;           ///< Part I is `**`.
    bool Negated = false;
    bool DirOnly = false;
    bool Anchored = false; ///< Has a '/' before its end: relative to its folder.
  };
  void read(const std::string &Dir, const std::string &File);
  static bool matches(const Pattern &P, llvm::ArrayRef<llvm::StringRef> Components);

  std::string Top; ///< The work tree, or the walk's root.
  std::map<std::string, std::vector<Pattern>> ByFolder;
  /// The patterns' text: a GlobPattern keeps a reference to its literal
  /// prefix, so the text stays here, where adding more does not move it.
  std::deque<std::string> PatternTexts;
};

} // namespace kernel_tidy

#endif // KERNEL_TIDY_SRC_DRIVER_IGNOREFILES_H
