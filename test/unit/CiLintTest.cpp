//===--- CiLintTest.cpp - SARIF, baselines, folders, shards, parallel runs ===//

#include "rules/RuleRegistry.h"
#include "src/driver/FileList.h"
#include "src/driver/Fingerprint.h"
#include "test/unit/Fixture.h"
#include "test/unit/TestSupport.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <cstring>
#include <set>

namespace kernel_tidy::test {
namespace {

const char *ButterflyCase = "/test/fixtures/luisa-butterfly-reduction/max-straight-line";

/// The includes of the fixtures, and a kernel-building function with one
/// butterfly finding (named \p Name).
const std::string Prelude = "#include <luisa/luisa-compute.h>\n#include <luisa/dsl/sugar.h>\n\n"
                            "using namespace luisa;\nusing namespace luisa::compute;\n\n";
std::string rowMax(const std::string &Name, const std::string &V = "m") {
  std::string Kernel = "void " + Name +
                       "(Device &device) {\n"
                       "    Kernel1D row_max = [&](BufferFloat data) noexcept {\n"
                       "        auto lane = warp_lane_id();\n"
                       "        Float m = data.read(dispatch_x());\n"
                       "        m = max(m, warp_read_lane(m, lane ^ 16u));\n"
                       "        m = max(m, warp_read_lane(m, lane ^ 8u));\n"
                       "        m = max(m, warp_read_lane(m, lane ^ 4u));\n"
                       "        m = max(m, warp_read_lane(m, lane ^ 2u));\n"
                       "        m = max(m, warp_read_lane(m, lane ^ 1u));\n"
                       "        data.write(dispatch_x(), m);\n"
                       "    };\n"
                       "    auto shader = device.compile(row_max);\n"
                       "}\n";
  if (V == "m")
    return Kernel;
  for (size_t At; (At = Kernel.find("(m")) != std::string::npos;)
    Kernel.replace(At, 2, "(" + V); // Rename the reduced variable.
  for (const char *Use : {"m = ", "Float m", " m)"})
    for (size_t At; (At = Kernel.find(Use)) != std::string::npos;)
      Kernel.replace(At, strlen(Use), std::string(Use).replace(std::string(Use).find('m'), 1, V));
  return Kernel;
}
const std::string Unrelated = "int unrelated(int x) {\n    return x * 2;\n}\n\n";

class CiLint : public ::testing::Test {
protected:
  void SetUp() override { Dir = makeTempDir(); }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  /// Copies \p Count fixtures with findings, and one clean file, into
  /// Dir/src (and a README that is not a source).
  std::vector<std::string> makeTree(size_t Count) {
    llvm::sys::fs::create_directories(Dir + "/src/sub");
    std::vector<std::string> Fixtures;
    for (const rules::RuleInfo &Rule : rules::allRules())
      for (const std::string &F :
           listFiles(sourceDir() + "/test/fixtures/" + Rule.Id.str(), ".fixed.cpp"))
        if (llvm::sys::path::filename(F).count('.') == 2) // Not <case>.SUFFIX.fixed.cpp.
          Fixtures.push_back(F.substr(0, F.size() - 10) + ".cpp");
    std::vector<std::string> Files;
    for (size_t I = 0; I < Count && I < Fixtures.size(); ++I) {
      std::string Name = Dir + (I % 2 ? "/src/sub/k" : "/src/k") + std::to_string(I) + ".cpp";
      writeFile(Name, fixtureInput(Fixtures[I]));
      Files.push_back(Name);
    }
    // Mentions LuisaCompute: a folder walk without a compile database skips
    // C++ files that do not.
    writeFile(Dir + "/src/clean.cc", "namespace luisa {}\nint main() { return 0; }\n");
    writeFile(Dir + "/src/README.md", "not a source\n");
    return Files;
  }
  std::string Dir;
};

TEST(Fingerprint, IgnoresLinesAndWhitespaceButNotCodeOrRule) {
  FileResult A;
  A.File = "a.cpp";
  A.Original = "x;\nfoo(1,\n    2);\nfoo(1, 2);\nfoo(2);\n";
  auto At = [&](unsigned Begin, unsigned End, const char *Rule) {
    Finding F;
    F.Rule = Rule;
    F.File = "a.cpp";
    F.Begin.Offset = Begin;
    F.End.Offset = End;
    return F;
  };
  A.Findings = {At(3, 17, "r1"), At(18, 28, "r1"), At(29, 36, "r1"), At(29, 36, "r2")};
  std::vector<std::string> P = fingerprintFindings(A);
  ASSERT_EQ(4u, P.size());
  EXPECT_EQ(P[0].substr(0, 16), P[1].substr(0, 16)) << "whitespace does not matter";
  EXPECT_EQ(":1", P[0].substr(16));
  EXPECT_EQ(":2", P[1].substr(16)) << "the second identical finding is told apart";
  EXPECT_NE(P[0].substr(0, 16), P[2].substr(0, 16)) << "different code";
  EXPECT_NE(P[2], P[3]) << "different rule";

  FileResult Shifted = A;
  Shifted.Original = "\n\n" + A.Original;
  for (Finding &F : Shifted.Findings)
    F.Begin.Offset += 2, F.End.Offset += 2, F.Begin.Line += 2;
  EXPECT_EQ(P, fingerprintFindings(Shifted)) << "lines above do not matter";
}

TEST_F(CiLint, BaselineHidesKnownFindingsAcrossEditsButNotNewOnes) {
  std::string File = Dir + "/k.cpp", Baseline = Dir + "/baseline.json";
  writeFile(File, Prelude + rowMax("build_row_max"));
  ProcessResult R =
      runKernelTidy({"check", "--sarif-root", Dir, "--write-baseline", Baseline, File});
  ASSERT_EQ(0, R.ExitCode) << R.Out << R.Err;
  auto Recorded = nlohmann::json::parse(readFile(Baseline));
  ASSERT_EQ(1u, Recorded["findings"].size());
  EXPECT_EQ("k.cpp", Recorded["findings"][0]["file"]) << "relative to --sarif-root";
  EXPECT_EQ("luisa-butterfly-reduction", Recorded["findings"][0]["rule"]);
  std::vector<std::string> WithBaseline{"check",  "--sarif-root", Dir,    "--baseline",
                                        Baseline, "--format",     "json", File};
  R = runKernelTidy(WithBaseline);
  EXPECT_EQ(0, R.ExitCode) << R.Out << R.Err;
  EXPECT_EQ(0u, nlohmann::json::parse(R.Out)["diagnostics"].size());

  // Edits above the finding, and re-indented code.
  writeFile(File, "// A new header comment.\n\n" + Prelude + Unrelated + rowMax("build_row_max"));
  R = runKernelTidy(WithBaseline);
  EXPECT_EQ(0, R.ExitCode) << "edits above\n" << R.Out << R.Err;
  // The function moved below others (and renamed).
  writeFile(File, Prelude + Unrelated + "void other() {}\n\n" + rowMax("build_max_rows"));
  R = runKernelTidy(WithBaseline);
  EXPECT_EQ(0, R.ExitCode) << "moved function\n" << R.Out << R.Err;

  // A second copy of the same pattern is a new finding.
  writeFile(File, Prelude + rowMax("build_row_max") + "\n" + rowMax("build_row_max_again"));
  R = runKernelTidy(WithBaseline);
  EXPECT_EQ(1, R.ExitCode) << "second copy\n" << R.Out << R.Err;
  EXPECT_EQ(1u, nlohmann::json::parse(R.Out)["diagnostics"].size()) << R.Out;
  // So is the same rule on different code.
  writeFile(File, Prelude + rowMax("build_row_max", "n"));
  R = runKernelTidy(WithBaseline);
  EXPECT_EQ(1, R.ExitCode) << "different code\n" << R.Out << R.Err;
  EXPECT_NE(std::string::npos, R.Out.find("butterfly reduction of 'n'")) << R.Out;

  writeFile(Baseline, "{\"findings\": 3}");
  EXPECT_EQ(2, runKernelTidy(WithBaseline).ExitCode) << "a malformed baseline is an error";
}

TEST_F(CiLint, FoldersAreWalkedForSourcesWithExcludes) {
  std::vector<std::string> Files = makeTree(4);
  writeFile(Dir + "/src/sub/header.h", Prelude + rowMax("in_header"));
  writeFile(Dir + "/src/sub/impl.inl", Prelude + rowMax("in_inl"));
  llvm::sys::fs::create_directories(Dir + "/src/.hidden");
  writeFile(Dir + "/src/.hidden/x.cpp", readFile(Files[0]));
  ProcessResult R = runKernelTidy({"check", "--format", "json", Dir + "/src"});
  EXPECT_EQ(1, R.ExitCode) << R.Out << R.Err;
  auto Report = nlohmann::json::parse(R.Out);
  EXPECT_EQ(7u, Report["summary"]["files"]) << "4 fixtures, clean.cc, .h, .inl";
  EXPECT_TRUE(Report["summary"]["errors"].empty()) << Report.dump(1);
  std::set<std::string> WithFindings;
  for (const auto &D : Report["diagnostics"])
    WithFindings.insert(D["file"].get<std::string>());
  EXPECT_TRUE(WithFindings.count(Dir + "/src/sub/header.h")) << R.Out;
  EXPECT_TRUE(WithFindings.count(Dir + "/src/sub/impl.inl")) << R.Out;

  R = runKernelTidy(
      {"check", "--format", "json", "--exclude", "*/sub", "--exclude", "*.cc", Dir + "/src"});
  EXPECT_EQ(2u, nlohmann::json::parse(R.Out)["summary"]["files"]) << R.Out << R.Err;

  llvm::sys::fs::create_directories(Dir + "/empty");
  R = runKernelTidy({"check", Dir + "/empty"});
  EXPECT_EQ(0, R.ExitCode) << "a warning (issue 32, item 8)";
  EXPECT_NE(std::string::npos, R.Err.find("warning: no source files")) << R.Err;
}

TEST_F(CiLint, CompileDatabaseFilesWhenNoFilesAreGiven) {
  std::vector<std::string> Files = makeTree(2);
  nlohmann::json DB = nlohmann::json::array();
  for (const std::string &File : Files)
    DB.push_back({{"directory", Dir},
                  {"file", File},
                  {"arguments", {"clang++", "-std=c++20", "-isystem", modelDir(), "-c", File}}});
  writeFile(Dir + "/compile_commands.json", DB.dump());
  ProcessResult R = runKernelTidy({"check", "--format", "json", "-p", Dir});
  EXPECT_EQ(1, R.ExitCode) << R.Out << R.Err;
  EXPECT_EQ(2u, nlohmann::json::parse(R.Out)["summary"]["files"]) << R.Out;
  EXPECT_EQ(2, runKernelTidy({"check"}).ExitCode) << "no files and no -p";
}

TEST_F(CiLint, ParallelRunsPrintTheSameAsSerialOnes) {
  makeTree(12);
  ProcessResult One = runKernelTidy({"check", "-j", "1", Dir + "/src"});
  ProcessResult Three = runKernelTidy({"check", "-j", "3", Dir + "/src"});
  EXPECT_EQ(1, One.ExitCode) << One.Err;
  EXPECT_EQ(One.ExitCode, Three.ExitCode);
  EXPECT_FALSE(One.Out.empty());
  EXPECT_EQ(One.Out, Three.Out);
  EXPECT_EQ("kernel-tidy: 12 fixable with --fix --unsafe-fixes.\n", Three.Err)
      << "no progress when stderr is not a terminal, only Ruff's footer";
}

TEST_F(CiLint, ShardsPartitionTheFilesAndTheirReportsMergeIntoTheUnshardedOne) {
  std::vector<std::string> Files = makeTree(9);
  std::vector<std::string> All = Files;
  All.push_back(Dir + "/src/clean.cc");
  std::multiset<std::string> Union;
  for (unsigned K = 1; K <= 4; ++K)
    for (const std::string &F : selectShard(All, K, 4))
      Union.insert(F);
  EXPECT_EQ(std::multiset<std::string>(All.begin(), All.end()), Union);
  for (unsigned K = 1; K <= 4; ++K)
    EXPECT_LE(1u, selectShard(All, K, 4).size()) << "balanced: no shard is empty";
  std::vector<std::string> Reversed(All.rbegin(), All.rend());
  EXPECT_EQ(selectShard(All, 2, 4).size(), selectShard(Reversed, 2, 4).size());

  for (const char *Format : {"sarif", "json"}) {
    std::vector<std::string> Merge{"merge"};
    for (unsigned K = 1; K <= 3; ++K) {
      ProcessResult R = runKernelTidy({"check", "--format", Format, "--sarif-root", Dir, "--shard",
                                       std::to_string(K) + "/3", Dir + "/src"});
      EXPECT_EQ(1, R.ExitCode) << R.Err;
      std::string Report = Dir + "/shard" + std::to_string(K) + "." + Format;
      writeFile(Report, R.Out);
      Merge.push_back(Report);
    }
    ProcessResult Whole =
        runKernelTidy({"check", "--format", Format, "--sarif-root", Dir, Dir + "/src"});
    ProcessResult Merged = runKernelTidy(Merge);
    ASSERT_EQ(0, Merged.ExitCode) << Merged.Err;
    EXPECT_EQ(nlohmann::json::parse(Whole.Out), nlohmann::json::parse(Merged.Out)) << Format;
  }
  EXPECT_EQ(2, runKernelTidy({"check", "--shard", "4/3", Dir + "/src"}).ExitCode);
  EXPECT_EQ(2, runKernelTidy({"check", "--shard", "x", Dir + "/src"}).ExitCode);
}

TEST_F(CiLint, StatisticsQuietAndWarningsAsErrors) {
  std::vector<std::string> Files = makeTree(6);
  ProcessResult R = runKernelTidy({"check", "--statistics", Dir + "/src"});
  EXPECT_EQ(1, R.ExitCode);
  EXPECT_NE(std::string::npos, R.Err.find("of 7 file(s)")) << R.Err;
  EXPECT_NE(std::string::npos, R.Err.find("  luisa-butterfly-reduction (")) << R.Err;

  R = runKernelTidy({"check", "--warnings-as-errors", "luisa-butterfly-*", Files[0]});
  EXPECT_EQ(3, R.ExitCode) << R.Out;
  EXPECT_NE(std::string::npos, R.Out.find(": error: ")) << R.Out;
  EXPECT_NE(std::string::npos, R.Out.find("[luisa-butterfly-reduction,-warnings-as-errors]"));
  R = runKernelTidy({"check", "--warnings-as-errors", "luisa-shared-*", Files[0]});
  EXPECT_EQ(1, R.ExitCode) << "other rules stay warnings";
  writeFile(Dir + "/src/.clang-tidy", "WarningsAsErrors: 'luisa-*'\n");
  EXPECT_EQ(3, runKernelTidy({"check", Files[0]}).ExitCode) << "as clang-tidy: config too";

  std::string Baseline = Dir + "/b.json";
  R = runKernelTidy({"check", "--quiet", "--write-baseline", Baseline, Dir + "/src"});
  EXPECT_EQ(0, R.ExitCode);
  EXPECT_EQ("", R.Err);
  R = runKernelTidy({"check", "--baseline", Baseline, Dir + "/src"});
  EXPECT_EQ(0, R.ExitCode) << R.Out;
  EXPECT_NE(std::string::npos, R.Err.find("hidden by the baseline")) << R.Err;
  R = runKernelTidy({"check", "--quiet", "--baseline", Baseline, Dir + "/src"});
  EXPECT_EQ("", R.Err);
}

TEST_F(CiLint, SarifHasResultsFingerprintsAndFixes) {
  std::string File = Dir + "/k.cpp";
  writeFile(File, fixtureInput(sourceDir() + ButterflyCase + ".cpp"));
  ProcessResult R = runKernelTidy({"check", "--format", "sarif", "--sarif-root", Dir, File});
  EXPECT_EQ(1, R.ExitCode) << R.Err;
  auto Log = nlohmann::json::parse(R.Out);
  EXPECT_EQ("2.1.0", Log["version"]);
  const auto &Result = Log["runs"][0]["results"][0];
  EXPECT_EQ("luisa-butterfly-reduction", Result["ruleId"]);
  const auto &Rule = Log["runs"][0]["tool"]["driver"]["rules"][Result["ruleIndex"].get<int>()];
  EXPECT_EQ(Result["ruleId"], Rule["id"]);
  // The rule's page (issue 50, item 2) and its kind.
  std::string Help = Rule.value("helpUri", "");
  EXPECT_EQ(0u, Help.find("file:///")) << Help;
  EXPECT_TRUE(llvm::StringRef(Help).ends_with("/docs/rules/luisa-butterfly-reduction.md")) << Help;
  EXPECT_EQ("performance", Rule["properties"]["tags"][0]);
  const auto &Where = Result["locations"][0]["physicalLocation"];
  EXPECT_EQ("k.cpp", Where["artifactLocation"]["uri"]);
  EXPECT_EQ(12, Where["region"]["startLine"]);
  EXPECT_EQ(16, Where["region"]["endLine"]);
  EXPECT_TRUE(Result["partialFingerprints"]["primaryLocationLineHash"].is_string());
  EXPECT_EQ("m = warp_active_max(m);",
            Result["fixes"][0]["artifactChanges"][0]["replacements"][0]["insertedContent"]["text"]);
}

TEST_F(CiLint, FixWithWarningsAsErrorsExitsThreeWhenAPromotedFindingRemains) {
  std::string NoFix = Dir + "/no-fix.cpp", Unsafe = Dir + "/unsafe.cpp", Safe = Dir + "/safe.cpp";
  writeFile(NoFix, readFile(sourceDir() + "/test/fixtures/luisa-shared-atomic-counter/"
                                          "user-macro-no-fix.cpp"));
  writeFile(Unsafe, readFile(sourceDir() + "/test/fixtures/luisa-butterfly-reduction/"
                                           "sum-float-explicit-add-unsafe.cpp"));
  writeFile(Safe, fixtureInput(sourceDir() + ButterflyCase + ".cpp"));
  // A promoted finding without a fix remains after --fix: 3, as documented.
  ProcessResult R =
      runKernelTidy({"check", "--fix", "--warnings-as-errors", "luisa-shared-*", NoFix});
  EXPECT_EQ(3, R.ExitCode) << R.Out << R.Err;
  // So does one whose fix --fix does not apply (unsafe), next to a fixed one.
  R = runKernelTidy({"check", "--fix", "--warnings-as-errors", "luisa-*", Safe, Unsafe});
  EXPECT_EQ(3, R.ExitCode) << R.Out << R.Err;
  EXPECT_EQ(readFile(sourceDir() + ButterflyCase + ".fixed.cpp"), readFile(Safe));
  // Once every promoted finding is fixed, what remains decides: here nothing.
  R = runKernelTidy({"check", "--fix", "--unsafe-fixes", "--warnings-as-errors", "luisa-*",
                     "--format", "json", Unsafe});
  EXPECT_EQ(0, R.ExitCode) << R.Out << R.Err;
  EXPECT_EQ(true, nlohmann::json::parse(R.Out)["diagnostics"][0]["fixed"]);
  // A promoted finding that remains next to a fixed one of another rule: 3.
  writeFile(Safe, fixtureInput(sourceDir() + ButterflyCase + ".cpp"));
  R = runKernelTidy({"check", "--fix", "--warnings-as-errors", "luisa-shared-*", Safe, NoFix});
  EXPECT_EQ(3, R.ExitCode) << R.Out << R.Err;
  // Without promotion the remaining finding gives 1.
  R = runKernelTidy({"check", "--fix", NoFix});
  EXPECT_EQ(1, R.ExitCode) << R.Out << R.Err;
}

TEST_F(CiLint, SarifFixesSayWhetherTheyAreSafeAndWhyNot) {
  std::string Safe = Dir + "/safe.cpp", Unsafe = Dir + "/unsafe.cpp";
  writeFile(Safe, fixtureInput(sourceDir() + ButterflyCase + ".cpp"));
  writeFile(Unsafe,
            readFile(sourceDir() +
                     "/test/fixtures/luisa-butterfly-reduction/sum-float-explicit-add-unsafe.cpp"));
  // With the width stated, rounding is the float sum's only hazard.
  ProcessResult R = runKernelTidy(
      {"check", "--warp-size=32", "--format", "sarif", "--sarif-root", Dir, Safe, Unsafe});
  EXPECT_EQ(1, R.ExitCode) << R.Err;
  const auto Results = nlohmann::json::parse(R.Out)["runs"][0]["results"];
  ASSERT_EQ(2u, Results.size()) << R.Out;
  const auto &SafeFix = Results[0]["fixes"][0];
  EXPECT_EQ("Safe fix: the results stay the same", SafeFix["description"]["text"]);
  EXPECT_EQ("safe", SafeFix["properties"]["applicability"]);
  EXPECT_FALSE(SafeFix["properties"].contains("reason"));
  const std::string Reason = "warp_active_sum combines the floating-point values in another "
                             "order, so the result can differ by rounding";
  const auto &UnsafeFix = Results[1]["fixes"][0];
  EXPECT_EQ("Unsafe fix (applied only with --unsafe-fixes): " + Reason,
            UnsafeFix["description"]["text"]);
  EXPECT_EQ("unsafe", UnsafeFix["properties"]["applicability"]);
  EXPECT_EQ(Reason, UnsafeFix["properties"]["reason"]);
  EXPECT_FALSE(Results[1].contains("relatedLocations")) << "the reason is not a plain note";
}

} // namespace
} // namespace kernel_tidy::test
