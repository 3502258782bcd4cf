//===--- LspServer.cpp - `kernel-tidy lsp`: CuTe DSL files in editors -----===//

#include "src/driver/LspServer.h"

#include "src/driver/CuteFrontend.h"
#include "src/driver/FixApplier.h"
#include "src/driver/LspTransport.h"
#include "src/driver/Nesting.h"
#include "src/driver/Nolint.h"
#include "src/driver/Paths.h"
#include "rules/RuleRegistry.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <map>
#include <nlohmann/json.hpp>
#include <mutex>
#include <set>
#include <thread>
#include <tuple>

namespace kernel_tidy {
namespace {

using Json = nlohmann::json;

/// JSON-RPC's and LSP's error codes.
namespace error_code {
constexpr int ParseError = -32700;
constexpr int InvalidRequest = -32600;
constexpr int MethodNotFound = -32601;
constexpr int InvalidParams = -32602;
constexpr int ServerNotInitialized = -32002;
constexpr int RequestCancelled = -32800;
} // namespace error_code

void log(const std::string &Message) {
  // From the message loop and the analysis worker.
  static std::mutex LogLock;
  std::lock_guard<std::mutex> Guard(LogLock);
  llvm::errs() << "kernel-tidy lsp: " << Message << "\n";
  llvm::errs().flush();
}

/// LSP positions in one text: lines end at "\n", "\r\n" or "\r", and a
/// character is a UTF-16 code unit (LSP's default and only required
/// encoding). Findings and edits are byte offsets.
class LspLines {
public:
  explicit LspLines(llvm::StringRef Text) : Text(Text) {
    Starts.push_back(0);
    for (size_t I = 0; I < Text.size(); ++I)
      if (Text[I] == '\n' || (Text[I] == '\r' && (I + 1 == Text.size() || Text[I + 1] != '\n')))
        Starts.push_back(I + 1);
  }

  Json position(size_t Offset) const {
    Offset = std::min(Offset, Text.size());
    size_t Line = std::upper_bound(Starts.begin(), Starts.end(), Offset) - Starts.begin() - 1;
    size_t Units = 0;
    for (size_t I = Starts[Line]; I < Offset; ++I)
      if (unsigned char C = Text[I]; (C & 0xC0) != 0x80) // Not a continuation byte.
        Units += C >= 0xF0 ? 2 : 1;                      // Past the BMP: a surrogate pair.
    return {{"line", Line}, {"character", Units}};
  }

  Json range(size_t Begin, size_t End) const {
    return {{"start", position(Begin)}, {"end", position(End)}};
  }

  /// The byte offset of an LSP position, clamped to its line as LSP says.
  size_t offset(const Json &Position) const {
    size_t Line = Position.at("line").get<size_t>();
    size_t Character = Position.at("character").get<size_t>();
    if (Line >= Starts.size())
      return Text.size();
    size_t End = Line + 1 < Starts.size() ? Starts[Line + 1] : Text.size();
    if (End > Starts[Line] && Line + 1 < Starts.size()) // Not into the line break.
      End -= Text.substr(Starts[Line], End - Starts[Line]).ends_with("\r\n") ? 2 : 1;
    size_t I = Starts[Line], Units = 0;
    while (I < End && Units < Character) {
      unsigned char C = Text[I];
      Units += C >= 0xF0 ? 2 : 1;
      I = std::min(End, I + (C < 0xC0 ? 1 : C < 0xE0 ? 2 : C < 0xF0 ? 3 : 4));
    }
    return I;
  }

