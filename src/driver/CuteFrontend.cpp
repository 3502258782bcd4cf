//===--- CuteFrontend.cpp - CuTe DSL (Python) files through the Python frontend ===//

#include "src/driver/CuteFrontend.h"

#include "src/driver/Nesting.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include <algorithm>
#include <nlohmann/json.hpp>

namespace kernel_tidy {

namespace {

constexpr int ProtocolVersion = 1;
/// A file the frontend has not finished in this time is reported, not waited for.
constexpr unsigned FrontendTimeoutSeconds = 300;

/// Line and column of byte offsets of one text.
class LineIndex {
public:
  explicit LineIndex(llvm::StringRef Text) : Size(Text.size()) {
    Starts.push_back(0);
    for (size_t I = 0; I < Text.size(); ++I)
      if (Text[I] == '\n')
        Starts.push_back(static_cast<unsigned>(I + 1));
  }
  Position at(unsigned Offset) const {
    unsigned Clamped = std::min<size_t>(Offset, Size);
    auto Next = std::upper_bound(Starts.begin(), Starts.end(), Clamped);
    return {Offset, static_cast<unsigned>(Next - Starts.begin()), Clamped - *std::prev(Next) + 1};
  }
  bool contains(unsigned Offset) const { return Offset <= Size; }

private:
  size_t Size;
  std::vector<unsigned> Starts;
};

/// The unsigned member \p Key of \p Object, checked against the text's size.
bool offsetOf(const nlohmann::json &Object, const char *Key, const LineIndex &Index,
              unsigned &Out) {
  auto It = Object.find(Key);
  if (It == Object.end() || !It->is_number_unsigned())
    return false;
  Out = It->get<unsigned>();
  return Index.contains(Out);
}

/// The fix of a finding, or std::nullopt with \p Error. Every edit names the
/// text it replaces ("replaced"); the bytes of \p Original there must be
/// exactly that text, or the frontend and the driver do not agree on
/// positions (a coding line, a lone CR: issue 31) and nothing may be edited.
std::optional<Fix> fixOf(const nlohmann::json &J, const std::string &File,
                         const std::string &Original, const LineIndex &Index,
                         std::string &Error) {
  Fix Result;
  Result.Kind = J.value("kind", "") == "unsafe" ? Applicability::Unsafe : Applicability::Safe;
  Result.Reason = J.value("reason", "");
  for (const nlohmann::json &E : J.at("edits")) {
    unsigned Offset = 0;
    const nlohmann::json &Length = E.at("length");
    // Checked: an offset plus a length that wraps around would pass a bounds test.
    if (!offsetOf(E, "offset", Index, Offset) || !Length.is_number_unsigned() ||
        Length.get<uint64_t>() > Original.size() - Offset) {
      Error = "the CuTe DSL frontend reported a fix outside the file";
      return std::nullopt;
    }
    unsigned End = Offset + Length.get<unsigned>();
    std::string Replaced = E.at("replaced").get<std::string>();
    if (Original.compare(Offset, End - Offset, Replaced) != 0) {
      Position At = Index.at(Offset);
      Error = "the CuTe DSL frontend's fix at " + std::to_string(At.Line) + ":" +
              std::to_string(At.Column) + " would replace other text than it reported ('" +
              llvm::StringRef(Replaced).take_front(40).str() +
              "'); positions cannot be trusted, nothing is fixed";
      return std::nullopt;
    }
    Result.Edits.push_back({File, Index.at(Offset), Index.at(End),
                            E.at("text").get<std::string>(), std::move(Replaced)});
  }
  if (Result.Edits.empty()) {
    Error = "the CuTe DSL frontend reported a fix without edits";
    return std::nullopt;
  }
  return Result;
}

FileResult fail(const std::string &File, const std::string &Message) {
  FileResult Result;
  Result.File = File;
  Result.Errors.push_back({File, 0, 0, Message});
  return Result;
}

} // namespace

bool isPythonFile(llvm::StringRef Path) { return llvm::sys::path::extension(Path) == ".py"; }

std::string formatCuteRequest(const CuteRequest &Request) {
  nlohmann::json J;
  J["version"] = ProtocolVersion;
  J["path"] = Request.Path;
  J["checks"] = Request.Checks;
  J["options"] = Request.Options;
  // One line of JSON, then the file's bytes as they are (they need not be UTF-8).
  return J.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n" + Request.Text;
}

FileResult parseCuteReport(llvm::StringRef Json, const std::string &File,
                           const std::string &Original,
                           const std::vector<std::string> &AsErrors) {
  FileResult Result;
  Result.File = File;
  Result.Original = Original;
  LineIndex Index(Original);
  if (std::string Deep = nestingProblem(Json, /*JsonStrings=*/true); !Deep.empty())
    return fail(File, "the CuTe DSL frontend's report is " + Deep);
  nlohmann::json J = nlohmann::json::parse(Json.begin(), Json.end(), nullptr, false);
  auto NotTheProtocol = [&] {
    return fail(File, "the CuTe DSL frontend's report is not protocol version " +
                          std::to_string(ProtocolVersion) + ": " +
                          Json.take_front(200).str());
  };
  // Every field is type-checked as untrusted JSON: "1" is not the version.
  if (J.is_discarded() || !J.is_object() || !J.contains("version") ||
      !J["version"].is_number_integer() || J["version"].get<int64_t>() != ProtocolVersion ||
      !J.contains("findings") || !J["findings"].is_array())
    return NotTheProtocol();
  try {
    for (const nlohmann::json &E : J.value("errors", nlohmann::json::array())) {
      ParseError Error{File, E.value("line", 0u), E.value("column", 0u),
                       E.at("message").get<std::string>()};
      // The stored byte offset places the error on the driver's own lines
      // (Python's differ where a lone CR ends one).
      unsigned At = 0;
      if (E.contains("offset") && offsetOf(E, "offset", Index, At)) {
        Position P = Index.at(At);
        Error.Line = P.Line;
        Error.Column = P.Column;
      }
      Result.Errors.push_back(std::move(Error));
    }
    for (const nlohmann::json &Item : J["findings"]) {
      Finding F;
      F.Rule = Item.at("rule").get<std::string>();
      F.Message = Item.at("message").get<std::string>();
      F.File = File;
      unsigned Begin = 0, End = 0;
      if (!offsetOf(Item, "offset", Index, Begin) || !offsetOf(Item, "end_offset", Index, End))
        return fail(File, "the CuTe DSL frontend reported a finding outside the file");
      F.Begin = Index.at(Begin);
      F.End = Index.at(std::max(Begin, End));
      F.AsError = llvm::is_contained(AsErrors, F.Rule);
      if (Item.contains("fix") && Item["fix"].is_object()) {
        std::string Error;
        F.FixIt = fixOf(Item["fix"], File, Original, Index, Error);
        if (!F.FixIt)
          return fail(File, Error);
      } else {
        F.NoFixReason = Item.value("no_fix_reason", "");
      }
      for (const nlohmann::json &N : Item.value("notes", nlohmann::json::array())) {
        unsigned At = 0;
        if (!offsetOf(N, "offset", Index, At))
          return fail(File, "the CuTe DSL frontend reported a note outside the file");
        F.Notes.push_back({N.at("message").get<std::string>(), File, Index.at(At)});
      }
      Result.Findings.push_back(std::move(F));
    }
  } catch (const nlohmann::json::exception &E) {
    return fail(File, std::string("the CuTe DSL frontend's report is malformed: ") + E.what());
  }
  return Result;
}

FileResult runCuteFrontend(const std::string &Frontend, const CuteRequest &Request,
                           const std::vector<std::string> &AsErrors) {
  std::string Python;
  if (auto Env = llvm::sys::Process::GetEnv("KERNEL_TIDY_PYTHON")) {
    Python = *Env;
  } else if (auto Found = llvm::sys::findProgramByName("python3")) {
    Python = *Found;
  } else {
    return fail(Request.Path, "cannot analyse: python3 is not on PATH (the CuTe DSL frontend "
                              "runs on it; KERNEL_TIDY_PYTHON names another interpreter)");
  }
  if (!llvm::sys::fs::exists(Frontend))
    return fail(Request.Path, "cannot analyse: the CuTe DSL frontend is not at '" + Frontend +
                                  "' (set KERNEL_TIDY_SHARE_DIR)");
  llvm::SmallString<128> In, Out, Err;
  for (auto [Path, Suffix] : {std::pair{&In, "in"}, {&Out, "out"}, {&Err, "err"}})
    if (llvm::sys::fs::createTemporaryFile("kernel-tidy-cute", Suffix, *Path))
      return fail(Request.Path, "cannot analyse: no temporary file for the CuTe DSL frontend");
  auto Cleanup = llvm::make_scope_exit([&] {
    for (const auto *Path : {&In, &Out, &Err})
      llvm::sys::fs::remove(*Path);
  });
  {
    std::error_code EC;
    llvm::raw_fd_ostream Stream(In, EC);
    Stream << formatCuteRequest(Request);
    if (EC || Stream.has_error()) {
      Stream.clear_error();
      return fail(Request.Path, "cannot analyse: cannot write the CuTe DSL frontend's request");
    }
  }
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(In), llvm::StringRef(Out),
                                                llvm::StringRef(Err)};
  llvm::StringRef Args[] = {Python, "-I", "-B", Frontend};
  std::string Message;
  int Status = llvm::sys::ExecuteAndWait(Python, Args, std::nullopt, Redirects,
                                         FrontendTimeoutSeconds, 0, &Message);
  auto ReadAll = [](llvm::StringRef Path) {
    auto Buffer = llvm::MemoryBuffer::getFile(Path);
    return Buffer ? (*Buffer)->getBuffer().str() : std::string();
  };
  if (Status != 0) {
    std::string Stderr = llvm::StringRef(ReadAll(Err)).trim().str();
    if (Stderr.size() > 2000)
      Stderr = "..." + Stderr.substr(Stderr.size() - 2000);
    return fail(Request.Path, "the CuTe DSL frontend failed (" +
                                  (Message.empty() ? "exit " + std::to_string(Status) : Message) +
                                  ")" + (Stderr.empty() ? "" : ": " + Stderr));
  }
  return parseCuteReport(ReadAll(Out), Request.Path, Request.Text, AsErrors);
}

} // namespace kernel_tidy
