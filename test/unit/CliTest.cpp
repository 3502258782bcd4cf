//===--- CliTest.cpp - The kernel-tidy command line -----------------------===//

#include "rules/RuleRegistry.h"
#include "src/driver/CheckRun.h"
#include "src/driver/Report.h"
#include "test/unit/Fixture.h"
#include "test/unit/TestSupport.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include <algorithm>
#include <cstdlib>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <sys/stat.h>
#include <tuple>

namespace kernel_tidy::test {
namespace {

const char *ButterflyCase = "/test/fixtures/luisa-butterfly-reduction/max-straight-line";
const char *UnsafeCase = "/test/fixtures/luisa-butterfly-reduction/sum-float-explicit-add-unsafe";

/// `kernel-tidy check ...` (\p Args as runKernelTidy takes them) run in this
/// process by the library the binary runs it with (src/driver/CheckRun):
/// the binary's output and exit code without starting it (issue 51, Must 6).
ProcessResult runCheckInProcess(const std::vector<std::string> &Args) {
  EXPECT_EQ("check", Args.front());
  std::istringstream In;
  std::ostringstream Out, Err;
  CheckStreams Io{In, Out, Err};
  ProcessResult R;
  R.ExitCode = runCheckCommandLine({Args.begin() + 1, Args.end()},
                                   installationAt(shareDirOf(KERNEL_TIDY_BINARY)), Io);
  R.Out = Out.str();
  R.Err = Err.str();
  return R;
}

class Cli : public ::testing::Test {
protected:
  void SetUp() override { Dir = makeTempDir(); }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  /// Copies a fixture into the temp folder (no compile database above it).
  std::string copyFixture(const std::string &Case, const std::string &Name = "k.cpp") {
    std::string Path = Dir + "/" + Name;
    writeFile(Path, fixtureInput(sourceDir() + Case + ".cpp"));
    return Path;
  }
  std::string Dir;
};

TEST_F(Cli, FindingsGiveExitCodeOneAndClangStyleText) {
  std::string File = copyFixture(ButterflyCase);
  ProcessResult R = runCheckInProcess({"check", File});
  EXPECT_EQ(1, R.ExitCode) << R.Err;
  EXPECT_NE(std::string::npos,
            R.Out.find(File +
                       ":12:9: warning: butterfly reduction of 'm' over all 32 "
                       "lanes takes 5 warp_read_lane shuffles; a single "
                       "warp_active_max(m) does the same [luisa-butterfly-reduction]\n"
                       "   12 |         m = max(m, warp_read_lane(m, lane ^ 16u));\n"
                       "      |         ^" +
                       std::string(41, '~') +
                       "\n"
                       "      |         m = warp_active_max(m);\n"))
      << R.Out << "the fix as Clang shows a fix-it, under the caret line";
  EXPECT_EQ(std::string::npos, R.Out.find("\033[")) << "no colour when stdout is a file";
  EXPECT_EQ("kernel-tidy: 1 fixable with --fix.\n", R.Err) << "Ruff's footer, and nothing else";
}

TEST_F(Cli, ColourAsClangWithColorAlwaysAndNeverWithNoColor) {
  std::string File = copyFixture(ButterflyCase);
  ProcessResult R = runKernelTidy({"check", "--color=always", File});
  EXPECT_EQ(1, R.ExitCode) << R.Err;
  EXPECT_NE(std::string::npos, R.Out.find("\033[1m" + File +
                                          ":12:9: \033[0m\033[0;1;35mwarning: \033[0m\033[1m"
                                          "butterfly reduction of 'm'"))
      << R.Out;
  EXPECT_NE(std::string::npos, R.Out.find("      | \033[0;1;32m        ^~~~")) << R.Out;
  EXPECT_EQ(2, runKernelTidy({"check", "--color=sometimes", File}).ExitCode);
  // NO_COLOR only changes auto, which is off for a file anyway; never is never.
  R = runKernelTidy({"check", "--color=never", File});
  EXPECT_EQ(std::string::npos, R.Out.find("\033[")) << R.Out;
}

TEST_F(Cli, FixPrintsRuffsSummaryAndMarksWhatItApplied) {
  std::string Safe = copyFixture(ButterflyCase);
  std::string Unsafe = Dir + "/unsafe.cpp";
  writeFile(Unsafe, fixtureInput(sourceDir() + UnsafeCase + ".cpp"));
  ProcessResult R = runCheckInProcess({"check", "--fix", Safe, Unsafe});
  EXPECT_EQ(1, R.ExitCode) << R.Err;
  EXPECT_EQ("kernel-tidy: Found 2 findings (1 fixed, 1 remaining).\n", R.Err);
  EXPECT_NE(std::string::npos,
            R.Out.find(Safe + ":12:9: note: FIX-IT applied suggested code changes\n"))
      << R.Out;
  EXPECT_NE(std::string::npos,
            R.Out.find(Unsafe + ":12:9: note: unsafe fix (applied only with --unsafe-fixes): "))
      << R.Out;
  R = runCheckInProcess({"check", "--diff", "--unsafe-fixes", Unsafe});
  EXPECT_NE(std::string::npos,
            R.Err.find("kernel-tidy: Found 1 finding (1 fixable by this diff, 0 remaining).\n"))
      << R.Err;
  R = runCheckInProcess({"check", "--fix", "--quiet", Safe});
  EXPECT_EQ(0, R.ExitCode) << R.Err;
  EXPECT_EQ("kernel-tidy: Found 0 findings.\n", R.Err) << "--quiet keeps the counts";
}

// Issue 32, item 7: the CI formats and options Ruff users expect.
TEST_F(Cli, CiFormatsExitZeroAndShowFixes) {
  std::string File = copyFixture(ButterflyCase);
  ProcessResult R = runCheckInProcess({"check", "--format", "github", "--sarif-root", Dir, File});
  EXPECT_EQ(1, R.ExitCode) << R.Err;
  // A range over several lines has no columns (GitHub's annotations take
  // them within one line only).
  EXPECT_EQ(0u, R.Out.find("::warning file=k.cpp,line=12,endLine=16,"
                           "title=luisa-butterfly-reduction::butterfly reduction of 'm' over "
                           "all 32 lanes"))
      << R.Out;
  EXPECT_EQ(1, std::count(R.Out.begin(), R.Out.end(), '\n')) << R.Out;

  R = runCheckInProcess({"check", "--format", "gitlab", "--sarif-root", Dir, File});
  EXPECT_EQ(1, R.ExitCode) << R.Err;
  nlohmann::json Issues = nlohmann::json::parse(R.Out);
  ASSERT_EQ(1u, Issues.size()) << R.Out;
  EXPECT_EQ("luisa-butterfly-reduction", Issues[0]["check_name"]);
  EXPECT_EQ("minor", Issues[0]["severity"]);
  EXPECT_EQ("k.cpp", Issues[0]["location"]["path"]);
  EXPECT_EQ(12, Issues[0]["location"]["lines"]["begin"]);
  EXPECT_FALSE(Issues[0]["fingerprint"].get<std::string>().empty());
  // A correctness rule's finding is critical (a performance one minor).
  std::string Barrier =
      copyFixture("/test/fixtures/luisa-divergent-barrier/positive", "barrier.cpp");
  R = runCheckInProcess({"check", "--format", "gitlab", Barrier});
  Issues = nlohmann::json::parse(R.Out);
  ASSERT_FALSE(Issues.empty()) << R.Out;
  EXPECT_EQ("critical", Issues[0]["severity"]) << R.Out;

  R = runCheckInProcess({"check", "--format", "junit", File});
  EXPECT_EQ(1, R.ExitCode) << R.Err;
  EXPECT_NE(std::string::npos,
            R.Out.find("<testsuites name=\"kernel-tidy\" tests=\"1\" failures=\"1\" errors=\"0\">"))
      << R.Out;
  EXPECT_NE(std::string::npos, R.Out.find("<testcase name=\"luisa-butterfly-reduction:12:9\" "
                                          "classname=\"" +
                                          File +
                                          "\">\n"
                                          "      <failure type=\"luisa-butterfly-reduction\" "
                                          "message=\"butterfly reduction of &apos;m&apos;"))
      << R.Out;
  // A finding per test case, a file error as an <error>, a clean file passes.
  std::string Broken = Dir + "/broken.cpp", Clean = Dir + "/clean.cpp";
  writeFile(Broken, "int x = ;\n"); // One error: expected expression.
  writeFile(Clean, "int g() { return 0; }\n");
  R = runCheckInProcess({"check", "--format", "junit", File, File, Broken, Clean});
  EXPECT_NE(std::string::npos,
            R.Out.find("<testsuites name=\"kernel-tidy\" tests=\"3\" failures=\"1\" errors=\"1\">"))
      << R.Out;
  EXPECT_NE(std::string::npos, R.Out.find("<error type=\"error\" message=\"")) << R.Out;
  EXPECT_NE(std::string::npos,
            R.Out.find("<testcase name=\"kernel-tidy\" classname=\"" + Clean + "\"/>"))
      << R.Out;

  EXPECT_EQ(0, runCheckInProcess({"check", "--exit-zero", File}).ExitCode);
  EXPECT_EQ(2, runCheckInProcess({"check", "--exit-zero", Dir + "/missing.cpp"}).ExitCode);

  R = runCheckInProcess({"check", "--fix", "--show-fixes", File});
  EXPECT_EQ(0, R.ExitCode) << R.Err;
  EXPECT_NE(std::string::npos, R.Err.find("Fixed 1 finding:\n- " + File +
                                          ":\n    1 \u00d7 luisa-butterfly-reduction\n"))
      << R.Err;
}

// Issue 32, item 8: what a new user trips over.
TEST_F(Cli, CommonSlipsGetOneClearMessage) {
  std::string Safe = copyFixture(ButterflyCase), Unsafe = copyFixture(UnsafeCase, "u.cpp");
  ProcessResult R = runKernelTidy({Safe});
  EXPECT_EQ(2, R.ExitCode);
  EXPECT_NE(std::string::npos, R.Err.find("did you mean: kernel-tidy check " + Safe + "\n"))
      << R.Err;

  R = runKernelTidy({"check", "--checks=-*", Safe, Unsafe});
  EXPECT_EQ(2, R.ExitCode);
  EXPECT_EQ("kernel-tidy: error: no checks enabled for 2 files ('" + Safe +
                "', ...): the Checks match no check (--allow-no-checks accepts it)\n",
            R.Err);

  std::string Empty = Dir + "/empty";
  llvm::sys::fs::create_directories(Empty);
  R = runKernelTidy({"check", Empty});
  EXPECT_EQ(0, R.ExitCode) << R.Err;
  EXPECT_NE(std::string::npos,
            R.Err.find("kernel-tidy: warning: no source files to check in '" + Empty + "'"))
      << R.Err;

  R = runKernelTidy({"check", "--baseline", Dir + "/base.json", Safe});
  EXPECT_EQ(2, R.ExitCode);
  EXPECT_NE(std::string::npos,
            R.Err.find("the baseline '" + Dir +
                       "/base.json' does not exist; record the current "
                       "findings in it with 'kernel-tidy check --write-baseline " +
                       Dir + "/base.json FILES...'"))
      << R.Err;

  R = runKernelTidy({"check", "--statistics", Unsafe});
  EXPECT_NE(std::string::npos,
            R.Err.find("luisa-butterfly-reduction (0 fixable, 1 with an unsafe fix only)"))
      << R.Err;

  // Issue 50, item 1: --quiet --fix still tells which findings remain (as
  // Ruff's -q), not the ones it fixed.
  R = runKernelTidy({"check", "--quiet", "--fix", Safe, Unsafe});
  EXPECT_EQ(1, R.ExitCode) << R.Err;
  EXPECT_EQ(std::string::npos, R.Out.find(Safe + ":")) << R.Out;
  EXPECT_EQ(0u, R.Out.find(Unsafe + ":12:9: warning: butterfly reduction of 's'")) << R.Out;
  EXPECT_EQ("kernel-tidy: Found 2 findings (1 fixed, 1 remaining).\n", R.Err);
}

// Issue 50, item 4: a plain check says what --fix would fix (Ruff's footer),
// and a safe fix that Clang cannot show as a fix-it line is still marked.
TEST_F(Cli, PlainCheckSaysWhatIsFixable) {
  std::string Safe = copyFixture(ButterflyCase);
  std::string Unsafe = Dir + "/unsafe.cpp";
  writeFile(Unsafe, fixtureInput(sourceDir() + UnsafeCase + ".cpp"));
  std::string SeveralLines = Dir + "/histogram.cpp";
  writeFile(SeveralLines, readFile(sourceDir() + "/examples/histogram.cpp"));
  ProcessResult R = runCheckInProcess({"check", Safe, Unsafe, SeveralLines});
  EXPECT_EQ(1, R.ExitCode) << R.Err;
  // The footer and no other line of kernel-tidy's (a sanitized build may add its own report).
  // The histogram's counter is under a divergent $if: no fix while the
  // target allows CUDA, whose sm_75 warp sum can leave lanes out.
  EXPECT_EQ(0u,
            R.Err.find("kernel-tidy: 1 fixable with --fix; 1 more with --fix --unsafe-fixes.\n"))
      << R.Err;
  EXPECT_EQ(1u, llvm::StringRef(R.Err).count("kernel-tidy")) << R.Err;
  EXPECT_EQ(std::string::npos, R.Out.find(Safe + ":12:9: note: safe fix"))
      << "a one-line replacement shows as a fix-it line";
  R = runCheckInProcess({"check", "--target=dx", SeveralLines});
  EXPECT_NE(std::string::npos,
            R.Out.find(SeveralLines + ":34:13: note: safe fix over several lines (applied by "
                                      "--fix; --diff shows it)\n"))
      << R.Out;
  R = runCheckInProcess({"check", "--quiet", Safe});
  EXPECT_EQ("", R.Err) << "--quiet leaves the footer out";
  R = runCheckInProcess({"check", "--format", "json", Safe, Unsafe});
  auto Report = nlohmann::json::parse(R.Out);
  EXPECT_EQ(1u, Report["summary"]["fixable"]) << "an unsafe fix is not applied by --fix";
  EXPECT_EQ(1u, Report["summary"]["unsafe_fixable"]);
}

// Issue 32, item 7: --stdin-filename reads the file from standard input, as
// editors and pre-commit integrations pass it; --fix prints the fixed text.
TEST_F(Cli, StdinFilenameChecksTheTextOnStandardInput) {
  std::string Input = copyFixture(ButterflyCase, "input.txt");
  std::string Named = Dir + "/k.cpp"; // Not on disk: only its name is used.
  auto Run = [&](const std::string &Options) {
    std::string Script = "exec '" KERNEL_TIDY_BINARY "' check " + Options + " --stdin-filename '" +
                         Named + "' < '" + Input + "' > '" + Dir + "/out' 2> '" + Dir + "/err'";
    int Code = llvm::sys::ExecuteAndWait("/bin/bash", {"bash", "-c", Script});
    return std::tuple{Code, readFile(Dir + "/out"), readFile(Dir + "/err")};
  };
  // One run (each parses the DSL model without a shared PCH): the findings
  // go to stderr, the fixed text to stdout.
  auto [Code, Out, Err] = Run("--fix");
  EXPECT_EQ(0, Code) << Err;
  EXPECT_EQ(readFile(sourceDir() + ButterflyCase + ".fixed.cpp"), Out);
  EXPECT_NE(std::string::npos, Err.find(Named + ":12:9: warning: butterfly reduction")) << Err;
  EXPECT_FALSE(llvm::sys::fs::exists(Named));
}

// Issue 32, item 7: --add-nolint, as Ruff's --add-noqa: every current
// finding suppressed by a comment on its line, comments already there kept.
TEST_F(Cli, AddNolintSuppressesEveryCurrentFinding) {
  std::string Cpp = copyFixture(ButterflyCase);
  std::string Line12 = "        m = max(m, warp_read_lane(m, lane ^ 16u));";
  ProcessResult R = runKernelTidy({"check", "--add-nolint", Cpp});
  EXPECT_EQ(0, R.ExitCode) << R.Out << R.Err;
  EXPECT_NE(std::string::npos,
            readFile(Cpp).find("\n" + Line12 + " // NOLINT(luisa-butterfly-reduction)\n"))
      << readFile(Cpp);
  EXPECT_EQ(0, runKernelTidy({"check", Cpp}).ExitCode);

  std::string Py = Dir + "/k.py";
  writeFile(Py, "import cutlass\n"
                "import cutlass.cute as cute\n"
                "\n"
                "\n"
                "@cute.kernel\n"
                "def k(dst: cute.Tensor):\n"
                "    tidx, _, _ = cute.arch.thread_idx()\n"
                "    warp = tidx // 32  # the warp\n"
                "    lane = tidx % 32  # NOLINT(cute-other-rule)\n"
                "    low = tidx % 32 + \\\n"
                "        1\n"
                "    dst[warp] = lane + low + (tidx >> 5)\n");
  R = runKernelTidy({"check", "--add-nolint", Py});
  EXPECT_EQ(1, R.ExitCode) << R.Out << R.Err;
  EXPECT_NE(std::string::npos,
            R.Err.find(Py + ":10: no NOLINT comment added: the line goes on into the next one"))
      << R.Err;
  EXPECT_NE(std::string::npos, R.Err.find("kernel-tidy: added 3 NOLINT comment(s)\n")) << R.Err;
  EXPECT_EQ("import cutlass\n"
            "import cutlass.cute as cute\n"
            "\n"
            "\n"
            "@cute.kernel\n"
            "def k(dst: cute.Tensor):\n"
            "    tidx, _, _ = cute.arch.thread_idx()\n"
            "    warp = tidx // 32  # the warp  # NOLINT(cute-hardcoded-warp-width)\n"
            "    lane = tidx % 32  # NOLINT(cute-other-rule, cute-hardcoded-warp-width)\n"
            "    low = tidx % 32 + \\\n"
            "        1\n"
            "    dst[warp] = lane + low + (tidx >> 5)  # NOLINT(cute-hardcoded-warp-width)\n",
            readFile(Py));
  R = runKernelTidy({"check", Py});
  EXPECT_EQ(1, R.ExitCode);
  EXPECT_EQ(1u, llvm::StringRef(R.Out).count("[cute-hardcoded-warp-width]")) << R.Out;
}

// Issue 32, item 8: in a folder that no compile database covers, C++ files
// that include no LuisaCompute header (a CuTe project's host tools) are
// skipped and counted, not failed for not parsing with the bundled model.
TEST_F(Cli, AFolderWithoutADatabaseSkipsCppThatUsesNoLuisaCompute) {
  copyFixture(ButterflyCase);
  writeFile(Dir + "/tool.cpp", "int main() { return not_declared_anywhere; }\n");
  writeFile(Dir + "/helper.h", "namespace luisa {}\n"); // Uses it, and parses at once.
  writeFile(Dir + "/uses.cpp", "#include \"helper.h\"\nint f();\n");
  ProcessResult R = runKernelTidy({"check", Dir});
  EXPECT_EQ(1, R.ExitCode) << R.Out << R.Err;
  EXPECT_NE(std::string::npos,
            R.Err.find("kernel-tidy: note: skipped 1 C++ file(s) that include no LuisaCompute "
                       "header"))
      << R.Err;
  EXPECT_EQ(std::string::npos, R.Out.find("tool.cpp")) << R.Out;
  EXPECT_EQ(1u, llvm::StringRef(R.Out).count("[luisa-butterfly-reduction]")) << R.Out;
  // Named, it is checked.
  EXPECT_EQ(2, runKernelTidy({"check", Dir + "/tool.cpp"}).ExitCode);
}

TEST_F(Cli, AnExcludedFileGivenByNameIsSkippedWithANote) {
  std::string File = copyFixture(ButterflyCase);
  std::string Name = llvm::sys::path::filename(File).str();
  ProcessResult R = runKernelTidy({"check", "--exclude", "*/" + Name, File});
  EXPECT_EQ(0, R.ExitCode) << R.Err;
  EXPECT_EQ("kernel-tidy: note: '" + File + "' matches --exclude; skipped\n", R.Err);
  R = runKernelTidy({"check", "--quiet", "--exclude", "*/" + Name, File});
  EXPECT_EQ("", R.Err);
  EXPECT_EQ(2, runKernelTidy({"check", Dir + "/missing.cpp"}).ExitCode)
      << "a file that is not there is still an error";
}

TEST_F(Cli, CheckGlobsThatEnableNothingAreWarnedAbout) {
  std::string File = copyFixture(ButterflyCase);
  ProcessResult R = runKernelTidy({"check", "--checks=-*,luisa-butterfly*,luisa-nosuch*", File});
  EXPECT_EQ(1, R.ExitCode) << R.Err;
  EXPECT_EQ("kernel-tidy: warning: check glob 'luisa-nosuch*' (--checks) enables no check\n"
            "kernel-tidy: 1 fixable with --fix.\n",
            R.Err);
  // A shared .clang-tidy names other tools' checks: only ours are judged.
  writeFile(Dir + "/.clang-tidy", "Checks: '-*,luisa-*,luisa-typo-rule,readability-*'\n");
  R = runKernelTidy({"check", File});
  EXPECT_EQ(1, R.ExitCode) << R.Err;
  EXPECT_EQ("kernel-tidy: warning: check glob 'luisa-typo-rule' (from '" + Dir +
                "/.clang-tidy') enables no check\nkernel-tidy: 1 fixable with --fix.\n",
            R.Err);
}

TEST_F(Cli, VerifyConfigChecksTheConfigurationAndAnalysesNothing) {
  std::string File = copyFixture(ButterflyCase);
  ProcessResult R = runKernelTidy({"check", "--verify-config", File});
  EXPECT_EQ(0, R.ExitCode) << R.Err;
  EXPECT_EQ("", R.Out) << "nothing analysed";
  EXPECT_EQ("kernel-tidy: no configuration errors found\n", R.Err);
  writeFile(Dir + "/.clang-tidy", "Checks: '-*,luisa-typo'\n");
  R = runKernelTidy({"check", "--verify-config", File});
  EXPECT_EQ(2, R.ExitCode) << R.Err;
  EXPECT_NE(std::string::npos, R.Err.find("warning: check glob 'luisa-typo'")) << R.Err;
  EXPECT_NE(std::string::npos, R.Err.find("error: no checks enabled")) << R.Err;
  writeFile(Dir + "/.clang-tidy", "CheckOptions: {WarpSize: 0}\n");
  EXPECT_EQ(2, runKernelTidy({"check", "--verify-config", File}).ExitCode);
  // Issue 32, item 8: misspelt and unknown options, as clang-tidy names them.
  writeFile(Dir + "/.clang-tidy",
            "CheckOptions:\n  WarpSzie: 64\n  luisa-butterfly-reduction.Bogus: 1\n"
            "  readability-identifier-naming.ClassCase: CamelCase\n");
  R = runKernelTidy({"check", "--verify-config", File});
  EXPECT_EQ(2, R.ExitCode) << R.Err;
  EXPECT_NE(std::string::npos, R.Err.find("warning: unknown check option 'WarpSzie' (from '" + Dir +
                                          "/.clang-tidy'); did you mean 'WarpSize'?"))
      << R.Err;
  EXPECT_NE(std::string::npos,
            R.Err.find("warning: unknown check option 'luisa-butterfly-reduction.Bogus'"))
      << R.Err;
  EXPECT_EQ(std::string::npos, R.Err.find("ClassCase")) << "another tool's checks: " << R.Err;
}

TEST_F(Cli, LineFilterKeepsFindingsOnTheGivenLinesAsClangTidy) {
  std::string File = copyFixture(ButterflyCase); // The finding is on line 12.
  EXPECT_EQ(0,
            runKernelTidy({"check", R"(--line-filter=[{"name":"k.cpp","lines":[[1,11]]}])", File})
                .ExitCode);
  ProcessResult R =
      runKernelTidy({"check", R"(--line-filter=[{"name":"k.cpp","lines":[[10,20]]}])", File});
  EXPECT_EQ(1, R.ExitCode);
  EXPECT_NE(std::string::npos, R.Out.find(":12:9: warning:")) << R.Out;
  EXPECT_EQ(0, runKernelTidy({"check", R"(--line-filter=[{"name":"other.cpp"}])", File}).ExitCode)
      << "files not named are filtered out, as in clang-tidy";
  R = runKernelTidy({"check", "--line-filter=[{", File});
  EXPECT_EQ(2, R.ExitCode);
  EXPECT_NE(std::string::npos, R.Err.find("invalid --line-filter")) << R.Err;
  // A file that does not compile is still an error outside the lines.
  writeFile(File, readFile(File) + "\nint broken = ;\n");
  EXPECT_EQ(2, runKernelTidy({"check", R"(--line-filter=[{"name":"k.cpp","lines":[[1,2]]}])", File})
                   .ExitCode);
}

TEST_F(Cli, CheckProfileSumsTheTimeOfEachCheck) {
  std::string File = copyFixture(ButterflyCase);
  ProcessResult R = runKernelTidy({"check", "--enable-check-profile", File});
  EXPECT_EQ(1, R.ExitCode) << R.Err;
  EXPECT_NE(std::string::npos, R.Err.find("time per check over ")) << R.Err;
  EXPECT_NE(std::string::npos, R.Err.find("  luisa-butterfly-reduction\n")) << R.Err;
  EXPECT_NE(std::string::npos, R.Err.find("  total\n")) << R.Err;
}

TEST(CheckProfile, SumsPerCheckSlowestFirstAndSkipsWhatIsNotAProfile) {
  std::string A = R"({"file": "a.cpp", "profile": {"time.clang-tidy.luisa-a.wall": 1.5,
      "time.clang-tidy.luisa-a.user": 1.0, "time.clang-tidy.luisa-a.sys": 0.25,
      "time.clang-tidy.luisa-b.wall": 0.5}})";
  std::string B = R"({"file": "b.cpp", "profile": {"time.clang-tidy.luisa-b.wall": 2.0}})";
  std::string Text = formatCheckProfile({A, B, "not json", "[]"});
  EXPECT_EQ("time per check over 2 analyses (seconds; fixed texts are analysed again):\n"
            "      wall      user    system  check\n"
            "    2.5000    0.0000    0.0000  luisa-b\n"
            "    1.5000    1.0000    0.2500  luisa-a\n"
            "    4.0000    1.0000    0.2500  total\n",
            Text);
}