  /// The byte offset of a 1-based line and byte column as the frontends
  /// count them (lines end at "\n").
  size_t offset(unsigned Line, unsigned Column) const {
    size_t At = 0;
    for (unsigned L = 1; L < Line && At < Text.size(); ++L) {
      size_t Newline = Text.find('\n', At);
      At = Newline == llvm::StringRef::npos ? Text.size() : Newline + 1;
    }
    return std::min(Text.size(), At + (Column ? Column - 1 : 0));
  }

private:
  llvm::StringRef Text;
  std::vector<size_t> Starts;
};

/// The local path of a `file:` URI, or "" for another kind of URI.
std::string pathOfUri(llvm::StringRef Uri) {
  if (!Uri.consume_front("file://") || !(Uri.starts_with("/") || Uri.consume_front("localhost")))
    return "";
  Uri = Uri.take_until([](char C) { return C == '?' || C == '#'; });
  std::string Path;
  for (size_t I = 0; I < Uri.size(); ++I) {
    if (Uri[I] == '%' && I + 2 < Uri.size() && llvm::isHexDigit(Uri[I + 1]) &&
        llvm::isHexDigit(Uri[I + 2])) {
      Path += static_cast<char>(llvm::hexFromNibbles(Uri[I + 1], Uri[I + 2]));
      I += 2;
    } else {
      Path += Uri[I];
    }
  }
  return Path.find('\0') == std::string::npos ? Path : "";
}

/// An open document and the analysis of its current text.
struct Document {
  std::string Path; ///< "" unless a local file.
  std::string Text;
  std::optional<int64_t> Version;
  uint64_t Generation = 0; ///< Changes with Text (and on save).
  uint64_t Analysed = 0;   ///< The Generation that Result is of; 0: none.
  FileResult Result;       ///< Empty unless Path is a .py file.
};

/// The finding as a diagnostic. A client that shows no related information
/// shows the notes only if they are in the message, as clangd writes them;
/// an unsafe fix's reason is among them.
Json diagnostic(const LspLines &Lines, const Finding &F, const std::string &DocsBase) {
  std::string Message = F.Message;
  for (const Note &N : F.Notes)
    Message += "\n\nnote: " + N.Message;
  if (!F.NoFixReason.empty())
    Message += "\n\nnote: " + fix_protocol::noFixNote(F.NoFixReason);
  if (F.FixIt && F.FixIt->Kind == Applicability::Unsafe)
    Message += "\n\nnote: " + fix_protocol::unsafeFixNote(F.FixIt->Reason);
  Json D = {{"range", Lines.range(F.Begin.Offset, F.End.Offset)},
            {"severity", F.AsError ? 1 : 2},
            {"code", F.Rule},
            {"source", "kernel-tidy"},
            {"message", Message}};
  // The rule's page, which editors link the code to.
  if (!DocsBase.empty() && rules::findRule(F.Rule))
    D["codeDescription"] = {{"href", ruleDocUri(F.Rule, DocsBase)}};
  return D;
}

Json diagnostics(const Document &D, const std::string &DocsBase) {
  LspLines Lines(D.Text);
  Json List = Json::array();
  for (const ParseError &E : D.Result.Errors) {
    size_t At = Lines.offset(E.Line, E.Column);
    List.push_back({{"range", Lines.range(At, At)},
                    {"severity", 1},
                    {"source", "kernel-tidy"},
                    {"message", E.Message}});
  }
  for (const Finding &F : D.Result.Findings)
    if (F.File == D.Result.File)
      List.push_back(diagnostic(Lines, F, DocsBase));
  return List;
}

/// A code action that edits the document \p Uri.
Json quickFix(const std::string &Title, const Json &Diagnostic, bool Preferred,
              const std::string &Uri, Json Edits) {
  return {{"title", Title},
          {"kind", "quickfix"},
          {"diagnostics", Json::array({Diagnostic})},
          {"isPreferred", Preferred},
          {"edit", {{"changes", {{Uri, std::move(Edits)}}}}}};
}

/// The code action kind of "fix every safe finding of the file", which
/// editors run on save (`source.fixAll`), as Ruff's server names its own.
const char *FixAllKind = "source.fixAll.kernel-tidy";

/// Whether the client asks for code actions of \p Kind: it names no kinds,
/// or one that is \p Kind or a prefix of it ("source" takes "source.fixAll").
bool wantsKind(const Json &Params, llvm::StringRef Kind, bool WhenUnnamed) {
  const Json *Context = Params.contains("context") ? &Params["context"] : nullptr;
  if (!Context || !Context->contains("only"))
    return WhenUnnamed;
  for (const Json &Named : Context->at("only")) {
    std::string Prefix = Named.get<std::string>();
    if (Kind == Prefix || Kind.starts_with(Prefix + "."))
      return true;
  }
  return false;
}

/// The LSP edits of \p Fix, or nothing when a replacement is not UTF-8:
/// LSP text is Unicode, such bytes would be written as U+FFFD (issue 49,
/// item 1), so such a fix is not offered.
std::optional<Json> lspEdits(const LspLines &Lines, const Fix &Fix) {
  if (llvm::any_of(Fix.Edits, [](const Edit &E) { return !llvm::json::isUTF8(E.Replacement); }))
    return std::nullopt;
  Json Edits = Json::array();
  for (const Edit &E : Fix.Edits)
    Edits.push_back(
        {{"range", Lines.range(E.Begin.Offset, E.End.Offset)}, {"newText", E.Replacement}});
  return Edits;
}

/// Every safe fix of the document in one action (`source.fixAll`): what
/// `kernel-tidy check --fix` applies, less the fixes that overlap an
/// earlier one (a second run applies them, as --fix's next pass would).
Json fixAll(const std::string &Uri, const Document &D) {
  LspLines Lines(D.Text);
  Json Edits = Json::array();
  // Each safe fix with the bytes it spans, taken in order of where it starts.
  std::vector<std::tuple<size_t, size_t, const Fix *>> Safe;
  for (const Finding &F : D.Result.Findings)
    if (F.File == D.Result.File && F.FixIt && F.FixIt->Kind == Applicability::Safe &&
        !F.FixIt->Edits.empty()) {
      size_t Begin = F.FixIt->Edits.front().Begin.Offset, End = 0;
      for (const Edit &E : F.FixIt->Edits) {
        Begin = std::min<size_t>(Begin, E.Begin.Offset);
        End = std::max<size_t>(End, E.End.Offset);
      }
      Safe.emplace_back(Begin, End, &*F.FixIt);
    }
  llvm::sort(Safe, [](const auto &A, const auto &B) { return std::get<0>(A) < std::get<0>(B); });
  size_t Covered = 0;
  for (const auto &[Begin, End, SafeFix] : Safe) {
    std::optional<Json> These = lspEdits(Lines, *SafeFix);
    if (!These || Begin < Covered)
      continue;
    Covered = End;
    for (Json &E : *These)
      Edits.push_back(std::move(E));
  }
  if (Edits.empty())
    return Json::array();
  return Json::array({{{"title", "kernel-tidy: apply every safe fix"},
                       {"kind", FixAllKind},
                       {"edit", {{"changes", {{Uri, std::move(Edits)}}}}}}});
}

/// The hover text at \p Params' position: for each finding there, its rule,
/// what the rule finds and does, and a link to its page (Markdown); null
/// when no finding is there.
Json hover(const Document &D, const Json &Params, const std::string &DocsBase) {
  LspLines Lines(D.Text);
  size_t At = Lines.offset(Params.at("position"));
  std::string Text;
  std::set<std::string> Shown;
  for (const Finding &F : D.Result.Findings) {
    const rules::RuleInfo *Rule = rules::findRule(F.Rule);
    if (F.File != D.Result.File || At < F.Begin.Offset || F.End.Offset < At || !Rule ||
        !Shown.insert(F.Rule).second)
      continue;
    if (!Text.empty())
      Text += "\n\n---\n\n";
    Text += "**" + F.Rule + "** (" + Rule->Kind.str() + "; fixes: " + Rule->FixKinds.str() +
            ")\n\n" + Rule->Summary.str();
    if (!DocsBase.empty())
      Text += "\n\n[" + F.Rule + "](" + ruleDocUri(F.Rule, DocsBase) + ")";
  }
  if (Text.empty())
    return nullptr;
  return {{"contents", {{"kind", "markdown"}, {"value", Text}}}};
}

/// The quick fixes of the findings in \p Params' range: each finding's fix
/// (safe: preferred; unsafe: not, titled with why), then one "disable RULE
/// for this line" per rule and line, the comment `--add-nolint` inserts;
/// and, when the client asks for `source.fixAll`, every safe fix at once.
Json codeActions(const std::string &Uri, const Document &D, const Json &Params,
                 const std::string &DocsBase) {
  Json Actions =
      wantsKind(Params, FixAllKind, /*WhenUnnamed=*/false) ? fixAll(Uri, D) : Json::array();
  if (!wantsKind(Params, "quickfix", /*WhenUnnamed=*/true))
    return Actions;
  LspLines Lines(D.Text);
  size_t Start = Lines.offset(Params.at("range").at("start"));
  size_t End = Lines.offset(Params.at("range").at("end"));
  std::vector<const Finding *> Here;
  for (const Finding &F : D.Result.Findings)
    if (F.File == D.Result.File && F.Begin.Offset <= End && Start <= F.End.Offset)
      Here.push_back(&F);
  for (const Finding *F : Here) {
    if (!F->FixIt || F->FixIt->Kind == Applicability::None)
      continue;
    std::optional<Json> Edits = lspEdits(Lines, *F->FixIt);
    if (!Edits)
      continue;
    bool Safe = F->FixIt->Kind == Applicability::Safe;
    Actions.push_back(
        quickFix(Safe ? "fix: " + F->Message : fix_protocol::unsafeFixNote(F->FixIt->Reason),
                 diagnostic(Lines, *F, DocsBase), Safe, Uri, std::move(*Edits)));
  }
  std::set<std::pair<std::string, unsigned>> Disabled;
  for (const Finding *F : Here) {
    if (!Disabled.insert({F->Rule, F->Begin.Line}).second)
      continue;
    FileResult One;
    One.File = D.Result.File;
    One.Original = D.Text;
    One.Findings = {*F};
    std::vector<std::string> Skipped;
    Json Edits = Json::array();
    for (const NolintInsertion &Insert : nolintInsertions(One, Skipped))
      Edits.push_back(
          {{"range", Lines.range(Insert.Offset, Insert.Offset)}, {"newText", Insert.Text}});
    if (!Edits.empty())
      Actions.push_back(quickFix("disable " + F->Rule + " for this line",
                                 diagnostic(Lines, *F, DocsBase), false, Uri, std::move(Edits)));
  }
  return Actions;
}

/// \p Text with one LSP content change applied: a range and its new text,
/// or the whole text.
std::string withChange(const std::string &Text, const Json &Change) {
  std::string NewText = Change.at("text").get<std::string>();
  if (!Change.contains("range"))
    return NewText;
  LspLines Lines(Text);
  size_t Begin = Lines.offset(Change["range"].at("start"));
  size_t End = std::max(Begin, Lines.offset(Change["range"].at("end")));
  return Text.substr(0, Begin) + NewText + Text.substr(End);
}

/// The documents and their analyses: the message loop (which handles every
/// message at once) and the analysis worker (one document at a time) share
/// it under its lock. A document's text is analysed on the worker, never on
/// the loop; a result is published only if its text is still the
/// document's, and a change to the document being analysed cancels that
/// analysis (issue 49, items 6 and 7; issue 52, item 3).
class Server {
public:
  Server(int Out, AnalysisOptions Options, std::string Version, std::string DocsBase)
      : Out(Out), Options(std::move(Options)), Version(std::move(Version)),
        DocsBase(std::move(DocsBase)) {
    this->Options.CancelPython = Cancel;
  }

