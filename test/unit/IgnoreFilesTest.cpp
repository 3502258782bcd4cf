//===--- IgnoreFilesTest.cpp - .gitignore as git reads it -----------------===//

#include "src/driver/IgnoreFiles.h"
#include "test/unit/TestSupport.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include <gtest/gtest.h>
#include <set>

namespace kernel_tidy::test {
namespace {

class IgnoreFilesTest : public ::testing::Test {
protected:
  void SetUp() override { Dir = makeTempDir(); }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  void put(const std::string &Path, const std::string &Text = "int x;\n") {
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Dir + "/" + Path));
    writeFile(Dir + "/" + Path, Text);
  }

  /// Runs \p Command with bash in \p Dir; its exit code and standard output.
  ProcessResult shell(const std::string &Command) {
    std::string Out = Dir + ".out", Err = Dir + ".err";
    ProcessResult R;
    R.ExitCode = llvm::sys::ExecuteAndWait(
        "/bin/bash",
        {"bash", "-c", "cd '" + Dir + "' && " + Command + " >'" + Out + "' 2>'" + Err + "'"});
    R.Out = readFile(Out);
    R.Err = readFile(Err);
    llvm::sys::fs::remove(Out);
    llvm::sys::fs::remove(Err);
    return R;
  }

  /// Whether a walk from the top leaves \p Path out: it or a folder above
  /// it is ignored (the walk does not enter an ignored folder).
  bool walkIgnores(IgnoreFiles &Ignore, const std::string &Path) {
    llvm::SmallVector<llvm::StringRef> Parts;
    llvm::StringRef(Path).split(Parts, '/');
    std::string At = Dir;
    for (size_t I = 0; I < Parts.size(); ++I) {
      At += "/" + Parts[I].str();
      bool IsDir = I + 1 < Parts.size();
      if (Ignore.ignored(At, IsDir))
        return true;
      if (IsDir)
        Ignore.enter(At);
    }
    return false;
  }

  std::string Dir;
};

// Checked against git itself: for every file of a tree with nested
// .gitignore files and .git/info/exclude, IgnoreFiles leaves out exactly
// what `git check-ignore` calls ignored.
TEST_F(IgnoreFilesTest, IgnoresWhatGitIgnores) {
  if (!llvm::sys::findProgramByName("git"))
    GTEST_SKIP() << "git is not installed";
  ASSERT_EQ(0, shell("git init -q .").ExitCode);
  put(".gitignore", "# a comment\n"
                    "build/\n"
                    "*.o\n"
                    "!keep.o\n"
                    "/top.cpp\n"
                    "docs/**/gen.cpp\n"
                    "a/**/b\n"
                    "\\#hash.cpp\n"
                    "trailing.cpp   \n"
                    "sub/nested/*.h\n"
                    "deep/**\n"
                    "!deep/kept.cpp\n"
                    "[xy]z.cpp\n"
                    "\\!bang.cpp\n");
  put("sub/.gitignore", "local.cpp\n*.hpp\n!important.hpp\n/anchored.cpp\n");
  put(".git/info/exclude", "excluded.cpp\n");
  const std::vector<std::string> Files = {"build/x.cpp",
                                          "src/build/y.cpp",
                                          "sub/build",
                                          "x.o",
                                          "sub/y.o",
                                          "keep.o",
                                          "top.cpp",
                                          "sub/top.cpp",
                                          "docs/gen.cpp",
                                          "docs/a/b/gen.cpp",
                                          "docs/gen2.cpp",
                                          "a/b/f.cpp",
                                          "a/x/y/b/f.cpp",
                                          "a/bb/f.cpp",
                                          "#hash.cpp",
                                          "trailing.cpp",
                                          "sub/nested/z.h",
                                          "sub/nested/more/z.h",
                                          "sub/local.cpp",
                                          "local.cpp",
                                          "sub/deep/local.cpp",
                                          "sub/a.hpp",
                                          "sub/important.hpp",
                                          "a.hpp",
                                          "excluded.cpp",
                                          "sub/excluded.cpp",
                                          "deep/one.cpp",
                                          "deep/kept.cpp",
                                          "xz.cpp",
                                          "zz.cpp",
                                          "!bang.cpp",
                                          "sub/anchored.cpp",
                                          "sub/x/anchored.cpp",
                                          "plain.cpp"};
  for (const std::string &F : Files)
    put(F);
  std::string Stdin;
  for (const std::string &F : Files)
    Stdin += F + "\n";
  writeFile(Dir + ".paths", Stdin);
  ProcessResult Git = shell("git check-ignore --stdin < '" + Dir + ".paths'");
  llvm::sys::fs::remove(Dir + ".paths");
  ASSERT_LE(Git.ExitCode, 1) << Git.Err;
  std::set<std::string> GitIgnores;
  llvm::SmallVector<llvm::StringRef> Lines;
  llvm::StringRef(Git.Out).split(Lines, '\n', -1, false);
  for (llvm::StringRef L : Lines)
    GitIgnores.insert(L.str());
  ASSERT_GE(GitIgnores.size(), 10u) << Git.Out;
  for (const std::string &F : Files) {
    IgnoreFiles Ignore(Dir);
    EXPECT_EQ(GitIgnores.count(F) == 1, walkIgnores(Ignore, F)) << F;
  }
}

