//===--- Nolint.cpp - NOLINT comments at the current findings -------------===//

#include "src/driver/Nolint.h"

#include "src/driver/CuteFrontend.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include <map>
#include <set>

namespace kernel_tidy {
namespace {

/// What a comment at the end of a C++ line would meet there.
struct LineEnd {
  size_t At = 0;                      ///< Offset of the line's end (its line break or EOF).
  bool Continues = false;             ///< A raw string goes on, or a backslash joins the next line.
  size_t Comment = std::string::npos; ///< Offset of a `//` comment that ends the line.
};

bool isIdentifierChar(char C) { return llvm::isAlnum(C) || C == '_'; }

/// The length of the line break at \p I of \p Text: CR LF, LF or a lone CR
/// (Clang's line breaks); 0 if none.
size_t lineBreakAt(llvm::StringRef Text, size_t I) {
  if (I >= Text.size())
    return 0;
  if (Text[I] == '\n')
    return 1;
  if (Text[I] == '\r')
    return I + 1 < Text.size() && Text[I + 1] == '\n' ? 2 : 1;
  return 0;
}

/// The ends of \p Text's lines (Clang's: CR LF, LF or a lone CR), scanning
/// C++ tokens that can span lines: comments, string and character literals,
/// raw strings. What this misses, lexesTheSame() catches.
std::vector<LineEnd> cppLineEnds(llvm::StringRef Text) {
  std::vector<LineEnd> Ends;
  bool InBlock = false, InRaw = false;
  std::string RawEnd; // ")delim\""
  size_t I = 0;
  while (true) {
    size_t Eol = Text.find_first_of("\r\n", I);
    if (Eol == llvm::StringRef::npos)
      Eol = Text.size();
    LineEnd End;
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
        End.Comment = J;
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
    End.At = Eol;
    // A backslash followed by blanks is a line splice too (Clang and GCC).
    End.Continues = InRaw || Text.slice(I, Eol).rtrim(" \t\v\f").ends_with("\\");
    Ends.push_back(End);
    if (Eol == Text.size())
      break;
    I = Eol + lineBreakAt(Text, Eol);
  }
  return Ends;
}

/// One token as the raw lexer sees it: what it is, where its line starts.
struct RawToken {
  clang::tok::TokenKind Kind;
  bool StartsLine;
  std::string Text;
  bool operator==(const RawToken &O) const {
    return Kind == O.Kind && StartsLine == O.StartsLine && Text == O.Text;
  }
};

/// \p Text's tokens, comments left out, lexed raw (no preprocessing) as C++.
std::vector<RawToken> rawTokens(llvm::StringRef Source) {
  const std::string Text = Source.str(); // The lexer reads up to a null byte past the end.
  clang::LangOptions Lang;
  Lang.CPlusPlus = Lang.CPlusPlus11 = Lang.CPlusPlus14 = Lang.CPlusPlus17 = 1;
  Lang.LineComment = 1;
  Lang.Bool = 1;
  clang::Lexer Lex(clang::SourceLocation(), Lang, Text.data(), Text.data(),
                   Text.data() + Text.size());
  std::vector<RawToken> Tokens;
  clang::Token Tok;
  while (true) {
    Lex.LexFromRawLexer(Tok);
    if (Tok.is(clang::tok::eof))
      return Tokens;
    // The lexer stands just past the token, whose length counts its stored
    // bytes (line splices included).
    const char *After = Lex.getBufferLocation();
    Tokens.push_back(
        {Tok.getKind(), Tok.isAtStartOfLine(), std::string(After - Tok.getLength(), After)});
  }
}

std::string withInsertions(llvm::StringRef Text, const std::vector<NolintInsertion> &Inserts) {
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

} // namespace

bool lexesTheSame(llvm::StringRef Before, llvm::StringRef After) {
  return rawTokens(Before) == rawTokens(After);
}

namespace {

/// The insertions for a .py file, at the places Python's tokenizer found
/// (the frontend ran it): one per line end, rules of findings on the same
/// line joined.
std::vector<NolintInsertion> pythonInsertions(const FileResult &Result,
                                              std::vector<std::string> &Skipped) {
  std::map<std::pair<unsigned, bool>, std::set<std::string>> RulesAt;
  for (const Finding &F : Result.Findings) {
    if (F.File != Result.File || F.Begin.Line == 0)
      continue;
    if (F.Nolint && F.Nolint->Possible) {
      RulesAt[{F.Nolint->Offset, F.Nolint->JoinsList}].insert(F.Rule);
      continue;
    }
    std::string Why = F.Nolint ? "the line goes on into the next one (a string, or a "
                                 "backslash), so a comment at its end would change the code"
                               : "the CuTe DSL frontend did not say where its line ends";
    std::string Entry =
        Result.File + ":" + std::to_string(F.Begin.Line) + ": no NOLINT comment added: " + Why;
    if (!llvm::is_contained(Skipped, Entry))
      Skipped.push_back(std::move(Entry));
  }
  std::vector<NolintInsertion> Inserts;
  for (const auto &[Place, Rules] : RulesAt) {
    std::string List = llvm::join(Rules, ", ");
    // After any comment there: a pragma read from the comment's start
    // (`# type: ignore[...]`, `# noqa: ...`) keeps its place.
    Inserts.push_back({Place.first, Place.second ? ", " + List : "  # NOLINT(" + List + ")"});
  }
  return Inserts;
}

} // namespace

std::vector<NolintInsertion> nolintInsertions(const FileResult &Result,
                                              std::vector<std::string> &Skipped) {
  if (isPythonFile(Result.File))
    return pythonInsertions(Result, Skipped);
  std::map<unsigned, std::set<std::string>> RulesOnLine;
  for (const Finding &F : Result.Findings)
    if (F.File == Result.File && F.Begin.Line > 0)
      RulesOnLine[F.Begin.Line].insert(F.Rule);
  if (RulesOnLine.empty())
    return {};
  llvm::StringRef Text = Result.Original;
  std::vector<LineEnd> Ends = cppLineEnds(Text);
  std::vector<NolintInsertion> Inserts; // In the order of the text, as the lines.
  std::vector<unsigned> LineOf;         // Of each insertion.
  auto Skip = [&](unsigned Line, const std::string &Why) {
    Skipped.push_back(Result.File + ":" + std::to_string(Line) +
                      ": no NOLINT comment added: " + Why);
  };
  for (const auto &[Line, Rules] : RulesOnLine) {
    if (Line > Ends.size()) {
      Skip(Line, "the line is past the end of the file");
      continue;
    }
    const LineEnd &End = Ends[Line - 1];
    if (End.Continues) {
      Skip(Line, "the line goes on into the next one (a string, or a backslash), so a comment "
                 "at its end would change the code");
      continue;
    }
    std::string List = llvm::join(Rules, ", ");
    // Before a `//` comment that ends the line, as a block comment: the line
    // comment stays as it was (`// clang-format off` is read whole).
    if (End.Comment != std::string::npos)
      Inserts.push_back({End.Comment, "/* NOLINT(" + List + ") */ "});
    else
      Inserts.push_back({End.At, " // NOLINT(" + List + ")"});
    LineOf.push_back(Line);
  }
  if (Inserts.empty() || lexesTheSame(Text, withInsertions(Text, Inserts)))
    return Inserts;
  // Re-lexed like a fix: a comment that changes the tokens (a line splice
  // the scan missed) is not inserted.
  std::vector<NolintInsertion> Kept;
  for (size_t I = 0; I < Inserts.size(); ++I) {
    if (lexesTheSame(Text, withInsertions(Text, {Inserts[I]})))
      Kept.push_back(Inserts[I]);
    else
      Skip(LineOf[I], "a comment at its end would change how the file is read (a line splice)");
  }
  if (!lexesTheSame(Text, withInsertions(Text, Kept))) {
    for (unsigned Line : LineOf)
      Skip(Line, "the comments together would change how the file is read");
    return {};
  }
  return Kept;
}

std::string withNolintComments(const FileResult &Result, unsigned &Added,
                               std::vector<std::string> &Skipped) {
  std::vector<NolintInsertion> Inserts = nolintInsertions(Result, Skipped);
  Added = Inserts.size();
  return withInsertions(Result.Original, Inserts);
}

} // namespace kernel_tidy