  ~Server() { stopWorker(); }

  /// Starts the worker; false with \p Error when the options cannot work.
  bool startWorker(std::string &Error) {
    std::unique_ptr<Analyzer> Analysis = Analyzer::create(Options, Error);
    if (!Analysis)
      return false;
    Worker = std::thread([this, A = std::move(Analysis)]() mutable { work(std::move(A)); });
    return true;
  }

  /// Lets the worker finish what it is doing (cancelled) and waits for it.
  void stopWorker() {
    {
      std::lock_guard<std::mutex> Guard(Lock);
      Stopping = true;
      *Cancel = true;
    }
    Wake.notify_all();
    if (Worker.joinable())
      Worker.join();
  }

  /// Handles one message; false once the client said `exit` or cannot be
  /// written to.
  bool handle(llvm::StringRef Body) {
    // nlohmann's copy and destruction recurse once per level.
    if (std::string Deep = nestingProblem(Body, /*JsonStrings=*/true); !Deep.empty()) {
      replyError(nullptr, error_code::ParseError, "the message is not JSON-RPC: " + Deep);
      return writable();
    }
    Json Message = Json::parse(Body.begin(), Body.end(), nullptr, /*allow_exceptions=*/false);
    if (Message.is_discarded()) {
      replyError(nullptr, error_code::ParseError, "the message is not JSON");
      return writable();
    }
    if (!Message.is_object()) {
      replyError(nullptr, error_code::InvalidRequest, "the message is not a JSON-RPC object");
      return writable();
    }
    auto Method = Message.find("method");
    auto Id = Message.find("id");
    if (Method == Message.end() || !Method->is_string()) {
      // A response: this server sends no requests, so it has none to match.
      if (Id != Message.end() && (Message.contains("result") || Message.contains("error")))
        return true;
      replyError(Id == Message.end() ? Json() : *Id, error_code::InvalidRequest,
                 "the message has no method");
      return writable();
    }
    if (Id != Message.end() && !Id->is_number_integer() && !Id->is_string()) {
      replyError(nullptr, error_code::InvalidRequest,
                 "the request's id is neither a number nor a string");
      return writable();
    }
    const std::string Name = *Method;
    Json Params = Message.value("params", Json::object());
    try {
      if (Id != Message.end())
        request(*Id, Name, Params);
      else if (!notification(Name, Params))
        return false;
    } catch (const Json::exception &E) {
      if (Id != Message.end())
        replyError(*Id, error_code::InvalidParams, "invalid params of " + Name + ": " + E.what());
      else
        log("invalid params of " + Name + ": " + E.what());
    }
    return writable();
  }

