//===--- ReliabilityTest.cpp - Fix runs never lose or garble code ---------===//

#include "src/driver/FixApplier.h"
#include "test/unit/Fixture.h"
#include "test/unit/TestSupport.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include <gtest/gtest.h>
#include <chrono>
#include <map>
#include <csignal>
#include <random>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace kernel_tidy::test {
namespace {

const std::string SafeCase = "/test/fixtures/luisa-butterfly-reduction/max-straight-line";

class Reliability : public ::testing::Test {
protected:
  void SetUp() override { Dir = makeTempDir(); }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }
  std::string put(const std::string &Name, const std::string &Contents) {
    std::string Path = Dir + "/" + Name;
    writeFile(Path, Contents);
    return Path;
  }
  std::string Dir;
};

std::string withCrlf(const std::string &Text) {
  std::string Out;
  for (char C : Text) {
    if (C == '\n')
      Out += '\r';
    Out += C;
  }
  return Out;
}

TEST_F(Reliability, ExportedFixesApplyLikeFix) {
  // Every fixture with a fix: clang-apply-replacements on the exported YAML
  // gives exactly the --fix --unsafe-fixes output (.py files: no change). One kernel-tidy run per
  // set of fixture options (a shared header parse, as in a real run).
  std::map<std::vector<std::string>, std::vector<std::string>> FilesByArgs;
  struct Case {
    std::string File, Fixed, Fixture;
  };
  std::vector<Case> Expected;
  for (const std::string &Path : fixtureFiles()) {
    Fixture F = loadFixture(Path);
    for (const FixtureRun &Run : F.Runs) {
      std::string Fixed = F.expectedFixed(Run);
      if (Fixed == F.Input)
        continue;
      // The fixes of .py files are not exported (clang-apply-replacements
      // cleans up around them as C++, ExportFixes.h): the file stays as it is.
      if (llvm::StringRef(Path).ends_with(".py"))
        Fixed = F.Input;
      // One folder: the CLI shares a header parse among files of one folder.
      std::string Folder = Dir + "/cases";
      llvm::sys::fs::create_directories(Folder);
      std::string File = Folder + "/k" + std::to_string(Expected.size()) +
                         llvm::sys::path::extension(Path).str(); // .cpp, or .py (CuTe DSL)
      writeFile(File, F.Input);
      std::vector<std::string> Args;
      if (Run.Options.Checks)
        Args.push_back("--checks=" + *Run.Options.Checks);
      if (Run.Options.WarpSize)
        Args.push_back("--warp-size=" + std::to_string(*Run.Options.WarpSize));
      if (Run.Options.Target)
        Args.push_back("--target=" + dsl::targetName(*Run.Options.Target).str());
      if (Run.Options.AssumeWarpReconvergence)
        Args.push_back("--assume-warp-reconvergence");
      FilesByArgs[Args].push_back(File);
      Expected.push_back({File, Fixed, Path + " " + Run.Suffix});
    }
  }
  llvm::sys::fs::create_directories(Dir + "/yaml");
  unsigned Run = 0;
  for (const auto &[Options, Files] : FilesByArgs) {
    std::vector<std::string> Args{"check", "--unsafe-fixes", "--export-fixes",
                                  Dir + "/yaml/" + std::to_string(Run++) + ".yaml"};
    Args.insert(Args.end(), Options.begin(), Options.end());
    Args.insert(Args.end(), Files.begin(), Files.end());
    ProcessResult R = runKernelTidy(Args);
    ASSERT_EQ(1, R.ExitCode) << R.Out << R.Err;
  }
  ASSERT_EQ(0, llvm::sys::ExecuteAndWait("/usr/bin/clang-apply-replacements-19",
                                         {"clang-apply-replacements-19", Dir + "/yaml"}));
  for (const Case &C : Expected)
    EXPECT_EQ(C.Fixed, readFile(C.File)) << C.Fixture;
  EXPECT_GT(Expected.size(), 10u);
}

