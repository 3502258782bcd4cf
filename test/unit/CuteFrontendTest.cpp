//===--- CuteFrontendTest.cpp - The CuTe DSL (Python) frontend and its bridge ===//
//
// The JSON bridge (request, report -> FileResult), the analyzer's dispatch of
// .py files to frontends/cute, fix verification by re-parsing, and the CLI
// end to end on a .py file: check, --fix, JSON, SARIF, NOLINT, baselines,
// folder walks. The rules' own behaviour is in test/fixtures/cute-*.
//
//===----------------------------------------------------------------------===//

#include "rules/RuleRegistry.h"
#include "src/driver/CuteFrontend.h"
#include "src/driver/FixApplier.h"
#include "test/unit/TestSupport.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <set>

namespace kernel_tidy::test {
namespace {

TEST(CuteBridge, RequestIsOneJsonLineThenItsLengthOfBytesAsTheyAre) {
  CuteRequest Request{"k.py", "x = 1\n\xff\xfe\n", {"cute-launch-config"}, {{"cute-a.B", "1"}}, "",
                      nullptr};
  std::string Text = formatCuteRequest(Request);
  size_t Newline = Text.find('\n');
  ASSERT_NE(std::string::npos, Newline);
  auto Header = nlohmann::json::parse(Text.substr(0, Newline));
  EXPECT_EQ(2, Header["version"]);
  EXPECT_EQ(Request.Text.size(), Header["length"]) << "the bytes that follow, one request of many";
  EXPECT_EQ("k.py", Header["path"]);
  EXPECT_EQ("cute-launch-config", Header["checks"][0]);
  EXPECT_EQ("1", Header["options"]["cute-a.B"]);
  EXPECT_EQ(Request.Text, Text.substr(Newline + 1)) << "not UTF-8, still exact";
  EXPECT_FALSE(Header.contains("modules")) << "a file alone names no other modules";

  Request.AbsolutePath = "/w/k.py";
  Request.Modules = std::make_shared<std::vector<std::string>>(
      std::vector<std::string>{"/w/k.py", "/w/helpers.py"});
  Text = formatCuteRequest(Request);
  Header = nlohmann::json::parse(Text.substr(0, Text.find('\n')));
  EXPECT_EQ("/w/k.py", Header["file"]);
  EXPECT_EQ((std::vector<std::string>{"/w/k.py", "/w/helpers.py"}), Header["modules"]);
}

TEST(CuteBridge, ReportBecomesFindingsWithByteColumns) {
  // Line 2 starts at offset 7; "é" is two bytes, so `v` at offset 12 is column 6 and `32`
  // (offsets 16 to 18) columns 10 to 12.
  std::string Original = "import\n# \xC3\xA9 v = 32\n";
  std::string Json = R"({"version": 2, "errors": [], "findings": [
    {"rule": "cute-hardcoded-warp-width", "message": "m1", "offset": 16, "end_offset": 18,
     "fix": {"kind": "safe", "reason": "", "edits": [{"offset": 16, "length": 2, "text": "W", "replaced": "32"}]},
     "no_fix_reason": "", "notes": [{"message": "n", "offset": 0}]},
    {"rule": "cute-butterfly-reduction", "message": "m2", "offset": 12, "end_offset": 13,
     "fix": {"kind": "unsafe", "reason": "sm_100a", "edits": [{"offset": 12, "length": 1, "text": "w", "replaced": "v"}]}},
    {"rule": "cute-divergent-barrier", "message": "m3", "offset": 7, "end_offset": 8,
     "fix": null, "no_fix_reason": "why"}]})";
  FileResult R = parseCuteReport(Json, "k.py", Original, {"cute-divergent-barrier"});
  ASSERT_TRUE(R.Errors.empty()) << R.Errors.front().Message;
  ASSERT_EQ(3u, R.Findings.size());
  const Finding &A = R.Findings[0];
  EXPECT_EQ("cute-hardcoded-warp-width", A.Rule);
  EXPECT_EQ(2u, A.Begin.Line);
  EXPECT_EQ(10u, A.Begin.Column);
  EXPECT_EQ(12u, A.End.Column);
  ASSERT_TRUE(A.FixIt);
  EXPECT_EQ(Applicability::Safe, A.FixIt->Kind);
  EXPECT_EQ("k.py", A.FixIt->Edits[0].File);
  EXPECT_EQ(16u, A.FixIt->Edits[0].Begin.Offset);
  EXPECT_EQ(18u, A.FixIt->Edits[0].End.Offset);
  EXPECT_EQ(12u, A.FixIt->Edits[0].End.Column);
  ASSERT_EQ(1u, A.Notes.size());
  EXPECT_EQ(1u, A.Notes[0].At.Line);
  EXPECT_FALSE(A.AsError);
  const Finding &B = R.Findings[1];
  EXPECT_EQ(6u, B.Begin.Column);
  ASSERT_TRUE(B.FixIt);
  EXPECT_EQ(Applicability::Unsafe, B.FixIt->Kind);
  EXPECT_EQ("sm_100a", B.FixIt->Reason);
  const Finding &C = R.Findings[2];
  EXPECT_FALSE(C.FixIt);
  EXPECT_EQ("why", C.NoFixReason);
  EXPECT_TRUE(C.AsError) << "its rule matches WarningsAsErrors";
  EXPECT_EQ(Original, R.Original);
}

