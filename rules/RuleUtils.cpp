//===--- RuleUtils.cpp - Helpers shared by kernel-tidy rules --------------===//

#include "rules/RuleUtils.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace kernel_tidy::rules {

EnclosingStatement enclosingStatement(const Expr *E, ASTContext &Ctx) {
  const Stmt *Node = E;
  for (DynTypedNodeList Parents = Ctx.getParents(*Node); !Parents.empty();
       Parents = Ctx.getParents(*Node)) {
    const auto *Parent = Parents[0].get<Stmt>();
    if (!Parent)
      return {};
    if (!isa<Expr>(Parent))
      return {Node, Parent};
    Node = Parent;
  }
  return {};
}

std::string sourceText(SourceRange Range, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Chars = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(Range), SM, Ctx.getLangOpts());
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

/// True if \p Loc is the expansion of a DSL sugar macro that starts a
/// statement, whose body the user writes outside the macro.
static bool isStatementSugar(SourceLocation Loc, const SourceManager &SM,
                             const LangOptions &LangOpts) {
  if (!Loc.isMacroID())
    return false;
  StringRef Name = Lexer::getImmediateMacroName(Loc, SM, LangOpts);
  return Name == "$for" || Name == "$if" || Name == "$while" ||
         Name == "$loop";
}

std::optional<CharSourceRange>
editableStatementRange(const Stmt *First, const Stmt *Last,
                       const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LangOpts = Ctx.getLangOpts();
  SourceLocation Begin = First->getBeginLoc();
  SourceLocation End = Last->getEndLoc();
  if (Begin.isMacroID()) {
    if (!isStatementSugar(Begin, SM, LangOpts))
      return std::nullopt;
    Begin = SM.getExpansionLoc(Begin);
  }
  if (End.isMacroID() || Begin.isInvalid() || End.isInvalid())
    return std::nullopt;
  if (SM.getFileID(Begin) != SM.getFileID(End))
    return std::nullopt;
  SourceLocation AfterEnd = Lexer::getLocForEndOfToken(End, 0, SM, LangOpts);
  std::optional<Token> Next =
      Lexer::findNextToken(End, SM, LangOpts);
  if (Next && Next->is(tok::semi) && !Next->getLocation().isMacroID())
    AfterEnd = Next->getEndLoc();
  if (AfterEnd.isInvalid())
    return std::nullopt;
  return CharSourceRange::getCharRange(Begin, AfterEnd);
}

std::string lineIndentation(SourceLocation Loc, const SourceManager &SM) {
  Loc = SM.getExpansionLoc(Loc);
  auto [File, Offset] = SM.getDecomposedLoc(Loc);
  StringRef Buffer = SM.getBufferData(File);
  size_t LineStart = Buffer.rfind('\n', Offset == 0 ? 0 : Offset - 1);
  LineStart = LineStart == StringRef::npos ? 0 : LineStart + 1;
  if (Offset == 0)
    LineStart = 0;
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

SourceLocation reportLocation(SourceLocation Loc, const SourceManager &SM) {
  return SM.getExpansionLoc(Loc);
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

} // namespace kernel_tidy::rules
