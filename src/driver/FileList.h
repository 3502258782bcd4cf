//===--- FileList.h - Which files a run analyses --------------------------===//

#ifndef KERNEL_TIDY_SRC_DRIVER_FILELIST_H
#define KERNEL_TIDY_SRC_DRIVER_FILELIST_H

#include <optional>
#include <string>
#include <vector>

namespace kernel_tidy {

/// The extensions that a directory walk picks up (a .py only when it
/// mentions `cutlass`: CuTe DSL code).
bool isSourceFileName(const std::string &Path);

/// Files to analyse from the command line's inputs: files as given, folders
/// walked recursively (sorted; hidden folders skipped) for source files; with
/// no inputs, every file of the compile database in \p BuildPath. Paths
/// matching an \p Excludes glob (clang-tidy style `*`, matched against the
/// path as listed) are left out, and so are folders matching one.
/// Duplicates are dropped; the order is otherwise kept. With
/// \p RespectIgnoreFiles, a walk leaves out what the folders' `.gitignore`
/// and `.ignore` files and the repository's `.git/info/exclude` ignore
/// (IgnoreFiles); files named on the command line are always taken.
///
/// In a folder that no compile database covers (none given, none in it or
/// above it), a C++ file that includes no LuisaCompute header, directly or
/// through a quoted include of the project, is not a kernel file the
/// bundled model can parse: it is left out and counted in \p SkippedCpp.
std::optional<std::vector<std::string>>
collectFiles(const std::vector<std::string> &Inputs, const std::vector<std::string> &Excludes,
             const std::string &BuildPath, std::string &Error, unsigned *SkippedCpp = nullptr,
             bool RespectIgnoreFiles = true);

/// A CI matrix's share of \p Files: shard \p K (1-based) of \p N.
///
/// Every shard computes the same partition from the same list, whatever its
/// order: files are dealt, largest first (by size on disk, then path), to
/// the shard with the fewest bytes so far. Each file lands in exactly one
/// shard, and the shards hold similar amounts of code. The result keeps the
/// order of \p Files.
std::vector<std::string> selectShard(const std::vector<std::string> &Files, unsigned K, unsigned N);

} // namespace kernel_tidy

#endif // KERNEL_TIDY_SRC_DRIVER_FILELIST_H