TEST_F(Reliability, ReadOnlyFileIsNotModified) {
  std::string File = put("k.cpp", fixtureInput(sourceDir() + SafeCase + ".cpp"));
  chmod(File.c_str(), 0444);
  ProcessResult R = runKernelTidy({"check", "--fix", File});
  EXPECT_EQ(2, R.ExitCode);
  EXPECT_NE(std::string::npos, R.Out.find(File + ": error: " + File + ": file is read-only"))
      << R.Out;
  EXPECT_EQ(fixtureInput(sourceDir() + SafeCase + ".cpp"), readFile(File));
}

TEST_F(Reliability, FullDiskIsAnErrorAndTheFileIsKept) {
  // ulimit -f makes the write of a file over 4 KiB fail with EFBIG.
  std::string Source =
      fixtureInput(sourceDir() + SafeCase + ".cpp") + "// " + std::string(8192, 'x') + "\n";
  std::string File = put("k.cpp", Source);
  std::string Out = Dir + "/out.txt";
  std::string Script =
      "ulimit -f 4; exec '" KERNEL_TIDY_BINARY "' check --fix '" + File + "' > '" + Out + "' 2>&1";
  int Code = llvm::sys::ExecuteAndWait("/bin/bash", {"bash", "-c", Script});
  EXPECT_EQ(2, Code);
  EXPECT_NE(std::string::npos, readFile(Out).find(File + ": cannot write")) << readFile(Out);
  EXPECT_EQ(Source, readFile(File));
  EXPECT_EQ(2u, listFiles(Dir, "").size()) << "temporary file left behind";
}

TEST_F(Reliability, BaselineAndExportedFixesAreWrittenAtomically) {
  std::string File = put("k.cpp", fixtureInput(sourceDir() + SafeCase + ".cpp"));
  std::string Source = readFile(File);
  for (const char *Option : {"--write-baseline", "--export-fixes"}) {
    std::string Output = Dir + "/previous.out";
    writeFile(Output, "the previous contents\n");
    // No room for a byte: the write fails, the previous file stays.
    std::string Log = Dir + "/log.txt";
    // (stderr through a pipe, which the limit does not cover.)
    std::string Script =
        std::string("set -o pipefail; (ulimit -f 0; exec '" KERNEL_TIDY_BINARY "' check ") +
        Option + " '" + Output + "' '" + File + "' 2>&1 >/dev/null) | cat > '" + Log + "'";
    int Code = llvm::sys::ExecuteAndWait("/bin/bash", {"bash", "-c", Script});
    std::string Err = readFile(Log);
    EXPECT_EQ(2, Code) << Option << Err;
    EXPECT_NE(std::string::npos, Err.find("kernel-tidy: error: cannot ")) << Err;
    EXPECT_NE(std::string::npos, Err.find(Output + ": cannot write: File too large")) << Err;
    EXPECT_EQ(std::string::npos, Err.find("recorded")) << Err;
    EXPECT_EQ(std::string::npos, Err.find("LLVM ERROR")) << Err;
    EXPECT_EQ("the previous contents\n", readFile(Output)) << Option;
    EXPECT_EQ(3u, listFiles(Dir, "").size()) << "temporary file left behind";
    llvm::sys::fs::remove(Log);

    // /dev/full: a clean error as well.
    ProcessResult R = runKernelTidy({"check", Option, "/dev/full", File});
    EXPECT_EQ(2, R.ExitCode) << Option << R.Err;
    EXPECT_NE(std::string::npos, R.Err.find("/dev/full: cannot write: No space left")) << R.Err;

    // A missing folder is noticed before any source is fixed.
    std::vector<std::string> Args{"check", Option, Dir + "/missing/out", File};
    if (std::string(Option) == "--export-fixes")
      Args.insert(Args.begin() + 1, "--fix");
    R = runKernelTidy(Args);
    EXPECT_EQ(2, R.ExitCode) << Option << R.Err;
    EXPECT_NE(std::string::npos, R.Err.find("no folder '" + Dir + "/missing'")) << R.Err;
    EXPECT_EQ(Source, readFile(File));
    llvm::sys::fs::remove(Output);
  }
}

