//===--- PrecompiledPrefix.h - One header parse shared by many files -----===//
//
// A file's preamble, as clangd calls it, is the run of `#include` lines it
// opens with. Files compiled with the same arguments whose preambles begin
// alike parse those headers once into a precompiled header (PCH), and each
// file's whole preamble is precompiled on top of it (a chained PCH) and
// cached, so that an unchanged file is parsed again from its own PCH. A file
// is analysed with `-include-pch`: its own includes of those headers are then
// skipped by their include guards / `#pragma once`, as with any PCH.
// Building and caching: SharedHeaderParse.h, HeaderCache.h.
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

/// The `#include` directives that open \p Text (after comments and blank
/// lines), either kind, spelled `<name>` or `"name"`, up to the first other
/// token (a `#define`, `#pragma`, `#if`, code): the file's preamble.
std::vector<std::string> leadingIncludes(llvm::StringRef Text);

/// leadingIncludes() as a header outside the file's folder must spell them:
/// a quoted name found beside the file (in \p FileDir) becomes its absolute
/// path in quotes; other names are left to the include path, as they are
/// for the file.
std::vector<std::string> preambleIncludes(llvm::StringRef Text, llvm::StringRef FileDir);

/// A built PCH that files whose leading includes start with Includes (and
/// whose compile arguments are those it was built with) can use.
struct PrecompiledHeader {
  std::string PchPath;
  std::vector<std::string> Includes;
};

/// Which PCH each file (absolute path) uses; files not in it parse plainly.
/// Warnings: why the header cache could not be used (said once per run).
struct PrefixPlan {
  std::map<std::string, std::shared_ptr<const PrecompiledHeader>> Files;
  std::vector<std::string> Warnings;
};

/// Whether \p Text (of a file in \p FileDir) still begins with \p Header's
/// includes (a fix re-parse of changed text can use the PCH only then).
bool prefixApplies(const PrecompiledHeader &Header, llvm::StringRef Text, llvm::StringRef FileDir);

/// The dependencies of a PCH as recorded next to it: one line per file,
/// "SIZE HASH PATH". Valid when every file still has that size and those
/// contents (times are not compared: see fingerprint in the .cpp).
std::string describeDependencies(const std::vector<std::string> &Files);
bool dependenciesUnchanged(llvm::StringRef Manifest);

} // namespace kernel_tidy

#endif // KERNEL_TIDY_SRC_DRIVER_PRECOMPILEDPREFIX_H