  /// Whether request \p Id was cancelled by a `$/cancelRequest` that came
  /// before it was handled; answers it (RequestCancelled) if so.
  bool answerIfCancelled(llvm::StringRef Body, const std::set<std::string> &Cancelled) {
    if (Cancelled.empty())
      return false;
    Json Message = Json::parse(Body.begin(), Body.end(), nullptr, /*allow_exceptions=*/false);
    if (!Message.is_object() || !Message.contains("id") || !Message.contains("method") ||
        !Cancelled.count(Message["id"].dump()))
      return false;
    replyError(Message["id"], error_code::RequestCancelled, "cancelled by the client");
    return true;
  }

  int exitCode() const { return ShutDown ? 0 : 1; }

private:
  bool writable() {
    std::lock_guard<std::mutex> Guard(SendLock);
    return Writable;
  }
  void send(const Json &Message) {
    // Messages quote source text, which need not be UTF-8.
    std::string Body = Message.dump(-1, ' ', false, Json::error_handler_t::replace);
    std::lock_guard<std::mutex> Guard(SendLock);
    if (Writable && !lsp::writeAll(Out, lsp::frame(Body))) {
      log("cannot write to the client; stopping");
      Writable = false;
    }
  }
  void reply(const Json &Id, Json Result) {
    send({{"jsonrpc", "2.0"}, {"id", Id}, {"result", std::move(Result)}});
  }
  void replyError(const Json &Id, int Code, const std::string &Message) {
    send({{"jsonrpc", "2.0"}, {"id", Id}, {"error", {{"code", Code}, {"message", Message}}}});
  }

