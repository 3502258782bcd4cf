//===--- FixEdits.cpp - Edits that never lose the user's code -------------===//

#include "rules/FixEdits.h"

#include "src/dsl/Names.h"
#include "src/dsl/Naming.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/Transformer/SourceCode.h"

using namespace clang;
namespace transformer = clang::transformer;

namespace kernel_tidy::rules {

transformer::RangeSelector userCode(transformer::RangeSelector Selector) {
  return [Selector](
             const ast_matchers::MatchFinder::MatchResult &Result) -> Expected<CharSourceRange> {
    Expected<CharSourceRange> Range = Selector(Result);
    if (!Range)
      return Range.takeError();
    const SourceManager &SM = *Result.SourceManager;
    const LangOptions &LangOpts = Result.Context->getLangOpts();
    SourceLocation Begin = Range->getBegin(), End = Range->getEnd();
    if (Begin.isMacroID()) {
      if (!dsl::isInStatementSugar(Begin, SM, LangOpts) ||
          !Lexer::isAtStartOfMacroExpansion(Begin, SM, LangOpts))
        return llvm::createStringError("the code to replace is spelled in a macro");
      Begin = SM.getExpansionLoc(Begin);
    }
    if (End.isMacroID() || Begin.isInvalid() || End.isInvalid() ||
        SM.getFileID(Begin) != SM.getFileID(End))
      return llvm::createStringError("the code to replace is spelled in a macro");
    return CharSourceRange(SourceRange(Begin, End), Range->isTokenRange());
  };
}

transformer::RangeSelector userStatements(std::string First, std::string Last) {
  return userCode(transformer::enclose(transformer::statement(std::move(First)),
                                       transformer::statement(std::move(Last))));
}

Expected<FixItHint> safeReplacement(CharSourceRange Range, StringRef Text, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LangOpts = Ctx.getLangOpts();
  Range = Lexer::makeFileCharRange(Range, SM, LangOpts);
  if (Range.isInvalid())
    return llvm::createStringError("the code to replace is spelled in a macro");
  auto [File, BeginOffset] = SM.getDecomposedLoc(Range.getBegin());
  unsigned EndOffset = SM.getFileOffset(Range.getEnd());
  StringRef Buffer = SM.getBufferData(File);
  // Lex the replaced text raw: it also sees inactive #if branches.
  Lexer Raw(SM.getLocForStartOfFile(File), LangOpts, Buffer.begin(), Buffer.begin() + BeginOffset,
            Buffer.end());
  Raw.SetCommentRetentionState(true);
  std::string Kept;
  std::string Indent = lineIndentation(Range.getBegin(), SM);
  std::string EndOfLine = lineEnding(Range.getBegin(), SM);
  Token Tok;
  bool FirstToken = true;
  for (Raw.LexFromRawLexer(Tok); Tok.isNot(tok::eof); Raw.LexFromRawLexer(Tok)) {
    unsigned Offset = SM.getFileOffset(Tok.getLocation());
    if (Offset >= EndOffset)
      break;
    // A `#` that starts a line (the range's first token included) is a directive.
    if (Tok.is(tok::hash) && (Tok.isAtStartOfLine() || FirstToken))
      return llvm::createStringError(
          "preprocessor directives sit inside the code the rewrite would replace");
    FirstToken = false;
    if (Tok.is(tok::comment)) {
      StringRef Comment = Buffer.substr(Offset, Tok.getLength());
      if (!Text.contains(Comment))
        Kept += Comment.str() + EndOfLine + Indent;
    }
  }
  return FixItHint::CreateReplacement(Range, Kept + Text.str());
}

std::string sourceText(SourceRange Range, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Chars =
      Lexer::makeFileCharRange(CharSourceRange::getTokenRange(Range), SM, Ctx.getLangOpts());
  if (Chars.isInvalid()) {
    // A user macro's argument: the text where the user spelled it.
    SourceLocation Begin = SM.getSpellingLoc(Range.getBegin());
    SourceLocation End = SM.getSpellingLoc(Range.getEnd());
    if (SM.getFileID(Begin) != SM.getFileID(End) || End < Begin)
      return "";
    Chars = CharSourceRange::getTokenRange(Begin, End);
  }
  return Lexer::getSourceText(Chars, SM, Ctx.getLangOpts()).str();
}

std::string lineIndentation(SourceLocation Loc, const SourceManager &SM) {
  Loc = SM.getExpansionLoc(Loc);
  auto [File, Offset] = SM.getDecomposedLoc(Loc);
  StringRef Buffer = SM.getBufferData(File);
  size_t LineStart = Offset == 0 ? 0 : Buffer.rfind('\n', Offset - 1);
  LineStart = LineStart == StringRef::npos ? 0 : (Offset == 0 ? 0 : LineStart + 1);
  size_t IndentEnd = LineStart;
  while (IndentEnd < Offset && (Buffer[IndentEnd] == ' ' || Buffer[IndentEnd] == '\t'))
    ++IndentEnd;
  return Buffer.substr(LineStart, IndentEnd - LineStart).str();
}

std::string lineEnding(SourceLocation Loc, const SourceManager &SM) {
  Loc = SM.getExpansionLoc(Loc);
  auto [File, Offset] = SM.getDecomposedLoc(Loc);
  StringRef Buffer = SM.getBufferData(File);
  size_t NewLine = Buffer.find('\n', Offset);
  if (NewLine != StringRef::npos && NewLine > 0 && Buffer[NewLine - 1] == '\r')
    return "\r\n";
  return "\n";
}

std::string calleeQualifier(const Expr *Call, const ASTContext &Ctx) {
  const auto *CE = dyn_cast_or_null<CallExpr>(Call->IgnoreParenImpCasts());
  if (!CE)
    return "";
  const auto *Callee = dyn_cast<DeclRefExpr>(CE->getCallee()->IgnoreImpCasts());
  if (!Callee || !Callee->getQualifierLoc())
    return "";
  return sourceText(Callee->getQualifierLoc().getSourceRange(), Ctx);
}

CodeTemplate::CodeTemplate(SourceLocation Line, const Stmt *Site, ASTContext &Ctx)
    : Site(Site), Ctx(Ctx), Break(lineEnding(Line, Ctx.getSourceManager()) +
                                  lineIndentation(Line, Ctx.getSourceManager())) {}

std::string CodeTemplate::operator()(StringRef Template, Holes Values) const {
  std::string Code;
  while (!Template.empty()) {
    size_t Hole = Template.find("{{"), Line = Template.find('\n');
    if (Line < Hole) {
      Code += Template.take_front(Line).str() + Break;
      Template = Template.drop_front(Line + 1);
      continue;
    }
    // A brace before a hole stays a brace: `{{{n}}u}` is `{` + n + `u}`.
    while (Hole != StringRef::npos && Template.substr(Hole + 2).starts_with("{"))
      ++Hole;
    Code += Template.take_front(Hole).str();
    if (Hole == StringRef::npos)
      break;
    Template = Template.drop_front(Hole + 2);
    size_t Close = Template.find("}}");
    assert(Close != StringRef::npos && "a hole without its }}");
    StringRef Name = Template.take_front(Close);
    Template = Template.drop_front(Close + 2);
    if (Name.consume_front("dsl:")) {
      Code += dsl::dslQualifier(Name, Site, Ctx, false) + Name.str();
      continue;
    }
    const auto *Value = llvm::find_if(Values, [&](const auto &V) { return V.first == Name; });
    assert(Value != Values.end() && "a hole without a value");
    if (Value != Values.end())
      Code += Value->second;
  }
  return Code;
}

/// Where the header of \p Control ends before \p Body: the `)` of a loop's or
/// an `if`'s condition, `else`, `do`.
static SourceLocation headerEnd(const Stmt *Control, const Stmt *Body, const SourceManager &SM) {
  if (const auto *For = dyn_cast<ForStmt>(Control))
    return For->getRParenLoc();
  if (const auto *Range = dyn_cast<CXXForRangeStmt>(Control))
    return Range->getRParenLoc();
  if (const auto *While = dyn_cast<WhileStmt>(Control))
    return While->getRParenLoc();
  if (const auto *Do = dyn_cast<DoStmt>(Control))
    return Do->getDoLoc();
  if (const auto *If = dyn_cast<IfStmt>(Control))
    return If->getElseLoc().isValid() &&
                   SM.isBeforeInTranslationUnit(If->getElseLoc(), Body->getBeginLoc())
               ? If->getElseLoc()
               : If->getRParenLoc();
  return {};
}

Expected<transformer::EditGenerator>
bracedBodyEdits(const Stmt *Control, const Stmt *Body,
                llvm::function_ref<std::string(StringRef Break)> Code, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LangOpts = Ctx.getLangOpts();
  SourceLocation Header = headerEnd(Control, Body, SM);
  CharSourceRange Statement = tooling::maybeExtendRange(
      CharSourceRange::getTokenRange(Body->getSourceRange()), tok::semi, Ctx);
  Statement = Lexer::makeFileCharRange(Statement, SM, LangOpts);
  if (Header.isInvalid() || Header.isMacroID() || Statement.isInvalid() ||
      SM.getFileID(Header) != SM.getFileID(Statement.getBegin()))
    return llvm::createStringError("the loop or branch is spelled in a macro");
  SourceLocation Open = Lexer::getLocForEndOfToken(Header, 0, SM, LangOpts);
  std::string HeaderIndent = lineIndentation(Header, SM);
  std::string EndOfLine = lineEnding(Header, SM);
  bool OwnLine = SM.getSpellingLineNumber(Header) != SM.getSpellingLineNumber(Statement.getBegin());
  std::string BodyIndent =
      OwnLine ? lineIndentation(Statement.getBegin(), SM) : HeaderIndent + "    ";
  std::string Lines = Code(EndOfLine + BodyIndent) + EndOfLine + HeaderIndent + "}";
  EditList Edits;
  if (OwnLine) {
    Edits.insert(Open, " {");
    Edits.change(Statement, std::move(Lines));
  } else {
    Edits.change(Statement, "{" + EndOfLine + BodyIndent + Lines);
  }
  return Edits.generator();
}

void EditList::change(CharSourceRange Range, std::string Text) {
  transformer::Edit New;
  New.Range = Range;
  New.Replacement = std::move(Text);
  Edits.push_back(std::move(New));
}

transformer::EditGenerator EditList::generator() const {
  std::vector<transformer::Edit> Joined = Edits;
  // An insertion where a replacement begins or ends joins it (one edit per
  // range for the fix applier).
  for (auto It = Joined.begin(); It != Joined.end();) {
    auto Into = llvm::find_if(Joined, [&](const transformer::Edit &Other) {
      return &Other != &*It && It->Range.getBegin() == It->Range.getEnd() &&
             Other.Range.getBegin() != Other.Range.getEnd() &&
             (Other.Range.getBegin() == It->Range.getBegin() ||
              Other.Range.getEnd() == It->Range.getBegin());
    });
    if (Into == Joined.end()) {
      ++It;
      continue;
    }
    Into->Replacement = Into->Range.getBegin() == It->Range.getBegin()
                            ? It->Replacement + Into->Replacement
                            : Into->Replacement + It->Replacement;
    It = Joined.erase(It);
  }
  return [Joined](const ast_matchers::MatchFinder::MatchResult &)
             -> llvm::Expected<llvm::SmallVector<transformer::Edit, 1>> {
    return llvm::SmallVector<transformer::Edit, 1>(Joined.begin(), Joined.end());
  };
}

} // namespace kernel_tidy::rules