TEST_F(Cli, HeaderFilterOptionsChooseTheHeadersWhoseFindingsAreReported) {
  llvm::sys::fs::create_directories(Dir + "/inc");
  writeFile(Dir + "/inc/h.hpp", fixtureInput(sourceDir() + ButterflyCase + ".cpp"));
  std::string File = Dir + "/k.cpp";
  writeFile(File, "#include \"inc/h.hpp\"\n");
  ProcessResult R = runKernelTidy({"check", File});
  EXPECT_EQ(0, R.ExitCode) << R.Out << "headers are not reported by default";
  R = runKernelTidy({"check", "--header-filter", ".*", File});
  EXPECT_EQ(1, R.ExitCode) << R.Err;
  EXPECT_NE(std::string::npos, R.Out.find("inc/h.hpp:12:9: warning: butterfly reduction")) << R.Out;
  R = runKernelTidy({"check", "--header-filter", ".*", "--exclude-header-filter", "inc/", File});
  EXPECT_EQ(0, R.ExitCode) << R.Out;
}

TEST_F(Cli, UnsafeFixesAloneSaysItHasNoEffect) {
  std::string File = copyFixture(ButterflyCase);
  ProcessResult R = runKernelTidy({"check", "--unsafe-fixes", File});
  EXPECT_EQ(1, R.ExitCode);
  EXPECT_EQ("kernel-tidy: warning: --unsafe-fixes has no effect without --fix, --diff or "
            "--export-fixes\nkernel-tidy: 1 fixable with --fix.\n",
            R.Err);
}

