//===--- HeaderCache.cpp - The bounded on-disk cache of shared header parses -===//

#include "src/driver/HeaderCache.h"

#include "src/driver/AtomicFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <unistd.h>

namespace kernel_tidy {

std::optional<uint64_t> parseCacheSize(llvm::StringRef Text) {
  Text = Text.trim();
  size_t Digits = 0;
  while (Digits < Text.size() && Text[Digits] >= '0' && Text[Digits] <= '9')
    ++Digits;
  uint64_t Number = 0;
  if (Digits == 0 || Digits > 15 || Text.take_front(Digits).getAsInteger(10, Number))
    return std::nullopt;
  llvm::StringRef Unit = Text.drop_front(Digits).ltrim();
  unsigned Shift = 0;
  if (!Unit.empty()) {
    switch (Unit.front() | 0x20) {
    case 'k':
      Shift = 10;
      break;
    case 'm':
      Shift = 20;
      break;
    case 'g':
      Shift = 30;
      break;
    case 't':
      Shift = 40;
      break;
    case 'b':
      Shift = 0;
      break;
    default:
      return std::nullopt;
    }
    if ((Unit.front() | 0x20) != 'b')
      Unit = Unit.drop_front();
    if (!Unit.empty() && !Unit.equals_insensitive("b") && !Unit.equals_insensitive("ib"))
      return std::nullopt;
  }
  if (Shift && Number > (UINT64_MAX >> Shift))
    return std::nullopt;
  return Number << Shift;
}

std::string formatBytes(uint64_t Bytes) {
  const char *Units[] = {"KiB", "MiB", "GiB", "TiB"};
  if (Bytes < 1024)
    return std::to_string(Bytes) + " B";
  double Value = Bytes / 1024.0;
  unsigned Unit = 0;
  while (Value >= 1024 && Unit < 3) {
    Value /= 1024;
    ++Unit;
  }
  char Text[32];
  std::snprintf(Text, sizeof Text, "%.1f %s", Value, Units[Unit]);
  return Text;
}

HeaderCache HeaderCache::fromEnvironment(std::optional<uint64_t> Limit, std::string &Warning) {
  std::string Directory;
  if (auto Dir = llvm::sys::Process::GetEnv("KERNEL_TIDY_CACHE_DIR"); Dir && !Dir->empty()) {
    Directory = *Dir;
  } else {
    llvm::SmallString<256> Path;
    if (auto Xdg = llvm::sys::Process::GetEnv("XDG_CACHE_HOME"); Xdg && !Xdg->empty()) {
      Path = *Xdg;
    } else if (llvm::sys::path::home_directory(Path)) {
      llvm::sys::path::append(Path, ".cache");
    }
    if (!Path.empty()) {
      llvm::sys::path::append(Path, "kernel-tidy");
      Directory = Path.str().str();
    }
  }
  if (!Limit) {
    Limit = DefaultCacheLimit;
    if (auto Size = llvm::sys::Process::GetEnv("KERNEL_TIDY_CACHE_SIZE"); Size && !Size->empty()) {
      if (auto Parsed = parseCacheSize(*Size))
        Limit = *Parsed;
      else
        Warning = "ignoring KERNEL_TIDY_CACHE_SIZE='" + *Size + "' (not a size such as 2G or " +
                  "500M): the header cache is limited to " + formatBytes(DefaultCacheLimit);
    }
  }
  return HeaderCache(std::move(Directory), *Limit);
}

std::string HeaderCache::entryPath(llvm::StringRef Key) const {
  llvm::SmallString<256> Path(Directory);
  llvm::sys::path::append(Path, Key);
  return Path.str().str();
}

static bool isEntryName(llvm::StringRef Name) { return Name.starts_with("pch-"); }

/// The marker's text: a folder holding it was made by kernel-tidy.
static constexpr llvm::StringLiteral MarkerText =
    "kernel-tidy header cache entry: removed by `kernel-tidy cache --clear` and by eviction\n";

static std::optional<std::string> readSmallFile(const std::string &Path) {
  llvm::sys::fs::file_status Status;
  if (llvm::sys::fs::status(Path, Status, /*Follow=*/false) ||
      Status.type() != llvm::sys::fs::file_type::regular_file || Status.getSize() > 4096)
    return std::nullopt;
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return std::nullopt;
  return (*Buffer)->getBuffer().str();
}

/// Whether \p Path (a folder, not a link) holds only what versions before the
/// marker wrote into an entry: their header (recognised by its first line),
/// PCH, inventory, use time and temporary PCHs.
static bool isUnmarkedEntry(const std::string &Path) {
  auto Header = readSmallFile(Path + "/prefix.h");
  if (!Header || !llvm::StringRef(*Header).starts_with("// kernel-tidy: the preamble"))
    return false;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Path, EC), End; It != End && !EC; It.increment(EC)) {
    llvm::StringRef Name = llvm::sys::path::filename(It->path());
    bool Known = Name == "prefix.h" || Name == "prefix.pch" || Name == "inputs" || Name == "used" ||
                 (Name.starts_with("prefix.pch.") && Name.ends_with(".tmp"));
    if (!Known || It->type() != llvm::sys::fs::file_type::regular_file)
      return false;
  }
  return !EC;
}