TEST(CuteBridge, ReportsThatAreNotTheProtocolAreErrorsOfTheFile) {
  std::string Original = "x = 1\n";
  for (
      const char *Bad :
      {"", "not json", "[]", R"({"version": 3, "findings": []})",
       R"({"version": 2, "findings": [{"rule": "r", "message": "m", "offset": 99, "end_offset": 99}]})",
       R"({"version": 2, "findings": [{"rule": "r", "message": "m", "offset": 0, "end_offset": 1,
            "fix": {"kind": "safe", "edits": [{"offset": 5, "length": 9, "text": ""}]}}]})",
       R"({"version": 2, "findings": [{"message": "no rule", "offset": 0, "end_offset": 0}]})",
       // Issue 31 item 9: every field is type-checked, the version too.
       R"({"version": "1", "findings": []})", R"({"version": 1.5, "findings": []})",
       R"({"version": 2, "findings": [], "errors": [{"line": "3", "message": "m"}]})",
       // Item 18: an offset plus a length that wraps around 2^32 is outside the file.
       R"({"version": 2, "findings": [{"rule": "r", "message": "m", "offset": 1, "end_offset": 1,
            "fix": {"kind": "safe", "edits": [{"offset": 1, "length": 4294967295, "text": "",
                                               "replaced": ""}]}}]})",
       // An offset past 2^32 is outside the file, not wrapped into it.
       R"({"version": 2, "findings": [{"rule": "r", "message": "m", "offset": 4294967296,
            "end_offset": 4294967296}]})",
       // Items 1 and 2: an edit must name the text it replaces, and be right.
       R"({"version": 2, "findings": [{"rule": "r", "message": "m", "offset": 0, "end_offset": 1,
            "fix": {"kind": "safe", "edits": [{"offset": 4, "length": 1, "text": "2"}]}}]})",
       R"({"version": 2, "findings": [{"rule": "r", "message": "m", "offset": 0, "end_offset": 1,
            "fix": {"kind": "safe", "edits": [{"offset": 3, "length": 1, "text": "2",
                                               "replaced": "1"}]}}]})",
       // Issue 51, item 2: fix safety fails closed; only "safe" is safe.
       R"({"version": 2, "findings": [{"rule": "r", "message": "m", "offset": 0, "end_offset": 1,
            "fix": {"kind": "maybe", "edits": [{"offset": 4, "length": 1, "text": "2",
                                                "replaced": "1"}]}}]})",
       R"({"version": 2, "findings": [{"rule": "r", "message": "m", "offset": 0, "end_offset": 1,
            "fix": {"edits": [{"offset": 4, "length": 1, "text": "2", "replaced": "1"}]}}]})",
       R"({"version": 2, "findings": [{"rule": "r", "message": "m", "offset": 0, "end_offset": 1,
            "fix": {"kind": true, "edits": [{"offset": 4, "length": 1, "text": "2",
                                             "replaced": "1"}]}}]})"}) {
    FileResult R = parseCuteReport(Bad, "k.py", Original, {});
    EXPECT_EQ(1u, R.Errors.size()) << Bad;
    EXPECT_TRUE(R.Findings.empty()) << Bad;
  }
  FileResult Syntax = parseCuteReport(
      R"({"version": 2, "findings": [], "errors": [{"line": 3, "column": 4, "message": "Python syntax error: x"}]})",
      "k.py", Original, {});
  ASSERT_EQ(1u, Syntax.Errors.size());
  EXPECT_EQ(3u, Syntax.Errors[0].Line);
  // A stored byte offset wins: Python's lines are not the driver's where a lone CR ends one.
  FileResult Placed = parseCuteReport(
      R"({"version": 2, "findings": [], "errors": [{"line": 2, "column": 1, "offset": 4, "message": "m"}]})",
      "k.py", Original, {});
  ASSERT_EQ(1u, Placed.Errors.size());
  EXPECT_EQ(1u, Placed.Errors[0].Line);
  EXPECT_EQ(5u, Placed.Errors[0].Column);
}