/// Clang's TextDiagnostic draws the lines: tabs expanded to its tab stops,
/// one mark per UTF-8 character, every line of a range of several lines.
TEST(TextReport, CaretLineUnderlinesTheRangeAsClangDoes) {
  FileResult R;
  R.File = "k.cpp";
  R.Original = "int x;\n\tfoo(\"\xC3\xA9\", 1);\nend\n";
  Finding F;
  F.Rule = "r";
  F.Message = "m";
  F.File = "k.cpp";
  F.Begin = {8, 2, 2};
  F.End = {19, 2, 13}; // `foo("é", 1`: 11 bytes, 10 characters.
  R.Findings.push_back(F);
  F.Begin = F.End = {4, 1, 5}; // A point.
  R.Findings.push_back(F);
  F.Begin = {0, 1, 1};
  F.End = {26, 3, 4}; // Over several lines.
  R.Findings.push_back(F);
  std::string Text = formatText({R});
  EXPECT_NE(std::string::npos,
            Text.find("k.cpp:2:2: warning: m [r]\n"
                      "    2 |         foo(\"\xC3\xA9\", 1);\n      |         ^" +
                      std::string(9, '~') + "\n"))
      << Text;
  EXPECT_NE(std::string::npos, Text.find("k.cpp:1:5: warning: m [r]\n"
                                         "    1 | int x;\n      |     ^\n"))
      << Text;
  EXPECT_NE(std::string::npos,
            Text.find("k.cpp:1:1: warning: m [r]\n"
                      "    1 | int x;\n      | ^~~~~~\n"
                      "    2 |         foo(\"\xC3\xA9\", 1);\n      |         ~~~~~~~~~~~~\n"
                      "    3 | end\n      | ~~~\n"))
      << Text;
}

