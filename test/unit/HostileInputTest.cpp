//===--- HostileInputTest.cpp - Odd files, folders and databases ----------===//
//
// Inputs a hostile or unlucky user hands over (docs/reliability.md): each
// gets a clear error or a defined result, never a hang, a crash or a pass
// for a file that was not analysed.
//
//===----------------------------------------------------------------------===//

#include "src/driver/AtomicFile.h"
#include "src/driver/FixApplier.h"
#include "src/driver/Nolint.h"
#include "test/unit/Fixture.h"
#include "test/unit/LspClient.h"
#include "test/unit/TestSupport.h"
#include "llvm/Support/Base64.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <thread>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <sys/stat.h>
#include <unistd.h>

namespace kernel_tidy::test {
namespace {

const std::string SafeCase = "/test/fixtures/luisa-butterfly-reduction/max-straight-line";

class HostileInput : public ::testing::Test {
protected:
  void SetUp() override { Dir = makeTempDir(); }
  // Not llvm::sys::fs::remove_directories: it leaves the tests' FIFOs behind.
  void TearDown() override {
    std::error_code Ignored;
    std::filesystem::remove_all(Dir, Ignored);
  }
  std::string put(const std::string &Name, const std::string &Contents) {
    std::string Path = Dir + "/" + Name;
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path));
    writeFile(Path, Contents);
    return Path;
  }
  static std::string safeSource() { return fixtureInput(sourceDir() + SafeCase + ".cpp"); }
  std::string Dir;
};

TEST_F(HostileInput, OnlyRegularFilesAreRead) {
  std::string Fifo = Dir + "/pipe.cpp";
  ASSERT_EQ(0, mkfifo(Fifo.c_str(), 0600));
  ProcessResult R = runKernelTidy({"check", Fifo});
  EXPECT_EQ(2, R.ExitCode);
  EXPECT_NE(std::string::npos, R.Out.find(Fifo + ": error: is not a regular file")) << R.Out;

  R = runKernelTidy({"check", "/dev/zero"});
  EXPECT_EQ(2, R.ExitCode);
  EXPECT_NE(std::string::npos, R.Out.find("/dev/zero: error: is not a regular file")) << R.Out;

  // In a folder, the FIFO is not source code: skipped, the real file checked.
  put("k.cpp", safeSource());
  R = runKernelTidy({"check", Dir});
  EXPECT_EQ(1, R.ExitCode) << R.Out << R.Err;
  EXPECT_EQ(std::string::npos, R.Out.find("pipe.cpp")) << R.Out;
  EXPECT_EQ(1u, count(R.Out, "[luisa-butterfly-reduction]")) << R.Out;
}

TEST_F(HostileInput, SymlinkLoopsAreWalkedOnce) {
  put("src/k.cpp", safeSource());
  // Two links to the parent made the walk exponential; a dangling one is noise.
  ASSERT_EQ(0, symlink("..", (Dir + "/src/up1").c_str()));
  ASSERT_EQ(0, symlink("..", (Dir + "/src/up2").c_str()));
  ASSERT_EQ(0, symlink("missing", (Dir + "/src/gone.cpp").c_str()));
  ProcessResult R = runKernelTidy({"check", Dir + "/src"});
  EXPECT_EQ(1, R.ExitCode) << R.Out << R.Err;
  EXPECT_EQ(1u, count(R.Out, "[luisa-butterfly-reduction]")) << R.Out;
}

TEST_F(HostileInput, ACompileDatabaseWithoutTheFileFailsIt) {
  std::string File = put("src/k.cpp", safeSource());
  put("build/compile_commands.json", "[]");
  ProcessResult R = runKernelTidy({"check", "-p", Dir + "/build", File});
  EXPECT_EQ(2, R.ExitCode) << R.Out << R.Err;
  EXPECT_NE(std::string::npos,
            R.Out.find(File + ": error: cannot analyse: the compilation database has no "
                              "command for it"))
      << R.Out;
  EXPECT_EQ(std::string::npos, R.Err.find("Skipping")) << R.Err;
}

TEST_F(HostileInput, AnUnusableDatabaseIsNamedOnStderr) {
  for (const char *Database : {"{", "{}"}) {
    std::string File = put("k.cpp", safeSource());
    put("compile_commands.json", Database);
    ProcessResult R = runKernelTidy({"check", File});
    // Parsed with the bundled model, and the user is told why.
    EXPECT_EQ(1, R.ExitCode) << Database << R.Out << R.Err;
    EXPECT_NE(std::string::npos,
              R.Err.find("kernel-tidy: warning: ignoring '" + Dir + "/compile_commands.json' ("))
        << Database << R.Err;
    EXPECT_NE(std::string::npos, R.Err.find("): parsed with the bundled DSL model")) << R.Err;
  }
}

TEST_F(HostileInput, ARelativeFileInTheDatabaseIsTheFile) {
  // As Bear and Meson write it: "file" relative to "directory".
  std::string File = put("src/k.cpp", safeSource());
  put("build/compile_commands.json", "[{\"directory\": \"" + Dir +
                                         "/src\", \"file\": \"k.cpp\", \"arguments\": "
                                         "[\"clang++\", \"-std=c++20\", \"-isystem\", \"" +
                                         modelDir() + "\", \"-c\", \"k.cpp\"]}]");
  ProcessResult R = runKernelTidy({"check", "-p", Dir + "/build", "--fix", File});
  EXPECT_EQ(0, R.ExitCode) << R.Out << R.Err;
  EXPECT_EQ(readFile(sourceDir() + SafeCase + ".fixed.cpp"), readFile(File)) << R.Out << R.Err;
}

// Issue 31, items 1 and 2: Python decodes a PEP 263 coding line, a UTF-8 BOM
// and takes a lone CR as a line break; the fix must still land on the bytes
// it names in the file as stored, or the file is refused and left alone.
TEST_F(HostileInput, CuteFixesLandOnTheStoredBytesWhateverTheEncodingOrLineEnds) {
  const std::string Head = "import cutlass\n"
                           "import cutlass.cute as cute\n"
                           "\n"
                           "\n"
                           "@cute.kernel\n"
                           "def k(dst: cute.Tensor):\n"
                           "    tidx, _, _ = cute.arch.thread_idx()\n";
  auto Replace = [](std::string Text, const std::string &From, const std::string &To) {
    for (size_t At = Text.find(From); At != std::string::npos; At = Text.find(From, At + To.size()))
      Text.replace(At, From.size(), To);
    return Text;
  };
  struct Case {
    const char *What;
    std::string Before, After;
  };
  const std::string Latin1 = "# -*- coding: latin-1 -*-\n" + Head +
                             "    m = \"\xE9\xE9\xE9\xE9\xE9\"; dst[tidx // 32 + 45] = tidx\n";
  const std::string Body = "    dst[tidx // 32] = tidx\n";
  const std::string Fixed = "    dst[tidx // cute.arch.WARP_SIZE] = tidx\n";
  std::vector<Case> Cases = {
      {"coding line", Latin1, Replace(Latin1, "// 32 ", "// cute.arch.WARP_SIZE ")},
      {"BOM", "\xEF\xBB\xBF" + Head + "    # \xC3\xA9\n" + Body,
       "\xEF\xBB\xBF" + Head + "    # \xC3\xA9\n" + Fixed},
      {"lone CR line ends", Replace(Head + Body, "\n", "\r"), Replace(Head + Fixed, "\n", "\r")},
      {"a lone CR in a comment", Head + "    # a\r    # b\n" + Body + Body,
       Head + "    # a\r    # b\n" + Fixed + Fixed},
      {"a byte that is not UTF-8 in a comment", Head + "    # \xFF\n" + Body,
       Head + "    # \xFF\n" + Fixed}};
  for (const Case &C : Cases) {
    std::string File = put("k.py", C.Before);
    ProcessResult R = runKernelTidy({"check", "--fix", File});
    EXPECT_EQ(0, R.ExitCode) << C.What << "\n" << R.Out << R.Err;
    EXPECT_EQ(C.After, readFile(File)) << C.What << "\n" << R.Out << R.Err;
  }

  // A stateful encoding has no fixed bytes per character: refused, exit 2, not changed.
  std::string Stateful = "# coding: iso2022_jp\n" + Head + "    # \x1B$BF|K\\\x1B(B\n" + Body;
  std::string File = put("k.py", Stateful);
  ProcessResult R = runKernelTidy({"check", "--fix", File});
  EXPECT_EQ(2, R.ExitCode) << R.Out << R.Err;
  EXPECT_NE(std::string::npos, R.Out.find("positions in it would not be exact")) << R.Out;
  EXPECT_EQ(std::string::npos, R.Out.find("Traceback")) << R.Out;
  EXPECT_EQ(Stateful, readFile(File));
}

// Issue 31, item 1, for both frontends: an edit whose bytes are not the text
// its frontend reported there is never applied; the file fails instead.
TEST_F(HostileInput, AnEditThatDoesNotReplaceTheReportedTextFailsTheFile) {
  auto Analyzer = modelAnalyzer({});
  ASSERT_TRUE(Analyzer);
  std::string File = put("k.cpp", safeSource());
  FileResult Result = Analyzer->analyze(File, std::nullopt);
  ASSERT_FALSE(Result.Findings.empty());
  ASSERT_TRUE(Result.Findings[0].FixIt);
  Edit &First = Result.Findings[0].FixIt->Edits[0];
  ASSERT_TRUE(First.Replaced) << "the C++ frontend names the text it replaces";
  EXPECT_EQ(Result.Original.substr(First.Begin.Offset, First.End.Offset - First.Begin.Offset),
            *First.Replaced);
  First.Replaced = "x" + *First.Replaced;
  applyFixes(Result, *Analyzer, /*IncludeUnsafe=*/true);
  EXPECT_FALSE(Result.Fixed);
  ASSERT_EQ(1u, Result.Errors.size());
  EXPECT_NE(std::string::npos, Result.Errors[0].Message.find("does not replace the text"))
      << Result.Errors[0].Message;
}