TEST(CuteFrontend, ListsExactlyTheRegistrysPythonRules) {
  std::set<std::string> Registered;
  for (const rules::RuleInfo &Rule : rules::allRules())
    if (Rule.Language == "Python")
      Registered.insert(Rule.Id.str());
  EXPECT_EQ(7u, Registered.size());
  std::string Dir = makeTempDir(), Out = Dir + "/out";
  auto Python = llvm::sys::findProgramByName("python3");
  ASSERT_TRUE(Python) << "python3 is needed for the CuTe DSL frontend";
  std::string Script = sourceDir() + "/frontends/cute/run.py";
  llvm::StringRef Args[] = {*Python, "-I", "-B", Script, "--rules"};
  std::optional<llvm::StringRef> Redirects[] = {std::nullopt, llvm::StringRef(Out), std::nullopt};
  ASSERT_EQ(0, llvm::sys::ExecuteAndWait(*Python, Args, std::nullopt, Redirects, 60));
  std::set<std::string> Listed;
  std::string Text = readFile(Out);
  for (llvm::StringRef Rest = Text; !Rest.empty();) {
    auto [Line, Tail] = Rest.split('\n');
    if (!Line.empty())
      Listed.insert(Line.str());
    Rest = Tail;
  }
  EXPECT_EQ(Registered, Listed) << "frontends/cute/kernel_tidy_cute/rules RULES vs Rules.def";
  llvm::sys::fs::remove_directories(Dir);
}

const char *const Kernel = "import cutlass\n"
                           "import cutlass.cute as cute\n"
                           "\n"
                           "\n"
                           "@cute.kernel\n"
                           "def k(dst: cute.Tensor):\n"
                           "    tidx, _, _ = cute.arch.thread_idx()\n"
                           "    dst[tidx // 32] = tidx\n";

TEST(CuteFrontend, AnalyzerSendsPythonFilesToTheFrontend) {
  auto Analyzer = modelAnalyzer({});
  ASSERT_TRUE(Analyzer);
  std::string Dir = makeTempDir();
  FileResult R = Analyzer->analyze(Dir + "/k.py", std::string(Kernel));
  ASSERT_TRUE(R.Errors.empty()) << R.Errors.front().Message;
  ASSERT_EQ(1u, R.Findings.size()) << describeFindings(R);
  EXPECT_EQ("cute-hardcoded-warp-width", R.Findings[0].Rule);
  EXPECT_EQ(8u, R.Findings[0].Begin.Line);
  EXPECT_EQ(17u, R.Findings[0].Begin.Column);

  FileResult Broken = Analyzer->analyze(Dir + "/k.py", std::string("def f(:\n"));
  ASSERT_EQ(1u, Broken.Errors.size());
  EXPECT_NE(std::string::npos, Broken.Errors[0].Message.find("syntax error"));
  EXPECT_EQ(1u, Broken.Errors[0].Line);

  auto LuisaOnly = modelAnalyzer([] {
    AnalysisOptions O;
    O.Checks = "-*,luisa-*";
    return O;
  }());
  EXPECT_TRUE(LuisaOnly->analyze(Dir + "/k.py", std::string(Kernel)).Findings.empty());
  EXPECT_TRUE(LuisaOnly->enabledChecks(Dir + "/k.py").empty());
  EXPECT_EQ(7u, Analyzer->enabledChecks(Dir + "/k.py").size());
  llvm::sys::fs::remove_directories(Dir);
}

TEST(CuteFrontend, AFixThatBreaksTheFileIsDropped) {
  auto Analyzer = modelAnalyzer({});
  std::string Dir = makeTempDir();
  FileResult R = Analyzer->analyze(Dir + "/k.py", std::string(Kernel));
  ASSERT_EQ(1u, R.Findings.size());
  ASSERT_TRUE(R.Findings[0].FixIt);
  R.Findings[0].FixIt->Edits[0].Replacement = "(32"; // Unbalanced: no longer Python.
  applyFixes(R, *Analyzer, /*IncludeUnsafe=*/true);
  EXPECT_FALSE(R.Fixed);
  EXPECT_FALSE(R.Findings[0].FixIt);
  EXPECT_NE(std::string::npos, R.Findings[0].NoFixReason.find("does not parse"))
      << R.Findings[0].NoFixReason;
  llvm::sys::fs::remove_directories(Dir);
}