/// A finding in a header shows the header's lines (as they were analysed,
/// not as they are on disk now) and its fix as a fix-it, as for the file.
TEST(TextReport, AHeaderFindingShowsTheHeadersSource) {
  FileResult R;
  R.File = "k.cpp";
  R.Original = "#include \"k.h\"\n";
  R.OtherTexts["/nowhere/k.h"] = "int a;\nint b = a\n    + 1;\n";
  Finding F;
  F.Rule = "r";
  F.Message = "m";
  F.File = "/nowhere/k.h";
  F.Begin = {15, 2, 9};
  F.End = {24, 3, 8}; // `a\n    + 1`
  F.FixIt = Fix{Applicability::Safe, "", {Edit{F.File, F.Begin, F.End, "a + 1", std::nullopt}}};
  R.Findings.push_back(F);
  EXPECT_EQ("/nowhere/k.h:2:9: warning: m [r]\n"
            "    2 | int b = a\n"
            "      |         ^\n"
            "      |         a + 1\n"
            "    3 |     + 1;\n"
            "      |     ~~~\n",
            formatText({R}));
}

TEST_F(Cli, CleanFileGivesExitCodeZero) {
  std::string File = Dir + "/clean.cpp";
  writeFile(File, "#include <luisa/luisa-compute.h>\nint main() { return 0; }\n");
  ProcessResult R = runCheckInProcess({"check", File});
  EXPECT_EQ(0, R.ExitCode) << R.Out << R.Err;
  EXPECT_EQ("", R.Out);
}

TEST_F(Cli, JsonReportHasTheDocumentedShape) {
  std::string File = copyFixture(UnsafeCase);
  ProcessResult R = runCheckInProcess({"check", "--format", "json", File});
  EXPECT_EQ(1, R.ExitCode) << R.Err;
  auto Report = nlohmann::json::parse(R.Out);
  EXPECT_EQ(1, Report["version"]);
  EXPECT_EQ("kernel-tidy", Report["tool"]["name"]);
  ASSERT_EQ(1u, Report["diagnostics"].size());
  const auto &D = Report["diagnostics"][0];
  EXPECT_EQ("luisa-butterfly-reduction", D["rule"]);
  EXPECT_EQ("warning", D["severity"]);
  EXPECT_EQ(File, D["file"]);
  for (const char *Key : {"line", "column", "end_line", "end_column"})
    EXPECT_TRUE(D[Key].is_number_unsigned()) << Key;
  EXPECT_EQ("unsafe", D["fix"]["applicability"]);
  const auto &E = D["fix"]["edits"][0];
  for (const char *Key :
       {"file", "offset", "length", "replacement", "line", "column", "end_line", "end_column"})
    EXPECT_TRUE(E.contains(Key)) << Key;
  std::string Source = readFile(File);
  EXPECT_EQ(E["line"], D["line"]);
  // The edit's offset and position agree with the source text.
  unsigned Offset = E["offset"];
  unsigned Line = 1 + std::count(Source.begin(), Source.begin() + Offset, '\n');
  EXPECT_EQ(Line, E["line"]);
  EXPECT_EQ(1u, Report["summary"]["files"]);
  EXPECT_EQ(1u, Report["summary"]["diagnostics"]);
  EXPECT_EQ(0u, Report["summary"]["fixable"]) << "issue 50 item 8: --fix alone fixes nothing";
  EXPECT_EQ(1u, Report["summary"]["unsafe_fixable"]);
  EXPECT_EQ(0u, Report["summary"]["fixed"]);
  EXPECT_TRUE(Report["summary"]["errors"].empty());
}

TEST_F(Cli, DiffPrintsTheFixAndWritesNothing) {
  std::string File = copyFixture(ButterflyCase);
  std::string Before = readFile(File);
  ProcessResult R = runCheckInProcess({"check", "--diff", File});
  EXPECT_EQ(1, R.ExitCode) << R.Err;
  EXPECT_NE(std::string::npos, R.Out.find("--- " + File + "\n+++ " + File + "\n@@ -9,")) << R.Out;
  EXPECT_NE(std::string::npos, R.Out.find("+        m = warp_active_max(m);\n")) << R.Out;
  EXPECT_EQ(Before, readFile(File));
}