TEST_F(Reliability, CrlfAndBomArePreserved) {
  std::string Input = fixtureInput(sourceDir() + SafeCase + ".cpp");
  std::string Expected = readFile(sourceDir() + SafeCase + ".fixed.cpp");
  std::string Crlf = put("crlf.cpp", withCrlf(Input));
  std::string Bom = put("bom.cpp", "\xEF\xBB\xBF" + Input);
  ProcessResult R = runKernelTidy({"check", "--fix", Crlf, Bom});
  EXPECT_EQ(0, R.ExitCode) << R.Out << R.Err;
  EXPECT_EQ(withCrlf(Expected), readFile(Crlf));
  EXPECT_EQ("\xEF\xBB\xBF" + Expected, readFile(Bom));
}

TEST_F(Reliability, HostileInputsHaveDefinedOutcomes) {
  std::string Empty = put("empty.cpp", "");
  EXPECT_EQ(0, runKernelTidy({"check", Empty}).ExitCode);

  std::string Binary = put("binary.cpp", std::string("\x7f"
                                                     "ELF\x02\x01\x01\0\0\0\xff\xfe",
                                                     12));
  ProcessResult R = runKernelTidy({"check", "--fix", Binary});
  EXPECT_EQ(2, R.ExitCode);
  EXPECT_NE(std::string::npos, R.Out.find("binary.cpp:1:")) << R.Out;

  std::string Source = fixtureInput(sourceDir() + SafeCase + ".cpp");
  std::string Utf8 = put("utf8.cpp", "// \xff\xfe invalid UTF-8 \xc3\x28\n" + Source);
  EXPECT_EQ(1, runKernelTidy({"check", Utf8}).ExitCode);

  std::string MissingInclude = put("missing.cpp", "#include <luisa/no-such-header.h>\n" + Source);
  R = runKernelTidy({"check", "--fix", MissingInclude});
  EXPECT_EQ(2, R.ExitCode);
  EXPECT_NE(std::string::npos, R.Out.find("'luisa/no-such-header.h' file not found")) << R.Out;
}

TEST_F(Reliability, TextForAPathInAMissingFolderIsAnalysed) {
  // Editors and the fuzzer hand over text for a path whose folder may not
  // exist; without a database the compile directory is the working one (as
  // clang-tidy's), so Clang's tooling does not abort on the missing folder.
  auto Analyzer = modelAnalyzer();
  ASSERT_TRUE(Analyzer);
  FileResult Result = Analyzer->analyze(Dir + "/gone/k.cpp", std::string("int x;\n"));
  EXPECT_TRUE(Result.Errors.empty()) << Result.Errors[0].Message;
  EXPECT_TRUE(Result.Findings.empty());
}

TEST_F(Reliability, SymlinkTargetIsFixedOnce) {
  std::string Target = put("real.cpp", fixtureInput(sourceDir() + SafeCase + ".cpp"));
  std::string Link = Dir + "/link.cpp";
  ASSERT_EQ(0, symlink(Target.c_str(), Link.c_str()));
  ProcessResult R = runKernelTidy({"check", "--fix", Link, Target});
  EXPECT_EQ(0, R.ExitCode) << R.Out << R.Err;
  EXPECT_EQ(readFile(sourceDir() + SafeCase + ".fixed.cpp"), readFile(Target));
  EXPECT_TRUE(llvm::sys::fs::is_symlink_file(Link));
}