// Issue 31, item 9: every field of the frontend's reply is type-checked like
// any untrusted JSON: a version "1" (a string) is an error of the file, not
// an abort that leaves the request's temporary files behind.
TEST_F(HostileInput, AFrontendReplyOfTheWrongTypesIsAnErrorOfTheFile) {
  std::string Python = put("fake-python", "#!/bin/sh\nhead -n 1 > /dev/null\n"
                                          "printf '{\"version\":\"2\",\"findings\":[]}\\n'\n");
  ASSERT_EQ(0, ::chmod(Python.c_str(), 0755));
  std::string File = put("k.py", "import cutlass\n");
  std::string Temp = Dir + "/tmp";
  llvm::sys::fs::create_directories(Temp);
  std::string Out = Dir + "/out.txt";
  std::string Script = "TMPDIR='" + Temp + "' KERNEL_TIDY_PYTHON='" + Python +
                       "' exec '" KERNEL_TIDY_BINARY "' check '" + File + "' > '" + Out + "' 2>&1";
  EXPECT_EQ(2, llvm::sys::ExecuteAndWait("/bin/bash", {"bash", "-c", Script})) << readFile(Out);
  EXPECT_NE(std::string::npos, readFile(Out).find("is not protocol version 2")) << readFile(Out);
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Temp, EC), End; It != End && !EC; It.increment(EC))
    ADD_FAILURE() << "left behind: " << It->path();
}

// Issue 31, item 3: an output that is an input or a source file of the run
// would be replaced by JSON or YAML; the run refuses before anything is
// analysed or written.
TEST_F(HostileInput, AnOutputNeverReplacesAnInputOrASourceFile) {
  std::string Source = safeSource();
  std::string A = put("a.cpp", Source), B = put("b.cpp", Source);
  std::string Config = put(".clang-tidy-other", "Checks: 'luisa-*'\n");
  const std::vector<std::vector<std::string>> Refused = {
      {"check", "--write-baseline", A, B}, // The baseline name forgotten.
      {"check", "--export-fixes", B, A},
      {"check", "--fix", "--export-fixes", A, A}, // The export is the input.
      {"check", "--export-fixes", Config, "--config-file", Config, A},
      {"check", "--write-baseline", Dir + "/x.json", "--export-fixes", Dir + "/x.json", A},
      {"check", "--export-fixes", Dir + "/./a.cpp", Dir}}; // Found by the folder walk.
  for (const auto &Args : Refused) {
    writeFile(Dir + "/x.json", "{}");
    ProcessResult R = runKernelTidy(Args);
    std::string Line;
    for (const std::string &Arg : Args)
      Line += Arg + " ";
    EXPECT_EQ(2, R.ExitCode) << Line << "\n" << R.Out << R.Err;
    EXPECT_NE(std::string::npos, R.Err.find("refusing to overwrite it")) << Line << R.Err;
    EXPECT_EQ(Source, readFile(A)) << Line;
    EXPECT_EQ(Source, readFile(B)) << Line;
    EXPECT_EQ("Checks: 'luisa-*'\n", readFile(Config)) << Line;
    EXPECT_EQ("{}", readFile(Dir + "/x.json")) << Line;
  }
  // A new output with a source extension is written, with a warning.
  ProcessResult R = runKernelTidy({"check", "--write-baseline", Dir + "/base.py", A});
  EXPECT_EQ(0, R.ExitCode) << R.Out << R.Err;
  EXPECT_NE(std::string::npos, R.Err.find("has a source file's extension")) << R.Err;
  EXPECT_TRUE(llvm::sys::fs::exists(Dir + "/base.py"));
  // Rewriting the baseline that is read stays possible.
  R = runKernelTidy(
      {"check", "--baseline", Dir + "/base.py", "--write-baseline", Dir + "/base.py", A});
  EXPECT_EQ(2, R.ExitCode) << "base.py now exists and has a source extension: " << R.Err;
  writeFile(Dir + "/base.json", readFile(Dir + "/base.py"));
  R = runKernelTidy(
      {"check", "--baseline", Dir + "/base.json", "--write-baseline", Dir + "/base.json", A});
  EXPECT_EQ(0, R.ExitCode) << R.Out << R.Err;
}

// Issue 31, item 4: an entry with an absolute "file" whose command names the
// source relatively (Bear: `-c k.cpp` in its "directory"; Meson: `-c
// ../src/k.cpp` from the build folder), run from a folder with a k.cpp of its
// own: every path is resolved from the entry's directory, as clang-tidy does,
// so the report, the exported fixes and --fix name the database's file.
TEST_F(HostileInput, RelativeSourcesInDatabaseCommandsAreResolvedFromTheirDirectory) {
  std::string Source = safeSource(), Fixed = readFile(sourceDir() + SafeCase + ".fixed.cpp");
  std::string File = put("src/k.cpp", Source);
  std::string Bystander = put("elsewhere/k.cpp", Source);
  std::string Model = modelDir();
  const std::pair<const char *, std::string> Databases[] = {
      {"Bear", "[{\"directory\": \"" + Dir + "/src\", \"file\": \"" + File +
                   "\", \"arguments\": [\"clang++\", \"-std=c++20\", \"-isystem\", \"" + Model +
                   "\", \"-c\", \"k.cpp\"]}]"},
      {"Meson", "[{\"directory\": \"" + Dir + "/build\", \"file\": \"" + File +
                    "\", \"command\": \"c++ -Isrc -std=c++20 -isystem " + Model +
                    " -o k.o -c ../src/k.cpp\"}]"}};
  for (const auto &[Style, Database] : Databases) {
    writeFile(File, Source);
    put("build/compile_commands.json", Database);
    std::string Out = Dir + "/out.json", Export = Dir + "/fixes.yaml";
    std::string Script = "cd '" + Dir +
                         "/elsewhere' && exec '" KERNEL_TIDY_BINARY
                         "' check --format json --export-fixes '" +
                         Export + "' -p '" + Dir + "/build' '" + File + "' > '" + Out + "' 2>&1";
    EXPECT_EQ(1, llvm::sys::ExecuteAndWait("/bin/bash", {"bash", "-c", Script})) << Style;
    std::string Report = readFile(Out);
    auto Json = nlohmann::json::parse(Report, nullptr, false);
    ASSERT_FALSE(Json.is_discarded()) << Style << Report;
    ASSERT_FALSE(Json["diagnostics"].empty()) << Style << Report;
    for (const auto &Diagnostic : Json["diagnostics"])
      EXPECT_EQ(File, Diagnostic["file"]) << Style << Report;
    // Every path of the export is the database's file, none the bystander.
    std::string Yaml = readFile(Export);
    EXPECT_NE(0u, count(Yaml, File)) << Style << Yaml;
    EXPECT_EQ(count(Yaml, "k.cpp"), count(Yaml, File)) << Style << Yaml;

    Script = "cd '" + Dir + "/elsewhere' && exec '" KERNEL_TIDY_BINARY "' check --fix -p '" + Dir +
             "/build' '" + File + "' > '" + Out + "' 2>&1";
    EXPECT_EQ(0, llvm::sys::ExecuteAndWait("/bin/bash", {"bash", "-c", Script}))
        << Style << readFile(Out);
    EXPECT_EQ(Fixed, readFile(File)) << Style << readFile(Out);
    EXPECT_EQ(Source, readFile(Bystander)) << Style;
  }
}

// Issue 31, items 6 to 8: JSON and YAML nested far deeper than any report,
// baseline, line filter or configuration overflowed the stack of the parser
// (or of nlohmann's recursive copy and dump); now exit 2 naming the input.
TEST_F(HostileInput, DeeplyNestedInputsAreRefusedNotCrashes) {
  std::string File = put("k.cpp", safeSource());
  const size_t Deep = 1000000;
  std::string Open(Deep, '['), Close(Deep, ']');
  // Item 6: a baseline entry, an extra key of a report.
  std::string Baseline = put("deep-baseline.json",
                             "{\"kernel_tidy_baseline\": 1, \"findings\": [" + Open + Close + "]}");
  ProcessResult R = runKernelTidy({"check", "--baseline", Baseline, File});
  EXPECT_EQ(2, R.ExitCode) << R.Err.substr(0, 2000);
  EXPECT_NE(std::string::npos, R.Err.find(Baseline + "': not a kernel-tidy baseline: nested"))
      << R.Err.substr(0, 2000);
  std::string Report =
      put("deep-report.json", "{\"version\": 1, \"diagnostics\": [], \"x\": " + Open + Close + "}");
  R = runKernelTidy({"merge", Report});
  EXPECT_EQ(2, R.ExitCode) << R.Err.substr(0, 2000);
  EXPECT_NE(std::string::npos, R.Err.find(Report + "' is nested more than"))
      << R.Err.substr(0, 2000);
  // Item 7: the line filter.
  R = runKernelTidy({"check", "--line-filter", std::string(60000, '['), File});
  EXPECT_EQ(2, R.ExitCode) << R.Err.substr(0, 2000);
  EXPECT_NE(std::string::npos, R.Err.find("invalid --line-filter: nested"))
      << R.Err.substr(0, 2000);
  // Item 8: `Checks:` and 100,000 '[', by --config-file and as .clang-tidy.
  std::string Config = put("deep.yaml", "Checks: " + std::string(100000, '[') + "\n");
  R = runKernelTidy({"check", "--config-file", Config, File});
  EXPECT_EQ(2, R.ExitCode) << R.Err.substr(0, 2000);
  EXPECT_NE(std::string::npos, R.Err.find(Config + "': nested")) << R.Err.substr(0, 2000);
  put(".clang-tidy", readFile(Config));
  R = runKernelTidy({"check", File});
  EXPECT_EQ(2, R.ExitCode) << R.Out.substr(0, 2000) << R.Err.substr(0, 2000);
  EXPECT_NE(std::string::npos, (R.Out + R.Err).find(".clang-tidy': nested"))
      << R.Out.substr(0, 2000) << R.Err.substr(0, 2000);
}

