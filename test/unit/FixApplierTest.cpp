//===--- FixApplierTest.cpp - Diffs and atomic writes ---------------------===//

#include "src/driver/AtomicFile.h"
#include "src/driver/FixApplier.h"
#include "test/unit/TestSupport.h"
#include "llvm/Support/FileSystem.h"
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

namespace kernel_tidy::test {
namespace {

TEST(UnifiedDiff, ShowsChangedLinesWithContext) {
  std::string Before = "a\nb\nc\nd\ne\nf\ng\nh\n";
  std::string After = "a\nb\nc\nD\ne\nf\ng\nh\n";
  EXPECT_EQ("--- x.cpp\n+++ x.cpp\n@@ -1,7 +1,7 @@\n a\n b\n c\n-d\n+D\n e\n f\n g\n",
            unifiedDiff("x.cpp", Before, After));
  EXPECT_EQ("", unifiedDiff("x.cpp", Before, Before));
}

TEST(UnifiedDiff, CountsRemovedLines) {
  std::string Before = "1\n2\n3\n4\n5\n";
  std::string After = "1\nX\n5\n";
  EXPECT_EQ("--- f\n+++ f\n@@ -1,5 +1,3 @@\n 1\n-2\n-3\n-4\n+X\n 5\n",
            unifiedDiff("f", Before, After));
}

class AtomicWrite : public ::testing::Test {
protected:
  void SetUp() override { Dir = makeTempDir(); }
  void TearDown() override {
    chmod(Dir.c_str(), 0755);
    llvm::sys::fs::remove_directories(Dir);
  }
  std::string Dir;
};

TEST_F(AtomicWrite, ReplacesContentsAndKeepsPermissions) {
  std::string Path = Dir + "/k.cpp";
  writeFile(Path, "old\n");
  chmod(Path.c_str(), 0640);
  EXPECT_EQ("", writeFileAtomically(Path, "new\n", "old\n"));
  EXPECT_EQ("new\n", readFile(Path));
  struct stat Info;
  ASSERT_EQ(0, stat(Path.c_str(), &Info));
  EXPECT_EQ(0640u, Info.st_mode & 0777);
  EXPECT_EQ(1u, listFiles(Dir, "").size()) << "a temporary file was left behind";
}

TEST_F(AtomicWrite, RefusesAFileChangedOnDisk) {
  std::string Path = Dir + "/k.cpp";
  writeFile(Path, "edited by someone else\n");
  std::string Error = writeFileAtomically(Path, "new\n", "old\n");
  EXPECT_NE(std::string::npos, Error.find("changed on disk")) << Error;
  EXPECT_EQ("edited by someone else\n", readFile(Path));
}

TEST_F(AtomicWrite, WritesThroughSymlinksToTheTarget) {
  std::string Target = Dir + "/real.cpp", Link = Dir + "/link.cpp";
  writeFile(Target, "old\n");
  ASSERT_EQ(0, symlink(Target.c_str(), Link.c_str()));
  EXPECT_EQ("", writeFileAtomically(Link, "new\n", "old\n"));
  EXPECT_EQ("new\n", readFile(Target));
  EXPECT_TRUE(llvm::sys::fs::is_symlink_file(Link));
}

TEST_F(AtomicWrite, ReadOnlyFolderIsAnErrorAndTheFileIsKept) {
  // Also as root, who could write: the folder's mode is the user's intent.
  std::string Path = Dir + "/k.cpp";
  writeFile(Path, "old\n");
  chmod(Dir.c_str(), 0555);
  std::string Error = writeFileAtomically(Path, "new\n", "old\n");
  chmod(Dir.c_str(), 0755);
  EXPECT_EQ(Path + ": its folder is read-only; not modified", Error);
  EXPECT_EQ("old\n", readFile(Path));
  EXPECT_EQ(1u, listFiles(Dir, "").size()) << "temporary file left behind";
}

TEST_F(AtomicWrite, OneWriterCreatesAndReplacesOutputs) {
  // Baselines, exported fixes and cache files go through the same writer.
  std::string Path = Dir + "/baseline.json";
  mode_t Mask = umask(0022);
  EXPECT_EQ("", writeAtomically(Path, "first\n"));
  umask(Mask);
  EXPECT_EQ("first\n", readFile(Path));
  struct stat Info;
  ASSERT_EQ(0, stat(Path.c_str(), &Info));
  EXPECT_EQ(0644u, Info.st_mode & 0777) << "a new file: 0666 less the umask";
  chmod(Path.c_str(), 0600);
  EXPECT_EQ("", writeAtomically(Path, "second\n"));
  ASSERT_EQ(0, stat(Path.c_str(), &Info));
  EXPECT_EQ(0600u, Info.st_mode & 0777) << "a replaced file keeps its permissions";
  EXPECT_EQ("second\n", readFile(Path));
  EXPECT_EQ(1u, listFiles(Dir, "").size()) << "a temporary file was left behind";

  std::string Error = writeAtomically(Dir + "/no/such/folder/f", "x");
  EXPECT_EQ(0u, Error.find(Dir + "/no/such/folder/f: cannot create a temporary file")) << Error;
}

TEST_F(AtomicWrite, DevicesAreWrittenInPlaceWithErrorsReported) {
  EXPECT_EQ("", writeAtomically("/dev/null", "discarded\n"));
  EXPECT_TRUE(llvm::sys::fs::exists("/dev/null"));
  std::string Error = writeAtomically("/dev/full", "no room\n");
  EXPECT_NE(std::string::npos, Error.find("/dev/full: cannot write")) << Error;
}

} // namespace
} // namespace kernel_tidy::test