  void request(const Json &Id, const std::string &Method, const Json &Params) {
    if (Method == "initialize") {
      if (Initialized)
        return replyError(Id, error_code::InvalidRequest, "initialize was sent before");
      Initialized = true;
      return reply(Id,
                   {{"capabilities",
                     {{"positionEncoding", "utf-16"},
                      {"textDocumentSync",
                       {{"openClose", true}, {"change", 1}, {"save", {{"includeText", false}}}}},
                      {"codeActionProvider", {{"codeActionKinds", {"quickfix", FixAllKind}}}},
                      {"hoverProvider", true}}},
                    {"serverInfo", {{"name", "kernel-tidy"}, {"version", Version}}}});
    }
    if (!Initialized)
      return replyError(Id, error_code::ServerNotInitialized, Method + " before initialize");
    if (ShutDown)
      return replyError(Id, error_code::InvalidRequest, Method + " after shutdown");
    if (Method == "shutdown") {
      ShutDown = true;
      stopWorker();
      return reply(Id, nullptr);
    }
    if (Method == "textDocument/codeAction") {
      std::string Uri = Params.at("textDocument").at("uri");
      Params.at("range").at("start");
      std::lock_guard<std::mutex> Guard(Lock);
      auto Doc = Documents.find(Uri);
      // Actions are offered for an analysis of the text as it is now, at
      // once: while a newer text waits for its analysis there are none (an
      // edit computed on an older text could change the wrong bytes); the
      // client asks again when the new diagnostics come.
      if (Doc == Documents.end() || Doc->second.Analysed != Doc->second.Generation)
        return reply(Id, Json::array());
      return reply(Id, codeActions(Uri, Doc->second, Params, DocsBase));
    }
    if (Method == "textDocument/hover") {
      std::string Uri = Params.at("textDocument").at("uri");
      Params.at("position").at("line");
      std::lock_guard<std::mutex> Guard(Lock);
      auto Doc = Documents.find(Uri);
      // As for code actions: only from an analysis of the text as it is now.
      if (Doc == Documents.end() || Doc->second.Analysed != Doc->second.Generation)
        return reply(Id, nullptr);
      return reply(Id, hover(Doc->second, Params, DocsBase));
    }
    replyError(Id, error_code::MethodNotFound, "method not found: " + Method);
  }

