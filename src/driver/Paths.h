//===--- Paths.h - File names as reports and baselines spell them ---------===//

#ifndef KERNEL_TIDY_SRC_DRIVER_PATHS_H
#define KERNEL_TIDY_SRC_DRIVER_PATHS_H

#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>
#include <string>

namespace kernel_tidy {

/// The work tree of the git repository holding \p Dir (the nearest folder
/// upward with a `.git` entry), or \p Dir itself when there is none.
std::string repositoryRoot(const std::string &Dir);

/// \p Path (absolute or relative to the current directory) relative to
/// \p Root with '/' separators, or its absolute path when it is outside.
/// A file in the root named through a symbolic link (or a root named through
/// one) is in it.
std::string relativeToRoot(const std::string &Path, const std::string &Root);

/// An absolute, dot-free version of \p Path.
std::string absolutePath(const std::string &Path);

/// \p Path with what RFC 3986 does not allow in a URI's path percent-encoded.
std::string encodeUriPath(llvm::StringRef Path);

/// \p DocsBase, the docs folder or their URL, as a URI ending in '/'.
std::string docsUri(const std::string &DocsBase);

/// Where the rule pages are: the environment's KERNEL_TIDY_DOCS_URL, else
/// \p Configured (the URL the build was configured with), else the docs in
/// the share folder \p ShareDir.
std::string docsBase(llvm::StringRef Configured, const std::string &ShareDir);

/// The page of the rule \p Rule in the docs at \p DocsBase (a folder or a
/// URL): what reports and editors link a finding to.
std::string ruleDocUri(llvm::StringRef Rule, const std::string &DocsBase);

/// Whether \p File is named as a header (.h, .hpp, .inl): Clang takes it
/// for C++ only when told, and other files of a run may include it.
bool isHeaderLike(llvm::StringRef File);

/// The most a baseline, report, configuration or compile database may hold.
constexpr uint64_t MaxInputBytes = uint64_t(1) << 30; // 1 GiB

/// Why \p Path (links followed) cannot be read as an input of the tool: a
/// FIFO would block, a device such as /dev/zero never ends, a file over
/// MaxInputBytes is not one the tool wrote; "" when it can (or does not
/// exist: its reader reports that).
std::string inputFileProblem(const std::string &Path);

/// The contents of the input file \p Path, or std::nullopt with \p Error
/// ("'PATH': why").
std::optional<std::string> readInputFile(const std::string &Path, std::string &Error);

} // namespace kernel_tidy

#endif // KERNEL_TIDY_SRC_DRIVER_PATHS_H