// Issue 31, item 11: every file the tool reads is a regular file of bounded
// size. /dev/zero or a FIFO as the baseline, the configuration, a report to
// merge, the compile database or an input of a cache entry hung the run.
TEST_F(HostileInput, InputsThatNeverEndAreRefused) {
  std::string File = put("src/k.cpp", safeSource());
  std::string Out = Dir + "/out.txt";
  // `timeout`: a hang fails the test instead of stopping the suite.
  auto Run = [&](const std::string &Env, const std::string &Args) {
    std::string Script = Env + " exec timeout 120 '" KERNEL_TIDY_BINARY "' " + Args + " > '" + Out +
                         "' 2>&1 < /dev/null";
    int Code = llvm::sys::ExecuteAndWait("/bin/bash", {"bash", "-c", Script});
    return std::pair{Code, readFile(Out)};
  };
  auto [Code, Text] = Run("", "check --baseline /dev/zero '" + File + "'");
  EXPECT_EQ(2, Code) << Text;
  EXPECT_NE(std::string::npos, Text.find("'/dev/zero' is not a regular file")) << Text;
  std::tie(Code, Text) = Run("", "check --config-file /dev/zero '" + File + "'");
  EXPECT_EQ(2, Code) << Text;
  EXPECT_NE(std::string::npos, Text.find("is not a regular file")) << Text;
  std::tie(Code, Text) = Run("", "merge /dev/zero");
  EXPECT_EQ(2, Code) << Text;
  EXPECT_NE(std::string::npos, Text.find("'/dev/zero' is not a regular file")) << Text;

  // A database that is a link to /dev/zero, or a FIFO: named, not read.
  ASSERT_EQ(0, symlink("/dev/zero", (Dir + "/src/compile_commands.json").c_str()));
  std::tie(Code, Text) = Run("", "check '" + File + "'");
  EXPECT_EQ(1, Code) << Text;
  EXPECT_NE(std::string::npos, Text.find("compile_commands.json': it is not a regular file"))
      << Text;
  llvm::sys::fs::create_directories(Dir + "/build");
  ASSERT_EQ(0, mkfifo((Dir + "/build/compile_commands.json").c_str(), 0600));
  std::tie(Code, Text) = Run("", "check -p '" + Dir + "/build' '" + File + "'");
  EXPECT_EQ(2, Code) << Text;
  EXPECT_NE(std::string::npos, Text.find("is not a regular file")) << Text;
  llvm::sys::fs::remove(Dir + "/src/compile_commands.json");

  // A cache entry whose inventory names /dev/zero is rebuilt, not read.
  std::string Cache = "KERNEL_TIDY_CACHE_DIR='" + Dir + "/cache'";
  std::tie(Code, Text) = Run(Cache, "check '" + File + "'");
  ASSERT_EQ(1, Code) << Text;
  unsigned Damaged = 0;
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator It(Dir + "/cache", EC), End; It != End && !EC;
       It.increment(EC))
    if (llvm::sys::path::filename(It->path()) == "inputs") {
      writeFile(It->path(), readFile(It->path()) + "0 0 0 /dev/zero\n");
      ++Damaged;
    }
  ASSERT_NE(0u, Damaged);
  std::tie(Code, Text) = Run(Cache, "check '" + File + "'");
  EXPECT_EQ(1, Code) << Text;
  EXPECT_EQ(1u, count(Text, "[luisa-butterfly-reduction]")) << Text;
}

// Issue 31, item 20: valid Python that Python's tokenizer reads differently
// from its bytes (lone CR line ends, a byte that is not UTF-8 in a comment)
// is analysed at the right place; code nested too deeply for Python's own
// parser (it raises MemoryError, not RecursionError) is one clear error of
// the file, not a 30-line traceback of the frontend.
TEST_F(HostileInput, ValidPythonTheFrontendCannotReadIsOneClearError) {
  const std::string Kernel = "import cutlass\nimport cutlass.cute as cute\n@cute.kernel\n"
                             "def k(dst: cute.Tensor):\n    tidx, _, _ = cute.arch.thread_idx()\n"
                             "    # \xFF\n    dst[tidx // 32] = tidx\n";
  std::string CrOnly = Kernel;
  std::replace(CrOnly.begin(), CrOnly.end(), '\n', '\r');
  for (const std::string &Text : {CrOnly, Kernel}) {
    std::string File = put("k.py", Text);
    ProcessResult R = runKernelTidy({"check", "--fix", File});
    EXPECT_EQ(0, R.ExitCode) << R.Out << R.Err;
    EXPECT_EQ(1u, count(R.Out + R.Err, "(1 fixed, 0 remaining)")) << R.Out << R.Err;
    std::string Fixed = Text;
    Fixed.replace(Fixed.find("// 32"), 5, "// cute.arch.WARP_SIZE");
    EXPECT_EQ(Fixed, readFile(File));
  }
  std::string File = put("k.py", "import cutlass\nx = " + std::string(100000, '-') + "1\n");
  ProcessResult R = runKernelTidy({"check", File});
  EXPECT_EQ(2, R.ExitCode) << R.Out << R.Err;
  EXPECT_NE(std::string::npos, R.Out.find("nested too deeply for Python's parser")) << R.Out;
  EXPECT_EQ(std::string::npos, (R.Out + R.Err).find("Traceback")) << R.Out << R.Err;
}

const char *const CuteKernel = "import cutlass\n"
                               "import cutlass.cute as cute\n"
                               "@cute.kernel\n"
                               "def k(dst: cute.Tensor):\n"
                               "    tidx, _, _ = cute.arch.thread_idx()\n"
                               "    dst[tidx // 32] = tidx\n"
                               "    dst[tidx % 32] = tidx\n";

/// Runs `kernel-tidy ARGS` in bash with ENV before it; exit code and output.
std::pair<int, std::string> runWithEnvironment(const std::string &Dir, const std::string &Env,
                                               const std::string &Args) {
  std::string Out = Dir + "/run-output";
  std::string Script = Env + " '" KERNEL_TIDY_BINARY "' " + Args + " > '" + Out + "' 2>&1";
  int Code = llvm::sys::ExecuteAndWait("/bin/bash", {"bash", "-c", Script});
  return {Code, readFile(Out)};
}

// Issue 31, item 14: --line-filter holds for .py files: a finding outside
// the lines is neither reported nor fixed.
TEST_F(HostileInput, LineFilterHoldsForPythonFiles) {
  std::string File = put("k.py", CuteKernel);
  std::string Filter = R"(--line-filter=[{"name":"k.py","lines":[[7,7]]}])";
  ProcessResult R = runKernelTidy({"check", Filter, File});
  EXPECT_EQ(1, R.ExitCode) << R.Out << R.Err;
  EXPECT_EQ(std::string::npos, R.Out.find(File + ":6:")) << R.Out;
  EXPECT_NE(std::string::npos, R.Out.find(File + ":7:16: warning:")) << R.Out;
  R = runKernelTidy({"check", "--fix", Filter, File});
  EXPECT_EQ(0, R.ExitCode) << R.Out << R.Err;
  EXPECT_NE(std::string::npos, readFile(File).find("dst[tidx // 32]")) << readFile(File);
  EXPECT_NE(std::string::npos, readFile(File).find("dst[tidx % cute.arch.WARP_SIZE]"));
}

// Issue 31, item 21: KERNEL_TIDY_PYTHON=python3 is looked up on PATH, as a
// shell would; a name that is not there is one clear error.
TEST_F(HostileInput, KernelTidyPythonIsLookedUpOnPath) {
  std::string File = put("k.py", CuteKernel);
  auto [Code, Text] = runWithEnvironment(Dir, "KERNEL_TIDY_PYTHON=python3", "check '" + File + "'");
  EXPECT_EQ(1, Code) << Text;
  EXPECT_NE(std::string::npos, Text.find("[cute-hardcoded-warp-width]")) << Text;
  std::tie(Code, Text) =
      runWithEnvironment(Dir, "KERNEL_TIDY_PYTHON=no-such-python3", "check '" + File + "'");
  EXPECT_EQ(2, Code) << Text;
  EXPECT_NE(std::string::npos,
            Text.find("KERNEL_TIDY_PYTHON names 'no-such-python3', which is not on PATH"))
      << Text;
}

// Issue 32, item 6 and issue 31, item 13: one frontend process serves every
// .py file of a worker, through pipes: no temporary file at all.
TEST_F(HostileInput, OneFrontendProcessServesManyFilesWithoutTemporaryFiles) {
  for (int I = 0; I < 4; ++I)
    put("src/k" + std::to_string(I) + ".py", CuteKernel);
  std::string Python = put("python", "#!/bin/sh\necho $$ >> '" + Dir +
                                         "/starts'\n"
                                         "exec python3 \"$@\"\n");
  ASSERT_EQ(0, ::chmod(Python.c_str(), 0755));
  llvm::sys::fs::create_directories(Dir + "/tmp");
  auto [Code, Text] =
      runWithEnvironment(Dir, "TMPDIR='" + Dir + "/tmp' KERNEL_TIDY_PYTHON='" + Python + "'",
                         "check -j1 --fix '" + Dir + "/src'");
  EXPECT_EQ(0, Code) << Text;
  EXPECT_EQ(1u, count(readFile(Dir + "/starts"), "\n")) << "one interpreter for 4 files + fixes";
  EXPECT_EQ(std::string::npos, readFile(Dir + "/src/k3.py").find("// 32"));
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir + "/tmp", EC), End; It != End && !EC;
       It.increment(EC))
    ADD_FAILURE() << "left behind: " << It->path();
}