  /// False for `exit`.
  bool notification(const std::string &Method, const Json &Params) {
    if (Method == "exit")
      return false;
    if (!Initialized || ShutDown)
      return true; // LSP: dropped.
    if (Method == "textDocument/didOpen") {
      const Json &Item = Params.at("textDocument");
      std::string Uri = Item.at("uri");
      Document D;
      D.Path = pathOfUri(Uri);
      D.Text = Item.at("text").get<std::string>();
      if (Item.contains("version"))
        D.Version = Item["version"].get<int64_t>();
      std::lock_guard<std::mutex> Guard(Lock);
      D.Generation = ++Generations;
      Documents[Uri] = std::move(D);
      markStale(Uri);
    } else if (Method == "textDocument/didChange") {
      std::string Uri = Params.at("textDocument").at("uri");
      std::string Text;
      {
        std::lock_guard<std::mutex> Guard(Lock);
        auto Doc = Documents.find(Uri);
        if (Doc == Documents.end())
          return log("didChange of a document that is not open: " + Uri), true;
        Text = Doc->second.Text;
      }
      // Only the loop writes texts: applying the changes needs no lock.
      for (const Json &Change : Params.at("contentChanges"))
        Text = withChange(Text, Change);
      std::optional<int64_t> NewVersion;
      if (Params["textDocument"].contains("version"))
        NewVersion = Params["textDocument"]["version"].get<int64_t>();
      std::lock_guard<std::mutex> Guard(Lock);
      Document &D = Documents[Uri];
      if (NewVersion)
        D.Version = NewVersion;
      D.Text = std::move(Text);
      D.Generation = ++Generations;
      markStale(Uri);
    } else if (Method == "textDocument/didSave") {
      // Saved: the configuration beside it may have changed too.
      std::string Uri = Params.at("textDocument").at("uri");
      std::lock_guard<std::mutex> Guard(Lock);
      if (auto Doc = Documents.find(Uri); Doc != Documents.end()) {
        Doc->second.Generation = ++Generations;
        markStale(Uri);
      }
    } else if (Method == "textDocument/didClose") {
      std::string Uri = Params.at("textDocument").at("uri");
      bool Closed;
      {
        std::lock_guard<std::mutex> Guard(Lock);
        Stale.erase(Uri);
        Closed = Documents.erase(Uri);
        if (Uri == Analysing)
          *Cancel = true;
      }
      if (Closed)
        send({{"jsonrpc", "2.0"},
              {"method", "textDocument/publishDiagnostics"},
              {"params", {{"uri", Uri}, {"diagnostics", Json::array()}}}});
    }
    return true; // Other notifications need nothing ($/cancelRequest: see the loop).
  }