TEST_F(Cli, FixWritesSafeFixesOnly) {
  std::string Safe = copyFixture(ButterflyCase, "safe.cpp");
  std::string Unsafe = copyFixture(UnsafeCase, "unsafe.cpp");
  chmod(Safe.c_str(), 0600);
  ProcessResult R = runCheckInProcess({"check", "--fix", Safe, Unsafe});
  EXPECT_EQ(1, R.ExitCode) << "the unsafe finding remains\n" << R.Out << R.Err;
  EXPECT_EQ(readFile(sourceDir() + ButterflyCase + ".fixed.cpp"), readFile(Safe));
  EXPECT_EQ(fixtureInput(sourceDir() + UnsafeCase + ".cpp"), readFile(Unsafe));
  struct stat Info;
  ASSERT_EQ(0, stat(Safe.c_str(), &Info));
  EXPECT_EQ(0600u, Info.st_mode & 0777);
  EXPECT_EQ(2u, listFiles(Dir, "").size()) << "temporary files were left behind";

  R = runCheckInProcess({"check", "--fix", "--unsafe-fixes", Unsafe});
  EXPECT_EQ(0, R.ExitCode) << R.Out << R.Err;
  EXPECT_EQ(readFile(sourceDir() + UnsafeCase + ".fixed.cpp"), readFile(Unsafe));
}

TEST_F(Cli, ParseErrorIsReportedWithExitTwoAndNoFix) {
  std::string File = copyFixture(ButterflyCase);
  std::string Broken = readFile(File) + "\nint broken( {\n";
  writeFile(File, Broken);
  ProcessResult R = runKernelTidy({"check", "--fix", "--format", "json", File});
  EXPECT_EQ(2, R.ExitCode);
  auto Report = nlohmann::json::parse(R.Out);
  ASSERT_FALSE(Report["summary"]["errors"].empty());
  EXPECT_EQ(File, Report["summary"]["errors"][0]["file"]);
  EXPECT_EQ(22u, Report["summary"]["errors"][0]["line"]);
  EXPECT_EQ(Broken, readFile(File));
}

TEST_F(Cli, MissingFileAndBadOptionsExitTwo) {
  ProcessResult R = runKernelTidy({"check", Dir + "/missing.cpp"});
  EXPECT_EQ(2, R.ExitCode);
  EXPECT_NE(std::string::npos, R.Out.find("missing.cpp: error: cannot read file")) << R.Out;
  EXPECT_EQ(2, runKernelTidy({"check", "--format", "xml", Dir}).ExitCode);
  EXPECT_EQ(2, runKernelTidy({"check", "--no-such-option", Dir}).ExitCode);
  // A folder without sources is a warning and exit 0 (CommonSlipsGetOneClearMessage).
}

TEST_F(Cli, ChecksGlobAndConfigFileSelectRules) {
  std::string File = copyFixture(ButterflyCase);
  EXPECT_EQ(0, runCheckInProcess({"check", "--checks=-luisa-butterfly-reduction", File}).ExitCode);
  std::string Config = Dir + "/config.yaml";
  writeFile(Config, "Checks: '-*,luisa-shared-atomic-counter'\n");
  EXPECT_EQ(0, runCheckInProcess({"check", "--config-file", Config, File}).ExitCode);
  writeFile(Dir + "/.clang-tidy", "Checks: '-*,luisa-shared-atomic-counter'\n");
  EXPECT_EQ(0, runCheckInProcess({"check", File}).ExitCode) << ".clang-tidy is looked up";
  writeFile(Config, "Checks: [unclosed\n");
  EXPECT_EQ(2, runCheckInProcess({"check", "--config-file", Config, File}).ExitCode);
}

TEST_F(Cli, WarpSizeOptionAndConfigOption) {
  // A kernel without set_warp_size: five steps cover 32 lanes, not 64.
  std::string File =
      copyFixture("/test/fixtures/luisa-butterfly-reduction/host-loop-doubling-int-sum");
  EXPECT_EQ(1, runCheckInProcess({"check", File}).ExitCode);
  EXPECT_EQ(0, runCheckInProcess({"check", "--warp-size", "64", File}).ExitCode);
  writeFile(Dir + "/.clang-tidy", "CheckOptions:\n  WarpSize: 64\n");
  EXPECT_EQ(0, runCheckInProcess({"check", File}).ExitCode);
}

TEST_F(Cli, WarpSizeReachesTheSharedMemoryRulesFromEverySource) {
  // Findings only with 64-lane warps: the option must reach the index
  // ranges and the race witnesses, not only the warp rewrites.
  std::string Bounds = copyFixture("/test/fixtures/luisa-shared-out-of-bounds/"
                                   "warp-size-64-lane-slots",
                                   "bounds.cpp");
  std::string Race =
      copyFixture("/test/fixtures/luisa-shared-race/warp-size-64-lane-exchange", "race.cpp");
  auto Count = [&](const std::vector<std::string> &Args, const char *Rule) {
    ProcessResult R = runKernelTidy(Args);
    size_t N = 0;
    for (size_t At = R.Out.find(Rule); At != std::string::npos; At = R.Out.find(Rule, At + 1))
      ++N;
    return N;
  };
  const char *OutOfBounds = "warning: out-of-bounds shared access";
  const char *RaceOn = "warning: race on shared array";
  EXPECT_EQ(1u, Count({"check", Bounds}, OutOfBounds)) << "the kernel's own set_warp_size(64u)";
  EXPECT_EQ(3u, Count({"check", "--warp-size", "64", Bounds}, OutOfBounds));
  EXPECT_EQ(0u, Count({"check", Race}, RaceOn));
  EXPECT_EQ(1u, Count({"check", "--warp-size", "64", Race}, RaceOn));
  writeFile(Dir + "/.clang-tidy", "CheckOptions:\n  luisa-shared-race.WarpSize: 64\n"
                                  "  luisa-shared-out-of-bounds.WarpSize: 64\n");
  EXPECT_EQ(3u, Count({"check", Bounds}, OutOfBounds)) << "the per-check option";
  EXPECT_EQ(1u, Count({"check", Race}, RaceOn)) << "the per-check option";
}

const char *RoundingReason = "warp_active_sum combines the floating-point values in another "
                             "order, so the result can differ by rounding";

TEST_F(Cli, UnsafeFixReasonReachesTextAndJson) {
  std::string File = copyFixture(UnsafeCase);
  // With the width stated, rounding is the only reason.
  ProcessResult R = runCheckInProcess({"check", "--warp-size=32", File});
  EXPECT_EQ(1, R.ExitCode) << R.Err;
  // The note carries the unsafe fix, as the plugin's does in clang-tidy.
  EXPECT_NE(std::string::npos,
            R.Out.find(File + ":12:9: note: unsafe fix (applied only with --unsafe-fixes): " +
                       RoundingReason +
                       "\n"
                       "   12 |         s = s + warp_read_lane(s, lane ^ 16u);\n"
                       "      |         ^" +
                       std::string(37, '~') +
                       "\n"
                       "      |         s = warp_active_sum(s);\n"
                       "   13 |         s = s + warp_read_lane(s, lane ^ 8u);\n"))
      << R.Out;
  EXPECT_EQ(1u, llvm::StringRef(R.Out).count("s = warp_active_sum(s);")) << R.Out;
  R = runCheckInProcess({"check", "--warp-size=32", "--format", "json", File});
  auto D = nlohmann::json::parse(R.Out)["diagnostics"][0];
  EXPECT_EQ("unsafe", D["fix"]["applicability"]);
  EXPECT_EQ(RoundingReason, D["fix"]["reason"]);
  EXPECT_TRUE(D["no_fix_reason"].is_null());
  EXPECT_TRUE(D["notes"].empty()) << "the reason is not a plain note";

  File = copyFixture(ButterflyCase, "safe.cpp");
  R = runCheckInProcess({"check", "--format", "json", File});
  D = nlohmann::json::parse(R.Out)["diagnostics"][0];
  EXPECT_EQ("safe", D["fix"]["applicability"]);
  EXPECT_TRUE(D["fix"]["reason"].is_null());
  R = runCheckInProcess({"check", File});
  EXPECT_EQ(std::string::npos, R.Out.find("unsafe")) << R.Out;
}

