//===--- FixApplierTest.cpp - Diffs and atomic writes ---------------------===//

#include "src/driver/AtomicFile.h"
#include "src/driver/FixApplier.h"
#include "src/driver/UnifiedDiff.h"
#include "test/unit/TestSupport.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
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

/// What GNU diff prints for the same change (`diff -u --label k.cpp
/// --label k.cpp`), which --diff promises to print (issue 32, item 2).
std::string gnuDiff(const std::string &Dir, const std::string &Before, const std::string &After) {
  writeFile(Dir + "/before", Before);
  writeFile(Dir + "/after", After);
  std::string Out = Dir + "/out";
  llvm::sys::fs::remove(Out); // The redirection does not truncate.
  std::optional<llvm::StringRef> Redirects[] = {std::nullopt, llvm::StringRef(Out), std::nullopt};
  int Code = llvm::sys::ExecuteAndWait(
      "/usr/bin/diff",
      {"diff", "-u", "--label", "k.cpp", "--label", "k.cpp", Dir + "/before", Dir + "/after"},
      std::nullopt, Redirects);
  EXPECT_EQ(Before == After ? 0 : 1, Code);
  return readFile(Out);
}

std::string numberedLines(int From, int To) {
  std::string Text;
  for (int I = From; I <= To; ++I)
    Text += "  float x" + std::to_string(I) + " = a[" + std::to_string(I) + "];\n";
  return Text;
}

TEST(UnifiedDiff, IsWhatGnuDiffPrints) {
  std::string Dir = makeTempDir();
  const std::string Long = numberedLines(1, 5000);
  std::string TwoFar = Long;
  // Two fixes 2,500 lines apart: two small hunks (the old line diff gave
  // up past 4M cells and printed every line between them).
  TwoFar.replace(TwoFar.find("x1000 = a[1000]"), 15, "x1000 = b[1000]");
  TwoFar.replace(TwoFar.find("x3500 = a[3500]"), 15, "x3500 = b[3500]");
  std::string Far = unifiedDiff("k.cpp", Long, TwoFar);
  EXPECT_EQ(2u, llvm::StringRef(Far).count("\n@@ "));
  EXPECT_EQ(20u, llvm::StringRef(Far).count('\n')); // 2 + 2 * 9 lines.
  const std::pair<std::string, std::string> Cases[] = {
      {Long, TwoFar},
      // Lines that repeat: where GNU diff places the change among equals.
      {"{\n}\n\n{\n}\n\n{\n}\n", "{\n}\n\n{\n}\n\n{\n}\n\n{\n}\n"},
      {"a\nb\na\nb\na\nb\nc\n", "a\nb\nc\na\nb\n"},
      {"x\n\n\n\ny\n\n\nz\n", "x\n\ny\n\n\n\n\nz\n"},
      // Ends without a newline, one added or removed.
      {"a\nb\nc", "a\nB\nc"},
      {"a\nb\nc", "a\nb\nc\n"},
      {"a\nb\nc\n", "a\nb"},
      // Empty texts, one-line ranges, changes at both ends.
      {"", "a\n"},
      {"a\n", ""},
      {"a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n", "A\nb\nc\nd\ne\nf\ng\nh\ni\nJ\n"},
      // Changes 6 and 7 unchanged lines apart: one hunk, then two.
      {numberedLines(1, 20), numberedLines(1, 4) + numberedLines(6, 11) + numberedLines(13, 20)},
      {numberedLines(1, 20), numberedLines(1, 4) + numberedLines(6, 12) + numberedLines(14, 20)},
      // A block moved: many equal-cost scripts.
      {numberedLines(1, 40), numberedLines(21, 40) + numberedLines(1, 20)},
  };
  for (const auto &[Before, After] : Cases)
    EXPECT_EQ(gnuDiff(Dir, Before, After), unifiedDiff("k.cpp", Before, After))
        << "before:\n"
        << Before.substr(0, 400) << "after:\n"
        << After.substr(0, 400);
  llvm::sys::fs::remove_directories(Dir);
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
