//===--- SharedHeaderParse.h - Builds and caches the PCHs of preambles ----===//
//
// Files compiled with the same command whose preambles (PrecompiledPrefix.h)
// start with the same include share one PCH of their common includes; each
// file whose preamble goes further gets a PCH of its whole preamble chained
// on the shared one (built from it: only the rest is parsed), so that its
// next run parses none of its headers. PCHs are built in child processes (a
// cache problem must never end the run) and cached in a HeaderCache. Like
// clangd's preamble, the header parse skips function bodies: only those of
// non-template library functions, which no analysis enters.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_SRC_DRIVER_SHAREDHEADERPARSE_H
#define KERNEL_TIDY_SRC_DRIVER_SHAREDHEADERPARSE_H

#include "src/driver/HeaderCache.h"
#include "src/driver/PrecompiledPrefix.h"
#include "clang/Tooling/CompilationDatabase.h"
#include <memory>
#include <string>
#include <vector>

namespace kernel_tidy {

/// The contents of \p Path, a file of a cache entry; "" when it is missing
/// or not a regular file, which is then removed (a FIFO there would block
/// every run that reads or writes it), so that the entry is rebuilt.
std::string readCacheFile(const std::string &Path);

/// A file that may parse its preamble from a PCH.
struct PreambleFile {
  std::string File; ///< Absolute path.
  /// The command its headers are parsed with, without the file's name
  /// (compiler first, configuration's extra arguments in place).
  clang::tooling::CompileCommand Command;
  std::vector<std::string> Includes; ///< preambleIncludes() of its text.
  /// No enabled check looks into library function bodies (the static
  /// analyzer's checks do): its header parse may skip those of non-template
  /// library functions (dsl::isLibraryFunction).
  bool SkipLibraryBodies = false;
};

/// The PCH of \p Includes for \p Command (chained on \p Base when given),
/// from \p Cache, built when missing or when the command, the includes or
/// any file the build read changed; nullptr when it cannot be built, with
/// \p Warning saying why when the cache is at fault (not for headers that
/// do not compile: the files then report that themselves).
std::shared_ptr<const PrecompiledHeader>
cachedPrefixPch(const clang::tooling::CompileCommand &Command,
                const std::vector<std::string> &Includes, const HeaderCache &Cache,
                std::string &Warning, const PrecompiledHeader *Base = nullptr,
                bool SkipLibraryBodies = false);

/// Groups \p Files by command and first include, builds (or finds) each
/// group's PCH of its common includes and each file's PCH of its whole
/// preamble (as soon as its group's is built), \p Jobs builds at a time.
/// The compile directory separates groups only where a relative path in
/// the command makes it matter. The cache stays within its limit:
/// older entries are evicted first, and a file's own PCH that would not
/// fit is not kept (that file uses its group's).
PrefixPlan planSharedParses(const std::vector<PreambleFile> &Files, const HeaderCache &Cache,
                            unsigned Jobs);

} // namespace kernel_tidy

#endif // KERNEL_TIDY_SRC_DRIVER_SHAREDHEADERPARSE_H
