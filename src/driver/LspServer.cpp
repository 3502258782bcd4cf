//===--- LspServer.cpp - `kernel-tidy lsp`: CuTe DSL files in editors -----===//

#include "src/driver/LspServer.h"

#include "src/driver/CuteFrontend.h"
#include "src/driver/FixApplier.h"
#include "src/driver/LspTransport.h"
#include "src/driver/Nesting.h"
#include "src/driver/Nolint.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

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
} // namespace error_code

void log(const std::string &Message) {
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
  FileResult Result; ///< Of Text; empty unless Path is a .py file.
};

/// The finding as a diagnostic. A client that shows no related information
/// shows the notes only if they are in the message, as clangd writes them;
/// an unsafe fix's reason is among them.
Json diagnostic(const LspLines &Lines, const Finding &F) {
  std::string Message = F.Message;
  for (const Note &N : F.Notes)
    Message += "\n\nnote: " + N.Message;
  if (!F.NoFixReason.empty())
    Message += "\n\nnote: " + fix_protocol::noFixNote(F.NoFixReason);
  if (F.FixIt && F.FixIt->Kind == Applicability::Unsafe)
    Message += "\n\nnote: " + fix_protocol::unsafeFixNote(F.FixIt->Reason);
  return {{"range", Lines.range(F.Begin.Offset, F.End.Offset)},
          {"severity", F.AsError ? 1 : 2},
          {"code", F.Rule},
          {"source", "kernel-tidy"},
          {"message", Message}};
}