class CuteCli : public ::testing::Test {
protected:
  void SetUp() override {
    Dir = makeTempDir();
    File = Dir + "/k.py";
    writeFile(File, Kernel);
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }
  std::string Dir, File;
};

TEST_F(CuteCli, CheckReportsInEveryFormat) {
  ProcessResult R = runKernelTidy({"check", File});
  EXPECT_EQ(1, R.ExitCode) << R.Err;
  EXPECT_NE(std::string::npos,
            R.Out.find(File + ":8:17: warning: literal warp width 32 in warp index arithmetic "
                              "on a thread index: use cute.arch.WARP_SIZE "
                              "[cute-hardcoded-warp-width]\n"
                              "    8 |     dst[tidx // 32] = tidx\n"
                              "      |                 ^~\n"))
      << R.Out;

  R = runKernelTidy({"check", "--format", "json", File});
  EXPECT_EQ(1, R.ExitCode) << R.Err;
  auto Json = nlohmann::json::parse(R.Out);
  ASSERT_EQ(1u, Json["diagnostics"].size());
  EXPECT_EQ("cute-hardcoded-warp-width", Json["diagnostics"][0]["rule"]);
  EXPECT_EQ("safe", Json["diagnostics"][0]["fix"]["applicability"]);
  EXPECT_EQ(8u, Json["diagnostics"][0]["line"]);

  R = runKernelTidy({"check", "--format", "sarif", "--sarif-root", Dir, File});
  EXPECT_EQ(1, R.ExitCode) << R.Err;
  auto Sarif = nlohmann::json::parse(R.Out);
  const auto &Result = Sarif["runs"][0]["results"][0];
  EXPECT_EQ("cute-hardcoded-warp-width", Result["ruleId"]);
  EXPECT_EQ("k.py", Result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]);

  R = runKernelTidy({"check", "--warnings-as-errors", "cute-*", File});
  EXPECT_EQ(3, R.ExitCode) << R.Err;
  R = runKernelTidy({"check", "--checks", "-cute-hardcoded-warp-width", File});
  EXPECT_EQ(0, R.ExitCode) << R.Out << R.Err;
}

TEST_F(CuteCli, FixWritesAFileThatParses) {
  ProcessResult R = runKernelTidy({"check", "--fix", File});
  EXPECT_EQ(0, R.ExitCode) << R.Out << R.Err;
  std::string Fixed = readFile(File);
  EXPECT_NE(std::string::npos, Fixed.find("dst[tidx // cute.arch.WARP_SIZE] = tidx\n")) << Fixed;
  EXPECT_EQ(0, runKernelTidy({"check", File}).ExitCode) << "nothing left";
  writeFile(File, Kernel);
  R = runKernelTidy({"check", "--diff", File});
  EXPECT_NE(std::string::npos, R.Out.find("+    dst[tidx // cute.arch.WARP_SIZE] = tidx")) << R.Out;
  EXPECT_EQ(Kernel, readFile(File)) << "--diff writes nothing";
}

// Issue 32, item 3: clang-apply-replacements cleans up around every
// replacement as C++ ("(4,)" becomes "(4)" on an untouched line), so .py
// fixes are not exported, and the user is told why; what is exported leaves
// the file as it is.
TEST_F(CuteCli, PythonFixesAreNotExportedForClangApplyReplacements) {
  std::string Text = std::string(Kernel) + "shape = (4,)\n";
  writeFile(File, Text);
  std::string Yaml = Dir + "/fixes.yaml";
  ProcessResult R = runKernelTidy({"check", "--export-fixes", Yaml, File});
  EXPECT_EQ(1, R.ExitCode) << R.Out << R.Err;
  EXPECT_NE(std::string::npos, R.Err.find("1 fix(es) of .py files not exported to " + Yaml +
                                          ": clang-apply-replacements cleans up"))
      << R.Err;
  std::string Exported = readFile(Yaml);
  EXPECT_NE(std::string::npos, Exported.find("cute-hardcoded-warp-width")) << Exported;
  EXPECT_EQ(std::string::npos, Exported.find("ReplacementText")) << Exported;
  if (auto Apply = llvm::sys::findProgramByName("clang-apply-replacements-19")) {
    EXPECT_EQ(0, llvm::sys::ExecuteAndWait(*Apply, {*Apply, Dir}));
    EXPECT_EQ(Text, readFile(File)) << "clang-apply-replacements changed the .py file";
  }
}

