//===--- HeaderCacheTest.cpp - The bounded header cache --------------------===//

#include "src/driver/HeaderCache.h"
#include "src/driver/SharedHeaderParse.h"
#include "test/unit/TestSupport.h"
#include "llvm/Support/FileSystem.h"
#include <chrono>
#include <cstdlib>
#include <thread>
#include <vector>
#include <sys/stat.h>
#include <unistd.h>
#include <gtest/gtest.h>

namespace kernel_tidy::test {
namespace {

TEST(HeaderCache, SizesAreParsedAsPowersOf1024) {
  EXPECT_EQ(uint64_t(2) << 30, parseCacheSize("2G"));
  EXPECT_EQ(uint64_t(2) << 30, parseCacheSize("2GiB"));
  EXPECT_EQ(uint64_t(500) << 20, parseCacheSize("500m"));
  EXPECT_EQ(uint64_t(64) << 10, parseCacheSize(" 64 KB"));
  EXPECT_EQ(uint64_t(1048576), parseCacheSize("1048576"));
  EXPECT_EQ(uint64_t(0), parseCacheSize("0"));
  for (const char *Bad : {"", "G", "-1", "2X", "2GG", "1.5G", "99999999999999999T"})
    EXPECT_FALSE(parseCacheSize(Bad)) << Bad;
  EXPECT_EQ("512 B", formatBytes(512));
  EXPECT_EQ("1.5 GiB", formatBytes(uint64_t(3) << 29));
}

class HeaderCacheFolder : public ::testing::Test {
protected:
  void SetUp() override { Dir = makeTempDir(); }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  /// An entry of \p Bytes bytes last used \p SecondsAgo seconds ago.
  std::string entry(const std::string &Name, size_t Bytes, int SecondsAgo) {
    std::string Path = Dir + "/" + Name;
    llvm::sys::fs::create_directories(Dir);
    EXPECT_EQ("", HeaderCache(Dir, 0).claim(Path));
    writeFile(Path + "/prefix.pch", std::string(Bytes, 'x'));
    writeFile(Path + "/used", "");
    setTime(Path + "/used", SecondsAgo);
    setTime(Path + "/prefix.pch", SecondsAgo);
    return Path;
  }
  void setTime(const std::string &Path, int SecondsAgo) {
    int FD;
    ASSERT_FALSE(llvm::sys::fs::openFileForWrite(Path, FD, llvm::sys::fs::CD_OpenExisting,
                                                 llvm::sys::fs::OF_Append));
    llvm::sys::fs::setLastAccessAndModificationTime(FD, std::chrono::system_clock::now() -
                                                            std::chrono::seconds(SecondsAgo));
    ::close(FD);
  }
  std::string Dir;
};

// Issue 49, item 13: runs that start together on an empty cache each take
// the entry another one is making; none takes it for a foreign folder (its
// marker was still being written).
TEST_F(HeaderCacheFolder, EntriesClaimedTogetherAreAllOwn) {
  for (int Round = 0; Round < 40; ++Round) {
    std::string Path = Dir + "/pch-" + std::to_string(Round);
    std::vector<std::string> Errors(4);
    std::vector<std::thread> Runs;
    for (std::string &Error : Errors)
      Runs.emplace_back([&] { Error = HeaderCache(Dir, 0).claim(Path); });
    for (std::thread &Run : Runs)
      Run.join();
    for (const std::string &Error : Errors)
      ASSERT_EQ("", Error) << "round " << Round;
    EXPECT_TRUE(HeaderCache::isOwnEntry(Path));
  }
  EXPECT_EQ(40u, HeaderCache(Dir, 0).entries().size());
  EXPECT_TRUE(HeaderCache(Dir, 0).foreignEntries().empty());
}

// Issue 49, item 17: a cache entry's inventory or header that is a FIFO
// is neither read nor written (either blocked until killed): it is removed,
// and the entry rebuilt.
TEST_F(HeaderCacheFolder, AnEntryFileThatIsNotARegularFileIsRemovedNotRead) {
  llvm::sys::fs::create_directories(Dir);
  std::string Fifo = Dir + "/inputs";
  ASSERT_EQ(0, ::mkfifo(Fifo.c_str(), 0600));
  EXPECT_EQ("", readCacheFile(Fifo));
  EXPECT_FALSE(llvm::sys::fs::exists(Fifo));
  writeFile(Dir + "/prefix.h", "#include <a.h>\n");
  EXPECT_EQ("#include <a.h>\n", readCacheFile(Dir + "/prefix.h"));
  EXPECT_EQ("", readCacheFile(Dir + "/missing"));
}

// Least recently used entries go first, until the rest fits; an entry in
// use is kept, and using an entry makes it the most recent. Files that are
// not the cache's own entries are never touched.
TEST_F(HeaderCacheFolder, EvictsLeastRecentlyUsedFirst) {
  std::string Old = entry("pch-old", 4000, 300), Mid = entry("pch-mid", 4000, 200),
              New = entry("pch-new", 4000, 100), Keep = entry("pch-keep", 4000, 400);
  writeFile(Dir + "/notes.txt", std::string(10000, 'n'));
  HeaderCache Cache(Dir, 9000);
  std::vector<CacheEntry> All = Cache.entries();
  ASSERT_EQ(4u, All.size());
  EXPECT_EQ(Keep, All.front().Path);
  EXPECT_EQ(New, All.back().Path);
  // The PCH and the entry's marker.
  EXPECT_GT(All.front().Bytes, 4000u);
  EXPECT_LT(All.front().Bytes, 4200u);

  HeaderCache::touch(Old); // Now the most recent.
  EXPECT_LE(Cache.evict({Keep}), 9000u);
  EXPECT_TRUE(fileExists(Keep));
  EXPECT_TRUE(fileExists(Old));
  EXPECT_FALSE(fileExists(Mid));
  EXPECT_FALSE(fileExists(New));
  EXPECT_TRUE(fileExists(Dir + "/notes.txt"));

  EXPECT_EQ("", Cache.clear());
  EXPECT_TRUE(Cache.entries().empty());
  EXPECT_TRUE(fileExists(Dir + "/notes.txt"));
}

// Issue 31, item 5: eviction and `cache --clear` remove only folders that
// kernel-tidy made (its marker, or the files versions before the marker
// wrote), never a user's own pch-* folder, and a new entry never takes one.
TEST_F(HeaderCacheFolder, OnlyEntriesKernelTidyMadeAreRemoved) {
  std::string Own = entry("pch-own", 4000, 300);
  std::string Thesis = Dir + "/pch-thesis";
  llvm::sys::fs::create_directories(Thesis);
  writeFile(Thesis + "/chapter1.tex", std::string(8000, 't'));
  writeFile(Thesis + "/used", "");
  setTime(Thesis + "/used", 900);
  // Looks like an entry (a PCH, a use time) but kernel-tidy wrote no header there.
  std::string Fake = Dir + "/pch-fake";
  llvm::sys::fs::create_directories(Fake);
  writeFile(Fake + "/prefix.pch", std::string(8000, 'p'));
  // What versions before the marker wrote is still the cache's own.
  std::string Legacy = Dir + "/pch-legacy";
  llvm::sys::fs::create_directories(Legacy);
  writeFile(Legacy + "/prefix.h", "// kernel-tidy: the preamble of one or more files\n");
  writeFile(Legacy + "/prefix.pch", std::string(4000, 'l'));

  HeaderCache Cache(Dir, 1000);
  std::vector<CacheEntry> All = Cache.entries();
  ASSERT_EQ(2u, All.size());
  EXPECT_EQ((std::vector<std::string>{Fake, Thesis}), Cache.foreignEntries());
  EXPECT_NE("", Cache.claim(Thesis)) << "a new entry never takes a foreign folder";
  EXPECT_FALSE(HeaderCache::isOwnEntry(Thesis));

  EXPECT_LE(Cache.evict({}), 1000u);
  EXPECT_FALSE(fileExists(Own));
  EXPECT_FALSE(fileExists(Legacy));
  EXPECT_EQ(std::string(8000, 't'), readFile(Thesis + "/chapter1.tex"));
  EXPECT_TRUE(fileExists(Fake + "/prefix.pch"));

  entry("pch-again", 10, 0);
  ::setenv("KERNEL_TIDY_CACHE_DIR", Dir.c_str(), 1);
  ProcessResult R = runKernelTidy({"cache", "--clear"});
  ::setenv("KERNEL_TIDY_CACHE_DIR", testCacheDir().c_str(), 1);
  EXPECT_EQ(0, R.ExitCode) << R.Err;
  EXPECT_NE(std::string::npos, R.Out.find("removed 1 entries")) << R.Out;
  EXPECT_NE(std::string::npos, R.Err.find("kept '" + Thesis + "'")) << R.Err;
  EXPECT_TRUE(fileExists(Thesis + "/chapter1.tex"));
  EXPECT_TRUE(fileExists(Fake + "/prefix.pch"));
  EXPECT_FALSE(fileExists(Dir + "/pch-again"));
}

/// A kernel-tidy run of the butterfly fixture with KERNEL_TIDY_CACHE_DIR
/// and KERNEL_TIDY_CACHE_SIZE (unset when empty).
ProcessResult runWithCache(std::vector<std::string> Args, const std::string &CacheDir,
                           const std::string &Size = "") {
  ::setenv("KERNEL_TIDY_CACHE_DIR", CacheDir.c_str(), 1);
  if (!Size.empty())
    ::setenv("KERNEL_TIDY_CACHE_SIZE", Size.c_str(), 1);
  ProcessResult R = runKernelTidy(Args);
  ::setenv("KERNEL_TIDY_CACHE_DIR", testCacheDir().c_str(), 1);
  ::unsetenv("KERNEL_TIDY_CACHE_SIZE");
  return R;
}

// A cache that cannot be used never fails a run: the report is the plain
// parse's, and one warning says why. A limit smaller than one entry keeps
// nothing; a cache folder that cannot be created, and an entry whose
// inventory is garbage (rebuilt), are the other cases.
TEST_F(HeaderCacheFolder, ACacheProblemWarnsOnceAndTheRunGoesOn) {
  std::string A = Dir + "/a.cpp", B = Dir + "/b.cpp";
  std::string Source = readFile(sourceDir() + "/test/fixtures/luisa-butterfly-reduction/"
                                              "max-straight-line.cpp");
  writeFile(A, Source);
  writeFile(B, Source);
  std::vector<std::string> Args{"check", "--bundled-model", "--diff", A, B};
  std::string Cache = Dir + "/cache";
  ProcessResult Plain =
      runWithCache({"check", "--bundled-model", "--no-pch", "--diff", A, B}, Cache);
  ASSERT_EQ(1, Plain.ExitCode) << Plain.Err;
  EXPECT_EQ(2u, count(Plain.Out, "+++ ")) << Plain.Out;

  auto Expect = [&](const ProcessResult &R, const std::string &Warning) {
    EXPECT_EQ(Plain.ExitCode, R.ExitCode) << R.Err;
    EXPECT_EQ(Plain.Out, R.Out);
    EXPECT_EQ(Warning.empty() ? 0u : 1u, count(R.Err, "kernel-tidy: warning:")) << R.Err;
    EXPECT_NE(std::string::npos, R.Err.find(Warning)) << R.Err;
  };
  // Limits smaller than the one entry the run needs: by variable and flag.
  Expect(runWithCache(Args, Cache, "1K"), "is limited to 1.0 KiB");
  EXPECT_TRUE(HeaderCache(Cache, 0).entries().empty());
  std::vector<std::string> Flag = Args;
  Flag.insert(Flag.begin() + 1, {"--cache-size", "2K"});
  Expect(runWithCache(Flag, Cache, "10G"), "is limited to 2.0 KiB");
  EXPECT_TRUE(HeaderCache(Cache, 0).entries().empty());
  Expect(runWithCache(Args, Cache, "lots"), "ignoring KERNEL_TIDY_CACHE_SIZE='lots'");

  // Under a regular file: no folder can be made there, even as root.
  writeFile(Dir + "/file", "");
  Expect(runWithCache(Args, Dir + "/file/cache"), "header cache: cannot create");

  // Used normally, then the inventory damaged: rebuilt, same report.
  Expect(runWithCache(Args, Cache), "");
  std::vector<CacheEntry> Entries = HeaderCache(Cache, 0).entries();
  ASSERT_EQ(1u, Entries.size());
  writeFile(Entries[0].Path + "/inputs", std::string("\0garbage 1 2\n", 13));
  Expect(runWithCache(Args, Cache), "");
  EXPECT_EQ(1u, HeaderCache(Cache, 0).entries().size());

  // `cache --stats` and `--clear` on that folder.
  ProcessResult Stats = runWithCache({"cache", "--stats", "--cache-size", "3G"}, Cache);
  EXPECT_EQ(0, Stats.ExitCode) << Stats.Err;
  EXPECT_NE(std::string::npos, Stats.Out.find("folder:  " + Cache + "\n")) << Stats.Out;
  EXPECT_NE(std::string::npos, Stats.Out.find("entries: 1\n")) << Stats.Out;
  EXPECT_NE(std::string::npos, Stats.Out.find("limit:   3.0 GiB")) << Stats.Out;
  ProcessResult Clear = runWithCache({"cache", "--clear"}, Cache);
  EXPECT_EQ(0, Clear.ExitCode) << Clear.Err;
  EXPECT_NE(std::string::npos, Clear.Out.find("removed 1 entries")) << Clear.Out;
  EXPECT_NE(std::string::npos, runWithCache({"cache"}, Cache).Out.find("entries: 0\n"));
}

} // namespace
} // namespace kernel_tidy::test
