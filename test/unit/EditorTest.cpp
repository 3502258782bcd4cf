//===--- EditorTest.cpp - kernel-clangd and the clang-tidy plugin ---------===//
//
// Real clients: an LSP conversation with kernel-clangd over stdio, and
// Debian's clang-tidy-19 loading libKernelTidyPlugin.so. Both must give the
// fixes of the kernel-tidy CLI.
//
//===----------------------------------------------------------------------===//

#include "test/unit/LspClient.h"
#include "rules/RuleRegistry.h"
#include "test/unit/Fixture.h"
#include "test/unit/TestSupport.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>

namespace kernel_tidy::test {
namespace {

using Json = nlohmann::json;
using std::chrono::seconds;

const char *SafeCase = "/test/fixtures/luisa-butterfly-reduction/max-straight-line";
const char *UnsafeCase = "/test/fixtures/luisa-butterfly-reduction/sum-float-explicit-add-unsafe";

/// clangd configuration that runs the kernel-tidy checks (docs/editors.md);
/// clangd's default `FastCheckFilter: Strict` keeps them.
const char *ClangdConfig = "Diagnostics:\n"
                           "  ClangTidy:\n"
                           "    Add: [luisa-*]\n";

class KernelClangd : public ::testing::Test {
protected:
  void SetUp() override {
    Dir = makeTempDir();
    // The user's clangd config must not leak in: XDG_CONFIG_HOME is ours.
    llvm::sys::fs::create_directories(Dir + "/xdg/clangd");
    llvm::sys::fs::create_directories(Dir + "/project");
    writeFile(Dir + "/project/.clangd", ClangdConfig);
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  std::unique_ptr<LspClient> start() {
    return std::make_unique<LspClient>(
        std::vector<std::string>{KERNEL_CLANGD_BINARY, "--background-index=false", "--log=verbose",
                                 "-j=2"},
        std::vector<std::string>{"XDG_CONFIG_HOME=" + Dir + "/xdg"}, Dir + "/clangd.log");
  }
  std::string log() { return readFile(Dir + "/clangd.log"); }

  /// The initialize handshake; the client sends no fallbackFlags, so the
  /// file is parsed with kernel-clangd's bundled model.
  void initialize(LspClient &Client) {
    Json Caps;
    Caps["textDocument"]["publishDiagnostics"]["versionSupport"] = true;
    Caps["textDocument"]["publishDiagnostics"]["codeDescriptionSupport"] = true;
    Caps["textDocument"]["codeAction"]["codeActionLiteralSupport"]["codeActionKind"]["valueSet"] = {
        "quickfix"};
    int Id = Client.request(
        "initialize",
        {{"processId", nullptr}, {"rootUri", fileUri(Dir + "/project")}, {"capabilities", Caps}});
    auto Reply = Client.response(Id, seconds(60));
    ASSERT_TRUE(Reply) << log();
    ASSERT_TRUE((*Reply).contains("result")) << Reply->dump();
    Client.notify("initialized", Json::object());
  }

  /// The publishDiagnostics for \p Uri at \p Version.
  std::optional<Json> diagnostics(LspClient &Client, const std::string &Uri, int Version) {
    return Client.waitFor(
        [&](const Json &M) {
          return M.value("method", "") == "textDocument/publishDiagnostics" &&
                 M["params"]["uri"] == Uri && M["params"].value("version", -1) == Version;
        },
        seconds(120));
  }

  static std::vector<Json> ruleDiagnostics(const Json &Publish, const std::string &Rule) {
    std::vector<Json> Found;
    for (const Json &D : Publish["params"]["diagnostics"])
      if (D.value("code", "") == Rule)
        Found.push_back(D);
    return Found;
  }

  std::string Dir;
};

TEST(KernelClangdCommandLine, VersionAndHelpNameKernelClangdAndItsModelOption) {
  std::string Dir = makeTempDir(), Out = Dir + "/out";
  auto Run = [&](llvm::StringRef Flag) {
    std::vector<llvm::StringRef> Args{KERNEL_CLANGD_BINARY, Flag};
    std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef("/dev/null"),
                                                  llvm::StringRef(Out), llvm::StringRef(Out)};
    EXPECT_EQ(0,
              llvm::sys::ExecuteAndWait(KERNEL_CLANGD_BINARY, Args, std::nullopt, Redirects, 60));
    return readFile(Out);
  };
  std::string Version = Run("--version");
  EXPECT_EQ(0u, Version.find("kernel-clangd ")) << Version;
  EXPECT_NE(std::string::npos, Version.find("clangd version 19")) << "clangd's own line follows";
  std::string Help = Run("--help");
  EXPECT_EQ(0u, Help.find("kernel-clangd ")) << Help;
  EXPECT_NE(std::string::npos, Help.find("--kernel-tidy-model=<dir>")) << Help;
  EXPECT_NE(std::string::npos, Help.find("USAGE: kernel-clangd")) << "clangd's help follows";
  llvm::sys::fs::remove_directories(Dir);
}

TEST_F(KernelClangd, QuickFixEqualsCliFixWithoutCompileDatabase) {
  std::string File = Dir + "/project/k.cpp";
  std::string Source = fixtureInput(sourceDir() + SafeCase + ".cpp");
  writeFile(File, Source);
  // What the CLI's --fix makes of the same file.
  std::string CliCopy = Dir + "/cli.cpp";
  writeFile(CliCopy, Source);
  ProcessResult Cli = runKernelTidy({"check", "--fix", CliCopy});
  ASSERT_EQ(0, Cli.ExitCode) << Cli.Out << Cli.Err;
  std::string CliFixed = readFile(CliCopy);
  ASSERT_NE(Source, CliFixed);

  auto Client = start();
  ASSERT_TRUE(Client->running());
  initialize(*Client);
  std::string Uri = fileUri(File);
  Client->notify(
      "textDocument/didOpen",
      {{"textDocument", {{"uri", Uri}, {"languageId", "cpp"}, {"version", 1}, {"text", Source}}}});
  auto Published = diagnostics(*Client, Uri, 1);
  ASSERT_TRUE(Published) << log();
  for (const Json &D : (*Published)["params"]["diagnostics"])
    EXPECT_NE(1, D.value("severity", 0)) << "an error: the model was not used\n" << D.dump();
  std::vector<Json> Found = ruleDiagnostics(*Published, "luisa-butterfly-reduction");
  ASSERT_EQ(1u, Found.size()) << Published->dump() << "\n" << log();
  // Linked to the rule's page in the installed docs, not to clang-tidy's
  // site, which has no page for it (issue 50, item 2).
  std::string Href = Found[0]["codeDescription"].value("href", "");
  EXPECT_EQ(0u, Href.find("file:///")) << Href;
  EXPECT_TRUE(llvm::StringRef(Href).ends_with("/docs/rules/luisa-butterfly-reduction.md")) << Href;
  EXPECT_EQ(11, Found[0]["range"]["start"]["line"]) << "line 12, 0-based";
  EXPECT_EQ("clang-tidy", Found[0].value("source", ""));
  EXPECT_NE(std::string::npos,
            Found[0]["message"].get<std::string>().find("a single warp_active_max(m)"))
      << Found[0].dump();

  int Id = Client->request(
      "textDocument/codeAction",
      {{"textDocument", {{"uri", Uri}}},
       {"range", Found[0]["range"]},
       {"context", {{"diagnostics", Json::array({Found[0]})}, {"only", {"quickfix"}}}}});
  auto Actions = Client->response(Id, seconds(60));
  ASSERT_TRUE(Actions) << log();
  const Json *QuickFix = nullptr;
  for (const Json &A : (*Actions)["result"])
    if (A.value("kind", "") == "quickfix" && A.contains("edit"))
      QuickFix = &A;
  ASSERT_TRUE(QuickFix) << Actions->dump();
  // A safe fix is the one an editor's "apply preferred fixes" takes.
  EXPECT_TRUE(QuickFix->value("isPreferred", false)) << Actions->dump();
  std::string Fixed = applyWorkspaceEdit(Source, (*QuickFix)["edit"], Uri);
  EXPECT_EQ(CliFixed, Fixed);
  EXPECT_EQ(readFile(sourceDir() + SafeCase + ".fixed.cpp"), Fixed);

  Client->notify("textDocument/didChange", {{"textDocument", {{"uri", Uri}, {"version", 2}}},
                                            {"contentChanges", Json::array({{{"text", Fixed}}})}});
  auto After = diagnostics(*Client, Uri, 2);
  ASSERT_TRUE(After) << log();
  EXPECT_TRUE(ruleDiagnostics(*After, "luisa-butterfly-reduction").empty()) << After->dump();
  for (const Json &D : (*After)["params"]["diagnostics"])
    EXPECT_NE(1, D.value("severity", 0)) << D.dump();

  auto Shutdown = Client->response(Client->request("shutdown", nullptr), seconds(60));
  ASSERT_TRUE(Shutdown) << log();
  EXPECT_TRUE(Shutdown->contains("result")) << Shutdown->dump();
  Client->notify("exit", nullptr);
  EXPECT_EQ(0, Client->waitExit(seconds(60))) << log();
}

TEST_F(KernelClangd, FastCheckFilterKeepsTheKernelTidyChecksAndClangdsVerdictOnOthers) {
  // misc-const-correctness is on clangd's list of slow checks: Strict (the
  // default) and Loose drop it, None runs it; the luisa checks run in all three.
  std::string Source = fixtureInput(sourceDir() + SafeCase + ".cpp") +
                       "int constCandidate() {\n  int Value = 1;\n  return Value;\n}\n";
  std::map<std::string, std::string> Filters{{"default", ""},
                                             {"loose", "    FastCheckFilter: Loose\n"},
                                             {"none", "    FastCheckFilter: None\n"}};
  for (const auto &[Name, Line] : Filters) {
    llvm::sys::fs::create_directories(Dir + "/project/" + Name);
    writeFile(Dir + "/project/" + Name + "/.clangd",
              // A glob, not the plain name: for a plain name clangd's config compiler
              // looks the check up in a StringMap whose allocator ASan reports as
              // poisoned when the sanitized build links Debian's clangd.
              "Diagnostics:\n  ClangTidy:\n    Add: [luisa-*, misc-const-correctnes*]\n" + Line);
    writeFile(Dir + "/project/" + Name + "/k.cpp", Source);
  }
  auto Client = start();
  initialize(*Client);
  for (const auto &[Name, Line] : Filters) {
    std::string Uri = fileUri(Dir + "/project/" + Name + "/k.cpp");
    Client->notify("textDocument/didOpen",
                   {{"textDocument",
                     {{"uri", Uri}, {"languageId", "cpp"}, {"version", 1}, {"text", Source}}}});
    auto Published = diagnostics(*Client, Uri, 1);
    ASSERT_TRUE(Published) << Name << "\n" << log();
    EXPECT_EQ(1u, ruleDiagnostics(*Published, "luisa-butterfly-reduction").size())
        << Name << "\n"
        << Published->dump();
    EXPECT_EQ(Name == "none", !ruleDiagnostics(*Published, "misc-const-correctness").empty())
        << Name << "\n"
        << Published->dump();
  }
  Client->notify("exit", nullptr);
  Client->waitExit(seconds(60));
}

/// The unsafe fix is one code action away, not preferred (an editor's
/// fix-all must not change rounding), and the diagnostic says why.
TEST_F(KernelClangd, UnsafeNoteFixIsOfferedNotPreferredWithItsReason) {
  std::string File = Dir + "/project/k.cpp";
  std::string Source = fixtureInput(sourceDir() + UnsafeCase + ".cpp");
  writeFile(File, Source);
  auto Client = start();
  initialize(*Client);
  std::string Uri = fileUri(File);
  Client->notify(
      "textDocument/didOpen",
      {{"textDocument", {{"uri", Uri}, {"languageId", "cpp"}, {"version", 1}, {"text", Source}}}});
  auto Published = diagnostics(*Client, Uri, 1);
  ASSERT_TRUE(Published) << log();
  std::vector<Json> Found = ruleDiagnostics(*Published, "luisa-butterfly-reduction");
  ASSERT_EQ(1u, Found.size()) << Published->dump();
  // The client has no relatedInformation support: clangd writes the notes
  // into the message.
  EXPECT_NE(std::string::npos,
            Found[0]["message"].get<std::string>().find(
                "note: unsafe fix: warp_active_sum combines the floating-point values in "
                "another order, so the result can differ by rounding"))
      << Found[0].dump();
  // As an editor asks for the actions of the finding's line: with every
  // diagnostic there, which for this client includes the unsafe-fix note as
  // a diagnostic of its own (issue 50, item 7: clangd offered its fix twice).
  Json OnTheLine = Json::array();
  int Line = Found[0]["range"]["start"]["line"];
  for (const Json &D : (*Published)["params"]["diagnostics"])
    if (D["range"]["start"]["line"] <= Line && Line <= D["range"]["end"]["line"])
      OnTheLine.push_back(D);
  EXPECT_EQ(2u, OnTheLine.size()) << Published->dump();
  int Id =
      Client->request("textDocument/codeAction", {{"textDocument", {{"uri", Uri}}},
                                                  {"range",
                                                   {{"start", {{"line", Line}, {"character", 0}}},
                                                    {"end", {{"line", Line}, {"character", 0}}}}},
                                                  {"context", {{"diagnostics", OnTheLine}}}});
  auto Actions = Client->response(Id, seconds(60));
  ASSERT_TRUE(Actions) << log();
  std::vector<std::string> Results;
  for (const Json &A : (*Actions)["result"])
    if (A.contains("edit")) {
      Results.push_back(applyWorkspaceEdit(Source, A["edit"], Uri));
      EXPECT_EQ(0u, A.value("title", "").find("unsafe fix: ")) << A.dump();
      EXPECT_FALSE(A.value("isPreferred", true)) << A.dump();
    }
  // clangd surfaces the fix of the note as the warning's quick fix; it is the
  // CLI's --fix --unsafe-fixes result.
  ASSERT_EQ(1u, Results.size()) << Actions->dump();
  EXPECT_EQ(readFile(sourceDir() + UnsafeCase + ".fixed.cpp"), Results[0]);
  Client->request("shutdown", nullptr);
  Client->notify("exit", nullptr);
  EXPECT_EQ(0, Client->waitExit(seconds(60))) << log();
}

/// Runs Debian's clang-tidy-19 with the plugin; returns its exit code.
int runClangTidy(std::vector<std::string> Args, std::string *Out = nullptr) {
  std::string Dir = makeTempDir();
  std::string OutPath = Dir + "/out";
  std::vector<llvm::StringRef> Argv{KERNEL_TIDY_CLANG_TIDY, "--load", KERNEL_TIDY_PLUGIN};
  for (const std::string &A : Args)
    Argv.push_back(A);
  std::optional<llvm::StringRef> Redirects[] = {std::nullopt, llvm::StringRef(OutPath),
                                                llvm::StringRef(OutPath)};
  int Code = llvm::sys::ExecuteAndWait(KERNEL_TIDY_CLANG_TIDY, Argv, std::nullopt, Redirects,
                                       /*SecondsToWait=*/300);
  if (Out)
    *Out = readFile(OutPath);
  llvm::sys::fs::remove_directories(Dir);
  return Code;
}

std::vector<std::string> modelArgs() {
  std::vector<std::string> Args = modelCompileArgs();
  Args.insert(Args.begin(), "--");
  return Args;
}

/// modelArgs() with the model's headers precompiled: clang-tidy then reads
/// them from the PCH instead of parsing them for every fixture.
std::vector<std::string> modelArgsWithPch() {
  std::vector<std::string> Args = modelArgs();
  std::string Pch = modelPch();
  if (!Pch.empty())
    Args.insert(Args.end(), {"-include-pch", Pch});
  return Args;
}

/// A plugin built with the sanitizers cannot load into Debian's
/// uninstrumented clang-tidy-19 (the ASan runtime must come first).
#ifdef KERNEL_TIDY_SANITIZED
constexpr bool PluginIsSanitized = true;
#else
constexpr bool PluginIsSanitized = false;
#endif

TEST(ClangTidyPlugin, ListsTheChecks) {
  if (PluginIsSanitized)
    GTEST_SKIP() << "sanitized plugin: not loadable by clang-tidy-19";
  std::string Out;
  ASSERT_EQ(0, runClangTidy({"--checks=-*,luisa-*", "--list-checks"}, &Out)) << Out;
  for (const rules::RuleInfo &Rule : rules::allRules())
    if (Rule.Language == "C++") // The CuTe DSL rules are Python, run by the CLI only.
      EXPECT_NE(std::string::npos, Out.find(Rule.Id.str())) << Out;
}

/// Fixtures through `clang-tidy --fix` and the CLI's `--fix`, each on
/// its own copy; the texts must be equal. With --fix-notes (clang-tidy) and
/// --unsafe-fixes (CLI), the result is the fixture's .fixed.cpp.
TEST(ClangTidyPlugin, FixGivesTheCliFix) {
  if (PluginIsSanitized)
    GTEST_SKIP() << "sanitized plugin: not loadable by clang-tidy-19";
  std::string Dir = makeTempDir();
  llvm::sys::fs::create_directories(Dir + "/tidy");
  llvm::sys::fs::create_directories(Dir + "/cli");
  llvm::sys::fs::create_directories(Dir + "/notes");
  std::vector<std::pair<std::string, std::string>> Cases; // name, fixed text
  // Per rule: its first case with a safe fix, with an unsafe fix, and without
  // a fix (FixtureTest runs every fixture through the CLI's engine).
  for (const rules::RuleInfo &Rule : rules::allRules()) {
    if (Rule.Language != "C++")
      continue; // clang-tidy does not read Python.
    bool HaveSafe = false, HaveUnsafe = false, HaveNone = false;
    for (const std::string &File : fixtureFiles()) {
      if (llvm::sys::path::filename(llvm::sys::path::parent_path(File)) != Rule.Id)
        continue;
      Fixture F = loadFixture(File);
      const FixtureRun *Plain = F.run("");
      if (!Plain || !Plain->Args.empty())
        continue; // Options: below.
      std::string Expected = F.expectedFixed(*Plain);
      bool &Have = Expected == F.Input                        ? HaveNone
                   : llvm::StringRef(File).contains("unsafe") ? HaveUnsafe
                                                              : HaveSafe;
      if (Have)
        continue;
      Have = true;
      std::string Name = (Rule.Id + "__" + llvm::sys::path::filename(File)).str();
      for (const char *Sub : {"/tidy/", "/cli/", "/notes/"})
        writeFile(Dir + Sub + Name, F.Input);
      Cases.push_back({Name, Expected});
    }
  }
  ASSERT_GE(Cases.size(), 6u);
  std::vector<std::string> Tidy{"--checks=-*,luisa-*", "--fix", "--quiet"};
  std::vector<std::string> Notes{"--checks=-*,luisa-*",
                                 "--config={CheckOptions: {UnsafeFixes: true}}", "--fix",
                                 "--fix-notes", "--quiet"};
  std::vector<std::string> Cli{"check", "--fix"};
  for (const auto &[Name, Expected] : Cases) {
    Tidy.push_back(Dir + "/tidy/" + Name);
    Notes.push_back(Dir + "/notes/" + Name);
    Cli.push_back(Dir + "/cli/" + Name);
  }
  for (const std::string &A : modelArgsWithPch()) {
    Tidy.push_back(A);
    Notes.push_back(A);
  }
  std::string Out;
  EXPECT_NE(-1, runClangTidy(Tidy, &Out)) << Out;
  EXPECT_NE(-1, runClangTidy(Notes, &Out)) << Out;
  ProcessResult R = runKernelTidy(Cli);
  EXPECT_NE(2, R.ExitCode) << R.Out << R.Err;
  for (const auto &[Name, Expected] : Cases) {
    EXPECT_EQ(readFile(Dir + "/cli/" + Name), readFile(Dir + "/tidy/" + Name)) << Name;
    EXPECT_EQ(Expected, readFile(Dir + "/notes/" + Name)) << Name;
  }
  llvm::sys::fs::remove_directories(Dir);
}

/// \p Text less clang-tidy's progress and summary lines ("[1/3] Processing
/// file a.cpp.", "3 warnings generated.", "Suppressed 2 warnings (...)").
std::string withoutTidySummary(llvm::StringRef Text) {
  std::string Kept;
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    Text = Rest;
    if ((Line.starts_with("[") && Line.contains("] Processing file ")) ||
        Line.ends_with(" generated.") || Line.starts_with("Suppressed ") ||
        Line.starts_with("Use -header-filter=") || Line.starts_with("Use -system-headers"))
      continue;
    Kept += Line.str() + "\n";
  }
  return Kept;
}

/// Issue 32, item 1: the text report is what clang-tidy prints for the same
/// diagnostics, both rendered by Clang's TextDiagnostic: a finding in a
/// header whose range and fix span several lines (a.h, included by a.cpp),
/// an unsafe fix as the note that carries its fix-its (b.cpp), notes at other
/// places (c.cpp). The one difference is the CLI's word on an unsafe fix that
/// it did not apply. clang-tidy prints the findings of the run sorted by
/// file, the CLI per file in the given order: the names make them agree.
TEST(ClangTidyPlugin, TextReportIsWhatClangTidyPrints) {
  if (PluginIsSanitized)
    GTEST_SKIP() << "sanitized plugin: not loadable by clang-tidy-19";
  std::string Dir = makeTempDir();
  writeFile(Dir + "/a.h", fixtureInput(sourceDir() + SafeCase + ".cpp"));
  writeFile(Dir + "/a.cpp", "#include \"a.h\"\n");
  writeFile(Dir + "/b.cpp", fixtureInput(sourceDir() + UnsafeCase + ".cpp"));
  writeFile(Dir + "/c.cpp", fixtureInput(sourceDir() + "/test/fixtures/luisa-divergent-barrier/"
                                                       "helper-calls.cpp"));
  std::vector<std::string> Files{Dir + "/a.cpp", Dir + "/b.cpp", Dir + "/c.cpp"};
  // c.cpp's slot allocation has its safe fix over several lines only where
  // the warps are stated to reconverge.
  std::vector<std::string> Tidy{"--config={Checks: '-*,luisa-*', CheckOptions: {UnsafeFixes: "
                                "true, AssumeWarpReconvergence: true}}",
                                "--header-filter=.*"};
  std::vector<std::string> Cli{"check", "--header-filter=.*", "--assume-warp-reconvergence"};
  Tidy.insert(Tidy.end(), Files.begin(), Files.end());
  Cli.insert(Cli.end(), Files.begin(), Files.end());
  for (const std::string &A : modelArgsWithPch())
    Tidy.push_back(A);
  std::string Expected;
  EXPECT_EQ(0, runClangTidy(Tidy, &Expected)) << Expected;
  ProcessResult R = runKernelTidy(Cli);
  EXPECT_EQ(1, R.ExitCode) << R.Err;
  std::string Text = R.Out;
  const llvm::StringRef NotApplied = " (applied only with --unsafe-fixes)";
  for (size_t At; (At = Text.find(NotApplied.str())) != std::string::npos;)
    Text.erase(At, NotApplied.size());
  // kernel-tidy's own mark of a safe fix that spans lines (issue 50, item 4).
  const std::string SeveralLines = Dir + "/c.cpp:19:21: note: safe fix over several lines "
                                         "(applied by --fix; --diff shows it)\n";
  size_t Mark = Text.find(SeveralLines);
  EXPECT_NE(std::string::npos, Mark) << Text;
  if (Mark != std::string::npos)
    Text.erase(Mark, SeveralLines.size());
  EXPECT_EQ(withoutTidySummary(Expected), Text);
  for (const std::string &Seen : std::vector<std::string>{
           Dir + "/a.h:12:9: warning: ",
           "   16 |         m = max(m, warp_read_lane(m, lane ^ 1u));\n",
           Dir + "/b.cpp:12:9: note: unsafe fix: ", Dir + "/c.cpp:41:25: note: "})
    EXPECT_NE(std::string::npos, Text.find(Seen)) << Text;
  llvm::sys::fs::remove_directories(Dir);
}

TEST(ClangTidyPlugin, CheckOptionsReachTheChecks) {
  if (PluginIsSanitized)
    GTEST_SKIP() << "sanitized plugin: not loadable by clang-tidy-19";
  std::string Dir = makeTempDir();
  std::string Case = sourceDir() + "/test/fixtures/luisa-butterfly-reduction/"
                                   "cli-warp-size-64-six-steps";
  std::string File = Dir + "/k.cpp";
  writeFile(File, fixtureInput(Case + ".cpp"));
  std::vector<std::string> Args{
      "--config={Checks: '-*,luisa-*', CheckOptions: {WarpSize: 64, UnsafeFixes: true}}", "--fix",
      "--fix-notes", File};
  for (const std::string &A : modelArgs())
    Args.push_back(A);
  std::string Out;
  EXPECT_EQ(0, runClangTidy(Args, &Out)) << Out;
  EXPECT_EQ(readFile(Case + ".fixed.cpp"), readFile(File)) << Out;
  llvm::sys::fs::remove_directories(Dir);
}

/// --fix-notes applies a note's fix only when exactly one note has one: the
/// profitability note of Target must carry none.
TEST(ClangTidyPlugin, TargetNoteLeavesTheUnsafeFixApplicable) {
  if (PluginIsSanitized)
    GTEST_SKIP() << "sanitized plugin: not loadable by clang-tidy-19";
  std::string Dir = makeTempDir();
  std::string Case = sourceDir() + "/test/fixtures/luisa-butterfly-reduction/"
                                   "sum-float-explicit-add-unsafe";
  std::string File = Dir + "/k.cpp";
  writeFile(File, fixtureInput(Case + ".cpp"));
  std::vector<std::string> Args{
      "--config={Checks: '-*,luisa-*', CheckOptions: {Target: cuda, UnsafeFixes: true}}", "--fix",
      "--fix-notes", File};
  for (const std::string &A : modelArgs())
    Args.push_back(A);
  std::string Out;
  EXPECT_EQ(0, runClangTidy(Args, &Out)) << Out;
  EXPECT_NE(std::string::npos, Out.find("note: on cuda this rewrite is expected to be slower"))
      << Out;
  EXPECT_EQ(readFile(Case + ".fixed.cpp"), readFile(File)) << Out;
  llvm::sys::fs::remove_directories(Dir);
}

/// run-clang-tidy exports every fix, note fixes included, and
/// clang-apply-replacements applies them all: the plugin must not attach an
/// unsafe fix unless the check option UnsafeFixes asks for it.
TEST(ClangTidyPlugin, RunClangTidyFixAppliesUnsafeFixesOnlyWhenAsked) {
  if (PluginIsSanitized)
    GTEST_SKIP() << "sanitized plugin: not loadable by clang-tidy-19";
  std::string Fixtures = sourceDir() + "/test/fixtures/luisa-butterfly-reduction/";
  std::string Safe = Fixtures + "max-straight-line", Unsafe = Fixtures + "float3-vector-sum-unsafe";
  for (bool Ask : {false, true}) {
    std::string Dir = makeTempDir();
    nlohmann::json Database = nlohmann::json::array();
    for (const std::string &Case : {Safe, Unsafe}) {
      std::string File = Dir + "/" + llvm::sys::path::filename(Case).str() + ".cpp";
      writeFile(File, fixtureInput(Case + ".cpp"));
      std::vector<std::string> Command{"/usr/bin/clang++-19"};
      for (const std::string &A : modelCompileArgs())
        Command.push_back(A);
      Command.insert(Command.end(), {"-c", File});
      Database.push_back({{"directory", Dir}, {"file", File}, {"arguments", Command}});
    }
    writeFile(Dir + "/compile_commands.json", Database.dump(2));
    std::vector<llvm::StringRef> Args{"/usr/bin/run-clang-tidy-19",
                                      "-p",
                                      Dir,
                                      "-load",
                                      KERNEL_TIDY_PLUGIN,
                                      "-clang-tidy-binary",
                                      KERNEL_TIDY_CLANG_TIDY,
                                      "-clang-apply-replacements-binary",
                                      "/usr/bin/clang-apply-replacements-19",
                                      "-checks=-*,luisa-*",
                                      "-fix",
                                      "-quiet"};
    std::string Config = "-config={CheckOptions: {UnsafeFixes: true}}";
    if (Ask)
      Args.push_back(Config);
    std::string Log = Dir + "/log";
    std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef("/dev/null"),
                                                  llvm::StringRef(Log), llvm::StringRef(Log)};
    int Code = llvm::sys::ExecuteAndWait(Args[0], Args, std::nullopt, Redirects, 600);
    EXPECT_GE(Code, 0) << readFile(Log);
    EXPECT_EQ(readFile(Safe + ".fixed.cpp"), readFile(Dir + "/max-straight-line.cpp"))
        << readFile(Log);
    EXPECT_EQ(Ask ? readFile(Unsafe + ".fixed.cpp") : fixtureInput(Unsafe + ".cpp"),
              readFile(Dir + "/float3-vector-sum-unsafe.cpp"))
        << "UnsafeFixes " << Ask << "\n"
        << readFile(Log);
    if (!Ask)
      EXPECT_NE(std::string::npos,
                readFile(Log).find("(set the check option UnsafeFixes to true to get it)"))
          << readFile(Log);
    llvm::sys::fs::remove_directories(Dir);
  }
}

} // namespace
} // namespace kernel_tidy::test