/// Whether process \p Pid is gone (or a zombie nobody waits for yet).
bool processGone(const std::string &Pid) {
  std::string Status = readFile("/proc/" + Pid + "/stat");
  size_t Paren = Status.rfind(')');
  return Status.empty() || (Paren != std::string::npos && Status.substr(Paren + 2, 1) == "Z");
}

// Issue 31, item 10: an interpreter that never answers costs one timeout
// for the run, not one per file, and the message names the interpreter and
// the file it was on; it does not outlive the run.
TEST_F(HostileInput, AFrontendThatNeverAnswersCostsOneTimeout) {
  for (int I = 0; I < 3; ++I)
    put("src/k" + std::to_string(I) + ".py", CuteKernel);
  std::string Python = put("python", "#!/bin/sh\necho $$ >> '" + Dir + "/pids'\nexec sleep 1000\n");
  ASSERT_EQ(0, ::chmod(Python.c_str(), 0755));
  auto Start = std::chrono::steady_clock::now();
  auto [Code, Text] =
      runWithEnvironment(Dir, "KERNEL_TIDY_PYTHON_TIMEOUT=1 KERNEL_TIDY_PYTHON='" + Python + "'",
                         "check -j1 --fix '" + Dir + "/src'");
  EXPECT_LT(std::chrono::steady_clock::now() - Start, std::chrono::seconds(20));
  EXPECT_EQ(2, Code) << Text;
  EXPECT_NE(std::string::npos, Text.find("the CuTe DSL frontend ('" + Python +
                                         "') did not answer within 1 s on " + Dir + "/src/k0.py"))
      << Text;
  EXPECT_EQ(2u, count(Text, "not analysed: ")) << Text;
  std::string Pids = readFile(Dir + "/pids");
  ASSERT_EQ(1u, count(Pids, "\n")) << Pids;
  EXPECT_TRUE(processGone(llvm::StringRef(Pids).trim().str())) << Pids;
  EXPECT_EQ(CuteKernel, readFile(Dir + "/src/k0.py"));
}

// Issue 31, item 13: SIGTERM or SIGINT to kernel-tidy ends the frontend
// with it, and so does SIGKILL (the frontend sees its parent gone).
TEST_F(HostileInput, TheFrontendEndsWithItsParent) {
  // The real frontend, on a file big enough to keep it busy for seconds.
  std::string Big = "import cutlass\nimport cutlass.cute as cute\n";
  for (int I = 0; Big.size() < 1000000; ++I)
    Big += "@cute.kernel\ndef k" + std::to_string(I) +
           "(dst: cute.Tensor):\n    tidx, _, _ = cute.arch.thread_idx()\n"
           "    dst[tidx // 32] = tidx\n";
  std::string BigFile = put("big.py", Big);
  std::string Python = put("python", "#!/bin/sh\necho $$ > '" + Dir +
                                         "/pid'\n"
                                         "exec python3 \"$@\"\n");
  ASSERT_EQ(0, ::chmod(Python.c_str(), 0755));
  for (const char *Signal : {"TERM", "INT", "KILL"}) {
    llvm::sys::fs::remove(Dir + "/pid");
    std::string Script = "KERNEL_TIDY_PYTHON='" + Python + "' '" KERNEL_TIDY_BINARY "' check '" +
                         BigFile +
                         "' > /dev/null 2>&1 & tidy=$!\n"
                         "for i in $(seq 100); do [ -s '" +
                         Dir +
                         "/pid' ] && break; sleep 0.1; done\n"
                         "sleep 0.5; kill -" +
                         Signal + " $tidy; wait $tidy\n";
    llvm::sys::ExecuteAndWait("/bin/bash", {"bash", "-c", Script});
    std::string Pid = llvm::StringRef(readFile(Dir + "/pid")).trim().str();
    ASSERT_FALSE(Pid.empty()) << Signal;
    bool Gone = false;
    for (int Try = 0; Try < 100 && !(Gone = processGone(Pid)); ++Try)
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_TRUE(Gone) << "SIG" << Signal << ": the frontend " << Pid << " outlived kernel-tidy";
  }
}

// The hostile pass of issue 31: an interpreter that crashes, answers
// garbage, stops mid-answer or floods its output fails the file with a
// message naming it (exit 2), never hangs, and nothing is written.
TEST_F(HostileInput, AFrontendThatMisbehavesFailsTheFileAndChangesNothing) {
  std::string File = put("k.py", CuteKernel);
  struct Case {
    const char *Script, *Expected;
  };
  const Case Cases[] = {
      {"head -n 1 > /dev/null; kill -SEGV $$", "ended (signal 11) on "},
      {"echo 'Traceback: no' >&2; exit 3", "ended (exit 3) on "},
      {"head -n 1 > /dev/null; echo garbage", "is not protocol version 2: garbage"},
      {"head -n 1 > /dev/null; printf '{\"version\": 2, \"find'; exit 0", "ended (exit 0) on "},
      {"head -n 1 > /dev/null; head -c 80000000 /dev/zero", "wrote an answer of more than"},
      {"head -n 1 > /dev/null; a='{\"version\": 2, \"findings\": []}'; printf '%s\\n%s\\n' \"$a\" "
       "\"$a\"",
       "answered more than once on "},
  };
  for (const Case &C : Cases) {
    std::string Python = put("python", std::string("#!/bin/sh\n") + C.Script + "\n");
    ASSERT_EQ(0, ::chmod(Python.c_str(), 0755));
    auto [Code, Text] = runWithEnvironment(Dir, "KERNEL_TIDY_PYTHON='" + Python + "'",
                                           "check --fix '" + File + "'");
    EXPECT_EQ(2, Code) << C.Script << "\n" << Text;
    EXPECT_NE(std::string::npos, Text.find("the CuTe DSL frontend ('" + Python + "')"))
        << C.Script << "\n"
        << Text;
    EXPECT_NE(std::string::npos, Text.find(C.Expected)) << C.Script << "\n" << Text;
    EXPECT_EQ(CuteKernel, readFile(File)) << C.Script;
  }
  // An answer before the request was read (the file is larger than what a
  // socket holds, so it cannot have been read) belongs to no file.
  std::string Big = put("big.py", CuteKernel + std::string(2000000, '#') + "\n");
  std::string Python = put("python", "#!/bin/sh\necho '{\"version\": 2, \"findings\": []}'\n"
                                     "exec sleep 5\n");
  auto [Code, Text] =
      runWithEnvironment(Dir, "KERNEL_TIDY_PYTHON='" + Python + "'", "check '" + Big + "'");
  EXPECT_EQ(2, Code) << Text;
  EXPECT_NE(std::string::npos, Text.find("answered before it had read " + Big)) << Text;
}

TEST_F(HostileInput, KernelClangdRefusesAHugeMessageAsClangdDoes) {
  std::string Input = put("input", "Content-Length: 99999999999\r\n\r\n{}");
  std::string Err = Dir + "/stderr";
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(Input),
                                                llvm::StringRef("/dev/null"), llvm::StringRef(Err)};
  int Code = llvm::sys::ExecuteAndWait(KERNEL_CLANGD_BINARY, {KERNEL_CLANGD_BINARY, "--log=error"},
                                       std::nullopt, Redirects, /*SecondsToWait=*/60);
  // Not an abort (bad_alloc) or a timeout: clangd's own refusal, then end of input.
  EXPECT_GE(Code, 0) << readFile(Err);
  EXPECT_LT(Code, 128) << readFile(Err);
  EXPECT_NE(std::string::npos, readFile(Err).find("Refusing to read message")) << readFile(Err);
}

// Issue 31, item 12: a crash (clangd's JSON parser recurses once per level)
// ends the server although its client keeps the input open; the stack dump
// could block for ever (about one run in two, with clangd-19 too).
TEST_F(HostileInput, KernelClangdExitsAfterACrash) {
  std::string Deep = R"({"jsonrpc":"2.0","method":"x","params":)" + std::string(200000, '[') +
                     std::string(200000, ']') + "}";
  for (int Try = 0; Try < 3; ++Try) {
    LspClient Server({KERNEL_CLANGD_BINARY, "--log=error"}, {}, Dir + "/stderr");
    int Id = Server.request(
        "initialize",
        {{"processId", nullptr}, {"rootUri", nullptr}, {"capabilities", nlohmann::json::object()}});
    ASSERT_TRUE(Server.response(Id, std::chrono::seconds(60))) << readFile(Dir + "/stderr");
    Server.sendRaw("Content-Length: " + std::to_string(Deep.size()) + "\r\n\r\n" + Deep);
    EXPECT_NE(-1, Server.waitExit(std::chrono::seconds(20), /*CloseInput=*/false))
        << "still running 20 s after the crash\n"
        << readFile(Dir + "/stderr");
  }
}

// Issue 31, item 12: the header is read in blocks; a byte per read() took
// over a minute for this 50 MB header line (clangd-19 alone: about 1 s).
TEST_F(HostileInput, KernelClangdReadsAHugeHeaderLineQuickly) {
  std::string Input =
      put("input", "Content-Length: 2\r\nX-Padding: " + std::string(50 << 20, 'x') + "\r\n\r\n{}");
  std::optional<llvm::StringRef> Redirects[] = {
      llvm::StringRef(Input), llvm::StringRef("/dev/null"), llvm::StringRef("/dev/null")};
  int Code = llvm::sys::ExecuteAndWait(KERNEL_CLANGD_BINARY, {KERNEL_CLANGD_BINARY, "--log=error"},
                                       std::nullopt, Redirects, /*SecondsToWait=*/30);
  EXPECT_GE(Code, 0) << "not done in 30 s";
  EXPECT_LT(Code, 128);
}