TEST_F(Cli, WarpSizeFromAnySourceMustBeAPowerOfTwoFromEightTo128) {
  std::string File = copyFixture(UnsafeCase);
  std::string Source = readFile(File);
  struct Case {
    std::string Config, Option, Value;
  };
  for (const Case &C : std::vector<Case>{{"CheckOptions: {WarpSize: 0}", "WarpSize", "0"},
                                         {"CheckOptions: {WarpSize: 3}", "WarpSize", "3"},
                                         {"CheckOptions: {WarpSize: 256}", "WarpSize", "256"},
                                         {"CheckOptions: {WarpSize: banana}", "WarpSize", "banana"},
                                         {"CheckOptions: {luisa-butterfly-reduction.WarpSize: 12}",
                                          "luisa-butterfly-reduction.WarpSize", "12"}}) {
    writeFile(Dir + "/.clang-tidy", C.Config + "\n");
    ProcessResult R = runKernelTidy({"check", "--fix", "--unsafe-fixes", File});
    EXPECT_EQ(2, R.ExitCode) << C.Config << R.Out << R.Err;
    EXPECT_NE(std::string::npos, R.Err.find("error: invalid value '" + C.Value + "' for option '" +
                                            C.Option + "' (from '" + Dir +
                                            "/.clang-tidy'): the warp width must be a power "
                                            "of two from 8 to 128"))
        << C.Config << R.Err;
    EXPECT_EQ(Source, readFile(File)) << C.Config << ": nothing written";
    // The same configuration through --config-file.
    std::string Config = Dir + "/config.yaml";
    writeFile(Config, C.Config + "\n");
    R = runKernelTidy({"check", "--fix", "--unsafe-fixes", "--config-file", Config, File});
    EXPECT_EQ(2, R.ExitCode) << C.Config << R.Err;
    EXPECT_NE(std::string::npos, R.Err.find("'" + C.Option + "' (from '" + Config + "')")) << R.Err;
    EXPECT_EQ(Source, readFile(File));
  }
  llvm::sys::fs::remove(Dir + "/.clang-tidy");
  for (const char *Width : {"0", "2", "4", "12", "256", "1024"}) {
    ProcessResult R =
        runKernelTidy({"check", "--fix", "--unsafe-fixes", "--warp-size", Width, File});
    EXPECT_EQ(2, R.ExitCode) << Width;
    EXPECT_NE(std::string::npos,
              R.Err.find("invalid value '" + std::string(Width) + "' for option 'WarpSize'"))
        << R.Err;
  }
  EXPECT_EQ(Source, readFile(File));
  for (const char *Width : {"8", "128"})
    EXPECT_EQ(0, runKernelTidy({"check", "--warp-size", Width, File}).ExitCode) << Width;
  writeFile(Dir + "/.clang-tidy",
            "CheckOptions: {WarpSize: 8, luisa-butterfly-reduction.WarpSize: 32}\n");
  EXPECT_EQ(1, runKernelTidy({"check", File}).ExitCode) << "valid widths are accepted";
}

TEST_F(Cli, MalformedClangTidyIsAnErrorNamingTheFileAndNothingIsWritten) {
  // The malformed file would disable every check: running with the defaults
  // instead would fix the code.
  std::string File = copyFixture(ButterflyCase);
  std::string Source = readFile(File);
  llvm::sys::fs::create_directory(Dir + "/other");
  std::string Other = Dir + "/other/k.cpp";
  writeFile(Other, Source);
  for (std::string Config : {std::string("Checks: '-*'\nCheckOptions: [unclosed\n"),
                             std::string("Checks: '-*'\nCheckOption:\n  WarpSize: 32\n"),
                             std::string("\x00\x01\xff\xfe binary", 12)}) {
    writeFile(Dir + "/.clang-tidy", Config);
    ProcessResult R = runKernelTidy({"check", "--fix", Other, File});
    EXPECT_EQ(2, R.ExitCode) << Config << R.Out << R.Err;
    EXPECT_NE(std::string::npos,
              R.Err.find("error: invalid configuration file '" + Dir + "/.clang-tidy': "))
        << R.Err;
    EXPECT_EQ(Source, readFile(File)) << Config;
    EXPECT_EQ(Source, readFile(Other)) << "nothing is written, not even elsewhere";
  }
  writeFile(Dir + "/.clang-tidy", "CheckOption:\n  WarpSize: 32\n");
  ProcessResult R = runKernelTidy({"check", Other});
  EXPECT_EQ(2, R.ExitCode) << "a parent folder's configuration too";
  EXPECT_NE(std::string::npos, R.Err.find("unknown key 'CheckOption'")) << R.Err;
}

TEST_F(Cli, NoChecksEnabledIsAnErrorUnlessAllowed) {
  std::string File = copyFixture(ButterflyCase);
  std::string Source = readFile(File);
  for (std::vector<std::string> Args :
       {std::vector<std::string>{"--checks=-*"}, {"--checks=-*,luisa-no-such-rule"}, {}}) {
    if (Args.empty())
      writeFile(Dir + "/.clang-tidy", "Checks: '-*,bugprone-*'\n");
    Args.insert(Args.begin(), "check");
    Args.push_back("--fix");
    Args.push_back(File);
    ProcessResult R = runKernelTidy(Args);
    EXPECT_EQ(2, R.ExitCode) << Args[1] << R.Out << R.Err;
    EXPECT_NE(std::string::npos,
              R.Err.find("kernel-tidy: error: no checks enabled for '" + File + "'"))
        << R.Err;
    Args.insert(Args.begin() + 1, "--allow-no-checks");
    R = runKernelTidy(Args);
    EXPECT_EQ(0, R.ExitCode) << Args[2] << R.Out << R.Err;
    EXPECT_EQ(std::string::npos, R.Err.find("error")) << R.Err;
    EXPECT_NE(std::string::npos, R.Err.find("kernel-tidy: Found 0 findings.\n")) << R.Err;
  }
  EXPECT_EQ(Source, readFile(File));
}

TEST_F(Cli, UnmatchedNolintBeginFailsTheFileAsInClangTidy) {
  std::string Source = fixtureInput(sourceDir() + ButterflyCase + ".cpp");
  size_t Kernel = Source.find("void ");
  ASSERT_NE(std::string::npos, Kernel);
  std::string File = Dir + "/k.cpp";
  std::string Unmatched = Source.substr(0, Kernel) + "// NOLINTBEGIN\n" + Source.substr(Kernel);
  writeFile(File, Unmatched);
  ProcessResult R = runKernelTidy({"check", "--fix", File});
  EXPECT_EQ(2, R.ExitCode) << R.Out << R.Err;
  EXPECT_NE(std::string::npos,
            R.Out.find(File + ":7:4: error: unmatched 'NOLINTBEGIN' comment without a "
                              "subsequent 'NOLINTEND' comment [clang-tidy-nolint]\n"))
      << R.Out;
  EXPECT_EQ(Unmatched, readFile(File)) << "a file with a NOLINT error is not fixed";
  R = runKernelTidy({"check", "--format", "json", File});
  EXPECT_EQ(2, R.ExitCode);
  auto Errors = nlohmann::json::parse(R.Out)["summary"]["errors"];
  ASSERT_EQ(1u, Errors.size()) << R.Out;
  EXPECT_EQ(7u, Errors[0]["line"]);
  // Matched, the block suppresses the finding.
  writeFile(File, Unmatched + "// NOLINTEND\n");
  EXPECT_EQ(0, runKernelTidy({"check", File}).ExitCode);
}

TEST_F(Cli, UnknownTargetExitsTwoWithAMessage) {
  std::string File = copyFixture(ButterflyCase);
  ProcessResult R = runKernelTidy({"check", "--target", "bogus", File});
  EXPECT_EQ(2, R.ExitCode);
  EXPECT_NE(std::string::npos, (R.Out + R.Err).find("unknown target 'bogus' (expected any, cuda"))
      << R.Out << R.Err;
  EXPECT_EQ(2, runKernelTidy({"check", "--target", "CUDA", File}).ExitCode);
  EXPECT_EQ(1, runKernelTidy({"check", "--target", "directx", File}).ExitCode);
}

/// The notes of the findings of a JSON report.
std::vector<std::string> jsonNotes(const std::string &Out) {
  std::vector<std::string> Notes;
  nlohmann::json Report = nlohmann::json::parse(Out);
  for (const auto &D : Report["diagnostics"])
    for (const auto &N : D["notes"])
      Notes.push_back(N["message"].get<std::string>());
  return Notes;
}

