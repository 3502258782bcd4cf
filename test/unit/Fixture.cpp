//===--- Fixture.cpp - Rule fixtures with inline expectations -------------===//

#include "test/unit/Fixture.h"
#include "test/unit/TestSupport.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <map>
#include <regex>
#include <sstream>

namespace kernel_tidy::test {
namespace {

const char *const DirectiveNames[] = {"RUN-ARGS", "CHECK-MESSAGES", "CHECK-FIXES",
                                      "kernel-tidy-args"};

/// The comment that starts directives: `//` in C++ fixtures, `#` in Python
/// (CuTe DSL) ones.
std::string commentOf(llvm::StringRef Path) {
  return llvm::sys::path::extension(Path) == ".py" ? "#" : "//";
}

/// Where a directive starts in \p Line (npos: none). A directive is a
/// comment whose text starts with one of DirectiveNames.
size_t directiveStart(llvm::StringRef Line, llvm::StringRef Comment) {
  for (size_t At = Line.find(Comment); At != llvm::StringRef::npos;
       At = Line.find(Comment, At + Comment.size())) {
    llvm::StringRef Rest = Line.drop_front(At + Comment.size()).ltrim(" \t");
    for (const char *Name : DirectiveNames)
      if (Rest.starts_with(Name))
        return At;
  }
  return llvm::StringRef::npos;
}

/// One line of the fixture file, split into code and directive.
struct SourceLine {
  std::string Code;       ///< What is analysed (without the directive).
  std::string Directive;  ///< `// ...` to the end of the line, or empty.
  std::string Eol;        ///< "\n", "\r\n" or "" (last line).
  bool Removed = false;   ///< The line held only a directive.
  unsigned InputLine = 0; ///< Line number in Input; 0 when Removed.
};

std::vector<SourceLine> splitLines(const std::string &Source, llvm::StringRef Comment) {
  std::vector<SourceLine> Lines;
  unsigned InputLine = 0;
  llvm::StringRef Rest(Source);
  while (!Rest.empty()) {
    auto [Text, Tail] = Rest.split('\n');
    SourceLine L;
    L.Eol = Rest.size() > Text.size() ? "\n" : "";
    if (Text.ends_with("\r")) {
      Text = Text.drop_back();
      L.Eol = "\r" + L.Eol;
    }
    size_t At = directiveStart(Text, Comment);
    L.Code = Text.substr(0, At).str();
    if (At != llvm::StringRef::npos) {
      L.Directive = Text.substr(At).rtrim(" \t").str();
      L.Removed = llvm::StringRef(L.Code).trim(" \t").empty();
      if (!L.Removed) // A directive after code: the code keeps its columns.
        L.Code = llvm::StringRef(L.Code).rtrim(" \t").str();
    }
    if (!L.Removed)
      L.InputLine = ++InputLine;
    Lines.push_back(L);
    Rest = Tail;
  }
  return Lines;
}

std::optional<AnalysisOptions> parseArgs(const std::string &Args, std::string &Error) {
  AnalysisOptions Options;
  std::istringstream In(Args);
  for (std::string Arg; In >> Arg;) {
    llvm::StringRef A(Arg);
    unsigned Width;
    if (A.consume_front("--warp-size=") && !A.getAsInteger(10, Width))
      Options.WarpSize = Width;
    else if (A.consume_front("--checks="))
      Options.Checks = A.str();
    else if (A.consume_front("--target=") && dsl::parseTarget(A))
      Options.Target = dsl::parseTarget(A);
    else if (A == "--assume-warp-reconvergence")
      Options.AssumeWarpReconvergence = true;
    else {
      Error =
          "unknown RUN-ARGS argument '" + Arg +
          "' (known: --warp-size=N, --checks=GLOBS, --target=NAME, --assume-warp-reconvergence)";
      return std::nullopt;
    }
  }
  return Options;
}

constexpr const char *RunArgsPattern = R"( RUN-ARGS(?:-([A-Z0-9_]+))?:(.*)$)";
constexpr const char *MessagePattern =
    R"( CHECK-MESSAGES(?:-([A-Z0-9_]+))?: :\[\[@LINE(?:([+-])([0-9]+))?\]\]:([0-9]+): ((?:warning|note): .*)$)";

// Each compiled once per comment style: compiling them cost more than reading
// the fixtures, and every test process reads every fixture when it starts (the
// registration of the parameterized suite), under the sanitizers too.
const std::regex &runArgsLine(const std::string &Comment) {
  static const std::regex Slashes(std::string("^//") + RunArgsPattern),
      Hash(std::string("^#") + RunArgsPattern);
  return Comment == "#" ? Hash : Slashes;
}
const std::regex &messageLine(const std::string &Comment) {
  static const std::regex Slashes(std::string("^//") + MessagePattern),
      Hash(std::string("^#") + MessagePattern);
  return Comment == "#" ? Hash : Slashes;
}

/// ".cpp" or ".py".
std::string extensionOf(const std::string &Path) { return llvm::sys::path::extension(Path).str(); }

std::string stem(const std::string &Path) {
  return Path.substr(0, Path.size() - extensionOf(Path).size());
}

/// ".fixed.cpp" or ".fixed.py".
std::string fixedExtension(const std::string &Path) { return ".fixed" + extensionOf(Path); }

std::string fixedPath(const std::string &Path, const std::string &Suffix) {
  return stem(Path) + (Suffix.empty() ? "" : "." + Suffix) + fixedExtension(Path);
}

/// Files next to the fixture that belong to no run, and old-format files.
void checkSiblings(Fixture &F) {
  std::string Case = llvm::sys::path::filename(stem(F.Path)).str();
  std::string Fixed = fixedExtension(F.Path);
  for (const std::string &File : listFiles(llvm::sys::path::parent_path(F.Path).str(), Fixed)) {
    llvm::StringRef Name = llvm::sys::path::filename(File);
    if (!Name.consume_front(Case + ".") || Name == Fixed.substr(1))
      continue;
    std::string Suffix = Name.drop_back(Fixed.size()).str();
    if (Suffix.find('.') == std::string::npos && !F.run(Suffix))
      F.Errors.push_back(File + ": no RUN-ARGS-" + Suffix + " run in " + F.Path);
  }
  if (fileExists(stem(F.Path) + ".expected"))
    F.Errors.push_back(stem(F.Path) + ".expected: old format; the expectations are "
                                      "CHECK-MESSAGES lines now");
}

void addRun(Fixture &F, const SourceLine &L, const std::smatch &M, const std::string &Where) {
  std::string Error;
  auto Options = parseArgs(M[2].str(), Error);
  if (!L.Removed)
    F.Errors.push_back(Where + "RUN-ARGS must be on a line of its own");
  else if (!Options)
    F.Errors.push_back(Where + Error);
  else if (F.run(M[1].str()))
    F.Errors.push_back(Where + "a second run with suffix '" + M[1].str() + "'");
  else
    F.Runs.push_back({M[1].str(), llvm::StringRef(M[2].str()).trim().str(), *Options});
}

/// The expectation of line \p I, whose [[@LINE+-N]] counts lines of the file.
void addExpectation(Fixture &F, const std::vector<SourceLine> &Lines, size_t I,
                    const std::smatch &M, const std::string &Where) {
  long Offset = M[3].matched ? std::stol(M[3].str()) * (M[2] == "-" ? -1 : 1) : 0;
  long Target = static_cast<long>(I) + Offset;
  if (Target < 0 || Target >= static_cast<long>(Lines.size()) || Lines[Target].Removed) {
    F.Errors.push_back(Where + "[[@LINE" + M[2].str() + M[3].str() + "]] is not a line of code");
    return;
  }
  F.Expectations.push_back({M[1].str(), Lines[Target].InputLine,
                            static_cast<unsigned>(std::stoul(M[4].str())), M[5].str()});
}

} // namespace

Fixture loadFixture(const std::string &Path) {
  Fixture F;
  F.Path = Path;
  std::string Comment = commentOf(Path);
  std::vector<SourceLine> Lines = splitLines(readFile(Path), Comment);
  const std::regex &RunArgsLine = runArgsLine(Comment), &MessageLine = messageLine(Comment);
  for (const SourceLine &L : Lines)
    if (!L.Removed)
      F.Input += L.Code + L.Eol;
  for (size_t I = 0; I < Lines.size(); ++I) {
    const std::string &D = Lines[I].Directive;
    std::string Where = Path + ":" + std::to_string(I + 1) + ": ";
    std::smatch M;
    if (D.empty())
      continue;
    if (std::regex_match(D, M, RunArgsLine))
      addRun(F, Lines[I], M, Where);
    else if (std::regex_match(D, M, MessageLine))
      addExpectation(F, Lines, I, M, Where);
    else
      F.Errors.push_back(Where + "malformed directive (test/fixtures/README.md): " + D);
  }
  if (F.Runs.empty())
    F.Runs.push_back({});
  for (const Expectation &E : F.Expectations)
    if (!E.Suffix.empty() && !F.run(E.Suffix))
      F.Errors.push_back(Path + ": CHECK-MESSAGES-" + E.Suffix + " without a RUN-ARGS-" + E.Suffix +
                         " line");
  checkSiblings(F);
  return F;
}

std::string fixtureInput(const std::string &Path) { return loadFixture(Path).Input; }

std::vector<std::string> fixtureFiles() {
  std::vector<std::string> Files;
  for (const std::string &RuleDir : listFiles(sourceDir() + "/test/fixtures", ""))
    for (const char *Ext : {".cpp", ".py"}) // None under README.md.
      for (const std::string &File : listFiles(RuleDir, Ext))
        if (!llvm::StringRef(File).ends_with(std::string(".fixed") + Ext))
          Files.push_back(File);
  std::sort(Files.begin(), Files.end());
  return Files;
}

const FixtureRun *Fixture::run(const std::string &Suffix) const {
  for (const FixtureRun &R : Runs)
    if (R.Suffix == Suffix)
      return &R;
  return nullptr;
}

std::string Fixture::expectedFindings(const FixtureRun &Run) const {
  std::string Out;
  for (const Expectation &E : Expectations)
    if (E.Suffix.empty() || E.Suffix == Run.Suffix)
      Out += std::to_string(E.Line) + ":" + std::to_string(E.Column) + ": " + E.Text + "\n";
  return Out;
}

std::optional<std::string> Fixture::fixedFile(const FixtureRun &Run) const {
  for (const std::string &Candidate : {fixedPath(Path, Run.Suffix), fixedPath(Path, "")})
    if (fileExists(Candidate))
      return Candidate;
  return std::nullopt;
}

std::string Fixture::expectedFixed(const FixtureRun &Run) const {
  std::optional<std::string> File = fixedFile(Run);
  return File ? readFile(*File) : Input;
}

bool Fixture::expectsWarning() const {
  for (const Expectation &E : Expectations)
    if (llvm::StringRef(E.Text).starts_with("warning: "))
      return true;
  return false;
}

namespace {

/// One reported message: `LINE:COL: TEXT` of describeFindings.
struct Message {
  unsigned Line = 0, Column = 0;
  std::string Text;
  std::string Suffix; ///< The runs that report it: empty for every run.
  bool operator==(const Message &O) const {
    return Line == O.Line && Column == O.Column && Text == O.Text;
  }
};

std::optional<std::vector<Message>> messagesOf(const FileResult &Result, std::string &Error) {
  std::vector<Message> Out;
  static const std::regex Line(R"(^([0-9]+):([0-9]+): (.*)$)");
  std::istringstream In(describeFindings(Result));
  for (std::string Text; std::getline(In, Text);) {
    std::smatch M;
    if (!std::regex_match(Text, M, Line) || std::stoul(M[1].str()) == 0) {
      Error = "cannot be written as an expectation: " + Text;
      return std::nullopt;
    }
    Out.push_back({static_cast<unsigned>(std::stoul(M[1].str())),
                   static_cast<unsigned>(std::stoul(M[2].str())), M[3].str(), ""});
  }
  return Out;
}

/// Matches \p Common in order in \p All; for each element of \p All, whether
/// it is one of Common. std::nullopt: Common is not a subsequence of All.
std::optional<std::vector<bool>> matchCommon(const std::vector<Message> &Common,
                                             const std::vector<Message> &All) {
  std::vector<bool> IsCommon(All.size(), false);
  size_t Next = 0;
  for (size_t I = 0; I < All.size() && Next < Common.size(); ++I)
    if (All[I] == Common[Next]) {
      IsCommon[I] = true;
      ++Next;
    }
  if (Next != Common.size())
    return std::nullopt;
  return IsCommon;
}

/// The messages of every run, merged into one list in which each run's own
/// messages (suffixed) and the common ones (unsuffixed) keep its order.
std::optional<std::vector<Message>>
mergeRuns(const Fixture &F, const std::vector<std::vector<Message>> &PerRun, std::string &Error) {
  std::vector<Message> Common;
  if (const FixtureRun *Plain = F.run("")) {
    Common = PerRun[Plain - F.Runs.data()];
  } else {
    std::vector<size_t> Cursor(PerRun.size(), 0);
    for (const Message &M : PerRun[0]) {
      std::vector<size_t> Found(PerRun.size(), 0);
      bool Everywhere = true;
      for (size_t R = 1; R < PerRun.size() && Everywhere; ++R) {
        size_t At = Cursor[R];
        while (At < PerRun[R].size() && !(PerRun[R][At] == M))
          ++At;
        Everywhere = At < PerRun[R].size();
        Found[R] = At + 1;
      }
      if (!Everywhere)
        continue;
      Common.push_back(M);
      for (size_t R = 1; R < PerRun.size(); ++R)
        Cursor[R] = Found[R];
    }
  }
  // Segments[R][J]: run R's own messages before common message J.
  std::vector<std::vector<std::vector<Message>>> Segments(PerRun.size());
  for (size_t R = 0; R < PerRun.size(); ++R) {
    auto IsCommon = matchCommon(Common, PerRun[R]);
    if (!IsCommon) {
      Error = "the run without suffix reports messages that run '" + F.Runs[R].Suffix +
              "' does not: give every run a suffix";
      return std::nullopt;
    }
    Segments[R].resize(Common.size() + 1);
    size_t J = 0;
    for (size_t I = 0; I < PerRun[R].size(); ++I) {
      if ((*IsCommon)[I]) {
        ++J;
        continue;
      }
      Message Own = PerRun[R][I];
      Own.Suffix = F.Runs[R].Suffix;
      Segments[R][J].push_back(Own);
    }
  }
  std::vector<Message> Merged;
  for (size_t J = 0; J <= Common.size(); ++J) {
    for (size_t R = 0; R < PerRun.size(); ++R)
      Merged.insert(Merged.end(), Segments[R][J].begin(), Segments[R][J].end());
    if (J < Common.size())
      Merged.push_back(Common[J]);
  }
  return Merged;
}

/// Writes or removes \p Path so that it holds \p Text.
void putFile(const std::string &Path, const std::optional<std::string> &Text) {
  if (Text)
    writeFile(Path, *Text);
  else if (fileExists(Path))
    llvm::sys::fs::remove(Path);
}

/// <case>.fixed.cpp serves every run without a file of its own.
void updateFixedFiles(const Fixture &F, const std::vector<RunOutput> &Outputs) {
  std::optional<std::string> Shared;
  if (const FixtureRun *Plain = F.run("")) {
    Shared = Outputs[Plain - F.Runs.data()].Fixed;
  } else {
    Shared = Outputs[0].Fixed;
    for (const RunOutput &O : Outputs)
      if (O.Fixed != Shared)
        Shared.reset();
  }
  putFile(fixedPath(F.Path, ""), Shared);
  for (const RunOutput &O : Outputs) {
    if (O.Suffix.empty())
      continue;
    const std::string &Fallback = Shared ? *Shared : F.Input;
    const std::string &Actual = O.Fixed ? *O.Fixed : F.Input;
    putFile(fixedPath(F.Path, O.Suffix),
            Actual == Fallback ? std::nullopt : std::optional<std::string>(Actual));
  }
  std::string Case = llvm::sys::path::filename(stem(F.Path)).str();
  std::string Fixed = fixedExtension(F.Path);
  for (const std::string &File : listFiles(llvm::sys::path::parent_path(F.Path).str(), Fixed)) {
    llvm::StringRef Name = llvm::sys::path::filename(File);
    if (Name.consume_front(Case + ".") && Name != Fixed.substr(1) &&
        !F.run(Name.drop_back(Fixed.size()).str()))
      putFile(File, std::nullopt);
  }
}

} // namespace

std::string updateFixture(const Fixture &F, const std::vector<RunOutput> &Outputs) {
  std::string Error;
  std::vector<std::vector<Message>> PerRun;
  for (const RunOutput &O : Outputs) {
    auto Messages = messagesOf(O.Result, Error);
    if (!Messages)
      return Error;
    PerRun.push_back(*Messages);
  }
  auto Merged = mergeRuns(F, PerRun, Error);
  if (!Merged)
    return Error;

  std::string Comment = commentOf(F.Path);
  std::vector<SourceLine> Lines = splitLines(readFile(F.Path), Comment);
  const std::regex &MessageLine = messageLine(Comment);
  std::vector<const SourceLine *> Code; // By Input line, from 1.
  Code.push_back(nullptr);
  for (const SourceLine &L : Lines)
    if (!L.Removed)
      Code.push_back(&L);
  // Each message goes after its line, or after the previous message where
  // the output's order puts it later (a note before its warning).
  std::map<unsigned, std::vector<Message>> After;
  unsigned Last = 0;
  for (const Message &M : *Merged) {
    if (M.Line >= Code.size())
      return "line " + std::to_string(M.Line) + " is past the end: " + M.Text;
    Last = std::max(Last, M.Line);
    After[Last].push_back(M);
  }

  std::string Out;
  unsigned OutLine = 0;
  std::vector<unsigned> OutLineOf(Code.size(), 0);
  for (const SourceLine &L : Lines) {
    if (!L.Removed) {
      const std::vector<Message> &Block = After[L.InputLine];
      Out += L.Code + (L.Eol.empty() && !Block.empty() ? "\n" : L.Eol);
      OutLineOf[L.InputLine] = ++OutLine;
      for (const Message &M : Block) {
        const SourceLine &Anchor = *Code[M.Line];
        std::string Indent = Anchor.Code.substr(0, Anchor.Code.find_first_not_of(" \t"));
        ++OutLine;
        Out += Indent + Comment + " CHECK-MESSAGES" + (M.Suffix.empty() ? "" : "-" + M.Suffix) +
               ": :[[@LINE-" + std::to_string(OutLine - OutLineOf[M.Line]) +
               "]]:" + std::to_string(M.Column) + ": " + M.Text + (L.Eol.empty() ? "\n" : L.Eol);
      }
    } else if (!std::regex_match(L.Directive, MessageLine)) {
      Out += L.Directive + L.Eol; // RUN-ARGS lines stay.
      ++OutLine;
    }
  }
  writeFile(F.Path, Out);
  updateFixedFiles(F, Outputs);
  return "";
}

} // namespace kernel_tidy::test
