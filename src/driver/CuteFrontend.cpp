//===--- CuteFrontend.cpp - CuTe DSL (Python) files through the Python frontend ===//

#include "src/driver/CuteFrontend.h"

#include "src/driver/Nesting.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include <algorithm>
#include <limits>
#include <nlohmann/json.hpp>

namespace kernel_tidy {

namespace {

constexpr int ProtocolVersion = 2;
/// A file the frontend has not finished in this time is reported, not waited
/// for (KERNEL_TIDY_PYTHON_TIMEOUT overrides it).
constexpr unsigned DefaultTimeoutSeconds = 300;
/// An answer longer than this (plus 16 bytes per byte of the file: fixes and
/// messages quote the source) is not read to its end.
constexpr size_t AnswerLimitBase = 64u << 20;

/// Line and column of byte offsets of one text.
class LineIndex {
public:
  explicit LineIndex(llvm::StringRef Text) : Size(Text.size()) {
    Starts.push_back(0);
    // Clang's and Python's line breaks: LF, CR LF and a lone CR, as every
    // report format counts them.
    for (size_t I = 0; I < Text.size(); ++I)
      if (Text[I] == '\n' || (Text[I] == '\r' && (I + 1 == Text.size() || Text[I + 1] != '\n')))
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
  // Read wide: get<unsigned>() would wrap 2^32 + 5 to 5, inside the file.
  if (It == Object.end() || !It->is_number_unsigned() ||
      It->get<uint64_t>() > std::numeric_limits<unsigned>::max())
    return false;
  Out = It->get<unsigned>();
  return Index.contains(Out);
}

/// The fix of a finding, or std::nullopt with \p Error. Every edit names the
/// text it replaces ("replaced"); the bytes of \p Original there must be
/// exactly that text, or the frontend and the driver do not agree on
/// positions (a coding line, a lone CR: issue 31) and nothing may be edited.
std::optional<Fix> fixOf(const nlohmann::json &J, const std::string &File,
                         const std::string &Original, const LineIndex &Index, std::string &Error) {
  Fix Result;
  // Fails closed: only an explicit "safe" is safe; a kind this driver does not
  // know (a newer frontend, a typo) is an error, never a fix that --fix applies.
  std::string Kind =
      J.contains("kind") && J["kind"].is_string() ? J["kind"].get<std::string>() : "";
  if (Kind != "safe" && Kind != "unsafe") {
    Error = "the CuTe DSL frontend reported a fix of unknown kind '" +
            llvm::StringRef(Kind).take_front(40).str() + "'; nothing is fixed";
    return std::nullopt;
  }
  Result.Kind = Kind == "unsafe" ? Applicability::Unsafe : Applicability::Safe;
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
    Result.Edits.push_back({File, Index.at(Offset), Index.at(End), E.at("text").get<std::string>(),
                            std::move(Replaced)});
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
  J["length"] = Request.Text.size();
  if (Request.Modules && !Request.AbsolutePath.empty()) {
    J["file"] = Request.AbsolutePath;
    J["modules"] = *Request.Modules;
  }
  // One line of JSON, then the file's bytes as they are (they need not be UTF-8).
  return J.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n" + Request.Text;
}

FileResult parseCuteReport(llvm::StringRef Json, const std::string &File,
                           const std::string &Original, const std::vector<std::string> &AsErrors,
                           bool *Valid) {
  if (Valid)
    *Valid = false; // Until the whole report has been read.
  FileResult Result;
  Result.File = File;
  Result.Original = Original;
  LineIndex Index(Original);
  if (std::string Deep = nestingProblem(Json, /*JsonStrings=*/true); !Deep.empty())
    return fail(File, "the CuTe DSL frontend's report is " + Deep);
  nlohmann::json J = nlohmann::json::parse(Json.begin(), Json.end(), nullptr, false);
  auto NotTheProtocol = [&] {
    return fail(File, "the CuTe DSL frontend's report is not protocol version " +
                          std::to_string(ProtocolVersion) + ": " + Json.take_front(200).str());
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
      // Where --add-nolint puts a comment, found by Python's tokenizer: null
      // when the line goes on (a string, a backslash).
      if (Item.contains("nolint")) {
        const nlohmann::json &Place = Item["nolint"];
        F.Nolint = NolintPlace{};
        if (Place.is_object()) {
          unsigned At = 0;
          if (!offsetOf(Place, "offset", Index, At) || At > Original.size())
            return fail(File, "the CuTe DSL frontend reported a NOLINT place outside the file");
          F.Nolint = NolintPlace{true, At, Place.at("join").get<bool>()};
        }
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
  if (Valid)
    *Valid = true;
  return Result;
}

std::string cuteInterpreter(std::string &Error) {
  auto Env = llvm::sys::Process::GetEnv("KERNEL_TIDY_PYTHON");
  std::string Name = Env ? *Env : "python3";
  // A name without a slash is looked up on PATH, as a shell would.
  if (Name.find('/') != std::string::npos)
    return Name;
  if (auto Found = llvm::sys::findProgramByName(Name))
    return *Found;
  Error = Env ? "KERNEL_TIDY_PYTHON names '" + Name + "', which is not on PATH"
              : "python3 is not on PATH (the CuTe DSL frontend runs on it; "
                "KERNEL_TIDY_PYTHON names another interpreter)";
  return "";
}

FileResult CuteFrontendProcess::analyze(const CuteRequest &Request,
                                        const std::vector<std::string> &AsErrors) {
  if (!Stopped.empty())
    return fail(Request.Path, "not analysed: " + Stopped);
  unsigned Timeout = DefaultTimeoutSeconds;
  if (auto Env = llvm::sys::Process::GetEnv("KERNEL_TIDY_PYTHON_TIMEOUT"))
    if (llvm::StringRef(*Env).getAsInteger(10, Timeout) || Timeout == 0)
      return fail(Request.Path, "cannot analyse: KERNEL_TIDY_PYTHON_TIMEOUT='" + *Env +
                                    "' is not a number of seconds");
  if (!Process.running()) {
    std::string Error;
    Python = cuteInterpreter(Error);
    if (Python.empty())
      return fail(Request.Path, "cannot analyse: " + Error);
    if (!llvm::sys::fs::exists(Frontend))
      return fail(Request.Path, "cannot analyse: the CuTe DSL frontend is not at '" + Frontend +
                                    "' (set KERNEL_TIDY_SHARE_DIR)");
    if (std::string Error = Process.start(Python, {Python, "-I", "-B", Frontend}); !Error.empty())
      return fail(Request.Path,
                  "cannot start the CuTe DSL frontend with '" + Python + "': " + Error);
  }
  auto Deadline = std::chrono::steady_clock::now() + std::chrono::seconds(Timeout);
  PipedProcess::Answer Answer =
      Process.exchange(formatCuteRequest(Request), Deadline,
                       AnswerLimitBase + 16 * Request.Text.size(), Cancel.get());
  std::string Who = "the CuTe DSL frontend ('" + Python + "')";
  std::string Stderr = llvm::StringRef(Answer.Stderr).trim().str();
  switch (Answer.What) {
  case PipedProcess::Answer::Line:
    if (Process.hasUnreadOutput()) {
      // Two answers to one request: which one is this file's cannot be told.
      Process.stop();
      return fail(Request.Path,
                  Who + " answered more than once on " + Request.Path + "; it was stopped");
    }
    break;
  case PipedProcess::Answer::TimedOut:
    // Stopped for the rest of the run: a hung interpreter costs one timeout,
    // not one per file.
    Stopped = Who + " did not answer within " + std::to_string(Timeout) + " s on " + Request.Path +
              " and was stopped (KERNEL_TIDY_PYTHON_TIMEOUT sets the limit)";
    return fail(Request.Path, Stopped);
  case PipedProcess::Answer::TooLong:
    return fail(Request.Path, Who + " wrote an answer of more than " +
                                  std::to_string(AnswerLimitBase + 16 * Request.Text.size()) +
                                  " bytes on " + Request.Path + "; it was stopped");
  case PipedProcess::Answer::Cancelled:
    return fail(Request.Path, "not analysed: the analysis of " + Request.Path + " was cancelled");
  case PipedProcess::Answer::Early:
    return fail(Request.Path,
                Who + " answered before it had read " + Request.Path + "; it was stopped");
  case PipedProcess::Answer::Ended:
    return fail(Request.Path,
                Who + " ended (" + Answer.Status + ") on " + Request.Path +
                    (Stderr.empty() ? "" : ": " + Stderr) +
                    (Answer.Text.empty()
                         ? ""
                         : "; it wrote '" + llvm::StringRef(Answer.Text).take_front(200).str() +
                               "' without ending the line"));
  }
  bool Valid = true;
  FileResult Result = parseCuteReport(Answer.Text, Request.Path, Request.Text, AsErrors, &Valid);
  // An answer outside the protocol: the stream cannot be trusted to stay in
  // step. The message names the interpreter that gave it.
  if (!Valid) {
    Process.stop();
    llvm::StringRef Generic = "the CuTe DSL frontend";
    for (ParseError &E : Result.Errors)
      if (llvm::StringRef(E.Message).starts_with(Generic))
        E.Message = Who + E.Message.substr(Generic.size());
  }
  return Result;
}

} // namespace kernel_tidy
