//===--- FixtureTest.cpp - Per-rule fixtures: exact findings and fixes ----===//
//
// Each run of each test/fixtures/<rule>/<case>.cpp (test/fixtures/README.md)
// is analysed with the bundled DSL model: the findings must be exactly its
// CHECK-MESSAGES lines, in order, and the text after --fix --unsafe-fixes
// exactly its .fixed.cpp (none: unchanged). The fixed text must parse and
// leave nothing to fix. The model's headers come from one shared PCH (as in
// a CLI run of several files; SharedHeaderParse.SameReportAsPlainParse checks
// that it reports what a plain parse does). KERNEL_TIDY_UPDATE_FIXTURES=1 rewrites the
// expectations from the tool's output first.
//
//===----------------------------------------------------------------------===//

#include "src/driver/FixApplier.h"
#include "test/unit/Fixture.h"
#include "test/unit/TestSupport.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <cstdlib>
#include <gtest/gtest.h>

namespace kernel_tidy::test {
namespace {

/// One run of one fixture file.
struct FixtureCase {
  std::string Path;
  std::string Suffix;
};

std::vector<FixtureCase> fixtureCases() {
  std::vector<FixtureCase> Cases;
  for (const std::string &File : fixtureFiles())
    for (const FixtureRun &Run : loadFixture(File).Runs)
      Cases.push_back({File, Run.Suffix});
  return Cases;
}

bool updating() {
  const char *Env = std::getenv("KERNEL_TIDY_UPDATE_FIXTURES");
  return Env && std::string(Env) == "1";
}

/// Rewrites the expectations of \p F from every run's output.
std::string update(const Fixture &F) {
  std::vector<RunOutput> Outputs;
  for (const FixtureRun &Run : F.Runs) {
    auto Analyzer = sharedPrefixAnalyzer(Run.Options, F.Path);
    if (!Analyzer)
      return "no analyzer";
    RunOutput Out{Run.Suffix, Analyzer->analyze(F.Path, F.Input), std::nullopt};
    FileResult Fixed = Out.Result;
    applyFixes(Fixed, *Analyzer, /*IncludeUnsafe=*/true);
    Out.Fixed = Fixed.Fixed;
    Outputs.push_back(std::move(Out));
  }
  return updateFixture(F, Outputs);
}

class FixtureTest : public ::testing::TestWithParam<FixtureCase> {};

TEST_P(FixtureTest, FindingsAndFixesAreExact) {
  Fixture F = loadFixture(GetParam().Path);
  ASSERT_TRUE(F.Errors.empty()) << llvm::join(F.Errors, "\n");
  if (updating() && F.Runs.front().Suffix == GetParam().Suffix) {
    ASSERT_EQ("", update(F)) << F.Path;
    F = loadFixture(F.Path);
    ASSERT_TRUE(F.Errors.empty()) << llvm::join(F.Errors, "\n");
  }
  const FixtureRun *Run = F.run(GetParam().Suffix);
  ASSERT_TRUE(Run) << "run '" << GetParam().Suffix << "' is gone from " << F.Path;
  auto Analyzer = sharedPrefixAnalyzer(Run->Options, F.Path);
  ASSERT_TRUE(Analyzer);

  FileResult Result = Analyzer->analyze(F.Path, F.Input);
  EXPECT_EQ(F.expectedFindings(*Run), describeFindings(Result));

  FileResult WithUnsafe = Result;
  applyFixes(WithUnsafe, *Analyzer, /*IncludeUnsafe=*/true);
  EXPECT_TRUE(WithUnsafe.FixNotes.empty()) << "a fix was dropped: " << WithUnsafe.FixNotes.front();
  const std::string Fixed = WithUnsafe.Fixed.value_or(F.Input);
  EXPECT_EQ(F.expectedFixed(*Run), Fixed)
      << "expected: " << F.fixedFile(*Run).value_or("the input unchanged");

  // Safe-only fixing applies exactly the findings marked safe.
  FileResult SafeOnly = Result;
  applyFixes(SafeOnly, *Analyzer, /*IncludeUnsafe=*/false);
  unsigned SafeCount = 0;
  for (const Finding &Found : Result.Findings)
    SafeCount += Found.FixIt && Found.FixIt->Kind == Applicability::Safe;
  EXPECT_EQ(SafeCount, SafeOnly.FixedCount);

  if (!WithUnsafe.Fixed)
    return;
  // The fixed text compiles and is a fixed point: nothing left to fix.
  FileResult Again = Analyzer->analyze(F.Path, Fixed);
  EXPECT_TRUE(Again.Errors.empty()) << describeFindings(Again);
  for (const Finding &Found : Again.Findings)
    EXPECT_FALSE(Found.FixIt.has_value())
        << "fixable finding after fixing: " << describeFindings(Again);
  applyFixes(Again, *Analyzer, /*IncludeUnsafe=*/true);
  EXPECT_EQ(Fixed, Again.Fixed.value_or(Fixed));
}

std::string fixtureCaseName(const ::testing::TestParamInfo<FixtureCase> &Info) {
  llvm::StringRef Path(Info.param.Path);
  llvm::StringRef Case = llvm::sys::path::stem(Path);
  llvm::StringRef Rule = llvm::sys::path::filename(llvm::sys::path::parent_path(Path));
  // luisa-x_case (as before the CuTe DSL rules came), cute_x_case.
  Rule.consume_front("luisa-");
  std::string Name = (Rule + "_" + Case).str();
  if (!Info.param.Suffix.empty())
    Name += "_" + Info.param.Suffix;
  for (char &C : Name)
    if (!isalnum(static_cast<unsigned char>(C)))
      C = '_';
  return Name;
}

INSTANTIATE_TEST_SUITE_P(Rules, FixtureTest, ::testing::ValuesIn(fixtureCases()), fixtureCaseName);

TEST(Fixtures, DirectivesAreParsedAndRemoved) {
  std::string Dir = makeTempDir();
  std::string Path = Dir + "/case.cpp";
  writeFile(Path, "// RUN-ARGS-A: --target=cuda\n"
                  "// RUN-ARGS-B: --warp-size=64 --checks=luisa-*\n"
                  "int x;\n"
                  "  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: w [r] (fix: none)\n"
                  "  // CHECK-MESSAGES-B: :[[@LINE+1]]:2: note: n\n"
                  "int y; // CHECK-MESSAGES-A: :[[@LINE]]:1: note: m\n");
  writeFile(Dir + "/case.B.fixed.cpp", "fixed\n");
  Fixture F = loadFixture(Path);
  EXPECT_TRUE(F.Errors.empty()) << llvm::join(F.Errors, "\n");
  EXPECT_EQ("int x;\nint y;\n", F.Input);
  ASSERT_EQ(2u, F.Runs.size());
  EXPECT_EQ(dsl::Target::Cuda, F.Runs[0].Options.Target);
  EXPECT_EQ(64u, F.Runs[1].Options.WarpSize);
  EXPECT_EQ("luisa-*", F.Runs[1].Options.Checks);
  EXPECT_EQ("1:5: warning: w [r] (fix: none)\n2:1: note: m\n", F.expectedFindings(F.Runs[0]));
  EXPECT_EQ("1:5: warning: w [r] (fix: none)\n2:2: note: n\n", F.expectedFindings(F.Runs[1]));
  EXPECT_EQ(F.Input, F.expectedFixed(F.Runs[0]));
  EXPECT_EQ("fixed\n", F.expectedFixed(F.Runs[1]));
  EXPECT_TRUE(F.expectsWarning());
  llvm::sys::fs::remove_directories(Dir);
}

TEST(Fixtures, MalformedDirectivesAndStrayFilesAreErrors) {
  std::string Dir = makeTempDir();
  std::string Path = Dir + "/case.cpp";
  for (const char *Bad :
       {"// CHECK-MESSAGES: :[[@LINE-1]]:5: warning: first line\n",
        "int x;\n// CHECK-MESSAGES: :12:5: warning: absolute\n",
        "int x;\n// CHECK-MESSAGES-X: :[[@LINE-1]]:5: note: no run X\n", "// RUN-ARGS: --bogus\n",
        "// RUN-ARGS: \n// RUN-ARGS:\n", "// kernel-tidy-args: --target=cuda\n",
        "int x;\n// CHECK-FIXES: int x;\n", "int x; // RUN-ARGS: --target=cuda\n",
        "int x;\n// CHECK-MESSAGES: :[[@LINE]]:1: note: its own line\n",
        "int x;\n// CHECK-MESSAGES: :[[@LINE+1]]:1: note: past the end\n",
        "int x;\n// CHECK-MESSAGES: :[[@LINE-1]]:1: error: not a kind\n",
        "// RUN-ARGS-A:\n// RUN-ARGS-A: --target=cuda\n", "// RUN-ARGS-cuda: --target=cuda\n",
        "// RUN-ARGS: --target=nvidia\n"}) {
    writeFile(Path, Bad);
    EXPECT_FALSE(loadFixture(Path).Errors.empty()) << Bad;
  }
  writeFile(Path, "int x;\n");
  EXPECT_TRUE(loadFixture(Path).Errors.empty());
  writeFile(Dir + "/case.CUDA.fixed.cpp", "int x;\n");
  EXPECT_FALSE(loadFixture(Path).Errors.empty()) << "a fixed file of no run";
  llvm::sys::fs::remove_directories(Dir);
}

Finding finding(unsigned Line, unsigned Column, const std::string &Message,
                std::vector<Note> Notes = {}) {
  Finding F;
  F.Rule = "r";
  F.Message = Message;
  F.Begin = {0, Line, Column};
  F.Notes = std::move(Notes);
  return F;
}

TEST(Fixtures, UpdateWritesExpectationsAfterTheirLines) {
  std::string Dir = makeTempDir();
  std::string Path = Dir + "/case.cpp";
  writeFile(Path, "// RUN-ARGS:\n"
                  "// RUN-ARGS-CUDA: --target=cuda\n"
                  "a;\n"
                  "  b;\n"
                  "// CHECK-MESSAGES: :[[@LINE-1]]:1: warning: stale [r] (fix: none)\n"
                  "c;\n");
  writeFile(Dir + "/case.DX.fixed.cpp", "stale\n");
  Fixture F = loadFixture(Path);
  RunOutput Plain{"", {}, std::string("fixed\n")};
  // A note before its warning goes after the warning; CUDA adds a note.
  Plain.Result.Findings.push_back(finding(2, 3, "w", {Note{"n", "", {0, 1, 1}}}));
  RunOutput Cuda = Plain;
  Cuda.Suffix = "CUDA";
  Cuda.Result.Findings[0].Notes.push_back(Note{"slow", "", {0, 2, 3}});
  Cuda.Result.Findings.push_back(finding(3, 1, "x"));
  Cuda.Fixed = std::nullopt;
  ASSERT_EQ("", updateFixture(F, {Plain, Cuda}));
  EXPECT_EQ("// RUN-ARGS:\n"
            "// RUN-ARGS-CUDA: --target=cuda\n"
            "a;\n"
            "  b;\n"
            "  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: w [r] (fix: none)\n"
            "// CHECK-MESSAGES: :[[@LINE-3]]:1: note: n\n"
            "  // CHECK-MESSAGES-CUDA: :[[@LINE-3]]:3: note: slow\n"
            "c;\n"
            "// CHECK-MESSAGES-CUDA: :[[@LINE-1]]:1: warning: x [r] (fix: none)\n",
            readFile(Path));
  EXPECT_EQ("fixed\n", readFile(Dir + "/case.fixed.cpp"));
  EXPECT_EQ("a;\n  b;\nc;\n", readFile(Dir + "/case.CUDA.fixed.cpp")) << "unchanged";
  EXPECT_FALSE(fileExists(Dir + "/case.DX.fixed.cpp"));
  Fixture Updated = loadFixture(Path);
  EXPECT_TRUE(Updated.Errors.empty()) << llvm::join(Updated.Errors, "\n");
  EXPECT_EQ(describeFindings(Plain.Result), Updated.expectedFindings(Updated.Runs[0]));
  EXPECT_EQ(describeFindings(Cuda.Result), Updated.expectedFindings(Updated.Runs[1]));

  // Messages of the run without suffix must be in every run.
  std::swap(Cuda.Result, Plain.Result);
  EXPECT_NE("", updateFixture(Updated, {Plain, Cuda}));
  llvm::sys::fs::remove_directories(Dir);
}

} // namespace
} // namespace kernel_tidy::test