TEST_F(HostileInput, MalformedBaselinesAndReportsAreErrorsNotCrashes) {
  std::string File = put("k.cpp", safeSource());
  for (
      const char *Baseline :
      {R"({"kernel_tidy_baseline": "1", "findings": []})",
       R"({"kernel_tidy_baseline": 1, "findings": [{"rule": "r", "file": "f", "fingerprint": "x", "message": 7}]})"}) {
    std::string Path = put("baseline.json", Baseline);
    ProcessResult R = runKernelTidy({"check", "--baseline", Path, File});
    EXPECT_EQ(2, R.ExitCode) << Baseline << R.Err;
    EXPECT_NE(std::string::npos, R.Err.find("kernel-tidy: error: ")) << R.Err;
  }
  ProcessResult Good = runKernelTidy({"check", "--format", "sarif", File});
  std::string First = put("first.sarif", Good.Out);
  for (
      const char *Sarif :
      {R"({"version": "2.1.0", "runs": {}})", R"({"version": "2.1.0", "runs": "x"})",
       R"({"version": 2, "runs": []})",
       R"({"diagnostics": [], "summary": {"files": -1, "diagnostics": 0, "fixable": 0, "fixed": 0, "errors": []}})",
       R"({"kernel_tidy_baseline": 1, "findings": "x"})",
       R"({"kernel_tidy_baseline": 1, "findings": [{"rule": "r", "file": "f"}]})",
       R"({"diagnostics": [{"x": 1}], "summary": {"files": 1, "diagnostics": 1, "fixable": 0, "fixed": 0, "errors": []}})",
       R"({"diagnostics": [], "summary": {"files": 1, "diagnostics": 2, "fixable": 0, "fixed": 0, "errors": []}})",
       R"({"diagnostics": [], "summary": {"files": 1, "diagnostics": 0, "fixable": 0, "fixed": 0, "errors": [7]}})",
       R"({"version": "2.1.0", "runs": [{"results": [{"message": {"text": "m"}}], "invocations": [{"executionSuccessful": true, "toolExecutionNotifications": []}]}]})",
       R"({"version": "2.1.0", "runs": [{"results": [], "invocations": []}]})"}) {
    ProcessResult R = runKernelTidy({"merge", First, put("bad.json", Sarif)});
    EXPECT_EQ(2, R.ExitCode) << Sarif << R.Err;
    EXPECT_NE(std::string::npos, R.Err.find("kernel-tidy: error: report 2 ")) << R.Err;
  }
}

TEST_F(HostileInput, AReportThatCannotBeWrittenIsAnError) {
  std::string File = put("k.cpp", safeSource()), Err = Dir + "/stderr";
  std::optional<llvm::StringRef> Redirects[] = {std::nullopt, llvm::StringRef("/dev/full"),
                                                llvm::StringRef(Err)};
  int Code = llvm::sys::ExecuteAndWait(KERNEL_TIDY_BINARY, {KERNEL_TIDY_BINARY, "check", File},
                                       std::nullopt, Redirects, /*SecondsToWait=*/300);
  EXPECT_EQ(2, Code);
  EXPECT_NE(std::string::npos,
            readFile(Err).find("kernel-tidy: error: cannot write the report to standard output"))
      << readFile(Err);
}

// Issue 31, item 15: a shard with no files (3/3 of 2 files) writes valid
// empty reports, so that merging the shards works.
TEST_F(HostileInput, AnEmptyShardWritesValidEmptyReports) {
  std::string A = put("a.cpp", safeSource()), B = put("b.cpp", safeSource());
  for (const char *Format : {"json", "sarif"}) {
    std::vector<std::string> Shards;
    for (const char *Shard : {"1/3", "2/3", "3/3"}) {
      ProcessResult R = runKernelTidy({"check", "--format", Format, "--shard", Shard, A, B});
      EXPECT_EQ(std::string(Shard) == "3/3" ? 0 : 1, R.ExitCode) << Shard << R.Err;
      Shards.push_back(put(std::string("shard") + Shard[0] + "." + Format, R.Out));
    }
    ProcessResult Merged = runKernelTidy({"merge", Shards[0], Shards[1], Shards[2]});
    EXPECT_EQ(0, Merged.ExitCode) << Format << Merged.Err;
    std::string Key = std::string(Format) == "json" ? "\"rule\"" : "\"ruleId\"";
    EXPECT_EQ(2u, count(Merged.Out, Key + ": \"luisa-butterfly-reduction\"")) << Merged.Out;
  }
  std::string Empty = Dir + "/empty.baseline";
  ProcessResult R = runKernelTidy({"check", "--shard", "3/3", "--write-baseline", Empty, A, B});
  EXPECT_EQ(0, R.ExitCode) << R.Err;
  ProcessResult Merged = runKernelTidy({"merge", Empty, Empty});
  EXPECT_EQ(0, Merged.ExitCode) << readFile(Empty) << Merged.Err;
}

// Issue 31, item 16: summary counts are 64-bit (3e9 + 3e9 wrapped at 2^32)
// and a sum past 2^64 is an error, not a wrapped count.
TEST_F(HostileInput, MergedCountsDoNotWrap) {
  auto Report = [&](const std::string &Name, const std::string &Files) {
    return put(Name, R"({"diagnostics": [], "summary": {"files": )" + Files +
                         R"(, "diagnostics": 0, "fixable": 0, "fixed": 0, "errors": []}})");
  };
  ProcessResult R =
      runKernelTidy({"merge", Report("a.json", "3000000000"), Report("b.json", "3000000000")});
  EXPECT_EQ(0, R.ExitCode) << R.Err;
  EXPECT_EQ(6000000000u, nlohmann::json::parse(R.Out)["summary"]["files"].get<uint64_t>());
  R = runKernelTidy({"merge", Report("c.json", "18446744073709551615"), Report("d.json", "1")});
  EXPECT_EQ(2, R.ExitCode) << R.Out;
  EXPECT_NE(std::string::npos, R.Err.find("report 2: the merged summary counts would pass 2^64"))
      << R.Err;
}

// Issue 31, item 17, and issue 32, item 8: a header that two files include
// and that is a file of the run too (named, or found in a folder under
// another spelling) is reported, fixed and counted once.
TEST_F(HostileInput, AHeaderIncludedTwiceAndCheckedItselfIsReportedOnce) {
  std::string Header = put("k.h", safeSource());
  // The DSL headers first, as k.h has them: one shared precompiled parse.
  const std::string Includer =
      "#include <luisa/luisa-compute.h>\n#include <luisa/dsl/sugar.h>\n#include \"k.h\"\n";
  put("a.cpp", Includer);
  put("b.cpp", Includer);
  // The folder (found: a.cpp, b.cpp, k.h); only k.h's findings are wanted:
  // the model's headers would be walked for findings too.
  ProcessResult R = runKernelTidy({"check", "--fix", "--header-filter=k\\.h$", Dir});
  EXPECT_EQ(0, R.ExitCode) << R.Out << R.Err;
  EXPECT_EQ(1u, count(R.Out, "[luisa-butterfly-reduction]")) << R.Out;
  EXPECT_NE(std::string::npos, R.Err.find("(1 fixed, 0 remaining)")) << R.Err;
  EXPECT_EQ(std::string::npos, R.Out.find("edits another file")) << R.Out;
  EXPECT_EQ(readFile(sourceDir() + SafeCase + ".fixed.cpp"), readFile(Header));
}

// Issue 50, item 11: a header finding is named as the include found it, as
// clang-tidy 19 prints it (`inc/k.h` through `-Iinc`, relative to the
// compile directory, whatever the current folder), and still reported once
// for two includers (ReportPaths.HeadersAreNamedAsTheAnalysisSpelledThem
// checks each format's name for it).
TEST_F(HostileInput, AHeaderFindingIsNamedAsTheIncludeFoundIt) {
  std::string Header = put("inc/k.h", "#pragma once\n" + safeSource());
  std::string Database;
  for (const char *Name : {"a.cpp", "b.cpp"}) {
    put(Name, "#include \"k.h\"\n");
    Database += std::string(Database.empty() ? "[" : ",") + "{\"directory\": \"" + Dir +
                "\", \"file\": \"" + Name +
                "\", \"arguments\": [\"clang++\", \"-std=c++20\", \"-isystem\", \"" + modelDir() +
                "\", \"-Iinc\", \"-c\", \"" + Name + "\"]}";
  }
  put("compile_commands.json", Database + "]");
  const std::string Step = "m = max(m, warp_read_lane(m, lane ^ 16u));";
  std::string Text = readFile(Header);
  ASSERT_NE(std::string::npos, Text.find(Step));
  std::string Line = std::to_string(count(Text.substr(0, Text.find(Step)), "\n") + 1);
  std::vector<std::string> Args{"check",        "-p",          Dir, "--header-filter=k\\.h$",
                                Dir + "/a.cpp", Dir + "/b.cpp"};
  ProcessResult R = runKernelTidy(Args);
  EXPECT_EQ(1, R.ExitCode) << R.Out << R.Err;
  EXPECT_EQ(1u, count(R.Out, "[luisa-butterfly-reduction]")) << R.Out;
  EXPECT_EQ(0u, R.Out.find("inc/k.h:" + Line + ":9: warning: butterfly reduction")) << R.Out;
  EXPECT_NE(std::string::npos, R.Out.find(" | " + std::string(8, ' ') + Step)) << R.Out;
}

// A header of the run is reported from its own analysis, but a template in
// it is checked only where a file instantiates it: that finding stays.
TEST_F(HostileInput, AFindingOnlyAnIncluderSeesInAHeaderOfTheRunIsKept) {
  std::string Kernel = fixtureInput(sourceDir() + SafeCase + ".cpp");
  for (auto [From, To] : {std::pair<std::string, std::string>{
                              "void build_row_max(", "template <typename T>\nvoid build_row_max("},
                          {"BufferFloat data", "BufferVar<T> data"},
                          {"Float m =", "Var<T> m ="}}) {
    size_t At = Kernel.find(From);
    ASSERT_NE(std::string::npos, At) << From;
    Kernel.replace(At, From.size(), To);
  }
  std::string Header = put("k.h", "#pragma once\n" + Kernel);
  std::string Source =
      put("a.cpp", "#include \"k.h\"\ntemplate void build_row_max<float>(Device &);\n");
  ProcessResult R = runKernelTidy({"check", "--header-filter=k\\.h$", Source, Header});
  EXPECT_EQ(1, R.ExitCode) << R.Out << R.Err;
  EXPECT_EQ(1u, count(R.Out, "[luisa-butterfly-reduction]")) << R.Out;
  EXPECT_NE(std::string::npos, R.Out.find("k.h:")) << R.Out;
}

