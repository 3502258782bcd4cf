//===--- RealHeadersTest.cpp - The rule fixtures with the real headers ----===//
//
// Keeps the bundled model honest: every run of every rule fixture
// (test/fixtures/luisa-*/*.cpp) analysed with the REAL LuisaCompute headers
// must give the findings and the fixed text that the fixture expects, which
// FixtureTest checks are what the bundled model gives. A difference is a bug
// of the model or of a rule (a rule that relies on a shape only the model
// has); a fixture that genuinely cannot match is listed in NotComparable with
// the reason.
//
// The real headers are the prebuilt LuisaCompute of ../shared/luisacompute
// beside the repository (KERNEL_TIDY_REAL_LUISACOMPUTE): its tarball is
// checked against SHA256SUMS and extracted into the build tree once; the
// compile command is -std=c++20, its `include` and `include/luisa/ext`, and
// every INTERFACE_COMPILE_DEFINITIONS of its LuisaComputeTargets.cmake. The
// test is skipped when the folder is absent, except under CI=true.
//
// Speed: one generated compile_commands.json, the fixtures of each distinct
// RUN-ARGS analysed by one analyzeFiles call (2 jobs) that shares the
// precompiled real headers through the header cache, as a CLI run does.
//
//===----------------------------------------------------------------------===//

#include "src/driver/FixApplier.h"
#include "src/driver/ParallelRun.h"
#include "test/unit/Fixture.h"
#include "test/unit/TestSupport.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <cstdlib>
#include <gtest/gtest.h>
#include <map>
#include <regex>
#include <set>

namespace kernel_tidy::test {
namespace {

const char *const Tarball = "prebuilt-bookworm-x86_64.tar.xz";

/// Fixture runs ("<rule>/<case>" or "<rule>/<case>:SUFFIX") whose findings
/// or fixes cannot be the same with the real headers, with the reason. Each
/// must still differ (else it is taken off the list).
const std::map<std::string, std::string> NotComparable = {};

std::string sha256Hex(llvm::StringRef Data) {
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(Data)), /*LowerCase=*/true);
}

/// The prebuilt's prefix in the build tree (extracted on first use), or ""
/// with \p Error.
std::string extractedPrebuilt(const std::string &SharedDir, std::string &Error) {
  std::string Archive = SharedDir + "/" + Tarball;
  std::string Sums = readFile(SharedDir + "/SHA256SUMS");
  std::string Expected;
  for (llvm::StringRef Line : llvm::split(Sums, '\n')) {
    auto [Hash, Name] = Line.split(' ');
    if (Name.trim().trim('*') == Tarball)
      Expected = Hash.str();
  }
  if (Expected.empty()) {
    Error = "SHA256SUMS of " + SharedDir + " lists no " + Tarball;
    return "";
  }
  std::string Actual = sha256Hex(readFile(Archive));
  if (Actual != Expected) {
    Error = Archive + ": SHA256 " + Actual + ", SHA256SUMS says " + Expected;
    return "";
  }
  std::string Dir = std::string(KERNEL_TIDY_BINARY_DIR) + "/real-luisacompute/" + Expected;
  std::string Prefix = Dir + "/luisacompute";
  if (fileExists(Dir + "/extracted"))
    return Prefix;
  llvm::sys::fs::remove_directories(Dir);
  llvm::sys::fs::create_directories(Dir);
  auto Tar = llvm::sys::findProgramByName("tar");
  if (!Tar) {
    Error = "no tar to extract " + Archive;
    return "";
  }
  std::string Message;
  int Code = llvm::sys::ExecuteAndWait(*Tar, {"tar", "-C", Dir, "-xJf", Archive}, std::nullopt, {},
                                       0, 0, &Message);
  if (Code != 0 || !fileExists(Prefix + "/include/luisa/luisa-compute.h")) {
    Error = "cannot extract " + Archive + " into " + Dir + ": " + Message;
    return "";
  }
  writeFile(Dir + "/extracted", Expected + "\n");
  return Prefix;
}