TEST_F(Reliability, LargeGeneratedSourceIsAnalysed) {
  // About 10 MB of ordinary host code around one kernel.
  std::string Source = fixtureInput(sourceDir() + SafeCase + ".cpp");
  std::string Filler;
  for (unsigned I = 0; Filler.size() < 10u * 1024 * 1024; ++I)
    Filler += "static int helper_" + std::to_string(I) + "(int a, int b) { int c = a * " +
              std::to_string(I) +
              " + b; return c > 0 ? c : -c; } // padding padding padding padding\n";
  std::string File = put("big.cpp", Source + Filler);
  ProcessResult R = runKernelTidy({"check", "--format", "json", File});
  EXPECT_EQ(1, R.ExitCode) << R.Err;
  EXPECT_NE(std::string::npos, R.Out.find("\"line\": 12")) << R.Out.substr(0, 2000);
}

TEST_F(Reliability, HeaderFixesFromTwoFilesAreNeverApplied) {
  std::string Kernel = fixtureInput(sourceDir() + SafeCase + ".cpp");
  // The kernel moves into a header that two sources include.
  put("kernel.h", "#pragma once\n" + Kernel);
  std::string A = put("a.cpp", "#include \"kernel.h\"\n");
  std::string B = put("b.cpp", "#include \"kernel.h\"\n");
  put(".clang-tidy", "HeaderFilterRegex: '.*'\n");
  ProcessResult R = runKernelTidy({"check", "--fix", A, B});
  EXPECT_EQ(1, R.ExitCode) << R.Out << R.Err;
  size_t Warnings = 0;
  for (size_t At = R.Out.find(": warning: "); At != std::string::npos;
       At = R.Out.find(": warning: ", At + 1))
    ++Warnings;
  // Reported once (issue 31, item 17), by the first file that includes it.
  EXPECT_EQ(1u, Warnings) << R.Out;
  EXPECT_NE(std::string::npos, R.Out.find("fix not applied: it edits another file")) << R.Out;
  EXPECT_EQ("#pragma once\n" + Kernel, readFile(Dir + "/kernel.h"));
}

TEST(FixOverlaps, OverlappingFixesApplyOnceOrAreDroppedWithANote) {
  std::string Path = sourceDir() + SafeCase + ".cpp";
  auto Analyzer = modelAnalyzer();
  ASSERT_TRUE(Analyzer);
  FileResult Result = Analyzer->analyze(Path, fixtureInput(Path));
  ASSERT_EQ(1u, Result.Findings.size());
  // A second finding whose fix overlaps the first one's edit.
  Finding Twin = Result.Findings[0];
  Twin.FixIt->Edits[0].Replacement = "m = warp_active_min(m);";
  Result.Findings.push_back(Twin);
  applyFixes(Result, *Analyzer, /*IncludeUnsafe=*/false);
  EXPECT_EQ(1u, Result.FixedCount);
  ASSERT_EQ(1u, Result.FixNotes.size());
  EXPECT_NE(std::string::npos, Result.FixNotes[0].find("overlaps another fix"));
  EXPECT_EQ(readFile(sourceDir() + SafeCase + ".fixed.cpp"), Result.Fixed.value_or(""));
}

TEST(FixVerification, AFixThatBreaksTheBuildIsDropped) {
  std::string Path = sourceDir() + SafeCase + ".cpp";
  auto Analyzer = modelAnalyzer();
  ASSERT_TRUE(Analyzer);
  FileResult Result = Analyzer->analyze(Path, fixtureInput(Path));
  ASSERT_EQ(1u, Result.Findings.size());
  Result.Findings[0].FixIt->Edits[0].Replacement = "m = warp_active_max(m, m, m);";
  applyFixes(Result, *Analyzer, /*IncludeUnsafe=*/false);
  EXPECT_FALSE(Result.Fixed);
  EXPECT_EQ(0u, Result.FixedCount);
  // The finding stays, without a fix, saying why.
  ASSERT_EQ(1u, Result.Findings.size());
  EXPECT_FALSE(Result.Findings[0].FixIt);
  EXPECT_NE(std::string::npos,
            Result.Findings[0].NoFixReason.find("the fixed file does not compile: no matching "
                                                "function for call to 'warp_active_max'"))
      << Result.Findings[0].NoFixReason;
}