// Issue 31, item 19: a header filter that is no regular expression is an
// error before anything runs, as clang-tidy refuses it.
TEST_F(HostileInput, AnInvalidHeaderFilterIsAnError) {
  std::string File = put("k.cpp", safeSource());
  for (const char *Option : {"--header-filter", "--exclude-header-filter"}) {
    ProcessResult R = runKernelTidy({"check", Option, "(", File});
    EXPECT_EQ(2, R.ExitCode) << Option << R.Out << R.Err;
    EXPECT_NE(std::string::npos, R.Err.find("invalid regular expression '('")) << R.Err;
    EXPECT_EQ("", R.Out);
  }
}

TEST_F(HostileInput, AHugeShardCountSelectsNormally) {
  std::string File = put("k.cpp", safeSource());
  EXPECT_EQ(1, runKernelTidy({"check", "--shard", "1/4294967295", File}).ExitCode);
  EXPECT_EQ(0, runKernelTidy({"check", "--shard", "2/4294967295", File}).ExitCode);
}

TEST_F(HostileInput, NonUtf8NamesGiveValidJsonAndSarif) {
  std::string File = put("k\xff\xfe.cpp", safeSource());
  for (const char *Format : {"json", "sarif"}) {
    ProcessResult R = runKernelTidy({"check", "--format", Format, File});
    EXPECT_EQ(1, R.ExitCode) << Format << R.Err;
    // Invalid bytes become U+FFFD: the report is valid UTF-8 JSON.
    EXPECT_FALSE(nlohmann::json::parse(R.Out, nullptr, false).is_discarded()) << R.Out;
    if (std::string(Format) == "json") { // SARIF percent-encodes the bytes of its URIs.
      EXPECT_NE(std::string::npos, R.Out.find("k\xef\xbf\xbd\xef\xbf\xbd.cpp")) << R.Out;
    }
  }
  std::string Baseline = Dir + "/b.json";
  EXPECT_EQ(0, runKernelTidy({"check", "--write-baseline", Baseline, File}).ExitCode);
  EXPECT_FALSE(nlohmann::json::parse(readFile(Baseline), nullptr, false).is_discarded());
}

TEST_F(HostileInput, HardLinkedFilesAreNotSplit) {
  std::string File = put("k.cpp", safeSource()), Link = Dir + "/other.cpp";
  ASSERT_EQ(0, ::link(File.c_str(), Link.c_str()));
  ProcessResult R = runKernelTidy({"check", "--fix", File});
  EXPECT_EQ(2, R.ExitCode) << R.Out;
  EXPECT_NE(std::string::npos,
            R.Out.find(File + ": error: " + File + ": file has 2 hard links; not modified"))
      << R.Out;
  EXPECT_EQ(safeSource(), readFile(Link));
  EXPECT_EQ(safeSource(), readFile(File));
}

TEST_F(HostileInput, AFixKeepsOwnerGroupAndExtendedAttributes) {
  std::string File = put("k.cpp", safeSource());
  bool Root = ::geteuid() == 0;
  if (Root) {
    ASSERT_EQ(0, ::chown(File.c_str(), 65534, 65534)); // nobody:nogroup
  }
  bool Xattr = ::setxattr(File.c_str(), "user.kernel-tidy-test", "kept", 4, 0) == 0;
  ProcessResult R = runKernelTidy({"check", "--fix", File});
  ASSERT_EQ(0, R.ExitCode) << R.Out << R.Err;
  EXPECT_EQ(readFile(sourceDir() + SafeCase + ".fixed.cpp"), readFile(File));
  struct stat After;
  ASSERT_EQ(0, ::stat(File.c_str(), &After));
  if (Root) {
    EXPECT_EQ(65534u, After.st_uid);
    EXPECT_EQ(65534u, After.st_gid);
  }
  if (Xattr) {
    // Not every temp folder's file system has user attributes.
    char Value[8] = {};
    EXPECT_EQ(4, ::getxattr(File.c_str(), "user.kernel-tidy-test", Value, sizeof(Value)));
    EXPECT_STREQ("kept", Value);
  }
}

TEST_F(HostileInput, AWriteIsCancelledByTheCheckBeforeTheRename) {
  std::string File = put("k.cpp", "old\n");
  std::string Error =
      writeAtomically(File, "new\n", std::nullopt, [] { return std::string("moved on disk"); });
  EXPECT_EQ("moved on disk", Error);
  EXPECT_EQ("old\n", readFile(File));
  EXPECT_EQ(1u, listFiles(Dir, "").size()) << "temporary file left behind";
}

TEST_F(HostileInput, SignalsRemoveTemporaryFilesAndExitAsTheShellReports) {
  for (auto [Signal, Code] :
       {std::pair{SIGINT, 130}, std::pair{SIGTERM, 143}, std::pair{SIGHUP, 129}}) {
    std::string Temp = put(".kernel-tidy-test.tmp", "partial");
    // A folder too, with what it holds (--enable-check-profile's; issue 49, item 15).
    std::string Folder = Dir + "/kernel-tidy-profile-test";
    put("kernel-tidy-profile-test/a/b/profile.json", "{}");
    pid_t Child = ::fork();
    ASSERT_GE(Child, 0);
    if (Child == 0) {
      removeTemporaryFilesOnSignals();
      SignalCleanup Cleanup(Temp), FolderCleanup(Folder);
      ::raise(Signal);
      ::_exit(0); // Not reached: the handler exits.
    }
    int Status = 0;
    ASSERT_EQ(Child, ::waitpid(Child, &Status, 0));
    ASSERT_TRUE(WIFEXITED(Status)) << Signal;
    EXPECT_EQ(Code, WEXITSTATUS(Status)) << Signal;
    EXPECT_FALSE(fileExists(Temp)) << Signal;
    EXPECT_FALSE(llvm::sys::fs::exists(Folder)) << Signal;
  }
}

// Issue 31, item 22: a compile directory that is gone is one error in the
// tool's words, not also the "LLVM ERROR" of the child that builds the PCH.
TEST_F(HostileInput, AMissingCompileDirectoryIsOneClearError) {
  std::string File = put("k.cpp", safeSource());
  put("build/compile_commands.json", "[{\"directory\": \"" + Dir + "/gone\", \"file\": \"" + File +
                                         "\", \"arguments\": "
                                         "[\"clang++\", \"-std=c++20\", \"-isystem\", \"" +
                                         modelDir() + "\", \"-c\", \"" + File + "\"]}]");
  std::string Script = "KERNEL_TIDY_CACHE_DIR='" + Dir +
                       "/cache' exec '" KERNEL_TIDY_BINARY "' check -p '" + Dir + "/build' '" +
                       File + "' > '" + Dir + "/out' 2>&1";
  EXPECT_EQ(2, llvm::sys::ExecuteAndWait("/bin/bash", {"bash", "-c", Script}));
  EXPECT_EQ(File + ": error: cannot analyse: its compile directory '" + Dir +
                "/gone' does not exist\n",
            readFile(Dir + "/out"));
}

TEST_F(HostileInput, ABrokenHeaderCacheNeverFailsARun) {
  std::string Cache = Dir + "/cache";
  std::string A = put("src/a.cpp", safeSource()), B = put("src/b.cpp", safeSource());
  auto Run = [&](const std::string &Limit) {
    std::string Out = Dir + "/out.txt";
    std::string Script = Limit + "KERNEL_TIDY_CACHE_DIR='" + Cache +
                         "' exec '" KERNEL_TIDY_BINARY "' check '" + A + "' '" + B + "' > '" + Out +
                         "' 2>&1";
    int Code = llvm::sys::ExecuteAndWait("/bin/bash", {"bash", "-c", Script});
    return std::pair{Code, readFile(Out)};
  };
  // A cache folder that cannot take the PCH (ulimit -f): plain parses, and
  // one warning in the tool's words, no "LLVM ERROR" of the child that
  // builds the PCH (issue 31, item 22).
  auto [Code, Out] = Run("ulimit -f 512; ");
  EXPECT_EQ(1, Code) << Out;
  EXPECT_EQ(2u, count(Out, "[luisa-butterfly-reduction]")) << Out;
  EXPECT_EQ(std::string::npos, Out.find("LLVM ERROR")) << Out;
  EXPECT_EQ(1u, count(Out, "kernel-tidy: warning: header cache: cannot write the precompiled "
                           "header"))
      << Out;
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator It(Cache, EC), End; It != End && !EC;
       It.increment(EC))
    EXPECT_FALSE(llvm::StringRef(It->path()).ends_with(".tmp")) << It->path();

  // A damaged cached PCH is rebuilt, not read.
  std::tie(Code, Out) = Run("");
  ASSERT_EQ(1, Code) << Out;
  std::string Pch;
  for (llvm::sys::fs::recursive_directory_iterator It(Cache, EC), End; It != End && !EC;
       It.increment(EC))
    if (llvm::StringRef(It->path()).ends_with("prefix.pch"))
      Pch = It->path();
  ASSERT_FALSE(Pch.empty());
  std::string Bytes = readFile(Pch);
  for (size_t At = 4096; At < Bytes.size(); At += Bytes.size() / 16)
    Bytes[At] = static_cast<char>(~Bytes[At]);
  // As a disk error would: same size and modification time.
  llvm::sys::fs::file_status Before;
  ASSERT_FALSE(llvm::sys::fs::status(Pch, Before));
  writeFile(Pch, Bytes);
  int FD;
  ASSERT_FALSE(llvm::sys::fs::openFileForWrite(Pch, FD, llvm::sys::fs::CD_OpenExisting));
  EXPECT_FALSE(llvm::sys::fs::setLastAccessAndModificationTime(FD, Before.getLastAccessedTime(),
                                                               Before.getLastModificationTime()));
  ::close(FD);
  std::tie(Code, Out) = Run("");
  EXPECT_EQ(1, Code) << Out;
  EXPECT_EQ(2u, count(Out, "[luisa-butterfly-reduction]")) << Out;
}