bool HeaderCache::isOwnEntry(const std::string &Path) {
  llvm::sys::fs::file_status Status;
  if (llvm::sys::fs::status(Path, Status, /*Follow=*/false) ||
      Status.type() != llvm::sys::fs::file_type::directory_file)
    return false;
  auto Marker = readSmallFile(Path + "/" + MarkerName.str());
  return Marker ? *Marker == MarkerText : isUnmarkedEntry(Path);
}

/// Makes \p EntryPath with its marker in one step: the folder is made with
/// the marker under another name and renamed into place, so that a run
/// beside this one never sees the entry without its marker and takes it for
/// a foreign folder (issue 49, item 13). False when \p EntryPath exists.
static bool createMarkedEntry(const std::string &EntryPath, llvm::StringRef MarkerName,
                              std::string &Error) {
  static std::atomic<unsigned> Count{0};
  // Not `pch-*`: eviction and `cache --clear` never take it for an entry.
  std::string Temp =
      (llvm::sys::path::parent_path(EntryPath) + "/.claim-" + llvm::sys::path::filename(EntryPath) +
       "-" + std::to_string(::getpid()) + "-" + std::to_string(Count++))
          .str();
  if (std::error_code EC = llvm::sys::fs::create_directory(Temp, /*IgnoreExisting=*/false)) {
    Error = "cannot create '" + Temp + "': " + EC.message();
    return true;
  }
  SignalCleanup Cleanup(Temp);
  std::string Marker = Temp + "/" + MarkerName.str();
  Error = writeAtomically(Marker, MarkerText.str());
  if (Error.empty() && !llvm::sys::fs::rename(Temp, EntryPath))
    return true;
  llvm::sys::fs::remove(Marker);
  llvm::sys::fs::remove(Temp);
  return !Error.empty() || !llvm::sys::fs::exists(EntryPath);
}

std::string HeaderCache::claim(const std::string &EntryPath) const {
  if (std::error_code EC = llvm::sys::fs::create_directories(Directory))
    return "cannot create '" + Directory + "': " + EC.message();
  std::string Error;
  if (!llvm::sys::fs::exists(EntryPath) && createMarkedEntry(EntryPath, MarkerName, Error))
    return Error;
  std::error_code EC = llvm::sys::fs::create_directory(EntryPath, /*IgnoreExisting=*/false);
  if (EC == std::errc::file_exists) {
    // Never written into, nor later evicted with it, unless kernel-tidy made it.
    if (isOwnEntry(EntryPath)) {
      if (!readSmallFile(EntryPath + "/" + MarkerName.str()))
        return writeAtomically(EntryPath + "/" + MarkerName.str(), MarkerText.str());
      return "";
    }
    std::error_code Empty;
    if (llvm::sys::fs::directory_iterator(EntryPath, Empty) !=
            llvm::sys::fs::directory_iterator() ||
        Empty)
      return "'" + EntryPath + "' was not made by kernel-tidy; it is left alone";
  } else if (EC) {
    return "cannot create '" + EntryPath + "': " + EC.message();
  }
  return writeAtomically(EntryPath + "/" + MarkerName.str(), MarkerText.str());
}