TEST(FixVerification, ReportsWithoutFixOfferOnlyFixesThatCompile) {
  // Without --fix, the same verification runs: a report never counts a fix
  // that --fix would drop.
  std::string Path = sourceDir() + SafeCase + ".cpp";
  auto Analyzer = modelAnalyzer();
  ASSERT_TRUE(Analyzer);
  FileResult Good = Analyzer->analyze(Path);
  ASSERT_EQ(1u, Good.Findings.size());
  FileResult Bad = Good;
  Bad.Findings[0].FixIt->Edits[0].Replacement = "m = warp_active_max(m, m, m);";
  verifyFixes(Good, *Analyzer);
  verifyFixes(Bad, *Analyzer);
  EXPECT_TRUE(Good.Findings[0].FixIt) << Good.Findings[0].NoFixReason;
  EXPECT_FALSE(Bad.Findings[0].FixIt);
  EXPECT_FALSE(Bad.Fixed) << "verification writes nothing";
  EXPECT_NE(std::string::npos, Bad.Findings[0].NoFixReason.find("does not compile"));
}

unsigned crashTrials() {
  const char *Env = std::getenv("KERNEL_TIDY_CRASH_TRIALS");
  return Env ? static_cast<unsigned>(std::stoul(Env)) : 25;
}

TEST_F(Reliability, KilledFixRunLeavesEachFileOriginalOrFixed) {
  // KERNEL_TIDY_CRASH_TRIALS=200 for the full run; CI runs fewer.
  struct Case {
    std::string Input, Fixed, Extension;
  };
  std::vector<Case> Cases;
  for (const std::string &Path : fixtureFiles()) {
    Fixture F = loadFixture(Path);
    const FixtureRun &Run = F.Runs.front();
    std::string Fixed = F.expectedFixed(Run);
    if (Run.Options.WarpSize || Fixed == F.Input)
      continue;
    Cases.push_back({F.Input, Fixed, llvm::sys::path::extension(Path).str()});
    if (Cases.size() == 8)
      break;
  }
  ASSERT_GE(Cases.size(), 8u);
  std::mt19937 Random(20261130);
  std::uniform_int_distribution<int> DelayMs(0, 2500);
  unsigned Killed = 0;
  for (unsigned Trial = 0; Trial < crashTrials(); ++Trial) {
    std::string TrialDir = Dir + "/" + std::to_string(Trial);
    llvm::sys::fs::create_directories(TrialDir);
    std::vector<std::string> Files;
    std::vector<llvm::StringRef> Argv{KERNEL_TIDY_BINARY, "check", "--fix", "--unsafe-fixes"};
    for (size_t I = 0; I < Cases.size(); ++I) {
      Files.push_back(TrialDir + "/k" + std::to_string(I) + Cases[I].Extension);
      writeFile(Files.back(), Cases[I].Input);
    }
    for (const std::string &F : Files)
      Argv.push_back(F);
    std::optional<llvm::StringRef> Quiet[] = {std::nullopt, llvm::StringRef("/dev/null"),
                                              llvm::StringRef("/dev/null")};
    llvm::sys::ProcessInfo Process =
        llvm::sys::ExecuteNoWait(KERNEL_TIDY_BINARY, Argv, std::nullopt, Quiet);
    ASSERT_GT(Process.Pid, 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(DelayMs(Random)));
    Killed += ::kill(Process.Pid, SIGKILL) == 0;
    llvm::sys::Wait(Process, std::nullopt);
    for (size_t I = 0; I < Files.size(); ++I) {
      std::string Now = readFile(Files[I]);
      EXPECT_TRUE(Now == Cases[I].Input || Now == Cases[I].Fixed)
          << "trial " << Trial << ": " << Files[I] << " is neither original nor fixed";
    }
  }
  EXPECT_GT(Killed, 0u);
}

} // namespace
} // namespace kernel_tidy::test
