//===--- FixInvariants.cpp - What every fix of every input must keep -----===//

#include "test/unit/FixInvariants.h"

#include "src/driver/FixApplier.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Lex/Lexer.h"
#include <map>

namespace kernel_tidy::test {

std::vector<std::string> commentsAndDirectives(llvm::StringRef Text) {
  clang::LangOptions Lang;
  Lang.CPlusPlus = Lang.CPlusPlus11 = Lang.CPlusPlus14 = Lang.CPlusPlus17 = true;
  clang::Lexer Raw(clang::SourceLocation(), Lang, Text.begin(), Text.begin(), Text.end());
  Raw.SetCommentRetentionState(true);
  std::vector<std::string> Found;
  clang::Token Tok;
  for (bool AtEnd = false; !AtEnd;) {
    AtEnd = Raw.LexFromRawLexer(Tok);
    if (Tok.is(clang::tok::eof))
      break;
    const char *End = Raw.getBufferLocation();
    const char *Begin = End - Tok.getLength();
    if (Tok.is(clang::tok::comment)) {
      Found.emplace_back(Begin, End);
    } else if (Tok.is(clang::tok::hash) && Tok.isAtStartOfLine()) {
      // The directive's line, without what a comment after it adds.
      llvm::StringRef Line = Text.substr(Begin - Text.begin());
      Line = Line.take_until([](char C) { return C == '\n'; });
      Line = Line.take_front(Line.find("//")).take_front(Line.find("/*")).rtrim();
      Found.push_back(Line.str());
    }
  }
  return Found;
}

namespace {

/// The entries of \p Before that \p After has fewer of.
std::vector<std::string> lost(const std::vector<std::string> &Before,
                              const std::vector<std::string> &After) {
  std::map<std::string, int> Count;
  for (const std::string &S : After)
    ++Count[S];
  std::vector<std::string> Missing;
  for (const std::string &S : Before)
    if (--Count[S] < 0)
      Missing.push_back(S);
  return Missing;
}

} // namespace

InvariantOutcome checkFixInvariants(Analyzer &Analyzer, const std::string &Path,
                                    const std::string &Text) {
  InvariantOutcome Outcome;
  FileResult Result = Analyzer.analyze(Path, Text);
  Outcome.Findings = Result.Findings.size();
  Outcome.Parsed = Result.Errors.empty();
  for (const Finding &F : Result.Findings)
    if (F.File == Path && (F.Begin.Offset > Text.size() || F.End.Offset > Text.size() ||
                           F.Begin.Offset > F.End.Offset))
      Outcome.Violations.push_back("finding '" + F.Message + "' lies outside the file");
  if (!Outcome.Parsed)
    return Outcome;
  applyFixes(Result, Analyzer, /*IncludeUnsafe=*/true);
  for (const std::string &Note : Result.FixNotes)
    Outcome.Violations.push_back("a fix was dropped: " + Note);
  if (!Result.Fixed || *Result.Fixed == Text)
    return Outcome;
  Outcome.Fixed = Result.FixedCount;
  const std::string &Fixed = *Result.Fixed;
  for (const std::string &Gone : lost(commentsAndDirectives(Text), commentsAndDirectives(Fixed)))
    Outcome.Violations.push_back("a fix deleted '" + Gone + "'");

  FileResult Again = Analyzer.analyze(Path, Fixed);
  if (!Again.Errors.empty()) {
    Outcome.Violations.push_back("the fixed text does not compile: " + Again.Errors[0].Message);
    return Outcome;
  }
  for (const Finding &F : Again.Findings)
    if (F.FixIt)
      Outcome.Violations.push_back("the fixed text still has a fix: " + F.Message);
  applyFixes(Again, Analyzer, /*IncludeUnsafe=*/true);
  if (Again.Fixed && *Again.Fixed != Fixed)
    Outcome.Violations.push_back("fixing the fixed text changes it again");
  return Outcome;
}

} // namespace kernel_tidy::test