TEST_F(Cli, TargetAddsTheProfitabilityNoteToEveryFormat) {
  // A float max butterfly: warp_active_max is the same butterfly on CUDA.
  std::string File = copyFixture(ButterflyCase);
  ProcessResult R = runCheckInProcess({"check", "--format", "json", "--target", "cuda", File});
  EXPECT_EQ(1, R.ExitCode) << R.Err;
  auto D = nlohmann::json::parse(R.Out)["diagnostics"][0];
  ASSERT_EQ(1u, D["notes"].size()) << R.Out;
  EXPECT_EQ(0u, D["notes"][0]["message"].get<std::string>().find(
                    "on cuda this rewrite is expected to be slower (compiled (PTX of the "
                    "harness cases, NVRTC 13): warp_active_max of float"));
  EXPECT_EQ(D["line"], D["notes"][0]["line"]);
  EXPECT_EQ(D["column"], D["notes"][0]["column"]);
  EXPECT_EQ(File, D["notes"][0]["file"]);
  EXPECT_EQ("safe", D["fix"]["applicability"]) << "the finding keeps its fix";

  R = runCheckInProcess({"check", "--target", "cuda", File});
  EXPECT_NE(std::string::npos,
            R.Out.find("   16 |         m = max(m, warp_read_lane(m, lane ^ 1u));\n"
                       "      |         " +
                       std::string(41, '~') + "\n" + File +
                       ":12:9: note: on cuda this rewrite is "
                       "expected to be slower ("))
      << R.Out;
  // No claim without a target, or where the table knows nothing.
  for (const char *Target : {"any", "dx"}) {
    R = runCheckInProcess({"check", "--format", "json", "--target", Target, File});
    EXPECT_TRUE(jsonNotes(R.Out).empty()) << Target << R.Out;
  }
  R = runCheckInProcess({"check", "--format", "json", File});
  EXPECT_TRUE(jsonNotes(R.Out).empty()) << R.Out;
  writeFile(Dir + "/.clang-tidy", "CheckOptions:\n  Target: cuda\n");
  R = runCheckInProcess({"check", "--format", "json", File});
  EXPECT_EQ(1u, jsonNotes(R.Out).size()) << "the Target option: " << R.Out;
}

TEST_F(Cli, TargetChangesNoFix) {
  // A float sum: unsafe fix on a note, and the profitability note on cuda
  // (its `/ 32u` is luisa-hardcoded-warp-width's, and not the point here).
  const std::string Only = "--checks=-*,luisa-butterfly-reduction";
  std::string Plain = copyFixture(UnsafeCase, "plain.cpp");
  std::string Cuda = copyFixture(UnsafeCase, "cuda.cpp");
  ProcessResult R =
      runCheckInProcess({"check", Only, "--format", "json", "--target", "cuda", Cuda});
  EXPECT_EQ(1u, jsonNotes(R.Out).size()) << R.Out;
  for (const char *Unsafe : {"", "--unsafe-fixes"}) {
    std::vector<std::string> Args{"check", Only, "--export-fixes", Dir + "/plain.yaml", Plain};
    if (*Unsafe)
      Args.push_back(Unsafe);
    runCheckInProcess(Args);
    Args = {"check", Only, "--export-fixes", Dir + "/cuda.yaml", "--target", "cuda", Cuda};
    if (*Unsafe)
      Args.push_back(Unsafe);
    runCheckInProcess(Args);
    std::string Exported = readFile(Dir + "/cuda.yaml");
    for (size_t At; (At = Exported.find("cuda.cpp")) != std::string::npos;)
      Exported.replace(At, 8, "plain.cpp");
    EXPECT_EQ(readFile(Dir + "/plain.yaml"), Exported) << Unsafe;
  }
  R = runCheckInProcess({"check", Only, "--fix", "--target", "cuda", Cuda});
  EXPECT_EQ(1, R.ExitCode) << "the unsafe finding remains" << R.Out << R.Err;
  EXPECT_EQ(readFile(Plain), readFile(Cuda));
  R = runCheckInProcess({"check", Only, "--fix", "--unsafe-fixes", "--target", "cuda", Cuda});
  EXPECT_EQ(0, R.ExitCode) << R.Out << R.Err;
  EXPECT_EQ(readFile(sourceDir() + UnsafeCase + ".fixed.cpp"), readFile(Cuda));
}

TEST_F(Cli, AssumeWarpReconvergenceGivesTheSlotFixBack) {
  // A warp-slot rewrite reads the leader's base after a divergent $if: no fix
  // by default; the user's statement that the warps reconverge there, on the
  // command line or in the configuration, gives it back.
  const std::string Case = "/test/fixtures/luisa-warp-aggregated-atomic/assume-warp-reconvergence";
  const std::string Only = "--checks=-*,luisa-warp-aggregated-atomic";
  std::string Plain = copyFixture(Case, "plain.cpp");
  std::string Flag = copyFixture(Case, "flag.cpp");
  std::string Config = copyFixture(Case, "config.cpp");
  ProcessResult R = runCheckInProcess({"check", Only, "--fix", Plain});
  EXPECT_EQ(1, R.ExitCode) << "the slot allocation remains" << R.Out << R.Err;
  R = runCheckInProcess({"check", Only, "--fix", "--assume-warp-reconvergence", Flag});
  EXPECT_EQ(0, R.ExitCode) << R.Out << R.Err;
  R = runCheckInProcess({"check", Only, "--fix", "--config",
                         "{CheckOptions: {AssumeWarpReconvergence: true}}", Config});
  EXPECT_EQ(0, R.ExitCode) << R.Out << R.Err;
  EXPECT_EQ(readFile(sourceDir() + Case + ".fixed.cpp"), readFile(Plain));
  EXPECT_EQ(readFile(sourceDir() + Case + ".ASSUME.fixed.cpp"), readFile(Flag));
  EXPECT_EQ(readFile(Flag), readFile(Config));
}

TEST_F(Cli, CompilerArgumentsAfterDoubleDash) {
  std::string File = Dir + "/k.cpp";
  std::string Source = fixtureInput(sourceDir() + ButterflyCase + ".cpp");
  writeFile(File, "#ifndef KERNEL_TIDY_TEST_DEFINE\n#error needs the define\n#endif\n" + Source);
  EXPECT_EQ(2, runKernelTidy({"check", File}).ExitCode);
  EXPECT_EQ(1, runKernelTidy({"check", File, "--", "-DKERNEL_TIDY_TEST_DEFINE"}).ExitCode);
}

TEST_F(Cli, RelativeIncludeFoldersAfterDoubleDashAreFromTheWorkingDirectory) {
  // As clang-tidy takes them: `kernel-tidy check src/a/k.cpp -- -I include`
  // run from the project root, not from the file's folder.
  llvm::sys::fs::create_directories(Dir + "/inc");
  llvm::sys::fs::create_directories(Dir + "/src/a");
  writeFile(Dir + "/inc/defs.h", "#define FROM_INCLUDE_FOLDER 1\n");
  std::string File = Dir + "/src/a/k.cpp";
  std::string Source = fixtureInput(sourceDir() + ButterflyCase + ".cpp");
  writeFile(File, "#include \"defs.h\"\n#ifndef FROM_INCLUDE_FOLDER\n#error\n#endif\n" + Source);
  llvm::SmallString<256> Cwd;
  ASSERT_FALSE(llvm::sys::fs::current_path(Cwd));
  std::string Up;
  for (auto It = llvm::sys::path::begin(Cwd); It != llvm::sys::path::end(Cwd); ++It)
    if (*It != "/")
      Up += "../";
  std::string Relative = Up + (Dir + "/inc").substr(1);
  ProcessResult R = runKernelTidy({"check", File, "--", "-I", Relative});
  EXPECT_EQ(1, R.ExitCode) << R.Out << R.Err;
}

TEST_F(Cli, CompileDatabaseFlagsAreUsed) {
  std::string File = Dir + "/k.cpp";
  std::string Source = fixtureInput(sourceDir() + ButterflyCase + ".cpp");
  writeFile(File, "#ifndef FROM_DATABASE\n#error needs the database\n#endif\n" + Source);
  nlohmann::json DB = nlohmann::json::array();
  DB.push_back(
      {{"directory", Dir},
       {"file", File},
       {"arguments",
        {"clang++", "-std=c++20", "-DFROM_DATABASE", "-isystem", modelDir(), "-c", File}}});
  llvm::sys::fs::create_directory(Dir + "/build");
  writeFile(Dir + "/build/compile_commands.json", DB.dump());
  EXPECT_EQ(2, runKernelTidy({"check", File}).ExitCode);
  EXPECT_EQ(1, runKernelTidy({"check", "-p", Dir + "/build", File}).ExitCode);
  writeFile(Dir + "/compile_commands.json", DB.dump());
  EXPECT_EQ(1, runKernelTidy({"check", File}).ExitCode) << "found upward from the file";
  EXPECT_EQ(2, runKernelTidy({"check", "-p", Dir + "/nowhere", File}).ExitCode);
}

