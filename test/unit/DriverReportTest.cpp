//===--- DriverReportTest.cpp - Fix reasons and verified fixes in reports -===//
//
// A test-only clang-tidy check speaks the rules' diagnostic protocol (safe
// fix on the warning, unsafe fix on an "unsafe fix: REASON" note, "no
// automatic fix: REASON" note, plain notes), so that the Analyzer's parsing
// of it and the three report formats are tested before every rule uses all
// of it. Its name does not match luisa-*: only tests that ask for it run it.
//
//===----------------------------------------------------------------------===//

#include "src/driver/CiFormats.h"
#include "src/driver/FixApplier.h"
#include "src/driver/ParallelRun.h"
#include "src/driver/Report.h"
#include "src/driver/Sarif.h"
#include "test/unit/TestSupport.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyModuleRegistry.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/Support/FileSystem.h"
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace clang;
using namespace clang::ast_matchers;

namespace kernel_tidy::test {
namespace {

/// Reports the variables `safe`, `unsafe`, `no_fix` and `broken` the way the
/// rules report findings of each kind; `broken` gets a safe fix that does not
/// compile.
class ProtocolCheck : public tidy::ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  void registerMatchers(MatchFinder *Finder) override {
    Finder->addMatcher(varDecl(hasAnyName("safe", "unsafe", "no_fix", "broken")).bind("v"), this);
  }
  void check(const MatchFinder::MatchResult &Result) override {
    const auto *Var = Result.Nodes.getNodeAs<VarDecl>("v");
    SourceLocation Loc = Var->getLocation();
    StringRef Name = Var->getName();
    auto Rename = FixItHint::CreateReplacement(Loc, Name.str() + "_fixed");
    if (Name == "safe") {
      diag(Loc, "safe finding") << Rename;
    } else if (Name == "unsafe") {
      diag(Loc, "unsafe finding");
      diag(Loc, "%0", DiagnosticIDs::Note)
          << fix_protocol::unsafeFixNote("it may round differently") << Rename;
      diag(Loc, "a plain note", DiagnosticIDs::Note);
    } else if (Name == "no_fix") {
      diag(Loc, "finding without a fix");
      diag(Loc, "%0", DiagnosticIDs::Note) << fix_protocol::noFixNote("the width is unknown");
      diag(Loc, "a plain note", DiagnosticIDs::Note);
    } else {
      diag(Loc, "finding with a broken fix")
          << FixItHint::CreateReplacement(Var->getInit()->getSourceRange(), "no_such_function()");
    }
  }
};

class ProtocolModule : public tidy::ClangTidyModule {
public:
  void addCheckFactories(tidy::ClangTidyCheckFactories &Factories) override {
    Factories.registerCheck<ProtocolCheck>("kernel-tidy-test-protocol");
  }
};

tidy::ClangTidyModuleRegistry::Add<ProtocolModule>
    RegisterProtocol("kernel-tidy-test-protocol", "Test-only check of the note protocol");

class DriverReport : public ::testing::Test {
protected:
  void SetUp() override {
    Dir = makeTempDir();
    File = Dir + "/k.cpp";
    AnalysisOptions Options;
    Options.Checks = "-*,kernel-tidy-test-protocol";
    Checker = modelAnalyzer(Options);
    ASSERT_TRUE(Checker);
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  FileResult analyze(const std::string &Source) {
    writeFile(File, Source);
    return Checker->analyze(File);
  }
  const Finding &find(const FileResult &R, const std::string &Message) {
    for (const Finding &F : R.Findings)
      if (F.Message == Message)
        return F;
    ADD_FAILURE() << "no finding '" << Message << "'";
    static Finding None;
    return None;
  }
  std::string Dir, File;
  std::unique_ptr<Analyzer> Checker;
};

TEST_F(DriverReport, NotesBecomeTypedApplicabilityAndReasons) {
  FileResult R = analyze("int safe = 1;\nint unsafe = 2;\nint no_fix = 3;\n");
  ASSERT_TRUE(R.Errors.empty()) << R.Errors[0].Message;
  ASSERT_EQ(3u, R.Findings.size());

  const Finding &Safe = find(R, "safe finding");
  ASSERT_TRUE(Safe.FixIt);
  EXPECT_EQ(Applicability::Safe, Safe.FixIt->Kind);
  EXPECT_EQ("", Safe.FixIt->Reason);
  EXPECT_EQ("", Safe.NoFixReason);
  EXPECT_TRUE(Safe.Notes.empty());

  const Finding &Unsafe = find(R, "unsafe finding");
  ASSERT_TRUE(Unsafe.FixIt);
  EXPECT_EQ(Applicability::Unsafe, Unsafe.FixIt->Kind);
  EXPECT_EQ("it may round differently", Unsafe.FixIt->Reason);
  ASSERT_EQ(1u, Unsafe.FixIt->Edits.size());
  EXPECT_EQ("unsafe_fixed", Unsafe.FixIt->Edits[0].Replacement);
  ASSERT_EQ(1u, Unsafe.Notes.size()) << "the unsafe-fix note is not a plain note";
  EXPECT_EQ("a plain note", Unsafe.Notes[0].Message);

  const Finding &NoFix = find(R, "finding without a fix");
  EXPECT_FALSE(NoFix.FixIt);
  EXPECT_EQ("the width is unknown", NoFix.NoFixReason);
  ASSERT_EQ(1u, NoFix.Notes.size()) << "the no-fix note is not a plain note";
  EXPECT_EQ("a plain note", NoFix.Notes[0].Message);
}

TEST_F(DriverReport, EveryFormatCarriesTheReasons) {
  FileResult R = analyze("int unsafe = 2;\nint no_fix = 3;\n");
  ASSERT_EQ(2u, R.Findings.size());
  std::vector<FileResult> Results{R};

  std::string Text = formatText(Results);
  EXPECT_NE(std::string::npos,
            Text.find(File + ":1:5: note: unsafe fix (applied only with --unsafe-fixes): it may "
                             "round differently\n"))
      << Text;
  EXPECT_NE(std::string::npos,
            Text.find(File + ":2:5: note: no automatic fix: the width is unknown\n"))
      << Text;

  auto Json = nlohmann::json::parse(formatJson(Results, "0"));
  const auto &Unsafe = Json["diagnostics"][0];
  EXPECT_EQ("unsafe", Unsafe["fix"]["applicability"]);
  EXPECT_EQ("it may round differently", Unsafe["fix"]["reason"]);
  EXPECT_TRUE(Unsafe["no_fix_reason"].is_null());
  const auto &NoFix = Json["diagnostics"][1];
  EXPECT_TRUE(NoFix["fix"].is_null());
  EXPECT_EQ("the width is unknown", NoFix["no_fix_reason"]);
  EXPECT_EQ(1u, NoFix["notes"].size());

  auto Sarif = nlohmann::json::parse(formatSarif(Results, {"0", Dir, Dir}));
  const auto &SarifResults = Sarif["runs"][0]["results"];
  ASSERT_EQ(2u, SarifResults.size());
  const auto &Fix = SarifResults[0]["fixes"][0];
  EXPECT_EQ("Unsafe fix (applied only with --unsafe-fixes): it may round differently",
            Fix["description"]["text"]);
  EXPECT_EQ("unsafe", Fix["properties"]["applicability"]);
  EXPECT_EQ("it may round differently", Fix["properties"]["reason"]);
  EXPECT_FALSE(SarifResults[1].contains("fixes"));
  EXPECT_EQ("the width is unknown", SarifResults[1]["properties"]["noFixReason"]);
}

/// SARIF help.markdown is the rule page with its relative links made absolute
/// against the docs (a viewer has nothing to resolve them against); code and
/// URLs are not links to rewrite, and help.text stays the page itself.
TEST(SarifHelp, RelativeLinksOfTheRulePagesPointAtTheDocs) {
  std::string Docs = makeTempDir();
  llvm::sys::fs::create_directories(Docs + "/rules");
  const std::string Page =
      "# luisa-butterfly-reduction\n"
      "See [the harness](../gpu-harness.md), [lowering](../backends.md#cuda),\n"
      "[a rule](luisa-divergent-barrier.md), [below](#fix) and [LC](https://x.org/a.md).\n"
      "A span `s[i](j)` and a fence:\n"
      "```cpp\n"
      "auto k = [&](BufferFloat b) {};\n"
      "```\n";
  writeFile(Docs + "/rules/luisa-butterfly-reduction.md", Page);
  auto Help = [&](const std::string &Base) {
    auto Log = nlohmann::json::parse(formatSarif({}, {"0", Docs, Docs + "/rules", Base}));
    for (const auto &Rule : Log["runs"][0]["tool"]["driver"]["rules"])
      if (Rule["id"] == "luisa-butterfly-reduction")
        return Rule["help"];
    return nlohmann::json();
  };
  nlohmann::json Web = Help("https://example.org/kt/docs/");
  EXPECT_EQ(Page, Web["text"]);
  EXPECT_EQ("# luisa-butterfly-reduction\n"
            "See [the harness](https://example.org/kt/docs/gpu-harness.md), "
            "[lowering](https://example.org/kt/docs/backends.md#cuda),\n"
            "[a rule](https://example.org/kt/docs/rules/luisa-divergent-barrier.md), "
            "[below](#fix) and [LC](https://x.org/a.md).\n"
            "A span `s[i](j)` and a fence:\n"
            "```cpp\n"
            "auto k = [&](BufferFloat b) {};\n"
            "```\n",
            Web["markdown"]);
  std::string Local = Help(Docs)["markdown"];
  EXPECT_NE(std::string::npos, Local.find("[the harness](file://" + Docs + "/gpu-harness.md)"))
      << Local;
  EXPECT_EQ(Page, Help("")["markdown"]) << "no docs: links are kept";
  llvm::sys::fs::remove_directories(Docs);
}

/// Issue 49, item 12: report paths relative to --sarif-root. A file in the
/// root named through a symbolic link (or a root named through one) is in
/// it; a file outside it is an absolute file:// URI without uriBaseId in
/// SARIF (a uriBaseId only goes with a relative reference, and "../" is
/// discouraged by the SARIF committee) and an absolute path in the others.
TEST(ReportPaths, LinkedFilesInTheRootAreRelativeOthersAbsolute) {
  std::string Dir = makeTempDir();
  llvm::sys::fs::create_directories(Dir + "/repo/src");
  llvm::sys::fs::create_directories(Dir + "/other");
  ASSERT_FALSE(llvm::sys::fs::create_link(Dir + "/repo", Dir + "/link"));
  const std::string Text = "int x;\n";
  writeFile(Dir + "/repo/src/k.cpp", Text);
  writeFile(Dir + "/other/o k.cpp", Text);
  auto ResultFor = [&](const std::string &File) {
    FileResult R{File, Text};
    Finding F{"luisa-divergent-barrier", "m", File, {4, 1, 5}, {5, 1, 6}};
    F.FixIt = Fix{Applicability::Safe, "", {Edit{File, {4, 1, 5}, {5, 1, 6}, "y"}}};
    R.Findings.push_back(F);
    return R;
  };
  auto SarifLocations = [&](const std::vector<FileResult> &Results, const std::string &Root) {
    auto Log = nlohmann::json::parse(formatSarif(Results, {"0", Root, Root}));
    std::vector<nlohmann::json> Locations;
    for (const auto &Result : Log["runs"][0]["results"]) {
      Locations.push_back(Result["locations"][0]["physicalLocation"]["artifactLocation"]);
      EXPECT_EQ(Locations.back(), Result["fixes"][0]["artifactChanges"][0]["artifactLocation"]);
    }
    return Locations;
  };
  const nlohmann::json InRoot = {{"uri", "src/k.cpp"}, {"uriBaseId", "%SRCROOT%"}};
  const nlohmann::json Outside = {{"uri", "file://" + Dir + "/other/o%20k.cpp"}};
  std::vector<FileResult> ThroughLink{ResultFor(Dir + "/link/src/k.cpp"),
                                      ResultFor(Dir + "/other/o k.cpp")};
  EXPECT_EQ((std::vector<nlohmann::json>{InRoot, Outside}),
            SarifLocations(ThroughLink, Dir + "/repo"));
  std::vector<FileResult> Real{ResultFor(Dir + "/repo/src/k.cpp")};
  EXPECT_EQ(std::vector<nlohmann::json>{InRoot}, SarifLocations(Real, Dir + "/link"))
      << "the root named through a link";

  std::string Github = formatGithub(ThroughLink, Dir + "/repo");
  EXPECT_NE(std::string::npos, Github.find("::warning file=src/k.cpp,line=1,")) << Github;
  EXPECT_NE(std::string::npos, Github.find("::warning file=" + Dir + "/other/o k.cpp,line=1,"))
      << Github;
  auto Gitlab = nlohmann::json::parse(formatGitlab(ThroughLink, Dir + "/repo"));
  EXPECT_EQ("src/k.cpp", Gitlab[0]["location"]["path"]);
  EXPECT_EQ(Dir + "/other/o k.cpp", Gitlab[1]["location"]["path"]);
  llvm::sys::fs::remove_directories(Dir);
}

/// Issue 50, item 11: the reports for people (text, JUnit) name a header as
/// the analysis spelled it; JSON and the edits keep the path it is kept by.
TEST(ReportPaths, HeadersAreNamedAsTheAnalysisSpelledThem) {
  const std::string Header = "/nowhere/inc/k.h";
  FileResult R{"a.cpp", "#include \"k.h\"\n"};
  R.OtherTexts[Header] = "int x;\n";
  R.Spellings[Header] = "inc/k.h";
  Finding F{"luisa-divergent-barrier", "m", Header, {4, 1, 5}, {5, 1, 6}};
  F.Notes.push_back({"here", Header, {0, 1, 1}});
  R.Findings.push_back(F);
  std::vector<FileResult> Results{R};
  EXPECT_EQ("inc/k.h:1:5: warning: m [luisa-divergent-barrier]\n"
            "    1 | int x;\n"
            "      |     ^\n"
            "inc/k.h:1:1: note: here\n"
            "    1 | int x;\n"
            "      | ^\n",
            formatText(Results));
  std::string Junit = formatJunit(Results);
  EXPECT_NE(std::string::npos, Junit.find("classname=\"inc/k.h\"")) << Junit;
  EXPECT_NE(std::string::npos, Junit.find(">inc/k.h:1:5: warning: m")) << Junit;
  auto Json = nlohmann::json::parse(formatJson(Results, "0"));
  EXPECT_EQ(Header, Json["diagnostics"][0]["file"]);
}

TEST_F(DriverReport, AFixThatDoesNotCompileIsReportedAsNoFixWithTheError) {
  FileResult R = analyze("int safe = 1;\nint broken = 2;\n");
  ASSERT_EQ(2u, R.Findings.size());
  verifyFixes(R, *Checker);
  const Finding &Safe = find(R, "safe finding");
  ASSERT_TRUE(Safe.FixIt) << "a fix that compiles stays";
  EXPECT_EQ("", Safe.NoFixReason);
  const Finding &Broken = find(R, "finding with a broken fix");
  EXPECT_FALSE(Broken.FixIt);
  EXPECT_NE(std::string::npos,
            Broken.NoFixReason.find("the fix was dropped because the fixed file does not "
                                    "compile: use of undeclared identifier 'no_such_function'"))
      << Broken.NoFixReason;

  std::vector<FileResult> Results{R};
  auto Json = nlohmann::json::parse(formatJson(Results, "0"));
  EXPECT_EQ(1u, Json["summary"]["fixable"]) << "only the fix that compiles";
  EXPECT_TRUE(Json["diagnostics"][1]["fix"].is_null());
  std::string Text = formatText(Results);
  EXPECT_NE(std::string::npos, Text.find(File + ":2:5: note: no automatic fix: the fix was "
                                                "dropped because"))
      << Text;
  EXPECT_NE(std::string::npos,
            Text.find("    1 | int safe = 1;\n      |     ^~~~\n      |     safe_fixed\n"))
      << Text;

  // --fix applies the fix that compiles, and says nothing more of the other.
  applyFixes(R, *Checker, /*IncludeUnsafe=*/false);
  EXPECT_EQ(1u, R.FixedCount);
  EXPECT_EQ("int safe_fixed = 1;\nint broken = 2;\n", R.Fixed.value_or(""));
  EXPECT_TRUE(R.FixNotes.empty());
}

TEST_F(DriverReport, AFileRemovedDuringTheRunIsAnErrorNotAFixThatDoesNotCompile) {
  FileResult R = analyze("int safe = 1;\n");
  ASSERT_EQ(1u, R.Findings.size());
  llvm::sys::fs::remove_directories(Dir);
  applyFixes(R, *Checker, /*IncludeUnsafe=*/false);
  EXPECT_FALSE(R.Fixed) << "nothing to write for a file that is gone";
  ASSERT_EQ(1u, R.Errors.size());
  EXPECT_EQ("the file was removed during the run", R.Errors[0].Message);
  ASSERT_TRUE(R.Findings[0].FixIt) << "the fix was not judged, so it is not dropped";
  EXPECT_EQ("", R.Findings[0].NoFixReason);
  EXPECT_TRUE(R.FixNotes.empty());
}

TEST(ParallelRun, InOrderSeesEveryFileOnceInFileOrderAsSoonAsItsTurnComes) {
  std::string Dir = makeTempDir();
  std::vector<std::string> Files;
  for (int I = 0; I < 6; ++I) {
    Files.push_back(Dir + "/f" + std::to_string(I) + ".cpp");
    // Uneven sizes, so that the two workers finish out of order.
    std::string Source;
    for (int Line = 0; Line < (I % 2 ? 400 : 1); ++Line)
      Source += "int v" + std::to_string(Line) + " = " + std::to_string(Line) + ";\n";
    writeFile(Files.back(), Source + "int safe = 1;\n");
  }
  AnalysisOptions Options;
  Options.Checks = "-*,kernel-tidy-test-protocol";
  Options.ForceBundledModel = true;
  Options.ModelDir = modelDir();
  Options.ResourceDir = KERNEL_TIDY_CLANG_RESOURCE_DIR;
  Options.Pch = PchMode::Off;
  ParallelRunOptions Run;
  Run.Jobs = 2;
  std::vector<size_t> Order;
  size_t Completed = 0;
  Run.OnProgress = [&](size_t Done, size_t) { Completed = Done; };
  Run.InOrder = [&](size_t Index, const FileResult &R) {
    EXPECT_EQ(Files[Index], R.File);
    EXPECT_EQ(1u, R.Findings.size()) << "called after the analysis";
    EXPECT_LE(Order.size(), Completed) << "never before the files up to it are done";
    Order.push_back(Index);
  };
  std::string Error;
  auto Results = analyzeFiles(Files, Options, Run, Error);
  ASSERT_TRUE(Results) << Error;
  EXPECT_EQ((std::vector<size_t>{0, 1, 2, 3, 4, 5}), Order);
  llvm::sys::fs::remove_directories(Dir);
}

} // namespace
} // namespace kernel_tidy::test