// Issue 49: a fix, an inserted comment or an exported replacement is exact,
// or refused with exit 2 and a one-line reason.

/// A CuTe kernel whose lines 8 to 11 have findings of cute-hardcoded-warp-width.
std::string cuteKernel(const std::string &Body) {
  return "import cutlass\n"
         "import cutlass.cute as cute\n"
         "\n"
         "\n"
         "@cute.kernel\n"
         "def k(dst: cute.Tensor):\n"
         "    tidx, _, _ = cute.arch.thread_idx()\n" +
         Body;
}

/// Runs kernel-tidy with \p Input on standard input.
ProcessResult runWithInput(const std::string &Dir, const std::string &Input,
                           const std::vector<std::string> &Args) {
  writeFile(Dir + "/stdin", Input);
  std::string Script = "exec '" KERNEL_TIDY_BINARY "'";
  for (const std::string &Arg : Args)
    Script += " '" + Arg + "'";
  Script += " < '" + Dir + "/stdin' > '" + Dir + "/out' 2> '" + Dir + "/err'";
  ProcessResult R;
  R.ExitCode = llvm::sys::ExecuteAndWait("/bin/bash", {"bash", "-c", Script});
  R.Out = readFile(Dir + "/out");
  R.Err = readFile(Dir + "/err");
  return R;
}

// Item 1: LLVM's YAML stops at a byte that is not UTF-8, so a replacement
// that keeps a Latin-1 comment would reach clang-apply-replacements cut
// short (deleting the rewritten step). Such a fix is not exported (exit 2,
// named); JSON and SARIF carry its bytes in base64.
TEST_F(HostileInput, AReplacementThatIsNotUtf8IsExportedExactlyOrNotAtAll) {
  std::string Source = safeSource();
  std::string Step8 = "        m = max(m, warp_read_lane(m, lane ^ 8u));\n";
  size_t At = Source.find(Step8);
  ASSERT_NE(std::string::npos, At);
  Source.insert(At, "        // caf\xE9 (Latin-1)\n");
  std::string File = put("k.cpp", Source);
  unsigned Line = 1 + std::count(Source.begin(), Source.begin() + Source.find("lane ^ 16u"), '\n');
  std::string Yaml = Dir + "/fixes.yaml";
  ProcessResult R = runKernelTidy({"check", "--format", "json", "--export-fixes", Yaml, File});
  EXPECT_EQ(2, R.ExitCode) << R.Err;
  EXPECT_NE(std::string::npos,
            R.Err.find("kernel-tidy: error: " + File + ":" + std::to_string(Line) +
                       ":9: the fix of [luisa-butterfly-reduction] is not exported: its "
                       "replacement text or file name holds bytes that are not UTF-8"))
      << R.Err;
  std::string Exported = readFile(Yaml);
  EXPECT_NE(std::string::npos, Exported.find("luisa-butterfly-reduction")) << Exported;
  EXPECT_EQ(std::string::npos, Exported.find("ReplacementText")) << Exported;
  EXPECT_EQ(Source, readFile(File));

  nlohmann::json Report = nlohmann::json::parse(R.Out, nullptr, false);
  ASSERT_FALSE(Report.is_discarded()) << R.Out;
  const nlohmann::json &Edit = Report["diagnostics"][0]["fix"]["edits"][0];
  EXPECT_TRUE(Edit["replacement"].is_null()) << Edit.dump();
  std::vector<char> Bytes;
  ASSERT_FALSE(llvm::decodeBase64(Edit.value("replacement_base64", ""), Bytes)) << Edit.dump();
  std::string Replacement(Bytes.begin(), Bytes.end());
  EXPECT_NE(std::string::npos, Replacement.find("// caf\xE9 (Latin-1)\n")) << Replacement;
  EXPECT_NE(std::string::npos, Replacement.find("m = warp_active_max(m);")) << Replacement;
  // Applied as a consumer would, the bytes are what --fix writes.
  std::string Applied = Source;
  Applied.replace(Edit["offset"].get<size_t>(), Edit["length"].get<size_t>(), Replacement);

  R = runKernelTidy({"check", "--format", "sarif", File});
  nlohmann::json Log = nlohmann::json::parse(R.Out, nullptr, false);
  ASSERT_FALSE(Log.is_discarded()) << R.Out;
  const nlohmann::json &Inserted = Log["runs"][0]["results"][0]["fixes"][0]["artifactChanges"][0]
                                      ["replacements"][0]["insertedContent"];
  EXPECT_FALSE(Inserted.contains("text")) << Inserted.dump();
  EXPECT_EQ(llvm::encodeBase64(Replacement), Inserted.value("binary", "")) << Inserted.dump();

  EXPECT_EQ(0, runKernelTidy({"check", "--fix", File}).ExitCode);
  EXPECT_EQ(Applied, readFile(File));
}

// Items 2 and 11: Python's line ends come from Python's tokenizer (a '#' in
// a string continued by a backslash is no comment), and NOLINT goes after
// the pragmas of mypy and Ruff, which read their comment from its start.
TEST_F(HostileInput, AddNolintInPythonFindsLineEndsWithPythonsTokenizer) {
  std::string File = put("k.py", cuteKernel("    s = 'a \\\n"
                                            "#b' + str(tidx // 32)\n"
                                            "    lane = tidx % 32  # type: ignore[attr]\n"
                                            "    warp = tidx >> 5  # noqa: E501\n"
                                            "    dst[warp] = lane + len(s)\n"));
  ProcessResult R = runKernelTidy({"check", "--add-nolint", File});
  EXPECT_EQ(0, R.ExitCode) << R.Out << R.Err;
  EXPECT_NE(std::string::npos, R.Err.find("kernel-tidy: added 3 NOLINT comment(s)\n")) << R.Err;
  EXPECT_EQ(cuteKernel("    s = 'a \\\n"
                       "#b' + str(tidx // 32)  # NOLINT(cute-hardcoded-warp-width)\n"
                       "    lane = tidx % 32  # type: ignore[attr]  # NOLINT(cute-hardcoded-warp-"
                       "width)\n"
                       "    warp = tidx >> 5  # noqa: E501  # NOLINT(cute-hardcoded-warp-width)\n"
                       "    dst[warp] = lane + len(s)\n"),
            readFile(File));
  EXPECT_EQ(0, runKernelTidy({"check", File}).ExitCode);
}

// Item 10: a lone CR ends a line in every format (Clang's and Python's
// counting), and --add-nolint puts the comment on that line.
TEST_F(HostileInput, LoneCrLineBreaksAreCountedAlikeInEveryFormat) {
  std::string Text = cuteKernel("    dst[tidx // 32] = tidx\n    x = 1\n");
  std::replace(Text.begin(), Text.end(), '\n', '\r');
  std::string File = put("k.py", Text);
  ProcessResult R = runKernelTidy({"check", File});
  EXPECT_NE(std::string::npos, R.Out.find(File + ":8:")) << R.Out;
  R = runKernelTidy({"check", "--format", "json", File});
  nlohmann::json Report = nlohmann::json::parse(R.Out, nullptr, false);
  ASSERT_FALSE(Report.is_discarded()) << R.Out;
  EXPECT_EQ(8, Report["diagnostics"][0].value("line", 0)) << R.Out;
  EXPECT_EQ(8, Report["diagnostics"][0]["fix"]["edits"][0].value("line", 0)) << R.Out;
  R = runKernelTidy({"check", "--format", "github", File});
  EXPECT_NE(std::string::npos, R.Out.find(",line=8,")) << R.Out;

  R = runKernelTidy({"check", "--add-nolint", File});
  EXPECT_EQ(0, R.ExitCode) << R.Out << R.Err;
  std::string Expected =
      cuteKernel("    dst[tidx // 32] = tidx  # NOLINT(cute-hardcoded-warp-width)\n    x = 1\n");
  std::replace(Expected.begin(), Expected.end(), '\n', '\r');
  EXPECT_EQ(Expected, readFile(File));
  EXPECT_EQ(0, runKernelTidy({"check", File}).ExitCode);
}

// Item 5: a backslash followed by blanks is a line splice (Clang, GCC): a
// comment after it would break the splice; and whatever the scan misses,
// a C++ text with its comments must lex to the same tokens. Item 11: a
// `//` comment that ends the line stays whole (`// clang-format off`).
TEST_F(HostileInput, AddNolintNeverChangesHowCppIsRead) {
  std::string Step16 = "lane ^ 16u));";
  std::string Spliced = safeSource();
  Spliced.insert(Spliced.find(Step16) + Step16.size(), " \\  ");
  std::string Pragma = safeSource();
  Pragma.insert(Pragma.find(Step16) + Step16.size(), " // clang-format off");
  std::string A = put("a.cpp", Spliced), B = put("b.cpp", Pragma);
  ProcessResult R = runKernelTidy({"check", "--add-nolint", A, B});
  EXPECT_EQ(1, R.ExitCode) << R.Out << R.Err;
  EXPECT_NE(std::string::npos,
            R.Err.find(A + ":12: no NOLINT comment added: the line goes on into the next one"))
      << R.Err;
  EXPECT_EQ(Spliced, readFile(A));
  std::string Commented = Pragma;
  Commented.insert(Commented.find(" // clang-format off"),
                   " /* NOLINT(luisa-butterfly-reduction) */");
  EXPECT_EQ(Commented, readFile(B));
  EXPECT_EQ(0, runKernelTidy({"check", B}).ExitCode);

  EXPECT_TRUE(lexesTheSame("int a; \\\n  int b;\n", "int a; /* c */ \\\n  int b; // c\n"));
  EXPECT_FALSE(lexesTheSame("#define X a \\  \n  b\n", "#define X a \\   // c\n  b\n"));
  EXPECT_FALSE(lexesTheSame("int a;\n", "int a; /* c */ b\n"));
  EXPECT_FALSE(lexesTheSame("f(\"#\");\n", "f(\"# c\");\n"));
}

