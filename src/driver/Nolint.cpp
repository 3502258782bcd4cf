//===--- Nolint.cpp - NOLINT comments at the current findings -------------===//

#include "src/driver/Nolint.h"

#include "src/driver/CuteFrontend.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include <map>
#include <set>

namespace kernel_tidy {
namespace {

/// What a comment at the end of a line would meet there.
struct LineEnd {
  size_t At = 0;                      ///< Offset of the line's end (its '\r\n', '\n' or EOF).
  bool Continues = false;             ///< A string goes on, or a backslash joins the next line.
  size_t Comment = std::string::npos; ///< Offset of a Python comment's '#'.
};

bool isIdentifierChar(char C) { return llvm::isAlnum(C) || C == '_'; }

/// The ends of \p Text's lines, scanning C++ tokens that can span lines:
/// comments, string and character literals, raw strings.
std::vector<LineEnd> cppLineEnds(llvm::StringRef Text) {
  std::vector<LineEnd> Ends;
  bool InBlock = false, InRaw = false;
  std::string RawEnd; // ")delim\""
  size_t I = 0;
  while (I <= Text.size()) {
    size_t Eol = Text.find('\n', I);
    if (Eol == llvm::StringRef::npos)
      Eol = Text.size();
    size_t J = I;
    bool InString = false;
    char Quote = 0;
    while (J < Eol) {
      char C = Text[J];
      if (InRaw) {
        size_t Close = Text.find(RawEnd, J);
        if (Close == llvm::StringRef::npos || Close >= Eol) {
          J = Eol;
          break;
        }
        InRaw = false;
        J = Close + RawEnd.size();
      } else if (InBlock) {
        size_t Close = Text.find("*/", J);
        if (Close == llvm::StringRef::npos || Close >= Eol) {
          J = Eol;
          break;
        }
        InBlock = false;
        J = Close + 2;
      } else if (InString) {
        if (C == '\\')
          J += 2;
        else if (C == Quote)
          InString = false, ++J;
        else
          ++J;
      } else if (Text.substr(J).starts_with("//")) {
        J = Eol;
      } else if (Text.substr(J).starts_with("/*")) {
        InBlock = true, J += 2;
      } else if (C == '"' && J > 0 && Text[J - 1] == 'R' &&
                 (J < 2 || !isIdentifierChar(Text[J - 2]) ||
                  Text.substr(0, J - 1).ends_with("u8") ||
                  llvm::is_contained({'u', 'U', 'L'}, Text[J - 2]))) {
        size_t Open = Text.find('(', J);
        if (Open == llvm::StringRef::npos) {
          J = Eol;
          break;
        }
        RawEnd = ")" + Text.substr(J + 1, Open - J - 1).str() + "\"";
        InRaw = true;
        J = Open + 1;
      } else if (C == '"' || (C == '\'' && !(J > 0 && llvm::isAlnum(Text[J - 1])))) {
        InString = true, Quote = C, ++J;
      } else {
        ++J;
      }
    }
    LineEnd End;
    End.At = Eol > I && Text[Eol - 1] == '\r' && Eol < Text.size() ? Eol - 1 : Eol;
    llvm::StringRef Line = Text.slice(I, End.At);
    End.Continues = InRaw || Line.ends_with("\\");
    Ends.push_back(End);
    I = Eol + 1;
  }
  return Ends;
}

/// The same for Python: comments, strings, triple-quoted strings.
std::vector<LineEnd> pythonLineEnds(llvm::StringRef Text) {
  std::vector<LineEnd> Ends;
  llvm::StringRef Triple; // The open triple quote, if any.
  size_t I = 0;
  while (I <= Text.size()) {
    size_t Eol = Text.find('\n', I);
    if (Eol == llvm::StringRef::npos)
      Eol = Text.size();
    LineEnd End;
    bool InString = false;
    char Quote = 0;
    size_t J = I;
    while (J < Eol) {
      char C = Text[J];
      if (!Triple.empty()) {
        if (C == '\\')
          J += 2;
        else if (Text.substr(J).starts_with(Triple))
          J += 3, Triple = "";
        else
          ++J;
      } else if (InString) {
        if (C == '\\')
          J += 2;
        else if (C == Quote)
          InString = false, ++J;
        else
          ++J;
      } else if (C == '#') {
        End.Comment = J;
        break;
      } else if (Text.substr(J).starts_with("\"\"\"") || Text.substr(J).starts_with("'''")) {
        Triple = Text.substr(J, 3), J += 3;
      } else if (C == '"' || C == '\'') {
        InString = true, Quote = C, ++J;
      } else {
        ++J;
      }
    }
    End.At = Eol > I && Text[Eol - 1] == '\r' && Eol < Text.size() ? Eol - 1 : Eol;
    llvm::StringRef Line = Text.slice(I, End.At);
    End.Continues =
        !Triple.empty() || InString || (End.Comment == std::string::npos && Line.ends_with("\\"));
    Ends.push_back(End);
    I = Eol + 1;
  }
  return Ends;
}

} // namespace

std::vector<NolintInsertion> nolintInsertions(const FileResult &Result,
                                              std::vector<std::string> &Skipped) {
  std::map<unsigned, std::set<std::string>> RulesOnLine;
  for (const Finding &F : Result.Findings)
    if (F.File == Result.File && F.Begin.Line > 0)
      RulesOnLine[F.Begin.Line].insert(F.Rule);
  if (RulesOnLine.empty())
    return {};
  bool Python = isPythonFile(Result.File);
  llvm::StringRef Text = Result.Original;
  std::vector<LineEnd> Ends = Python ? pythonLineEnds(Text) : cppLineEnds(Text);
  std::vector<NolintInsertion> Inserts;
  for (const auto &[Line, Rules] : RulesOnLine) {
    auto Skip = [&, Line = Line](const std::string &Why) {
      Skipped.push_back(Result.File + ":" + std::to_string(Line) +
                        ": no NOLINT comment added: " + Why);
    };
    if (Line > Ends.size()) {
      Skip("the line is past the end of the file");
      continue;
    }
    const LineEnd &End = Ends[Line - 1];
    if (End.Continues) {
      Skip("the line goes on into the next one (a string, or a backslash), so a comment at "
           "its end would change the code");
      continue;
    }
    std::string List = llvm::join(Rules, ", ");
    if (!Python) {
      Inserts.push_back({End.At, " // NOLINT(" + List + ")"});
    } else if (End.Comment == std::string::npos) {
      Inserts.push_back({End.At, "  # NOLINT(" + List + ")"});
    } else {
      llvm::StringRef Comment = Text.slice(End.Comment + 1, End.At);
      llvm::StringRef Body = Comment.ltrim();
      size_t BodyAt = End.Comment + 1 + (Comment.size() - Body.size());
      if (Body.starts_with("NOLINT(") && Body.contains(')')) {
        // Another rule's NOLINT(...): this one joins its list.
        Inserts.push_back({BodyAt + Body.find(')'), ", " + List});
      } else if (Body.starts_with("NOLINT")) {
        Skip("its comment is a NOLINT directive of another kind");
        continue;
      } else {
        Inserts.push_back({BodyAt, std::string(Body.data() == Comment.data() ? " " : "") +
                                       "NOLINT(" + List + ") "});
      }
    }
  }
  return Inserts;
}

std::string withNolintComments(const FileResult &Result, unsigned &Added,
                               std::vector<std::string> &Skipped) {
  std::vector<NolintInsertion> Inserts = nolintInsertions(Result, Skipped);
  Added = Inserts.size();
  llvm::StringRef Text = Result.Original;
  std::string Out;
  size_t Done = 0;
  for (const NolintInsertion &Insert : Inserts) {
    Out += Text.slice(Done, Insert.Offset);
    Out += Insert.Text;
    Done = Insert.Offset;
  }
  Out += Text.substr(Done);
  return Out;
}

} // namespace kernel_tidy
