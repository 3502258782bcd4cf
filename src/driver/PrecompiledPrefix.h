//===--- PrecompiledPrefix.h - One header parse shared by many files -----===//
//
// When several files begin with the same `#include <...>` lines and are
// compiled with the same arguments, the headers are parsed once into a
// precompiled header (PCH) of those includes, cached on disk, and each file is
// analysed with `-include-pch`: the file's own includes of those headers are
// then skipped by their include guards / `#pragma once`, as with any PCH.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_SRC_DRIVER_PRECOMPILEDPREFIX_H
#define KERNEL_TIDY_SRC_DRIVER_PRECOMPILEDPREFIX_H

#include "llvm/ADT/StringRef.h"
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace kernel_tidy {

/// When a shared precompiled prefix is used.
enum class PchMode {
  Auto, ///< For every file whose leading includes can be cached (also a single one).
  Off,  ///< Never (`--no-pch`).
};

/// The `#include <...>` lines that open \p Text (after comments and blank
/// lines), spelled `<name>`, up to the first other token. Quoted includes end
/// the prefix (they resolve relative to the including file).
std::vector<std::string> leadingAngleIncludes(llvm::StringRef Text);

/// A built PCH that files whose leading includes start with Includes (and
/// whose compile arguments are those it was built with) can use.
struct PrecompiledHeader {
  std::string PchPath;
  std::vector<std::string> Includes;
};

/// Which PCH each file (absolute path) uses; files not in it parse plainly.
using PrefixPlan = std::map<std::string, std::shared_ptr<const PrecompiledHeader>>;

/// Where PCHs are cached: $KERNEL_TIDY_CACHE_DIR, else
/// $XDG_CACHE_HOME/kernel-tidy, else ~/.cache/kernel-tidy.
std::string pchCacheDirectory();

/// Whether \p Text still begins with \p Header's includes (a fix re-parse of
/// changed text can use the PCH only then).
bool prefixApplies(const PrecompiledHeader &Header, llvm::StringRef Text);

/// The dependencies of a PCH as recorded next to it: one line per file,
/// "SIZE MTIME HASH PATH". Valid when every file still has that size,
/// modification time and contents.
std::string describeDependencies(const std::vector<std::string> &Files);
bool dependenciesUnchanged(llvm::StringRef Manifest);

} // namespace kernel_tidy

#endif // KERNEL_TIDY_SRC_DRIVER_PRECOMPILEDPREFIX_H