  /// Queues \p Uri for the worker; the analysis of an older text of it, if
  /// running, is cancelled. Under Lock.
  void markStale(const std::string &Uri) {
    Stale.insert(Uri);
    if (Uri == Analysing)
      *Cancel = true;
    Wake.notify_all();
  }

  /// The worker: analyses the latest text of each stale document, one at a
  /// time, and publishes what is still current.
  void work(std::unique_ptr<Analyzer> Analysis) {
    std::unique_lock<std::mutex> Guard(Lock);
    for (;;) {
      Wake.wait(Guard, [&] { return Stopping || !Stale.empty(); });
      if (Stopping)
        return;
      std::string Uri = *Stale.begin();
      Stale.erase(Stale.begin());
      auto Doc = Documents.find(Uri);
      if (Doc == Documents.end())
        continue;
      Document Snapshot = Doc->second;
      Analysing = Uri;
      *Cancel = false;
      Guard.unlock();
      analyse(Snapshot, Analysis);
      Json Diagnostics = diagnostics(Snapshot, DocsBase);
      Guard.lock();
      Analysing.clear();
      Doc = Documents.find(Uri);
      // A result of an older text (or a cancelled one) is dropped.
      if (Doc == Documents.end() || Doc->second.Generation != Snapshot.Generation)
        continue;
      Doc->second.Result = std::move(Snapshot.Result);
      Doc->second.Analysed = Snapshot.Generation;
      Json Params = {{"uri", Uri}, {"diagnostics", std::move(Diagnostics)}};
      if (Snapshot.Version)
        Params["version"] = *Snapshot.Version;
      // Sent under Lock: a newer text's diagnostics cannot overtake these.
      send({{"jsonrpc", "2.0"}, {"method", "textDocument/publishDiagnostics"}, {"params", Params}});
    }
  }

  /// Analyses \p D's text (a .py file's; other documents get no findings).
  void analyse(Document &D, std::unique_ptr<Analyzer> &Analysis) {
    D.Result = FileResult();
    if (D.Path.empty() || !isPythonFile(D.Path))
      return;
    D.Result = Analysis->analyze(D.Path, D.Text);
    // Offered fixes are those --fix would apply: the fixed text parses.
    verifyFixes(D.Result, *Analysis);
    // A document the CuTe frontend did not finish in time is reported as
    // not analysed (its error); the interpreter, which a run stops for
    // good, is restarted for the others (issue 49, item 6).
    if (llvm::any_of(D.Result.Errors, [](const ParseError &E) {
          return llvm::StringRef(E.Message).contains(" did not answer within ");
        })) {
      std::string Error;
      if (auto Fresh = Analyzer::create(Options, Error))
        Analysis = std::move(Fresh);
      else
        log("cannot restart the analysis: " + Error);
    }
  }

  int Out;
  AnalysisOptions Options; ///< To start a new analysis after a timeout.
  std::string Version;
  std::string DocsBase; ///< Where the rule pages are ("": no links).
  /// Set to stop the running analysis (its text changed).
  std::shared_ptr<std::atomic<bool>> Cancel = std::make_shared<std::atomic<bool>>(false);
  bool Initialized = false; ///< Loop only.
  bool ShutDown = false;    ///< Loop only.

  std::mutex Lock; ///< Guards what follows, up to SendLock.
  std::condition_variable Wake;
  std::map<std::string, Document> Documents; ///< By URI.
  std::set<std::string> Stale;               ///< Changed since last analysed.
  std::string Analysing;                     ///< The URI on the worker, or "".
  uint64_t Generations = 0;                  ///< The last Document::Generation given.
  bool Stopping = false;