// Issue 50, item 6: clang-tidy's configuration options, a misspelt option,
// -p without a database, and `check -` for standard input.
TEST_F(Cli, ClangTidysConfigurationOptionsAndCommonSlips) {
  std::string File = copyFixture(ButterflyCase);
  // --config instead of .clang-tidy lookup, shown by --dump-config,
  // --explain-config and --list-checks as clang-tidy shows them.
  ProcessResult R = runKernelTidy({"check", "--config",
                                   "{Checks: '-*,luisa-shared-race', CheckOptions: {WarpSize: 64}}",
                                   "--list-checks", File});
  EXPECT_EQ(0, R.ExitCode) << R.Err;
  EXPECT_EQ("Enabled checks:\n    luisa-shared-race\n\n", R.Out);
  R = runKernelTidy({"check", "--config",
                     "{Checks: '-*,luisa-shared-race', CheckOptions: "
                     "{WarpSize: 64}}",
                     "--dump-config", File});
  EXPECT_EQ(0, R.ExitCode) << R.Err;
  EXPECT_NE(std::string::npos,
            R.Out.find("Checks:          '-*,luisa-*,cute-*,-*,luisa-shared-race'"))
      << R.Out;
  EXPECT_NE(std::string::npos, R.Out.find("WarpSize")) << R.Out;
  EXPECT_EQ(std::string::npos, R.Out.find("UnsafeFixes")) << "the driver's own option\n" << R.Out;
  R = runKernelTidy({"check", "--checks=-*,luisa-divergent-barrier", "--explain-config", File});
  EXPECT_EQ(0, R.ExitCode) << R.Err;
  EXPECT_EQ("'luisa-divergent-barrier' is enabled in the command-line option '-checks'.\n", R.Out);
  R = runKernelTidy({"check", "--config", "{Checks: [", File});
  EXPECT_EQ(2, R.ExitCode);
  EXPECT_EQ(0u, R.Err.find("kernel-tidy: error: invalid --config: ")) << R.Err;
  // --extra-arg reaches the compiler: a macro the file needs.
  std::string Guarded = Dir + "/guarded.cpp";
  writeFile(Guarded, "#ifndef NEEDED\n#error NEEDED not defined\n#endif\n");
  EXPECT_EQ(2, runKernelTidy({"check", Guarded}).ExitCode);
  R = runKernelTidy({"check", "--extra-arg=-DNEEDED", Guarded});
  EXPECT_EQ(0, R.ExitCode) << R.Err;
  R = runKernelTidy({"check", "--extra-arg-before=-DNEEDED", Guarded});
  EXPECT_EQ(0, R.ExitCode) << R.Err;

  R = runKernelTidy({"check", "--fixx", File});
  EXPECT_EQ(2, R.ExitCode);
  EXPECT_NE(std::string::npos, R.Err.find("kernel-tidy: '--fixx': did you mean '--fix'?\n"))
      << R.Err;
  R = runKernelTidy({"check", "--unsafe-fix", File});
  EXPECT_NE(std::string::npos,
            R.Err.find("kernel-tidy: '--unsafe-fix': did you mean '--unsafe-fixes'?\n"))
      << R.Err;

  R = runKernelTidy({"check", "-p", Dir, File});
  EXPECT_EQ(2, R.ExitCode);
  EXPECT_EQ("kernel-tidy: error: -p '" + Dir +
                "': no compile_commands.json in it (CMake writes one when configured with "
                "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON; without -p, kernel-tidy finds one above "
                "each file or parses with the bundled DSL model)\n",
            R.Err);

  // `check -` reads standard input (as stdin.cpp unless named).
  // In the test's folder: no compile database above it (the build folder has one).
  std::string Script = "cd '" + Dir + "' && '" KERNEL_TIDY_BINARY "' check - < '" + File + "' > '" +
                       Dir + "/out' 2>&1";
  EXPECT_NE(0, llvm::sys::ExecuteAndWait("/bin/bash", {"bash", "-c", Script}));
  EXPECT_EQ(0u, readFile(Dir + "/out").find("stdin.cpp:12:9: warning: butterfly reduction"))
      << readFile(Dir + "/out");
  EXPECT_EQ(2, runKernelTidy({"check", "-", File}).ExitCode);
}

TEST_F(Cli, RulesListsAndDocuments) {
  ProcessResult R = runKernelTidy({"rules"});
  EXPECT_EQ(0, R.ExitCode);
  for (const rules::RuleInfo &Rule : rules::allRules())
    EXPECT_NE(std::string::npos, R.Out.find(Rule.Id.str())) << R.Out;
  for (const rules::RuleInfo &Rule : rules::allRules()) {
    ProcessResult Page = runKernelTidy({"rules", Rule.Id.str()});
    EXPECT_EQ(0, Page.ExitCode);
    EXPECT_EQ(readFile(sourceDir() + "/docs/rules/" + Rule.Id.str() + ".md"), Page.Out);
  }
  EXPECT_EQ(2, runKernelTidy({"rules", "luisa-no-such-rule"}).ExitCode);
}

TEST_F(Cli, RulesShowsWhatTheConfigurationEnablesInAlignedColumns) {
  ProcessResult R = runKernelTidy({"rules", "--checks=-*,luisa-divergent-barrier"});
  ASSERT_EQ(0, R.ExitCode) << R.Err;
  llvm::SmallVector<llvm::StringRef> Lines;
  llvm::StringRef(R.Out).trim().split(Lines, '\n');
  // The header, a row per rule, a blank line and where the pages are.
  ASSERT_EQ(Lines.size(), rules::allRules().size() + 3);
  EXPECT_TRUE(Lines[0].starts_with("RULE ")) << Lines[0].str();
  EXPECT_TRUE(Lines.back().starts_with("A rule's page: kernel-tidy rules RULE, or file://"))
      << Lines.back().str();
  EXPECT_TRUE(Lines.back().ends_with("/docs/rules/RULE.md")) << Lines.back().str();
  size_t Column = Lines[0].find("ENABLED"), Kind = Lines[0].find("KIND"),
         Fix = Lines[0].find("FIX");
  for (const rules::RuleInfo &Rule : rules::allRules()) {
    auto Line = llvm::find_if(
        Lines, [&](llvm::StringRef L) { return L.starts_with((Rule.Id + " ").str()); });
    ASSERT_NE(Line, Lines.end()) << Rule.Id.str();
    EXPECT_EQ(Line->substr(Column, 4).str(), Rule.Id == "luisa-divergent-barrier" ? "yes " : "no  ")
        << Line->str();
    EXPECT_EQ(Line->substr(Fix, Rule.FixKinds.size()).str(), Rule.FixKinds.str()) << Line->str();
    EXPECT_EQ(Line->substr(Kind, Rule.Kind.size()).str(), Rule.Kind.str()) << Line->str();
  }
  // A glob lists the rules it matches (issue 50, item 11).
  R = runKernelTidy({"rules", "cute-*"});
  ASSERT_EQ(0, R.ExitCode) << R.Err;
  EXPECT_NE(std::string::npos, R.Out.find("\ncute-launch-config ")) << R.Out;
  EXPECT_EQ(std::string::npos, R.Out.find("luisa-")) << R.Out;
  R = runKernelTidy({"rules", "nothing-*"});
  EXPECT_EQ(2, R.ExitCode);
  EXPECT_EQ("kernel-tidy: error: no rule matches 'nothing-*' (see 'kernel-tidy rules')\n", R.Err);
  // The pages' address can be set when the docs are published elsewhere.
  ::setenv("KERNEL_TIDY_DOCS_URL", "https://example.org/kt/", /*overwrite=*/1);
  R = runKernelTidy({"rules"});
  ::unsetenv("KERNEL_TIDY_DOCS_URL");
  EXPECT_NE(std::string::npos,
            R.Out.find(
                "A rule's page: kernel-tidy rules RULE, or https://example.org/kt/rules/RULE.md\n"))
      << R.Out;
  std::string Config = Dir + "/only-atomics.yaml";
  writeFile(Config, "Checks: '-*,luisa-shared-atomic-counter'\n");
  R = runKernelTidy({"rules", "--config-file", Config});
  ASSERT_EQ(0, R.ExitCode) << R.Err;
  size_t Row = R.Out.find("luisa-shared-atomic-counter ");
  ASSERT_NE(std::string::npos, Row) << R.Out;
  EXPECT_EQ("yes", R.Out.substr(Row + Column, 3)) << R.Out;
  EXPECT_EQ(1u, llvm::StringRef(R.Out).count(" yes ")) << R.Out;
  R = runKernelTidy({"rules", "--checks=-*,cute-divergent-barrier"});
  Row = R.Out.find("cute-divergent-barrier ");
  ASSERT_NE(std::string::npos, Row) << R.Out;
  EXPECT_EQ("yes", R.Out.substr(Row + Column, 3)) << "the Python rules too: " << R.Out;
  EXPECT_EQ("", R.Err) << "a cute- glob enables a rule";
  writeFile(Config, "Checks: [\n");
  EXPECT_EQ(2, runKernelTidy({"rules", "--config-file", Config}).ExitCode);
}

} // namespace
} // namespace kernel_tidy::test