Json diagnostics(const Document &D) {
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
      List.push_back(diagnostic(Lines, F));
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

/// The quick fixes of the findings in \p Params' range: each finding's fix
/// (safe: preferred; unsafe: not, titled with why), then one "disable RULE
/// for this line" per rule and line, the comment `--add-nolint` inserts.
Json codeActions(const std::string &Uri, const Document &D, const Json &Params) {
  Json Actions = Json::array();
  if (const Json *Context = Params.contains("context") ? &Params["context"] : nullptr;
      Context && Context->contains("only")) {
    bool Wanted = false;
    for (const Json &Kind : Context->at("only"))
      Wanted |= llvm::StringRef("quickfix").starts_with(Kind.get<std::string>());
    if (!Wanted)
      return Actions;
  }
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
    // LSP text is Unicode: bytes that are not UTF-8 would be written as
    // U+FFFD (issue 49, item 1), so such a fix is not offered.
    if (llvm::any_of(F->FixIt->Edits,
                     [](const Edit &E) { return !llvm::json::isUTF8(E.Replacement); }))
      continue;
    Json Edits = Json::array();
    for (const Edit &E : F->FixIt->Edits)
      Edits.push_back(
          {{"range", Lines.range(E.Begin.Offset, E.End.Offset)}, {"newText", E.Replacement}});
    bool Safe = F->FixIt->Kind == Applicability::Safe;
    Actions.push_back(
        quickFix(Safe ? "fix: " + F->Message : fix_protocol::unsafeFixNote(F->FixIt->Reason),
                 diagnostic(Lines, *F), Safe, Uri, std::move(Edits)));
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
      Actions.push_back(quickFix("disable " + F->Rule + " for this line", diagnostic(Lines, *F),
                                 false, Uri, std::move(Edits)));
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

class Server {
public:
  Server(int Out, std::unique_ptr<Analyzer> Analysis, AnalysisOptions Options, std::string Version)
      : Out(Out), Analysis(std::move(Analysis)), Options(std::move(Options)),
        Version(std::move(Version)) {}

  /// Whether a document changed since its diagnostics were published.
  bool hasStale() const { return !ShutDown && !Stale.empty(); }

  /// Analyses and publishes one changed document, as it is now: changes
  /// that queued up while the server was busy are analysed once, in their
  /// latest version (issue 49, item 7).
  void analyseOneStale() {
    std::string Uri = *Stale.begin();
    Stale.erase(Stale.begin());
    if (auto Doc = Documents.find(Uri); Doc != Documents.end())
      publish(Uri, Doc->second);
  }

  /// Handles one message; false once the client said `exit` or cannot be
  /// written to.
  bool handle(llvm::StringRef Body) {
    // nlohmann's copy and destruction recurse once per level.
    if (std::string Deep = nestingProblem(Body, /*JsonStrings=*/true); !Deep.empty()) {
      replyError(nullptr, error_code::ParseError, "the message is not JSON-RPC: " + Deep);
      return Writable;
    }
    Json Message = Json::parse(Body.begin(), Body.end(), nullptr, /*allow_exceptions=*/false);
    if (Message.is_discarded()) {
      replyError(nullptr, error_code::ParseError, "the message is not JSON");
      return Writable;
    }
    if (!Message.is_object()) {
      replyError(nullptr, error_code::InvalidRequest, "the message is not a JSON-RPC object");
      return Writable;
    }
    auto Method = Message.find("method");
    auto Id = Message.find("id");
    if (Method == Message.end() || !Method->is_string()) {
      // A response: this server sends no requests, so it has none to match.
      if (Id != Message.end() && (Message.contains("result") || Message.contains("error")))
        return true;
      replyError(Id == Message.end() ? Json() : *Id, error_code::InvalidRequest,
                 "the message has no method");
      return Writable;
    }
    if (Id != Message.end() && !Id->is_number_integer() && !Id->is_string()) {
      replyError(nullptr, error_code::InvalidRequest,
                 "the request's id is neither a number nor a string");
      return Writable;
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
    return Writable;
  }

  int exitCode() const { return ShutDown ? 0 : 1; }

private:
  void send(const Json &Message) {
    // Messages quote source text, which need not be UTF-8.
    std::string Body = Message.dump(-1, ' ', false, Json::error_handler_t::replace);
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
                      {"codeActionProvider", {{"codeActionKinds", {"quickfix"}}}}}},
                    {"serverInfo", {{"name", "kernel-tidy"}, {"version", Version}}}});
    }
    if (!Initialized)
      return replyError(Id, error_code::ServerNotInitialized, Method + " before initialize");
    if (ShutDown)
      return replyError(Id, error_code::InvalidRequest, Method + " after shutdown");
    if (Method == "shutdown") {
      ShutDown = true;
      return reply(Id, nullptr);
    }
    if (Method == "textDocument/codeAction") {
      std::string Uri = Params.at("textDocument").at("uri");
      auto Doc = Documents.find(Uri);
      // Actions are offered for the text as it is now.
      if (Doc != Documents.end() && Stale.erase(Uri))
        publish(Uri, Doc->second);
      return reply(Id,
                   Doc == Documents.end() ? Json::array() : codeActions(Uri, Doc->second, Params));
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
      Documents[Uri] = std::move(D);
      Stale.insert(Uri);
    } else if (Method == "textDocument/didChange") {
      std::string Uri = Params.at("textDocument").at("uri");
      auto Doc = Documents.find(Uri);
      if (Doc == Documents.end())
        return log("didChange of a document that is not open: " + Uri), true;
      std::string Text = Doc->second.Text;
      for (const Json &Change : Params.at("contentChanges"))
        Text = withChange(Text, Change);
      if (Params["textDocument"].contains("version"))
        Doc->second.Version = Params["textDocument"]["version"].get<int64_t>();
      Doc->second.Text = std::move(Text);
      Stale.insert(Uri);
    } else if (Method == "textDocument/didSave") {
      // Saved: the configuration beside it may have changed too.
      std::string Uri = Params.at("textDocument").at("uri");
      if (Documents.count(Uri))
        Stale.insert(Uri);
    } else if (Method == "textDocument/didClose") {
      std::string Uri = Params.at("textDocument").at("uri");
      Stale.erase(Uri);
      if (Documents.erase(Uri))
        send({{"jsonrpc", "2.0"},
              {"method", "textDocument/publishDiagnostics"},
              {"params", {{"uri", Uri}, {"diagnostics", Json::array()}}}});
    }
    return true; // Other notifications ($/cancelRequest, ...) need nothing.
  }

  /// Analyses \p D's text (a .py file's; other documents get no findings)
  /// and publishes its diagnostics.
  void publish(const std::string &Uri, Document &D) {
    D.Result = FileResult();
    if (!D.Path.empty() && isPythonFile(D.Path)) {
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
    Json Params = {{"uri", Uri}, {"diagnostics", diagnostics(D)}};
    if (D.Version)
      Params["version"] = *D.Version;
    send({{"jsonrpc", "2.0"}, {"method", "textDocument/publishDiagnostics"}, {"params", Params}});
  }

  int Out;
  std::unique_ptr<Analyzer> Analysis;
  AnalysisOptions Options; ///< To start a new analysis after a timeout.
  std::string Version;
  std::map<std::string, Document> Documents; ///< By URI.
  std::set<std::string> Stale;               ///< Changed since last published.
  bool Initialized = false;
  bool ShutDown = false;
  bool Writable = true;
};

} // namespace

/// A message header (its lines, not its body) is not read past this size.
constexpr size_t MaxHeaderBytes = size_t(64) << 20;

int serveLanguageServer(int In, int Out, const AnalysisOptions &Options,
                        const std::string &Version) {
  std::string Error;
  std::unique_ptr<Analyzer> Analysis = Analyzer::create(Options, Error);
  if (!Analysis) {
    llvm::errs() << "kernel-tidy: error: " << Error << "\n";
    return 2;
  }
  Server Session(Out, std::move(Analysis), Options, Version);
  std::string Raw, Body;
  for (;;) {
    // Messages first, while any are waiting: a burst of changes is
    // analysed once, in its latest text.
    if (Session.hasStale() && !lsp::holdsMessage(Raw) && !lsp::readable(In)) {
      Session.analyseOneStale();
      continue;
    }
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
      if (!Session.handle(Body))
        return Session.exitCode();
      continue;
    }
  }
}

} // namespace kernel_tidy
