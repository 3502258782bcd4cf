//===--- CuteLspTest.cpp - `kernel-tidy lsp` with a scripted client -------===//
//
// An editor's conversation with `kernel-tidy lsp` over stdio: the findings of
// a CuTe DSL kernel as diagnostics, its quick fixes and NOLINT actions
// applied as a client applies them (they must give what `kernel-tidy check
// --fix` and `--add-nolint` write), and input no client should send.
//
//===----------------------------------------------------------------------===//

#include "test/unit/LspClient.h"
#include "test/unit/TestSupport.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include <gtest/gtest.h>
#include <sys/stat.h>

namespace kernel_tidy::test {
namespace {

using Json = nlohmann::json;
using std::chrono::seconds;

/// A safe fix (integer add, line 9) and an unsafe one (Float32 fmax, line
/// 12: redux.sync of Float32 needs a newer GPU), with a comment already on
/// the first finding's line.
const char *Kernel = R"(import cutlass
import cutlass.cute as cute


@cute.kernel
def warp_sums(counts: cute.Tensor, maxima: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    n = cutlass.Int32(counts[tidx])
    for i in range(5):  # five steps
        n = n + cute.arch.shuffle_sync_bfly(n, offset=1 << i)
    m: cutlass.Float32 = maxima[tidx]
    for i in cutlass.range_constexpr(5):
        m = cute.arch.fmax(m, cute.arch.shuffle_sync_bfly(m, offset=16 >> i))
    counts[tidx] = n
    maxima[tidx] = m
)";

const char *Rule = "cute-butterfly-reduction";

class CuteLsp : public ::testing::Test {
protected:
  void SetUp() override { Dir = makeTempDir(); }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  std::unique_ptr<LspClient> start() {
    return std::make_unique<LspClient>(std::vector<std::string>{KERNEL_TIDY_BINARY, "lsp"},
                                       std::vector<std::string>{}, Dir + "/server.log");
  }
  std::string log() { return readFile(Dir + "/server.log"); }

  /// A server whose CuTe frontend hangs on a text holding `SLOW` (and
  /// analyses others), with KERNEL_TIDY_PYTHON_TIMEOUT \p TimeoutSeconds;
  /// null if the stand-in interpreter cannot be made.
  std::unique_ptr<LspClient> startWithSlowFrontend(unsigned TimeoutSeconds) {
    std::string Frontend = Dir + "/slow_frontend.py";
    writeFile(Frontend, "import os, sys, time\n"
                        "sys.path.insert(0, os.path.dirname(sys.argv[1]))\n"
                        "import kernel_tidy_cute as k\n"
                        "real = k.analyze\n"
                        "def slow(text, *args):\n"
                        "    if b'SLOW' in text:\n"
                        "        time.sleep(1000)\n"
                        "    return real(text, *args)\n"
                        "k.analyze = slow\n"
                        "sys.exit(k.main([]))\n");
    std::string Python = Dir + "/python";
    writeFile(Python, "#!/bin/sh\nexec python3 -I -B '" + Frontend + "' \"$3\"\n");
    if (::chmod(Python.c_str(), 0755) != 0)
      return nullptr;
    return std::make_unique<LspClient>(
        std::vector<std::string>{KERNEL_TIDY_BINARY, "lsp"},
        std::vector<std::string>{"KERNEL_TIDY_PYTHON=" + Python,
                                 "KERNEL_TIDY_PYTHON_TIMEOUT=" + std::to_string(TimeoutSeconds)},
        Dir + "/server.log");
  }

  void initialize(LspClient &Client) {
    int Id = Client.request(
        "initialize",
        {{"processId", nullptr}, {"rootUri", fileUri(Dir)}, {"capabilities", Json::object()}});
    auto Reply = Client.response(Id, seconds(30));
    ASSERT_TRUE(Reply) << log();
    ASSERT_TRUE(Reply->contains("result")) << Reply->dump();
    Capabilities = (*Reply)["result"]["capabilities"];
    EXPECT_EQ(1, Capabilities["textDocumentSync"]["change"]);
    Client.notify("initialized", Json::object());
  }

  void open(LspClient &Client, const std::string &Uri, const std::string &Text) {
    Client.notify("textDocument/didOpen",
                  {{"textDocument",
                    {{"uri", Uri}, {"languageId", "python"}, {"version", 1}, {"text", Text}}}});
  }