/// Every INTERFACE_COMPILE_DEFINITIONS of the prebuilt's targets, in order,
/// once each, as -D arguments.
std::vector<std::string> interfaceDefinitions(const std::string &Prefix, std::string &Error) {
  std::string Targets = readFile(Prefix + "/lib/cmake/LuisaCompute/LuisaComputeTargets.cmake");
  std::regex Property(R"re(INTERFACE_COMPILE_DEFINITIONS\s+"([^"]*)")re");
  std::vector<std::string> Args;
  llvm::StringSet<> Seen;
  for (std::sregex_iterator It(Targets.begin(), Targets.end(), Property), End; It != End; ++It) {
    std::string List = (*It)[1].str();
    for (llvm::StringRef Definition : llvm::split(List, ';')) {
      if (Definition.contains("$<")) {
        Error = "a generator expression in INTERFACE_COMPILE_DEFINITIONS: " + Definition.str();
        return {};
      }
      if (!Definition.empty() && Seen.insert(Definition).second)
        Args.push_back("-D" + Definition.str());
    }
  }
  if (Args.empty())
    Error = "no INTERFACE_COMPILE_DEFINITIONS in " + Prefix;
  return Args;
}

std::string fixtureId(const std::string &Path) {
  llvm::StringRef Rule = llvm::sys::path::filename(llvm::sys::path::parent_path(Path));
  return (Rule + "/" + llvm::sys::path::filename(Path)).str();
}

TEST(RealHeaders, RuleFixturesGiveTheBundledModelsFindingsAndFixes) {
  std::string SharedDir = KERNEL_TIDY_REAL_LUISACOMPUTE;
  const char *CiEnv = std::getenv("CI");
  if (!fileExists(SharedDir + "/" + Tarball)) {
    if (CiEnv && std::string(CiEnv) == "true")
      FAIL() << "CI=true and no real LuisaCompute at " << SharedDir;
    GTEST_SKIP() << "no real LuisaCompute headers at " << SharedDir << " (../shared/luisacompute)";
  }
  auto Start = std::chrono::steady_clock::now();
  std::string Error;
  std::string Prefix = extractedPrebuilt(SharedDir, Error);
  ASSERT_NE("", Prefix) << Error;
  std::vector<std::string> Definitions = interfaceDefinitions(Prefix, Error);
  ASSERT_TRUE(Error.empty()) << Error;

  // The analysed text of every fixture, in a folder of the build tree, and
  // one compile database naming the real headers for all of them.
  std::string Dir = std::string(KERNEL_TIDY_BINARY_DIR) + "/real-headers-fixtures";
  llvm::sys::fs::remove_directories(Dir);
  std::vector<Fixture> Fixtures;
  std::vector<std::string> Copies; // The analysed files, one per fixture.
  llvm::json::Array Database;
  auto addCommand = [&](const std::string &File) {
    llvm::json::Array Arguments{"clang++", "-std=c++20", "-I" + Prefix + "/include",
                                "-I" + Prefix + "/include/luisa/ext"};
    for (const std::string &Definition : Definitions)
      Arguments.push_back(Definition);
    Arguments.push_back("-c");
    Arguments.push_back(File);
    Database.push_back(llvm::json::Object{
        {"directory", Dir}, {"file", File}, {"arguments", std::move(Arguments)}});
  };
  for (const std::string &Path : fixtureFiles()) {
    if (!llvm::StringRef(fixtureId(Path)).starts_with("luisa-"))
      continue;
    Fixture F = loadFixture(Path);
    ASSERT_TRUE(F.Errors.empty()) << llvm::join(F.Errors, "\n");
    std::string Copy = Dir + "/" + fixtureId(Path);
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Copy));
    writeFile(Copy, F.Input);
    addCommand(Copy);
    Copies.push_back(Copy);
    Fixtures.push_back(std::move(F));
  }
  ASSERT_FALSE(Fixtures.empty());
  // A file that compiles only with the real headers and their definitions (the model
  // has no version.h and defines no LUISA_ENABLE_DSL), analysed with the first group:
  // proof that the fixtures were not parsed with the model.
  std::string Probe = Dir + "/real-headers-probe.cpp";
  writeFile(Probe, "#include <luisa/luisa-compute.h>\n#include <luisa/dsl/sugar.h>\n"
                   "static_assert(LUISA_COMPUTE_VERSION > 0 && LUISA_ENABLE_DSL == 1);\n");
  addCommand(Probe);
  {
    std::string Json;
    llvm::raw_string_ostream Out(Json);
    Out << llvm::json::Value(std::move(Database));
    writeFile(Dir + "/compile_commands.json", Json);
  }

  // The runs, grouped by their arguments: one analysis of many files each.
  std::map<std::string, std::vector<std::pair<size_t, const FixtureRun *>>> Groups;
  for (size_t I = 0; I < Fixtures.size(); ++I)
    for (const FixtureRun &Run : Fixtures[I].Runs)
      Groups[Run.Args].push_back({I, &Run});

  unsigned Compared = 0, Runs = 0;
  std::set<std::string> Differing;
  for (const auto &[Args, Members] : Groups) {
    AnalysisOptions Options = Members.front().second->Options;
    Options.BuildPath = Dir;
    Options.ResourceDir = KERNEL_TIDY_CLANG_RESOURCE_DIR;
    Options.CuteFrontend = sourceDir() + "/frontends/cute/run.py";
    Options.Pch = PchMode::Auto;
    std::vector<std::string> Files;
    for (const auto &Member : Members)
      Files.push_back(Copies[Member.first]);
    bool WithProbe = Args == Groups.begin()->first;
    if (WithProbe)
      Files.push_back(Probe);
    auto Planner = Analyzer::create(Options, Error);
    ASSERT_TRUE(Planner) << Error;
    Options.Prefixes = Planner->planPrecompiledPrefixes(Files, /*Jobs=*/2);
    Planner.reset();

    std::vector<std::string> Findings(Files.size()), Fixed(Files.size()), Dropped(Files.size());
    ParallelRunOptions Parallel;
    Parallel.Jobs = 2;
    Parallel.AfterAnalysis = [&](size_t I, FileResult &Result, Analyzer &A) {
      Findings[I] = describeFindings(Result);
      if (I >= Members.size())
        return; // The probe.
      FileResult WithUnsafe = Result;
      applyFixes(WithUnsafe, A, /*IncludeUnsafe=*/true);
      Fixed[I] = WithUnsafe.Fixed.value_or(Fixtures[Members[I].first].Input);
      Dropped[I] = llvm::join(WithUnsafe.FixNotes, "\n");
    };
    auto Results = analyzeFiles(Files, Options, Parallel, Error);
    ASSERT_TRUE(Results) << Error;
    if (WithProbe) {
      EXPECT_EQ("", Findings.back()) << "the probe does not compile with the real headers";
    }

    for (size_t I = 0; I < Members.size(); ++I) {
      const Fixture *F = &Fixtures[Members[I].first];
      const FixtureRun *Run = Members[I].second;
      std::string Id = fixtureId(F->Path) + (Run->Suffix.empty() ? "" : ":" + Run->Suffix);
      ++Runs;
      bool Same = Findings[I] == F->expectedFindings(*Run) && Fixed[I] == F->expectedFixed(*Run) &&
                  Dropped[I].empty();
      if (auto Listed = NotComparable.find(Id); Listed != NotComparable.end()) {
        EXPECT_FALSE(Same) << Id << " is listed as not comparable (" << Listed->second
                           << ") but now matches: take it off the list";
        continue;
      }
      ++Compared;
      if (!Same)
        Differing.insert(Id);
      EXPECT_EQ(F->expectedFindings(*Run), Findings[I]) << Id << " (" << Args << ")";
      EXPECT_EQ(F->expectedFixed(*Run), Fixed[I]) << Id << " (" << Args << ")";
      EXPECT_EQ("", Dropped[I]) << Id << ": a fix was dropped with the real headers";
    }
  }
  EXPECT_TRUE(Differing.empty()) << "differ with the real headers: "
                                 << llvm::join(Differing.begin(), Differing.end(), ", ");
  auto Seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  std::cerr << "[ RealHeaders ] " << Compared << " of " << Runs << " fixture runs compared ("
            << Groups.size() << " argument sets) in " << Seconds << " s\n";
}

} // namespace
} // namespace kernel_tidy::test