// .ignore (ripgrep's and Ruff's) applies as .gitignore does, outside a
// repository too, and wins over .gitignore in its folder.
TEST_F(IgnoreFilesTest, DotIgnoreWinsOverGitignoreOutsideARepository) {
  put(".gitignore", "vendor/\ngenerated.cpp\n");
  put(".ignore", "!generated.cpp\nscratch.cpp\n");
  IgnoreFiles Ignore(Dir);
  EXPECT_TRUE(Ignore.ignored(Dir + "/vendor", /*IsDir=*/true));
  EXPECT_FALSE(Ignore.ignored(Dir + "/vendor", /*IsDir=*/false)) << "vendor/ names a folder";
  EXPECT_FALSE(Ignore.ignored(Dir + "/generated.cpp", false));
  EXPECT_TRUE(Ignore.ignored(Dir + "/scratch.cpp", false));
  EXPECT_FALSE(Ignore.ignored(Dir + "/kernel.cpp", false));
}

// `kernel-tidy check .` walks past what .gitignore ignores, unless told
// --no-respect-gitignore, and lists `k.cpp`, not `./k.cpp`; a file named
// on the command line is checked even when ignored.
TEST_F(IgnoreFilesTest, CheckWalksRespectIgnoreFiles) {
  const std::string Kernel = "#include <luisa/dsl/syntax.h>\n"
                             "int k = 1;\n";
  put("k.cpp", Kernel);
  put("build/gen.cpp", Kernel);
  put(".gitignore", "build/\n");
  std::string Run = "'" KERNEL_TIDY_BINARY "' check --format junit";
  auto Files = [](const std::string &Junit) {
    std::set<std::string> Names;
    for (llvm::StringRef Rest = Junit; Rest.contains("classname=\"");) {
      Rest = Rest.split("classname=\"").second;
      Names.insert(Rest.take_until([](char C) { return C == '"'; }).str());
    }
    return Names;
  };
  ProcessResult R = shell(Run + " .");
  EXPECT_EQ(0, R.ExitCode) << R.Err;
  EXPECT_EQ(std::set<std::string>{"k.cpp"}, Files(R.Out)) << R.Out;
  R = shell(Run + " --no-respect-gitignore .");
  EXPECT_EQ(0, R.ExitCode) << R.Err;
  EXPECT_EQ((std::set<std::string>{"build/gen.cpp", "k.cpp"}), Files(R.Out)) << R.Out;
  R = shell(Run + " build/gen.cpp");
  EXPECT_EQ((std::set<std::string>{"build/gen.cpp"}), Files(R.Out)) << R.Out;
}

} // namespace
} // namespace kernel_tidy::test