  /// The diagnostics published for \p Uri at \p Version.
  std::vector<Json> diagnostics(LspClient &Client, const std::string &Uri, int Version) {
    auto Published = Client.waitFor(
        [&](const Json &M) {
          return M.value("method", "") == "textDocument/publishDiagnostics" &&
                 M["params"]["uri"] == Uri && M["params"].value("version", -1) == Version;
        },
        seconds(30));
    EXPECT_TRUE(Published) << log();
    if (!Published)
      return {};
    return (*Published)["params"]["diagnostics"].get<std::vector<Json>>();
  }

  std::vector<Json> codeActions(LspClient &Client, const std::string &Uri, const Json &Diagnostic) {
    int Id = Client.request("textDocument/codeAction",
                            {{"textDocument", {{"uri", Uri}}},
                             {"range", Diagnostic["range"]},
                             {"context", {{"diagnostics", Json::array({Diagnostic})}}}});
    auto Reply = Client.response(Id, seconds(30));
    EXPECT_TRUE(Reply && Reply->contains("result")) << (Reply ? Reply->dump() : log());
    if (!Reply || !Reply->contains("result"))
      return {};
    return (*Reply)["result"].get<std::vector<Json>>();
  }

  void shutDown(LspClient &Client) {
    auto Reply = Client.response(Client.request("shutdown", nullptr), seconds(30));
    ASSERT_TRUE(Reply) << log();
    EXPECT_TRUE(Reply->contains("result")) << Reply->dump();
    Client.notify("exit", nullptr);
    EXPECT_EQ(0, Client.waitExit(seconds(30))) << log();
  }

  /// What `kernel-tidy check ARGS` writes into a copy of \p Text.
  std::string cliResult(const std::string &Text, std::vector<std::string> Args) {
    std::string Copy = Dir + "/cli/k.py";
    llvm::sys::fs::create_directories(Dir + "/cli");
    writeFile(Copy, Text);
    Args.insert(Args.begin(), "check");
    Args.push_back(Copy);
    ProcessResult R = runKernelTidy(Args);
    EXPECT_NE(2, R.ExitCode) << R.Out << R.Err;
    return readFile(Copy);
  }