TEST_F(CuteCli, NolintCommentsAndBaselinesHideFindings) {
  std::string Text = Kernel;
  writeFile(File, Text.substr(0, Text.size() - 1) + "  # NOLINT(cute-hardcoded-*)\n");
  EXPECT_EQ(0, runKernelTidy({"check", File}).ExitCode);
  // Issue 32, item 8: anywhere in the comment, as clang-tidy reads it.
  writeFile(File, Text.substr(0, Text.size() - 1) + "  # warp index, NOLINT(cute-hardcoded-*)\n");
  EXPECT_EQ(0, runKernelTidy({"check", File}).ExitCode) << "NOLINT after other words";
  writeFile(File, Text.substr(0, Text.size() - 1) + "  # NOLINT(cute-launch-config)\n");
  EXPECT_EQ(1, runKernelTidy({"check", File}).ExitCode) << "another rule's NOLINT";
  writeFile(File, "# NOLINTBEGIN\n" + Text);
  ProcessResult R = runKernelTidy({"check", File});
  EXPECT_EQ(2, R.ExitCode) << "an unmatched NOLINTBEGIN fails the file";
  EXPECT_NE(std::string::npos, R.Out.find("unmatched 'NOLINTBEGIN'")) << R.Out << R.Err;

  writeFile(File, Text);
  std::string Baseline = Dir + "/baseline.json";
  R = runKernelTidy({"check", "--sarif-root", Dir, "--write-baseline", Baseline, File});
  ASSERT_EQ(0, R.ExitCode) << R.Out << R.Err;
  EXPECT_EQ("cute-hardcoded-warp-width",
            nlohmann::json::parse(readFile(Baseline))["findings"][0]["rule"]);
  writeFile(File, "# A new first line.\n" + Text);
  R = runKernelTidy({"check", "--sarif-root", Dir, "--baseline", Baseline, File});
  EXPECT_EQ(0, R.ExitCode) << R.Out << R.Err;
}

TEST_F(CuteCli, FoldersPickPythonFilesThatMentionCutlass) {
  writeFile(Dir + "/script.py", "print('not a kernel')\n");
  writeFile(Dir + "/broken.py", "def f(:\n");
  ProcessResult R = runKernelTidy({"check", "--format", "json", Dir});
  EXPECT_EQ(1, R.ExitCode) << R.Out << R.Err;
  auto Json = nlohmann::json::parse(R.Out);
  EXPECT_EQ(1u, Json["summary"]["files"]) << R.Out;
  R = runKernelTidy({"check", Dir + "/broken.py"});
  EXPECT_EQ(2, R.ExitCode) << "named on the command line: analysed, and it does not parse";
}

TEST_F(CuteCli, AHelperClassKnowsTheThreadIndexAKernelInAnotherFilePasses) {
  writeFile(Dir + "/tiles.py", "import cutlass.cute as cute\n"
                               "\n"
                               "\n"
                               "class RowWriter:\n"
                               "    def __init__(self, thread):\n"
                               "        self.lane = thread % 32\n");
  writeFile(File, "import cutlass.cute as cute\n"
                  "from tiles import RowWriter\n"
                  "\n"
                  "\n"
                  "@cute.kernel\n"
                  "def k(dst: cute.Tensor):\n"
                  "    tidx, _, _ = cute.arch.thread_idx()\n"
                  "    RowWriter(tidx)\n");
  // The folder is one run: the constructor's argument is read in k.py.
  ProcessResult R = runKernelTidy({"check", Dir});
  EXPECT_EQ(1, R.ExitCode) << R.Out << R.Err;
  EXPECT_NE(std::string::npos,
            R.Out.find(Dir + "/tiles.py:6:30: warning: literal warp width 32 in lane index "
                             "arithmetic on a thread index: use cute.arch.WARP_SIZE "
                             "[cute-hardcoded-warp-width]"))
      << R.Out;
  // Alone, what the constructor gets is not known.
  R = runKernelTidy({"check", Dir + "/tiles.py"});
  EXPECT_EQ(0, R.ExitCode) << R.Out << R.Err;
}

} // namespace
} // namespace kernel_tidy::test