std::vector<CacheEntry> HeaderCache::entries() const {
  std::vector<CacheEntry> Found;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Directory, EC), End; It != End && !EC;
       It.increment(EC)) {
    // Only what kernel-tidy made: a user's own pch-thesis/ is not an entry.
    if (!isEntryName(llvm::sys::path::filename(It->path())) ||
        It->type() != llvm::sys::fs::file_type::directory_file || !isOwnEntry(It->path()))
      continue;
    CacheEntry Entry;
    Entry.Path = It->path();
    std::chrono::system_clock::time_point Newest{}, Used{};
    std::error_code Inner;
    for (llvm::sys::fs::directory_iterator F(Entry.Path, Inner), FEnd; F != FEnd && !Inner;
         F.increment(Inner)) {
      llvm::sys::fs::file_status Status;
      if (llvm::sys::fs::status(F->path(), Status, /*Follow=*/false))
        continue;
      Entry.Bytes += Status.getSize();
      auto Time = std::chrono::time_point_cast<std::chrono::system_clock::duration>(
          Status.getLastModificationTime());
      Newest = std::max(Newest, Time);
      if (llvm::sys::path::filename(F->path()) == "used")
        Used = Time;
    }
    Entry.LastUse = Used != std::chrono::system_clock::time_point{} ? Used : Newest;
    Found.push_back(std::move(Entry));
  }
  std::sort(Found.begin(), Found.end(), [](const CacheEntry &A, const CacheEntry &B) {
    return A.LastUse != B.LastUse ? A.LastUse < B.LastUse : A.Path < B.Path;
  });
  return Found;
}

void HeaderCache::touch(llvm::StringRef EntryPath) {
  llvm::SmallString<256> Used(EntryPath);
  llvm::sys::path::append(Used, "used");
  int FD;
  if (llvm::sys::fs::openFileForWrite(Used, FD, llvm::sys::fs::CD_OpenAlways))
    return;
  llvm::sys::fs::setLastAccessAndModificationTime(FD, std::chrono::system_clock::now());
  ::close(FD);
}

// Not llvm::pruneCache with a CachePruningPolicy (llvm/Support/CachePruning.h),
// weighed for this (issue 32, item 10), because it does what this cache must
// not: it takes every file whose name starts with "llvmcache-" or "Thin-" for
// its own, so it would remove a user's file of that name in the folder (the
// marker test, HeaderCacheFolder.OnlyEntriesKernelTidyMadeAreRemoved, cannot
// be given to it); it removes single files with sys::fs::remove, while an
// entry is a folder (PCH, inputs, header, marker) that goes as a whole; it
// orders by the files' access times, which noatime mounts never update and
// relatime mounts about once a day, not by the `used` time that touch()
// writes; it cannot spare the entries this run has just built or is reading
// (\p Keep); and it writes its own llvmcache.timestamp into the folder.
uint64_t HeaderCache::evict(const std::set<std::string> &Keep) const {
  std::vector<CacheEntry> All = entries();
  uint64_t Total = 0;
  for (const CacheEntry &Entry : All)
    Total += Entry.Bytes;
  std::set<std::string> KeepNames;
  for (const std::string &Path : Keep)
    KeepNames.insert(llvm::sys::path::filename(Path).str());
  for (const CacheEntry &Entry : All) { // Least recently used first.
    if (Total <= Limit)
      break;
    if (KeepNames.count(llvm::sys::path::filename(Entry.Path).str()))
      continue;
    if (!llvm::sys::fs::remove_directories(Entry.Path))
      Total -= Entry.Bytes;
  }
  return Total;
}

std::string HeaderCache::clear() const {
  for (const CacheEntry &Entry : entries())
    if (std::error_code EC = llvm::sys::fs::remove_directories(Entry.Path))
      return "cannot remove '" + Entry.Path + "': " + EC.message();
  return "";
}

std::vector<std::string> HeaderCache::foreignEntries() const {
  std::vector<std::string> Found;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Directory, EC), End; It != End && !EC; It.increment(EC))
    if (isEntryName(llvm::sys::path::filename(It->path())) && !isOwnEntry(It->path()))
      Found.push_back(It->path());
  std::sort(Found.begin(), Found.end());
  return Found;
}

} // namespace kernel_tidy