// Items 3, 4 and 8: offsets are exported only for the text on disk, and
// --fix of standard input prints the fixed text alone, whatever the format.
TEST_F(HostileInput, StandardInputAndNolintRunsExportNoOffsetsOfAnotherText) {
  std::string Text = cuteKernel("    dst[tidx // 32] = tidx\n");
  std::string Fixed = cuteKernel("    dst[tidx // cute.arch.WARP_SIZE] = tidx\n");
  std::string File = put("k.py", Text);
  std::string Yaml = Dir + "/fixes.yaml";
  ProcessResult R = runWithInput(Dir, Fixed + "\n\n",
                                 {"check", "--stdin-filename", File, "--export-fixes", Yaml});
  EXPECT_EQ(2, R.ExitCode) << R.Err;
  EXPECT_NE(std::string::npos, R.Err.find("it does not combine with --stdin-filename")) << R.Err;
  R = runKernelTidy({"check", "--add-nolint", "--export-fixes", Yaml, File});
  EXPECT_EQ(2, R.ExitCode) << R.Err;
  EXPECT_NE(std::string::npos, R.Err.find("it does not combine with --add-nolint")) << R.Err;
  EXPECT_FALSE(fileExists(Yaml));
  EXPECT_EQ(Text, readFile(File));
  // Item 16: a name that is no file, or in no folder, is one message.
  R = runWithInput(Dir, Text, {"check", "--stdin-filename", "-"});
  EXPECT_EQ(2, R.ExitCode) << R.Err;
  EXPECT_EQ("kernel-tidy: error: --stdin-filename '-' names no file: give the path of the file "
            "whose text standard input holds (its extension, configuration and compile command "
            "are taken from it)\n",
            R.Err);
  R = runWithInput(Dir, Text, {"check", "--stdin-filename", Dir + "/nope/k.py"});
  EXPECT_EQ(2, R.ExitCode) << R.Err;
  EXPECT_EQ(1u, count(R.Err, "\n")) << R.Err;
  EXPECT_NE(std::string::npos, R.Err.find("there is no folder '" + Dir + "/nope'")) << R.Err;

  // The report goes to stderr (after --fix the CI formats list what remains:
  // nothing here, so GitHub's is empty).
  for (auto [Format, Report] : {std::pair{"text", "[cute-hardcoded-warp-width]"},
                                {"json", "\"fixed\": true"},
                                {"sarif", "\"version\": \"2.1.0\""},
                                {"github", ""},
                                {"gitlab", "[]\n"},
                                {"junit", "<testsuites "}}) {
    R = runWithInput(Dir, Text, {"check", "--fix", "--stdin-filename", File, "--format", Format});
    EXPECT_EQ(0, R.ExitCode) << Format << R.Err;
    EXPECT_EQ(Fixed, R.Out) << Format;
    EXPECT_NE(std::string::npos, R.Err.find(Report)) << Format << R.Err;
  }
  EXPECT_EQ(Text, readFile(File));
}

// Item 16: `lsp --checks '-*'` is refused as `check` refuses it, not a
// server that calls every file clean.
TEST_F(HostileInput, ALanguageServerWithoutChecksIsRefused) {
  ProcessResult R = runWithInput(Dir, "", {"lsp", "--checks", "-*"});
  EXPECT_EQ(2, R.ExitCode) << R.Err;
  EXPECT_NE(std::string::npos, R.Err.find("kernel-tidy: error: no checks enabled")) << R.Err;
  R = runWithInput(Dir, "", {"lsp", "--checks", "-*,cute-hardcoded-warp-width"});
  EXPECT_EQ(std::string::npos, R.Err.find("no checks enabled")) << R.Err;
}

// Item 12: JUnit stays well-formed (valid UTF-8) with a file name that is
// not; GitLab gives two identical errors two fingerprints; after --fix the
// CI formats report what remains.
TEST_F(HostileInput, CiReportsAreValidAndReportWhatRemains) {
  std::string Odd = put("k\xff.py", cuteKernel("    dst[tidx // 32] = tidx\n"));
  ProcessResult R = runKernelTidy({"check", "--format", "junit", Odd});
  EXPECT_EQ(1, R.ExitCode) << R.Err;
  EXPECT_NE(std::string::npos, R.Out.find("k\xef\xbf\xbd.py")) << R.Out;
  EXPECT_TRUE(llvm::json::isUTF8(R.Out)) << R.Out;

  std::string Ends = put("ends.py", cuteKernel("    x = 1  # NOLINTEND(cute-a)\n"
                                               "    y = 2  # NOLINTEND(cute-a)\n"));
  R = runKernelTidy({"check", "--format", "gitlab", Ends});
  EXPECT_EQ(2, R.ExitCode) << R.Err;
  nlohmann::json Issues = nlohmann::json::parse(R.Out, nullptr, false);
  ASSERT_TRUE(Issues.is_array() && Issues.size() == 2) << R.Out;
  EXPECT_EQ(Issues[0]["description"], Issues[1]["description"]) << R.Out;
  EXPECT_NE(Issues[0]["fingerprint"], Issues[1]["fingerprint"]) << R.Out;

  for (const char *Format : {"github", "gitlab", "junit", "sarif"}) {
    std::string File = put("fix.py", cuteKernel("    dst[tidx // 32] = tidx\n"));
    R = runKernelTidy({"check", "--fix", "--format", Format, File});
    EXPECT_EQ(0, R.ExitCode) << Format << R.Err;
    if (std::string(Format) == "sarif") // Its rule metadata names the rule.
      EXPECT_TRUE(nlohmann::json::parse(R.Out)["runs"][0]["results"].empty()) << R.Out;
    else
      EXPECT_EQ(std::string::npos, R.Out.find("hardcoded-warp-width")) << Format << R.Out;
  }
}

// Item 14: `kernel-tidy lsp` reads a header line without an end only up to
// a limit (64 MiB), then stops with a message, instead of reading it all.
TEST_F(HostileInput, ALanguageServerRefusesAHeaderWithoutAnEnd) {
  std::string Input = "Content-Length: 2\r\nX-Padding: " + std::string(80 << 20, 'x');
  ProcessResult R = runWithInput(Dir, Input, {"lsp"});
  EXPECT_EQ(1, R.ExitCode) << R.Err;
  EXPECT_NE(std::string::npos, R.Err.find("refusing a message header of more than 67108864 bytes"))
      << R.Err;
}

// Issue 49, item 17: Clang recurses on a 200,000-term expression more deeply
// than a thread's usual 8 MiB stack allows, and the process died. Each
// analysis runs on a thread with a large stack: the file is analysed.
TEST_F(HostileInput, A200000TermExpressionIsAnalysed) {
  std::string Terms = "a";
  for (int I = 1; I < 200000; ++I)
    Terms += "+a";
  std::string File = put("deep.cpp", "int f(int a) { return " + Terms + "; }\n");
  ProcessResult R = runKernelTidy({"check", "--bundled-model", "--format", "json", File});
  EXPECT_EQ(0, R.ExitCode) << R.Err;
  EXPECT_EQ(0u, nlohmann::json::parse(R.Out)["summary"]["errors"].size()) << R.Out;
}

// A stack overflow (deeper code still) is that file's error, named as such:
// the fault is handled on a signal stack, the run goes on with the other
// files, and the exit code says that a file failed. KERNEL_TIDY_TEST_CRASH_IN
// (test-only) with "overflow:" makes the analysis of the file it names
// recurse without end.
TEST_F(HostileInput, AStackOverflowFailsItsOwnFileOnly) {
  std::string Deep = put("deep.cpp", safeSource());
  std::string Other = put("other.cpp", safeSource());
  const char *Given = ::getenv("ASAN_OPTIONS");
  std::string Sanitizer = Given ? Given : "";
  // What the crashed analysis had allocated is left behind on purpose.
  ::setenv("ASAN_OPTIONS", (Sanitizer + ":detect_leaks=0").c_str(), 1);
  ::setenv("KERNEL_TIDY_TEST_CRASH_IN", "overflow:/deep.cpp", 1);
  for (const char *Jobs : {"1", "2"}) {
    ProcessResult R =
        runKernelTidy({"check", "--bundled-model", "--format", "json", "-j", Jobs, Deep, Other});
    EXPECT_EQ(2, R.ExitCode) << R.Err;
    nlohmann::json Report = nlohmann::json::parse(R.Out, nullptr, false);
    ASSERT_FALSE(Report.is_discarded()) << R.Out << R.Err;
    nlohmann::json Errors = Report["summary"]["errors"];
    ASSERT_EQ(1u, Errors.size()) << R.Out;
    EXPECT_EQ(Deep, Errors[0]["file"]);
    EXPECT_EQ("the analysis crashed (stack overflow: the code is nested more deeply than a 256 "
              "MiB stack allows); nothing of this file is reported",
              Errors[0]["message"]);
    size_t OtherFindings = 0;
    for (const nlohmann::json &D : Report["diagnostics"])
      OtherFindings += D["file"] == Other;
    EXPECT_EQ(1u, OtherFindings) << R.Out;
  }
  ::unsetenv("KERNEL_TIDY_TEST_CRASH_IN");
  if (Given)
    ::setenv("ASAN_OPTIONS", Given, 1);
  else
    ::unsetenv("ASAN_OPTIONS");
}

} // namespace
} // namespace kernel_tidy::test
