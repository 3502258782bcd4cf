//===--- PrecompiledPrefixTest.cpp - The shared header parse (PCH) --------===//

#include "src/driver/PrecompiledPrefix.h"
#include "src/driver/SharedHeaderParse.h"
#include "test/unit/TestSupport.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>
#include <optional>
#include <set>
#include <cstdio>
#include <ctime>
#include <unistd.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace kernel_tidy::test {
namespace {

TEST(LeadingIncludes, BothKindsUpToTheFirstOtherToken) {
  EXPECT_EQ((std::vector<std::string>{"<random>", "<luisa/luisa-compute.h>", "<a.h>"}),
            leadingIncludes("\xEF\xBB\xBF// comment\n/* block\n */\n#include <random>\n\n"
                            "  #  include<luisa/luisa-compute.h> // why\n"
                            "#include <a.h> /* x */\n"
                            "#include <b.h> /* x */ int y;\n#include <c.h>\n"));
  EXPECT_EQ((std::vector<std::string>{"\"ut/ut.hpp\"", "<a.h>", "\"local.h\"", "<b.h>"}),
            leadingIncludes("#include \"ut/ut.hpp\"\n#include <a.h>\n#include \"local.h\"\n"
                            "#include <b.h>\n#ifdef X\n#include <c.h>\n#endif\n"));
  EXPECT_EQ((std::vector<std::string>{"<a.h>"}),
            leadingIncludes("#include <a.h>\n#define X 1\n#include <b.h>\n"));
  EXPECT_EQ((std::vector<std::string>{"<a.h>"}),
            leadingIncludes("#include <a.h>\n#include \"\"\n#include <b.h>\n"));
  EXPECT_TRUE(leadingIncludes("#pragma once\n#include <a.h>\n").empty());
  EXPECT_TRUE(leadingIncludes("#include <a.h> \\\n  \n").empty());
  EXPECT_TRUE(leadingIncludes("int x;\n#include <a.h>\n").empty());
  EXPECT_TRUE(leadingIncludes("#include MACRO_HEADER\n").empty());
}

// A quoted name is looked up beside the including file first: the shared
// header, which lives in the cache, names such a file by its absolute path;
// a quoted name found only on the include path stays as it is.
TEST(LeadingIncludes, QuotedNamesBesideTheFileBecomeAbsolute) {
  std::string Dir = makeTempDir();
  llvm::sys::fs::create_directories(Dir + "/sub");
  writeFile(Dir + "/sub/local.h", "#pragma once\n");
  writeFile(Dir + "/up.h", "#pragma once\n");
  std::string Text = "#include \"local.h\"\n#include \"../up.h\"\n#include \"elsewhere.h\"\n"
                     "#include <local.h>\n";
  EXPECT_EQ((std::vector<std::string>{"\"" + Dir + "/sub/local.h\"", "\"" + Dir + "/up.h\"",
                                      "\"elsewhere.h\"", "<local.h>"}),
            preambleIncludes(Text, Dir + "/sub"));

  PrecompiledHeader Header{"p.pch", {"\"" + Dir + "/sub/local.h\"", "<b.h>"}};
  EXPECT_TRUE(
      prefixApplies(Header, "#include \"local.h\"\n#include <b.h>\nint x;\n", Dir + "/sub"));
  EXPECT_FALSE(prefixApplies(Header, "#include \"local.h\"\n#include <b.h>\n", Dir));
  EXPECT_FALSE(
      prefixApplies(Header, "#include \"local.h\"\nint x;\n#include <b.h>\n", Dir + "/sub"));
  llvm::sys::fs::remove_directories(Dir);
}

class SharedHeaderParse : public ::testing::Test {
protected:
  void SetUp() override {
    Dir = makeTempDir();
    Cache = Dir + "/cache";
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  /// The PCHs in this test's cache folder.
  std::vector<std::string> pchFiles() {
    std::vector<std::string> Found;
    std::error_code EC;
    for (llvm::sys::fs::recursive_directory_iterator I(Cache, EC), E; I != E && !EC;
         I.increment(EC))
      if (llvm::StringRef(I->path()).ends_with("/prefix.pch"))
        Found.push_back(I->path());
    return Found;
  }
  llvm::sys::fs::UniqueID idOf(const std::string &Path) {
    llvm::sys::fs::UniqueID ID;
    EXPECT_FALSE(llvm::sys::fs::getUniqueID(Path, ID)) << Path;
    return ID;
  }
  /// Gives \p File a modification time \p Seconds from now.
  static void setTime(const std::string &File, int Seconds) {
    int FD;
    ASSERT_FALSE(llvm::sys::fs::openFileForWrite(File, FD, llvm::sys::fs::CD_OpenExisting,
                                                 llvm::sys::fs::OF_Append));
    llvm::sys::fs::setLastAccessAndModificationTime(
        FD, llvm::sys::toTimePoint(std::time(nullptr) + Seconds));
    ::close(FD);
  }
  /// A kernel-tidy run with this test's cache folder.
  ProcessResult runWithCache(const std::vector<std::string> &Args) {
    ::setenv("KERNEL_TIDY_CACHE_DIR", Cache.c_str(), 1);
    ProcessResult R = runKernelTidy(Args);
    ::setenv("KERNEL_TIDY_CACHE_DIR", testCacheDir().c_str(), 1);
    return R;
  }
  /// `check` with the bundled model and JSON output, with this test's cache.
  ProcessResult run(std::vector<std::string> Args) {
    Args.insert(Args.begin(), {"check", "--bundled-model", "--format", "json"});
    return runWithCache(Args);
  }
  /// The JSON report of a `--diff` run: on stderr, where stdout holds the diff.
  static std::string jsonOf(const ProcessResult &R) {
    size_t Begin = R.Err.find("{\n"), End = R.Err.rfind("\n}\n");
    return Begin == std::string::npos || End == std::string::npos || End < Begin
               ? ""
               : R.Err.substr(Begin, End + 3 - Begin);
  }
  std::string Dir, Cache;
};

// Findings, positions, fixes and the re-parse that verifies fixes are the
// same with one shared PCH as with a plain parse of every file; the PCH holds
// the DSL's macros ($if, $for), which the rules must still see.
TEST_F(SharedHeaderParse, SameReportAsPlainParse) {
  std::vector<std::string> Files;
  for (const char *Folder : {"/examples", "/test/corpus"}) {
    std::vector<std::string> Sources = listFiles(sourceDir() + Folder, ".cpp");
    Sources.resize(std::min<size_t>(Sources.size(), 3)); // Test time.
    for (const std::string &Source : Sources) {
      // examples-softmax.cpp, test-corpus-softmax.cpp: one folder, no names twice.
      std::string Name =
          std::string(Folder).substr(1) + "-" + llvm::sys::path::filename(Source).str();
      std::replace(Name.begin(), Name.end(), '/', '-');
      std::string Copy = Dir + "/" + Name;
      writeFile(Copy, readFile(Source));
      Files.push_back(Copy);
    }
  }
  ASSERT_GE(Files.size(), 6u);
  std::vector<std::string> Args = Files;
  Args.insert(Args.begin(), {"--diff", "--unsafe-fixes", "-j", "2"});
  std::vector<std::string> Plain = Args, Shared = Args;
  Plain.insert(Plain.begin(), "--no-pch");
  ProcessResult A = run(Plain);
  EXPECT_TRUE(pchFiles().empty());
  ProcessResult B = run(Shared);
  // Two groups: the examples open with <random>, the corpus with luisa's.
  EXPECT_EQ(2u, pchFiles().size());
  EXPECT_EQ(A.ExitCode, B.ExitCode) << B.Err;
  EXPECT_EQ(A.Out, B.Out);
  EXPECT_EQ(jsonOf(A), jsonOf(B));
  EXPECT_NE(std::string::npos, jsonOf(B).find("\"luisa-shared-atomic-counter\"")) << B.Err;
  EXPECT_NE(std::string::npos, jsonOf(B).find("\"luisa-butterfly-reduction\""));
  EXPECT_NE(std::string::npos, B.Out.find("+++ ")); // Fixes were verified and diffed.
}

// Issue 48: with -fdelayed-template-parsing, Clang 19 crashed reading the
// late-parsed templates of a file's PCH chained on its group's
// (ASTReader::ReadLateParsedTemplates, SIGSEGV): two files whose leading
// includes differ ended the whole run. Such files share their group's PCH
// only, and both are reported, at -j1 and -j2.
TEST_F(SharedHeaderParse, DelayedTemplateParsingGetsNoChainedPch) {
  writeFile(Dir + "/a.cpp", "#include <vector>\n#include <map>\n"
                            "int a() { std::vector<int> v{1}; std::map<int, int> m;\n"
                            "  m[v[0]] = 1; return static_cast<int>(m.size()); }\n");
  writeFile(Dir + "/b.cpp", "#include <vector>\n#include <string>\n#include <map>\n"
                            "int b() { std::vector<std::string> v{\"x\"};\n"
                            "  std::map<std::string, int> m; m[v[0]] = 1;\n"
                            "  return static_cast<int>(m.size()); }\n");
  std::string Database = "[";
  for (const char *Name : {"a", "b"})
    Database += std::string(Database.size() > 1 ? "," : "") + "{\"directory\": \"" + Dir +
                "\", \"file\": \"" + Name +
                ".cpp\", \"command\": \"clang++-19 -std=c++20 -fdelayed-template-parsing -c " +
                Name + ".cpp\"}";
  writeFile(Dir + "/compile_commands.json", Database + "]\n");
  for (const char *Jobs : {"1", "2"}) {
    ProcessResult R = runWithCache(
        {"check", "-p", Dir, "--format", "json", "-j", Jobs, Dir + "/a.cpp", Dir + "/b.cpp"});
    ASSERT_EQ(0, R.ExitCode) << R.Err;
    nlohmann::json Report = nlohmann::json::parse(R.Out);
    EXPECT_EQ(2, Report["summary"]["files"]) << R.Out;
    EXPECT_TRUE(Report["summary"]["errors"].empty()) << R.Out;
  }
  // The group's PCH of <vector>, and none chained on it.
  EXPECT_EQ(1u, pchFiles().size());
}

// A crash in one file's analysis is that file's error: the run goes on, the
// other files' findings are reported exactly as without it, and the exit
// code says that a file failed. KERNEL_TIDY_TEST_CRASH_IN (test-only) makes
// the analysis of the file it names crash with SIGSEGV.
TEST_F(SharedHeaderParse, ACrashFailsItsOwnFileOnly) {
  std::vector<std::string> Files;
  for (const char *Name : {"histogram", "scan", "softmax"}) {
    Files.push_back(Dir + "/" + Name + ".cpp");
    writeFile(Files.back(), readFile(sourceDir() + "/examples/" + Name + ".cpp"));
  }
  auto Diagnostics = [](const ProcessResult &R) {
    nlohmann::json Report = nlohmann::json::parse(R.Out), Kept = nlohmann::json::array();
    for (const nlohmann::json &D : Report["diagnostics"])
      if (!llvm::StringRef(D["file"].get<std::string>()).ends_with("/scan.cpp"))
        Kept.push_back(D);
    return Kept;
  };
  std::vector<std::string> Args = Files;
  Args.insert(Args.begin(), {"-j", "2"});
  ProcessResult Whole = run(Args);
  ASSERT_EQ(1, Whole.ExitCode) << Whole.Err;
  nlohmann::json Expected = Diagnostics(Whole);
  ASSERT_FALSE(Expected.empty()) << Whole.Out;
  ASSERT_NE(Expected.size(), nlohmann::json::parse(Whole.Out)["diagnostics"].size());

  // What the crashed analysis had allocated is left behind on purpose.
  const char *Given = ::getenv("ASAN_OPTIONS");
  std::optional<std::string> Sanitizer = Given ? std::optional<std::string>(Given) : std::nullopt;
  ::setenv("ASAN_OPTIONS", (Sanitizer.value_or("") + ":detect_leaks=0").c_str(), 1);
  ::setenv("KERNEL_TIDY_TEST_CRASH_IN", "/scan.cpp", 1);
  for (const char *Jobs : {"1", "2"}) {
    Args[1] = Jobs;
    ProcessResult R = run(Args);
    EXPECT_EQ(2, R.ExitCode) << R.Err;
    EXPECT_EQ(Expected, Diagnostics(R)) << Jobs;
    nlohmann::json Errors = nlohmann::json::parse(R.Out)["summary"]["errors"];
    ASSERT_EQ(1u, Errors.size()) << R.Out;
    EXPECT_EQ(Files[1], Errors[0]["file"]);
    EXPECT_EQ("the analysis crashed (signal 11, Segmentation fault); nothing of this file is "
              "reported",
              Errors[0]["message"]);
  }
  ::unsetenv("KERNEL_TIDY_TEST_CRASH_IN");
  if (Sanitizer)
    ::setenv("ASAN_OPTIONS", Sanitizer->c_str(), 1);
  else
    ::unsetenv("ASAN_OPTIONS");
}

// The cached PCH is rebuilt when a header it read is touched or changed, and
// results follow the header.
TEST_F(SharedHeaderParse, RebuiltWhenAHeaderChanges) {
  std::string Inc = Dir + "/inc";
  llvm::sys::fs::create_directories(Inc);
  writeFile(Inc + "/extra.h", "#pragma once\ninline constexpr unsigned kLanes = 32u;\n");
  const char *Kernel = "#include <luisa/luisa-compute.h>\n#include <extra.h>\n"
                       "using namespace luisa::compute;\n"
                       "void f%d() { Kernel1D k = [&](BufferUInt b) { set_warp_size(kLanes);"
                       " b.write(0u, warp_read_lane(b.read(1u), 0u)); }; }\n";
  std::vector<std::string> Files;
  for (int I = 0; I < 2; ++I) {
    char Text[512];
    std::snprintf(Text, sizeof Text, Kernel, I);
    Files.push_back(Dir + "/k" + std::to_string(I) + ".cpp");
    writeFile(Files.back(), Text);
  }
  std::vector<std::string> Args = Files;
  Args.insert(Args.end(), {"--", "-isystem", Inc});
  auto Plain = Args;
  Plain.insert(Plain.begin(), "--no-pch");

  ProcessResult A = run(Args);
  ASSERT_EQ(1u, pchFiles().size()) << A.Err;
  EXPECT_EQ(run(Plain).Out, A.Out);
  llvm::sys::fs::UniqueID Built = idOf(pchFiles()[0]);
  EXPECT_EQ(Built, idOf((run(Args), pchFiles()[0]))); // Unchanged: reused.

  // Same text, new time stamp (a fresh checkout): entries are valid by
  // contents, so the PCH is reused (issue 52, item 1).
  setTime(Inc + "/extra.h", 100);
  ProcessResult B = run(Args);
  EXPECT_EQ(A.Out, B.Out);
  llvm::sys::fs::UniqueID Touched = idOf(pchFiles()[0]);
  EXPECT_EQ(Built, Touched);

  // Changed text: rebuilt, and the files now fail to compile in both modes.
  writeFile(Inc + "/extra.h", "#pragma once\ninline constexpr unsigned kWidth = 32u;\n");
  ProcessResult C = run(Args);
  EXPECT_EQ(2, C.ExitCode);
  EXPECT_NE(std::string::npos, C.Out.find("kLanes")) << C.Out;
  EXPECT_EQ(run(Plain).Out, C.Out);
  ASSERT_EQ(1u, pchFiles().size());
  EXPECT_NE(Touched, idOf(pchFiles()[0]));
}

/// A kernel whose butterfly reduction has a safe fix, after \p Preamble.
static std::string butterflyFile(const std::string &Preamble, int N) {
  return Preamble +
         "using namespace luisa;\nusing namespace luisa::compute;\n"
         "void build" +
         std::to_string(N) +
         "(Device &device) {\n"
         "  Kernel1D k = [&](BufferFloat data) noexcept {\n"
         "    auto lane = warp_lane_id();\n    Float m = data.read(dispatch_x());\n"
         "    m = max(m, warp_read_lane(m, lane ^ 16u));\n"
         "    m = max(m, warp_read_lane(m, lane ^ 8u));\n"
         "    m = max(m, warp_read_lane(m, lane ^ 4u));\n"
         "    m = max(m, warp_read_lane(m, lane ^ 2u));\n"
         "    m = max(m, warp_read_lane(m, lane ^ 1u));\n"
         "    data.write(dispatch_x(), m + float(kScale));\n  };\n}\n";
}

// Real projects open with quoted includes ("ut/ut.hpp", "test_device.h")
// and go on with headers of their own: the common includes are parsed once,
// each file's whole preamble is precompiled on top of them (files with the
// same preamble share it), and the reports (findings, fixes, the diff) are
// byte for byte the plain parse's, cold and warm, with -j1 and with -j2
// (the cache is built by two builders at once, files are analysed on two
// threads).
TEST_F(SharedHeaderParse, QuotedIncludePreamblesGiveThePlainReportAtJ1AndJ2) {
  std::string Src = Dir + "/src", Inc = Dir + "/inc";
  llvm::sys::fs::create_directories(Src);
  llvm::sys::fs::create_directories(Inc);
  writeFile(Src + "/common.h", "#pragma once\n#include <luisa/luisa-compute.h>\n");
  writeFile(Inc + "/scale.h", "#pragma once\ninline constexpr int kScale = 2;\n");
  writeFile(Inc + "/other.h", "#pragma once\n#include \"scale.h\"\n");
  std::vector<std::string> Files{Src + "/a.cpp", Src + "/b.cpp", Src + "/c.cpp"};
  writeFile(Files[0], butterflyFile("#include \"common.h\"\n#include \"scale.h\"\n"
                                    "#include <luisa/dsl/sugar.h>\n",
                                    0));
  writeFile(Files[1], butterflyFile("// b\n#include \"common.h\"\n#include \"other.h\"\n"
                                    "#include <luisa/dsl/sugar.h>\n",
                                    1));
  writeFile(Files[2], butterflyFile("#include \"common.h\"\n#include \"scale.h\"\n"
                                    "#include <luisa/dsl/sugar.h>\n\n#define UNUSED 1\n",
                                    2));
  auto Args = [&](const char *Jobs, bool Pch) {
    std::vector<std::string> Args = Files;
    Args.insert(Args.begin(), {"--diff", "--unsafe-fixes", "-j", Jobs});
    if (!Pch)
      Args.insert(Args.begin(), "--no-pch");
    Args.insert(Args.end(), {"--", "-I", Inc});
    return Args;
  };

  ProcessResult A = run(Args("1", false));
  EXPECT_EQ(1, A.ExitCode) << A.Err;
  size_t Findings = 0;
  std::string Report = jsonOf(A);
  for (size_t At = Report.find("\"luisa-butterfly-reduction\""); At != std::string::npos;
       At = Report.find("\"luisa-butterfly-reduction\"", At + 1))
    ++Findings;
  EXPECT_EQ(3u, Findings) << A.Err;
  EXPECT_NE(std::string::npos, A.Out.find("+++ ")) << A.Out;

  std::vector<std::pair<std::string, ProcessResult>> Runs;
  Runs.push_back({"--no-pch -j2", run(Args("2", false))});
  for (const char *Cold : {"2", "1"}) {
    const char *Warm = Cold[0] == '2' ? "1" : "2";
    llvm::sys::fs::remove_directories(Cache);
    Runs.push_back({std::string("cold -j") + Cold, run(Args(Cold, true))});
    // "common.h" for all three; a and c share their whole preamble, b has its own.
    ASSERT_EQ(3u, pchFiles().size()) << Runs.back().second.Err;
    std::vector<llvm::sys::fs::UniqueID> Built;
    for (const std::string &Pch : pchFiles())
      Built.push_back(idOf(Pch));
    Runs.push_back({std::string("warm -j") + Warm, run(Args(Warm, true))});
    for (size_t I = 0; I < Built.size(); ++I)
      EXPECT_EQ(Built[I], idOf(pchFiles()[I])); // Reused, not rebuilt.
  }
  for (const auto &[Name, R] : Runs) {
    EXPECT_EQ(A.ExitCode, R.ExitCode) << Name << "\n" << R.Err;
    EXPECT_EQ(A.Out, R.Out) << Name;
    EXPECT_EQ(Report, jsonOf(R)) << Name;
    // No warning of kernel-tidy or Clang (the JSON report on stderr has severities).
    EXPECT_EQ(std::string::npos, R.Err.find("warning:")) << Name << "\n" << R.Err;
  }
}

// Issue 52, item 1: a CI job restores the cache into a fresh checkout. In
// the same folder (new time stamps, same text) every entry is used as it is;
// in another folder the PCHs whose key holds a path of the first folder (a
// quoted header beside the file) are rebuilt, never used, and the others (the
// library headers' PCH) are used. Reports are byte for byte a plain parse's.
TEST_F(SharedHeaderParse, ARestoredCacheServesAFreshCheckoutExactly) {
  auto Checkout = [&](const std::string &Root, int Seconds) {
    llvm::sys::fs::remove_directories(Root);
    llvm::sys::fs::create_directories(Root);
    writeFile(Root + "/scale.h", "#pragma once\ninline constexpr int kScale = 2;\n");
    std::vector<std::string> Files;
    // The preambles share the library header only: its PCH, and one chained
    // on it per file.
    const char *Preambles[] = {"#include <luisa/luisa-compute.h>\n#include \"scale.h\"\n",
                               "#include <luisa/luisa-compute.h>\n#include <luisa/dsl/sugar.h>\n"
                               "#include \"scale.h\"\n"};
    for (int I = 0; I < 2; ++I) {
      Files.push_back(Root + "/k" + std::to_string(I) + ".cpp");
      writeFile(Files.back(), butterflyFile(Preambles[I], I));
    }
    for (const std::string &File : {Root + "/scale.h", Files[0], Files[1]})
      setTime(File, Seconds);
    Files.insert(Files.begin(), {"--diff", "--unsafe-fixes", "-j", "1"});
    return Files;
  };
  auto Ids = [&] {
    std::map<std::string, llvm::sys::fs::UniqueID> Found;
    for (const std::string &Pch : pchFiles())
      Found[Pch] = idOf(Pch);
    return Found;
  };
  std::vector<std::string> Args = Checkout(Dir + "/a", 0);
  auto Plain = Args;
  Plain.insert(Plain.begin(), "--no-pch");
  ProcessResult Expected = run(Plain);
  EXPECT_NE(std::string::npos, Expected.Out.find("+++ ")) << Expected.Out;
  ProcessResult First = run(Args);
  auto Built = Ids();
  ASSERT_EQ(3u, Built.size()) << First.Err;

  Checkout(Dir + "/a", 100); // Cloned again into the same folder.
  ProcessResult Again = run(Args);
  EXPECT_EQ(Built, Ids()) << "a fresh checkout rebuilt an entry";
  for (const ProcessResult *R : {&First, &Again}) {
    EXPECT_EQ(Expected.ExitCode, R->ExitCode) << R->Err;
    EXPECT_EQ(Expected.Out, R->Out);
    EXPECT_EQ(jsonOf(Expected), jsonOf(*R));
  }

  std::vector<std::string> Moved = Checkout(Dir + "/b", 200); // Another folder.
  // The plain parse's report there: the same, with b's paths.
  auto InB = [&](std::string Text) {
    for (size_t At = Text.find(Dir + "/a/"); At != std::string::npos;
         At = Text.find(Dir + "/a/", At + 1))
      Text.replace(At, Dir.size() + 3, Dir + "/b/");
    return Text;
  };
  ProcessResult MovedExpected = Expected;
  MovedExpected.Out = InB(Expected.Out);
  MovedExpected.Err = InB(Expected.Err);
  ProcessResult MovedRun = run(Moved);
  EXPECT_EQ(MovedExpected.ExitCode, MovedRun.ExitCode) << MovedRun.Err;
  EXPECT_EQ(MovedExpected.Out, MovedRun.Out);
  EXPECT_EQ(jsonOf(MovedExpected), jsonOf(MovedRun));
  auto After = Ids();
  // Folder a's entries are untouched; the library headers' PCH is used, and
  // only the preambles with b's "scale.h" are new.
  EXPECT_EQ(5u, After.size());
  for (const auto &[Pch, Id] : Built)
    EXPECT_EQ(Id, After[Pch]) << Pch;
}

// A single file (a pre-commit hook, an editor's save action) builds the PCH
// on its first run and reuses it on the next ones; the report, fixes
// included, is the plain parse's.
TEST_F(SharedHeaderParse, SingleFileReusesItsPchFromTheCache) {
  std::string File = Dir + "/histogram.cpp";
  writeFile(File, readFile(sourceDir() + "/examples/histogram.cpp"));
  // --target=dx: under the default target its counter's fix is withheld
  // (a divergent $if), and the report must have fixes.
  std::vector<std::string> Args{"--target=dx", "--diff", "--unsafe-fixes", File};
  ProcessResult Plain = run({"--no-pch", "--target=dx", "--diff", "--unsafe-fixes", File});
  EXPECT_TRUE(pchFiles().empty());

  ProcessResult First = run(Args);
  ASSERT_EQ(1u, pchFiles().size()) << First.Err;
  llvm::sys::fs::UniqueID Built = idOf(pchFiles()[0]);
  ProcessResult Second = run(Args);
  EXPECT_EQ(Built, idOf(pchFiles()[0])); // Reused, not rebuilt.
  for (const ProcessResult *R : {&First, &Second}) {
    EXPECT_EQ(Plain.ExitCode, R->ExitCode) << R->Err;
    EXPECT_EQ(Plain.Out, R->Out);
  }
  EXPECT_NE(std::string::npos, Plain.Out.find("+++ ")) << Plain.Out; // It has fixes.
}

// A file that does not compile is parsed again without the PCH and reported
// as a plain parse reports it: the same report, and ClangTool's "Error while
// processing" line once, not once per parse.
TEST_F(SharedHeaderParse, AFileThatDoesNotCompileIsReportedOnceAsByAPlainParse) {
  std::string File = Dir + "/broken.cpp";
  writeFile(File, butterflyFile("#include <luisa/luisa-compute.h>\n", 0) +
                      "void broken() { undeclared_name(); }\n");
  ProcessResult Plain = run({"--no-pch", File, "--", "-DkScale=2"});
  ProcessResult Shared = run({File, "--", "-DkScale=2"});
  ASSERT_EQ(1u, pchFiles().size()) << Shared.Err;
  EXPECT_EQ(2, Plain.ExitCode) << Plain.Err;
  EXPECT_EQ(Plain.ExitCode, Shared.ExitCode);
  EXPECT_EQ(Plain.Out, Shared.Out);
  auto Count = [](const std::string &Text) {
    size_t N = 0;
    for (size_t At = Text.find("Error while processing"); At != std::string::npos;
         At = Text.find("Error while processing", At + 1))
      ++N;
    return N;
  };
  EXPECT_EQ(1u, Count(Plain.Err)) << Plain.Err;
  EXPECT_EQ(1u, Count(Shared.Err)) << Shared.Err;
}

// The header parse skips the bodies of the library's non-template functions
// (LuisaCompute's, the standard library's, system headers'), which no
// analysis enters, and keeps every other body: templates (files instantiate
// them), constexpr functions and deduced return types (Sema needs them), and
// user helpers in headers (the race analysis follows calls into them).
TEST_F(SharedHeaderParse, SkipsOnlyNonTemplateLibraryBodies) {
  std::string Inc = Dir + "/inc";
  llvm::sys::fs::create_directories(Inc);
  writeFile(Inc + "/lib.h", "#pragma once\n"
                            "namespace luisa::compute {\n"
                            "inline int library_plain(int x) { return x + 1; }\n"
                            "template <class T> T library_template(T x) { return x; }\n"
                            "constexpr int library_constexpr() { return 3; }\n"
                            "inline auto library_auto() { return 4; }\n"
                            "struct Library { int member() const { return 5; } };\n"
                            "}\n"
                            "inline int user_helper(int x) { return x * 2; }\n");
  clang::tooling::CompileCommand Command;
  Command.Directory = Dir;
  Command.CommandLine = {"clang++", "-std=c++20", "-I", Inc,
                         "-resource-dir=" KERNEL_TIDY_CLANG_RESOURCE_DIR};
  HeaderCache Store(Cache, DefaultCacheLimit);
  std::string Warning;
  auto Skipping = cachedPrefixPch(Command, {"<lib.h>"}, Store, Warning, nullptr, true);
  auto Keeping = cachedPrefixPch(Command, {"<lib.h>"}, Store, Warning, nullptr, false);
  ASSERT_TRUE(Skipping && Keeping) << Warning;
  EXPECT_NE(Skipping->PchPath, Keeping->PchPath); // Two cache entries.

  // Which functions of the header have a skipped body, as a file sees them.
  auto SkippedBodies = [&](const std::string &Pch) {
    std::vector<std::string> Args = Command.CommandLine;
    Args.erase(Args.begin());
    // The PCH is built as clang-tidy sets up the files it analyses.
    Args.insert(Args.end(), {"-D__clang_analyzer__=1", "-include-pch", Pch});
    std::unique_ptr<clang::ASTUnit> AST = clang::tooling::buildASTFromCodeWithArgs(
        "#include <lib.h>\nint use = luisa::compute::library_plain(1) + user_helper(2) + "
        "luisa::compute::library_template(3) + luisa::compute::library_auto();\n",
        Args, Dir + "/use.cpp");
    if (!AST || AST->getDiagnostics().hasErrorOccurred())
      return std::string("does not compile");
    using namespace clang::ast_matchers;
    std::set<std::string> Names;
    for (const BoundNodes &Node :
         match(functionDecl(isDefinition()).bind("f"), AST->getASTContext()))
      if (const auto *F = Node.getNodeAs<clang::FunctionDecl>("f"); F->hasSkippedBody())
        Names.insert(F->getNameAsString());
    return llvm::join(Names, " ");
  };
  EXPECT_EQ("library_plain member", SkippedBodies(Skipping->PchPath));
  EXPECT_EQ("", SkippedBodies(Keeping->PchPath));

  // A run with a static analyzer check (it inlines library calls) gets a
  // PCH with every body, beside the one of a run without; same report.
  llvm::sys::fs::remove_directories(Cache);
  std::string File = Dir + "/histogram.cpp";
  writeFile(File, readFile(sourceDir() + "/examples/histogram.cpp"));
  ProcessResult Luisa = run({File});
  ASSERT_EQ(1u, pchFiles().size()) << Luisa.Err;
  ProcessResult WithAnalyzer = run({"--checks=-*,luisa-*,clang-analyzer-core.DivideZero", File});
  EXPECT_EQ(2u, pchFiles().size()) << WithAnalyzer.Err;
  EXPECT_EQ(Luisa.ExitCode, WithAnalyzer.ExitCode) << WithAnalyzer.Err;
  EXPECT_EQ(Luisa.Out, WithAnalyzer.Out);
}

// Files compiled in different folders (CMake's per-target build folders)
// share the PCH of their common headers when every path in the command is
// absolute; a relative include path keeps them apart. Reports stay the plain
// parse's.
TEST_F(SharedHeaderParse, FoldersShareHeadersUnlessAPathIsRelative) {
  for (const char *Folder : {"/a", "/b", "/a/inc", "/b/inc"})
    llvm::sys::fs::create_directories(Dir + Folder);
  std::vector<std::string> Files{Dir + "/a/one.cpp", Dir + "/b/two.cpp"};
  writeFile(Files[0], butterflyFile("#include <luisa/luisa-compute.h>\n#include \"scale.h\"\n", 0));
  writeFile(Files[1], butterflyFile("#include <luisa/luisa-compute.h>\n#include \"scale.h\"\n", 1));
  for (const char *Folder : {"/a/inc", "/b/inc", "/inc"}) {
    llvm::sys::fs::create_directories(Dir + Folder);
    writeFile(Dir + Folder + "/scale.h", "#pragma once\ninline constexpr int kScale = 2;\n");
  }
  auto WriteDatabase = [&](const std::string &IncludeDir) {
    std::string Json = "[";
    for (const std::string &File : Files)
      Json += std::string(Json.size() > 1 ? "," : "") + "{\"directory\": \"" +
              llvm::sys::path::parent_path(File).str() + "\", \"file\": \"" + File +
              "\", \"arguments\": [\"clang++\", \"-std=c++20\", \"-isystem\", \"" + modelDir() +
              "\", \"-I\", \"" + IncludeDir + "\", \"-c\", \"" + File + "\"]}";
    writeFile(Dir + "/compile_commands.json", Json + "]");
  };
  auto Check = [&](std::vector<std::string> Extra) {
    std::vector<std::string> Args{"check", "--format", "json", "-p", Dir};
    Args.insert(Args.end(), Extra.begin(), Extra.end());
    Args.insert(Args.end(), Files.begin(), Files.end());
    return runWithCache(Args);
  };

  WriteDatabase(Dir + "/inc");
  ProcessResult Plain = Check({"--no-pch"});
  ProcessResult Shared = Check({});
  // One PCH of the (same) preamble for both folders.
  EXPECT_EQ(1u, pchFiles().size()) << Shared.Err;
  EXPECT_EQ(1, Plain.ExitCode) << Plain.Err;
  EXPECT_EQ(Plain.ExitCode, Shared.ExitCode) << Shared.Err;
  EXPECT_EQ(Plain.Out, Shared.Out);
  EXPECT_NE(std::string::npos, Plain.Out.find("\"luisa-butterfly-reduction\"")) << Plain.Out;

  // "inc" names a different folder from each compile directory.
  llvm::sys::fs::remove_directories(Cache);
  WriteDatabase("inc");
  ProcessResult RelativePlain = Check({"--no-pch"});
  ProcessResult RelativeShared = Check({});
  EXPECT_EQ(2u, pchFiles().size()) << RelativeShared.Err;
  EXPECT_EQ(RelativePlain.Out, RelativeShared.Out);
  EXPECT_EQ(1, RelativeShared.ExitCode) << RelativeShared.Err;
}

} // namespace
} // namespace kernel_tidy::test
