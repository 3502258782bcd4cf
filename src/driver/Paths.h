//===--- Paths.h - File names as reports and baselines spell them ---------===//

#ifndef KERNEL_TIDY_SRC_DRIVER_PATHS_H
#define KERNEL_TIDY_SRC_DRIVER_PATHS_H

#include <string>

namespace kernel_tidy {

/// The work tree of the git repository holding \p Dir (the nearest folder
/// upward with a `.git` entry), or \p Dir itself when there is none.
std::string repositoryRoot(const std::string &Dir);

/// \p Path (absolute or relative to the current directory) relative to
/// \p Root with '/' separators, or its absolute path when it is outside.
std::string relativeToRoot(const std::string &Path, const std::string &Root);

/// An absolute, dot-free version of \p Path.
std::string absolutePath(const std::string &Path);

} // namespace kernel_tidy

#endif // KERNEL_TIDY_SRC_DRIVER_PATHS_H
