//===--- HeaderCache.h - The bounded on-disk cache of shared header parses -===//
//
// Each shared header parse (see SharedHeaderParse.h) is one folder `pch-KEY`
// of the cache directory. The cache is bounded: after an entry is added, the
// least recently used entries are removed until the whole fits the limit.
// Using an entry touches its `used` file; that time orders the eviction.
// Only folders that kernel-tidy made are entries: each holds a marker file
// written when the folder is made, so that eviction and `cache --clear`
// never remove a user's own `pch-*` folder (issue 31, item 5).
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_SRC_DRIVER_HEADERCACHE_H
#define KERNEL_TIDY_SRC_DRIVER_HEADERCACHE_H

#include "llvm/ADT/StringRef.h"
#include <chrono>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kernel_tidy {

/// The size limit when neither --cache-size nor KERNEL_TIDY_CACHE_SIZE says.
constexpr uint64_t DefaultCacheLimit = uint64_t(2) << 30; // 2 GiB

/// "2G", "512M", "64K", "1048576" (bytes; K, M and G are powers of 1024,
/// an optional "iB" or "B" may follow). std::nullopt when it is not a size.
std::optional<uint64_t> parseCacheSize(llvm::StringRef Text);

/// "1.5 GiB", "12.0 MiB", "512 B".
std::string formatBytes(uint64_t Bytes);

/// One folder of the cache.
struct CacheEntry {
  std::string Path;
  uint64_t Bytes = 0;
  std::chrono::system_clock::time_point LastUse;
};

/// The header cache of a run: where it is and how big it may grow.
class HeaderCache {
public:
  /// $KERNEL_TIDY_CACHE_DIR, else $XDG_CACHE_HOME/kernel-tidy, else
  /// ~/.cache/kernel-tidy; the limit is \p Limit, else
  /// $KERNEL_TIDY_CACHE_SIZE, else DefaultCacheLimit. A variable that does
  /// not hold a size is named in \p Warning and the default applies.
  static HeaderCache fromEnvironment(std::optional<uint64_t> Limit, std::string &Warning);
  HeaderCache(std::string Directory, uint64_t Limit)
      : Directory(std::move(Directory)), Limit(Limit) {}

  const std::string &directory() const { return Directory; }
  uint64_t limit() const { return Limit; }

  /// The folder of the entry named \p Key ("pch-..." inside the directory).
  std::string entryPath(llvm::StringRef Key) const;

  /// The entries, least recently used first.
  std::vector<CacheEntry> entries() const;

  /// Records that \p EntryPath was used now (silently nothing on a
  /// read-only cache: the entry is then evicted earlier, never lost).
  static void touch(llvm::StringRef EntryPath);

  /// Removes least recently used entries, never those in \p Keep, until
  /// the entries fit the limit; returns the bytes left. Entries other runs
  /// are reading stay readable to them (their files are open); a run that
  /// looks one up later rebuilds it.
  uint64_t evict(const std::set<std::string> &Keep) const;

  /// Removes every entry (only the cache's own `pch-*` folders); "" or the
  /// first error.
  std::string clear() const;

  /// The `pch-*` folders of the directory that kernel-tidy did not make
  /// (left alone by clear() and evict()).
  std::vector<std::string> foreignEntries() const;

  /// Makes the folder of a new entry with its marker, or takes an existing
  /// one that kernel-tidy made (an empty folder too); "" or why not: a
  /// folder that holds something kernel-tidy did not write is never used.
  std::string claim(const std::string &EntryPath) const;

  /// Whether \p Path is a folder kernel-tidy made as an entry: it holds the
  /// marker, or only the files that versions before the marker wrote.
  static bool isOwnEntry(const std::string &Path);

  /// The marker file of every entry.
  static constexpr llvm::StringLiteral MarkerName = "kernel-tidy-entry";

private:
  std::string Directory;
  uint64_t Limit;
};

} // namespace kernel_tidy

#endif // KERNEL_TIDY_SRC_DRIVER_HEADERCACHE_H