  std::string Dir;
  Json Capabilities; ///< The server's, from the last initialize().
};

/// Both edits' changes to \p Uri as one WorkspaceEdit.
Json joined(const Json &A, const Json &B, const std::string &Uri) {
  Json Edits = A["changes"][Uri];
  for (const Json &E : B["changes"][Uri])
    Edits.push_back(E);
  return {{"changes", {{Uri, Edits}}}};
}

TEST_F(CuteLsp, QuickFixesGiveTheCliFixAndOnlySafeOnesArePreferred) {
  std::string File = Dir + "/k.py", Uri = fileUri(File);
  // The editor's text is analysed, not the file: on disk it has no finding.
  std::string OnDisk = "import cutlass\n";
  writeFile(File, OnDisk);
  std::string CliFixed = cliResult(Kernel, {"--fix"});
  std::string CliUnsafe = cliResult(Kernel, {"--fix", "--unsafe-fixes"});
  ASSERT_NE(Kernel, CliFixed);
  ASSERT_NE(CliFixed, CliUnsafe);

  auto Client = start();
  initialize(*Client);
  open(*Client, Uri, Kernel);
  std::vector<Json> Found = diagnostics(*Client, Uri, 1);
  ASSERT_EQ(2u, Found.size()) << log();
  const Json &Safe = Found[0], &Unsafe = Found[1];
  for (const Json &D : Found) {
    EXPECT_EQ(Rule, D.value("code", "")) << D.dump();
    EXPECT_EQ("kernel-tidy", D.value("source", "")) << D.dump();
    EXPECT_EQ(2, D.value("severity", 0)) << "a warning, as check reports it\n" << D.dump();
  }
  EXPECT_EQ(Json({{"line", 8}, {"character", 4}}), Safe["range"]["start"]) << Safe.dump();
  EXPECT_EQ(Json({{"line", 11}, {"character", 4}}), Unsafe["range"]["start"]) << Unsafe.dump();
  // A client without related information sees the reason in the message.
  EXPECT_NE(std::string::npos, Unsafe["message"].get<std::string>().find("\n\nnote: unsafe fix: "))
      << Unsafe.dump();

  std::vector<Json> SafeActions = codeActions(*Client, Uri, Safe);
  ASSERT_EQ(2u, SafeActions.size()) << Json(SafeActions).dump();
  const Json &Fix = SafeActions[0];
  EXPECT_EQ("quickfix", Fix.value("kind", "")) << Fix.dump();
  EXPECT_TRUE(Fix.value("isPreferred", false)) << Fix.dump();
  EXPECT_FALSE(SafeActions[1].value("isPreferred", true)) << SafeActions[1].dump();
  EXPECT_EQ(CliFixed, applyWorkspaceEdit(Kernel, Fix["edit"], Uri));

  std::vector<Json> UnsafeActions = codeActions(*Client, Uri, Unsafe);
  ASSERT_EQ(2u, UnsafeActions.size()) << Json(UnsafeActions).dump();
  const Json &UnsafeFix = UnsafeActions[0];
  EXPECT_FALSE(UnsafeFix.value("isPreferred", true)) << UnsafeFix.dump();
  EXPECT_EQ(0u, UnsafeFix.value("title", "").find("unsafe fix: ")) << UnsafeFix.dump();
  // The title says why, as the diagnostic does.
  EXPECT_NE(std::string::npos,
            Unsafe["message"].get<std::string>().find("\n\nnote: " + UnsafeFix.value("title", "")))
      << UnsafeFix.dump();
  EXPECT_EQ(CliUnsafe,
            applyWorkspaceEdit(Kernel, joined(Fix["edit"], UnsafeFix["edit"], Uri), Uri));

  // The client applies the preferred fix: the safe finding is gone.
  Client->notify("textDocument/didChange",
                 {{"textDocument", {{"uri", Uri}, {"version", 2}}},
                  {"contentChanges", Json::array({{{"text", CliFixed}}})}});
  std::vector<Json> After = diagnostics(*Client, Uri, 2);
  ASSERT_EQ(1u, After.size()) << Json(After).dump();
  EXPECT_EQ(Unsafe["message"], After[0]["message"]);
  shutDown(*Client);
  EXPECT_EQ(OnDisk, readFile(File)) << "the server writes no file";
}

// Issue 50, item 7: `source.fixAll` applies what `check --fix` applies; a
// hover explains the rule and links its page, as the diagnostic's code does.
TEST_F(CuteLsp, FixAllHoverAndRuleLinks) {
  std::string File = Dir + "/k.py", Uri = fileUri(File);
  std::string CliFixed = cliResult(Kernel, {"--fix"});
  auto Client = start();
  initialize(*Client);
  EXPECT_TRUE(Capabilities.value("hoverProvider", false)) << Capabilities.dump();
  EXPECT_EQ(Json({"quickfix", "source.fixAll.kernel-tidy"}),
            Capabilities["codeActionProvider"]["codeActionKinds"]);
  open(*Client, Uri, Kernel);
  std::vector<Json> Found = diagnostics(*Client, Uri, 1);
  ASSERT_EQ(2u, Found.size()) << log();
  std::string Href = Found[0]["codeDescription"].value("href", "");
  EXPECT_EQ(0u, Href.find("file:///")) << Href;
  EXPECT_TRUE(llvm::StringRef(Href).ends_with("/docs/rules/cute-butterfly-reduction.md")) << Href;

  int Id = Client->request(
      "textDocument/codeAction",
      {{"textDocument", {{"uri", Uri}}},
       {"range",
        {{"start", {{"line", 0}, {"character", 0}}}, {"end", {{"line", 0}, {"character", 0}}}}},
       {"context", {{"diagnostics", Json::array()}, {"only", {"source"}}}}});
  auto Reply = Client->response(Id, seconds(30));
  ASSERT_TRUE(Reply && Reply->contains("result")) << log();
  ASSERT_EQ(1u, (*Reply)["result"].size()) << Reply->dump();
  const Json &FixAll = (*Reply)["result"][0];
  EXPECT_EQ("source.fixAll.kernel-tidy", FixAll.value("kind", "")) << FixAll.dump();
  EXPECT_EQ(CliFixed, applyWorkspaceEdit(Kernel, FixAll["edit"], Uri));

  auto Hover = [&](const Json &Position) {
    int HoverId = Client->request("textDocument/hover",
                                  {{"textDocument", {{"uri", Uri}}}, {"position", Position}});
    auto Answer = Client->response(HoverId, seconds(30));
    EXPECT_TRUE(Answer && Answer->contains("result")) << log();
    return Answer ? (*Answer)["result"] : Json();
  };
  Json OnFinding = Hover(Found[0]["range"]["start"]);
  std::string Shown = OnFinding["contents"].value("value", "");
  EXPECT_EQ("markdown", OnFinding["contents"].value("kind", "")) << OnFinding.dump();
  EXPECT_EQ(0u, Shown.find("**cute-butterfly-reduction** (performance; fixes: ")) << Shown;
  EXPECT_NE(std::string::npos, Shown.find("](" + Href + ")")) << Shown;
  EXPECT_TRUE(Hover({{"line", 0}, {"character", 0}}).is_null());
  shutDown(*Client);
}

TEST_F(CuteLsp, DisableForThisLineInsertsWhatAddNolintDoes) {
  std::string Uri = fileUri(Dir + "/k.py");
  std::string CliNolint = cliResult(Kernel, {"--add-nolint"});
  ASSERT_NE(std::string::npos, CliNolint.find("# five steps  # NOLINT(cute-butterfly-reduction)"));

  auto Client = start();
  initialize(*Client);
  open(*Client, Uri, Kernel);
  std::vector<Json> Found = diagnostics(*Client, Uri, 1);
  ASSERT_EQ(2u, Found.size()) << log();
  Json Edit;
  for (const Json &D : Found) {
    bool Offered = false;
    for (const Json &A : codeActions(*Client, Uri, D))
      if (A.value("title", "") == std::string("disable ") + Rule + " for this line") {
        Edit = Edit.is_null() ? A["edit"] : joined(Edit, A["edit"], Uri);
        Offered = true;
      }
    ASSERT_TRUE(Offered) << D.dump();
  }
  std::string Disabled = applyWorkspaceEdit(Kernel, Edit, Uri);
  EXPECT_EQ(CliNolint, Disabled);
  Client->notify("textDocument/didChange",
                 {{"textDocument", {{"uri", Uri}, {"version", 2}}},
                  {"contentChanges", Json::array({{{"text", Disabled}}})}});
  EXPECT_TRUE(diagnostics(*Client, Uri, 2).empty());
  shutDown(*Client);
}

TEST_F(CuteLsp, BadInputGetsAnErrorAndTheServerGoesOn) {
  auto Client = start();
  auto ErrorCode = [&](int Id) {
    auto Reply = Client->response(Id, seconds(30));
    return Reply && Reply->contains("error") ? (*Reply)["error"].value("code", 0) : 0;
  };
  auto UntaggedErrorCode = [&] {
    auto Reply = Client->waitFor([](const Json &M) { return M.contains("error"); }, seconds(30));
    EXPECT_TRUE(Reply && (*Reply)["id"].is_null()) << (Reply ? Reply->dump() : log());
    return Reply ? (*Reply)["error"].value("code", 0) : 0;
  };
  EXPECT_EQ(-32002, ErrorCode(Client->request("textDocument/hover", Json::object())))
      << "before initialize";
  initialize(*Client);
  Client->sendRaw("Content-Length: 12\r\n\r\n{\"id\": 7, \"m");
  EXPECT_EQ(-32700, UntaggedErrorCode()) << "not JSON";
  std::string Deep = std::string(100000, '[') + std::string(100000, ']');
  Client->sendRaw("Content-Length: " + std::to_string(Deep.size()) + "\r\n\r\n" + Deep);
  EXPECT_EQ(-32700, UntaggedErrorCode()) << "nested too deep";
  // A header without a length is skipped; a 20 MB header line is read.
  Client->sendRaw("X-Nothing: 1\r\n\r\n");
  Client->sendRaw("Content-Length: 2\r\nX-Padding: " + std::string(20 << 20, 'x') + "\r\n\r\n{}");
  EXPECT_EQ(-32600, UntaggedErrorCode()) << "no method";
  EXPECT_EQ(-32601, ErrorCode(Client->request("textDocument/definition", Json::object())));
  EXPECT_EQ(-32602, ErrorCode(Client->request("textDocument/hover", Json::object())));
  EXPECT_EQ(-32602, ErrorCode(Client->request("textDocument/codeAction", {{"range", 3}})));
  Client->notify("textDocument/didOpen", {{"textDocument", {{"uri", "file:///x.py"}}}});
  Client->notify("workspace/unknownNotification", Json::object());
  // Not a .py file: kernel-clangd's. A .py that does not parse: an error.
  std::string Cpp = fileUri(Dir + "/k.cpp"), Broken = fileUri(Dir + "/broken.py");
  open(*Client, Cpp, "int main() { return 0; }\n");
  EXPECT_TRUE(diagnostics(*Client, Cpp, 1).empty());
  // The error is at byte 14 of its line, after U+00E9 (2 bytes, 1 UTF-16
  // unit) and U+1F600 (4 bytes, a surrogate pair): LSP character 11.
  open(*Client, Broken, "import cutlass\nx = '\xc3\xa9\xf0\x9f\x98\x80'; def f(:\n");
  std::vector<Json> Errors = diagnostics(*Client, Broken, 1);
  ASSERT_EQ(1u, Errors.size()) << log();
  EXPECT_EQ(1, Errors[0].value("severity", 0)) << Errors[0].dump();
  EXPECT_EQ(Json({{"line", 1}, {"character", 11}}), Errors[0]["range"]["start"])
      << Errors[0].dump();
  // exit without shutdown: exit code 1, as LSP says.
  Client->notify("exit", nullptr);
  EXPECT_EQ(1, Client->waitExit(seconds(30), /*CloseInput=*/false)) << log();
  EXPECT_NE(std::string::npos, log().find("invalid params of textDocument/didOpen")) << log();
  EXPECT_NE(std::string::npos, log().find("without a Content-Length")) << log();
}

TEST_F(CuteLsp, RefusesAHugeMessageWithoutReadingIt) {
  std::string Input = Dir + "/input", Err = Dir + "/stderr";
  writeFile(Input, "Content-Length: 99999999999\r\n\r\n{}");
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(Input),
                                                llvm::StringRef("/dev/null"), llvm::StringRef(Err)};
  int Code = llvm::sys::ExecuteAndWait(KERNEL_TIDY_BINARY, {KERNEL_TIDY_BINARY, "lsp"},
                                       std::nullopt, Redirects, /*SecondsToWait=*/30);
  EXPECT_EQ(1, Code) << readFile(Err);
  EXPECT_NE(std::string::npos, readFile(Err).find("refusing a message of 99999999999 bytes"))
      << readFile(Err);
}

// Issue 49, item 7: changes that queue up while the server is busy are
// analysed once, in their latest text, not each in turn.
TEST_F(CuteLsp, QueuedChangesAreAnalysedOnceInTheirLatestText) {
  std::string Uri = fileUri(Dir + "/k.py");
  auto Client = start();
  initialize(*Client);
  auto Frame = [](const Json &Message) {
    std::string Body = Message.dump();
    return "Content-Length: " + std::to_string(Body.size()) + "\r\n\r\n" + Body;
  };
  std::string Burst =
      Frame({{"jsonrpc", "2.0"},
             {"method", "textDocument/didOpen"},
             {"params",
              {{"textDocument",
                {{"uri", Uri}, {"languageId", "python"}, {"version", 1}, {"text", Kernel}}}}}});
  for (int Version = 2; Version <= 31; ++Version)
    Burst += Frame(
        {{"jsonrpc", "2.0"},
         {"method", "textDocument/didChange"},
         {"params",
          {{"textDocument", {{"uri", Uri}, {"version", Version}}},
           {"contentChanges", Json::array({{{"text", std::string(Kernel) + "# edit " +
                                                         std::to_string(Version) + "\n"}}})}}}});
  Client->sendRaw(Burst); // One write: the server finds them all waiting.
  std::vector<int> Published;
  auto Last = Client->waitFor(
      [&](const Json &M) {
        if (M.value("method", "") != "textDocument/publishDiagnostics")
          return false;
        Published.push_back(M["params"].value("version", -1));
        return Published.back() == 31;
      },
      seconds(60));
  ASSERT_TRUE(Last) << log();
  EXPECT_EQ(2u, (*Last)["params"]["diagnostics"].size()) << Last->dump();
  // Analysed in full and in order, all 31 versions were published.
  EXPECT_LE(Published.size(), 3u) << Json(Published).dump();
  shutDown(*Client);
}

// Issue 49, item 6: a document the CuTe frontend does not finish in time is
// reported as not analysed, alone: the documents after it are analysed.
TEST_F(CuteLsp, ASlowDocumentIsAbandonedAlone) {
  auto Client = startWithSlowFrontend(1);
  ASSERT_TRUE(Client);
  initialize(*Client);
  std::string Slow = fileUri(Dir + "/slow.py"), Quick = fileUri(Dir + "/k.py");
  open(*Client, Slow, std::string(Kernel) + "# SLOW\n");
  std::vector<Json> NotAnalysed = diagnostics(*Client, Slow, 1);
  ASSERT_EQ(1u, NotAnalysed.size()) << Json(NotAnalysed).dump();
  EXPECT_NE(std::string::npos,
            NotAnalysed[0].value("message", "").find("did not answer within 1 s"))
      << NotAnalysed[0].dump();
  open(*Client, Quick, Kernel);
  EXPECT_EQ(2u, diagnostics(*Client, Quick, 1).size()) << log();
  shutDown(*Client);
}

// Issue 49, items 6 and 7; issue 52, item 3: analysis runs off the message
// loop. While a document's analysis hangs, requests are answered at once; a
// change cancels the analysis of the older text (its result is never
// published), and a `$/cancelRequest` read before its request is handled
// answers that request RequestCancelled.
TEST_F(CuteLsp, TheMessageLoopAnswersWhileAnAnalysisRuns) {
  // The limit is far longer than the test may take: only a cancel ends the
  // hung analysis in time.
  auto Client = startWithSlowFrontend(600);
  ASSERT_TRUE(Client);
  initialize(*Client);
  std::string Uri = fileUri(Dir + "/k.py");
  open(*Client, Uri, std::string(Kernel) + "# SLOW\n");
  Json Range = {{"start", {{"line", 8}, {"character", 4}}},
                {"end", {{"line", 8}, {"character", 4}}}};
  Json ActionParams = {{"textDocument", {{"uri", Uri}}},
                       {"range", Range},
                       {"context", {{"diagnostics", Json::array()}}}};
  // The text is not analysed yet: no action, and no wait for the analysis.
  auto Asked = std::chrono::steady_clock::now();
  auto Reply =
      Client->response(Client->request("textDocument/codeAction", ActionParams), seconds(60));
  ASSERT_TRUE(Reply) << log();
  EXPECT_LT(std::chrono::steady_clock::now() - Asked, seconds(10)) << "blocked by the analysis";
  EXPECT_EQ(Json::array(), (*Reply)["result"]) << Reply->dump();

  // A request and its cancel, read together: the request is not handled.
  auto Frame = [](const Json &Message) {
    std::string Body = Message.dump();
    return "Content-Length: " + std::to_string(Body.size()) + "\r\n\r\n" + Body;
  };
  Client->sendRaw(
      Frame({{"jsonrpc", "2.0"},
             {"id", 900},
             {"method", "textDocument/codeAction"},
             {"params", ActionParams}}) +
      Frame({{"jsonrpc", "2.0"}, {"method", "$/cancelRequest"}, {"params", {{"id", 900}}}}));
  Reply = Client->response(900, seconds(60));
  ASSERT_TRUE(Reply) << log();
  EXPECT_EQ(-32800, Reply->contains("error") ? (*Reply)["error"].value("code", 0) : 0)
      << Reply->dump();

  // The edit cancels the hung analysis of version 1; version 2 is analysed.
  Client->notify("textDocument/didChange", {{"textDocument", {{"uri", Uri}, {"version", 2}}},
                                            {"contentChanges", Json::array({{{"text", Kernel}}})}});
  std::vector<int> Published;
  auto Latest = Client->waitFor(
      [&](const Json &M) {
        if (M.value("method", "") != "textDocument/publishDiagnostics")
          return false;
        Published.push_back(M["params"].value("version", -1));
        return Published.back() == 2;
      },
      seconds(60));
  ASSERT_TRUE(Latest) << log();
  EXPECT_EQ(std::vector<int>{2}, Published) << "version 1's analysis was not dropped";
  EXPECT_EQ(2u, (*Latest)["params"]["diagnostics"].size()) << Latest->dump();
  // Now the analysis is of the text as it is: the actions are offered.
  Reply = Client->response(Client->request("textDocument/codeAction", ActionParams), seconds(60));
  ASSERT_TRUE(Reply) << log();
  EXPECT_EQ(2u, (*Reply)["result"].size()) << Reply->dump();
  shutDown(*Client);
}

} // namespace
} // namespace kernel_tidy::test