  std::mutex SendLock; ///< Guards writes to Out and Writable.
  bool Writable = true;
  std::thread Worker;
};

} // namespace

/// The ids (as JSON text) of the `$/cancelRequest`s among the whole
/// messages that \p Raw holds, unread.
static std::set<std::string> cancelsWaiting(llvm::StringRef Raw) {
  std::set<std::string> Ids;
  if (!Raw.contains("$/cancelRequest"))
    return Ids;
  while (lsp::holdsMessage(Raw)) {
    size_t HeaderEnd = Raw.find("\r\n\r\n");
    size_t Length = 0;
    if (HeaderEnd == llvm::StringRef::npos ||
        !Raw.take_front(HeaderEnd).contains_insensitive("content-length:"))
      break;
    llvm::StringRef Header = Raw.take_front(HeaderEnd);
    Header = Header.substr(Header.find_insensitive("content-length:") + 15);
    if (Header.take_until([](char C) { return C == '\r'; }).trim().getAsInteger(10, Length) ||
        Raw.size() < HeaderEnd + 4 + Length)
      break;
    llvm::StringRef Body = Raw.substr(HeaderEnd + 4, Length);
    Raw = Raw.drop_front(HeaderEnd + 4 + Length);
    if (!Body.contains("$/cancelRequest") || !nestingProblem(Body, true).empty())
      continue;
    Json Message = Json::parse(Body.begin(), Body.end(), nullptr, /*allow_exceptions=*/false);
    if (Message.is_object() && Message.value("method", Json()) == "$/cancelRequest" &&
        Message.contains("params") && Message["params"].is_object() &&
        Message["params"].contains("id"))
      Ids.insert(Message["params"]["id"].dump());
  }
  return Ids;
}

/// A message header (its lines, not its body) is not read past this size.
constexpr size_t MaxHeaderBytes = size_t(64) << 20;

int serveLanguageServer(int In, int Out, const AnalysisOptions &Options, const std::string &Version,
                        const std::string &DocsBase) {
  Server Session(Out, Options, Version, DocsBase);
  if (std::string Error; !Session.startWorker(Error)) {
    llvm::errs() << "kernel-tidy: error: " << Error << "\n";
    return 2;
  }
  std::string Raw, Body;
  // Requests that a `$/cancelRequest` named before they were handled (ids as
  // JSON text). Every request is answered as it is read, so only one that
  // waits behind its cancel in the input can be cancelled.
  std::set<std::string> Cancelled;
  for (;;) {
    lsp::Framed Next = lsp::readMessage(In, Raw, Body, lsp::MaxMessageBytes, MaxHeaderBytes);
    switch (Next.K) {
    case lsp::Framed::End:
      return Session.exitCode();
    case lsp::Framed::NoLength:
      log("a message header without a Content-Length; skipped");
      Raw.erase(0, Next.HeaderEnd);
      continue;
    case lsp::Framed::TooLarge:
      log("refusing a message of " + std::to_string(Next.Length) + " bytes (the limit is " +
          std::to_string(lsp::MaxMessageBytes) + "); skipped");
      Raw.erase(0, Next.HeaderEnd);
      if (!lsp::skipBytes(In, Raw, Next.Length))
        return Session.exitCode();
      continue;
    case lsp::Framed::HeaderTooLong:
      // The next message cannot be found: stop, as clangd does, rather than
      // read without a limit (issue 49, item 14).
      log("refusing a message header of more than " + std::to_string(MaxHeaderBytes) +
          " bytes; stopping");
      return 1;
    case lsp::Framed::Message:
      Raw.erase(0, Next.BodyEnd);
      Cancelled = cancelsWaiting(Raw);
      if (Session.answerIfCancelled(Body, Cancelled))
        continue;
      if (!Session.handle(Body))
        return Session.exitCode();
      continue;
    }
  }
}

} // namespace kernel_tidy
