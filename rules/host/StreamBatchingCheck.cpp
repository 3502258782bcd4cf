//===--- StreamBatchingCheck.cpp - luisa-stream-batching ------------------===//

#include "rules/host/StreamBatchingCheck.h"

#include "rules/FixEdits.h"
#include "src/dsl/Ast.h"
#include "src/dsl/Naming.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace kernel_tidy::dsl;

namespace kernel_tidy::rules {

namespace {

/// An edit generator that returns \p Edits whatever the match.
transformer::EditGenerator fixed(llvm::SmallVector<transformer::Edit, 1> Edits) {
  return [Edits](const MatchFinder::MatchResult &) -> Expected<decltype(Edits)> { return Edits; };
}

transformer::Edit replace(CharSourceRange Range, std::string Text) {
  transformer::Edit E;
  E.Range = Range;
  E.Replacement = std::move(Text);
  return E;
}

/// The token after \p Loc if it is \p Kind.
std::optional<Token> tokenAfter(SourceLocation Loc, tok::TokenKind Kind, const ASTContext &Ctx) {
  std::optional<Token> Next = Lexer::findNextToken(Loc, Ctx.getSourceManager(), Ctx.getLangOpts());
  if (!Next || !Next->is(Kind))
    return std::nullopt;
  return Next;
}

/// True if a loop around \p S, in the same function, is batchable.
bool insideBatchableLoop(const Stmt *S, ASTContext &Ctx) {
  for (const Stmt *Parent = parentStmt(S, Ctx); Parent && !isa<LambdaExpr>(Parent);
       Parent = parentStmt(Parent, Ctx))
    if (isa<ForStmt, CXXForRangeStmt, WhileStmt, DoStmt>(Parent) && asBatchableLoop(Parent, Ctx))
      return true;
  return false;
}

/// The location just after the `}` or `;` that ends the loop \p Loop.
SourceLocation endOfStatement(const Stmt *Loop, const ASTContext &Ctx) {
  const Stmt *Body = isa<ForStmt>(Loop)           ? cast<ForStmt>(Loop)->getBody()
                     : isa<CXXForRangeStmt>(Loop) ? cast<CXXForRangeStmt>(Loop)->getBody()
                     : isa<WhileStmt>(Loop)       ? cast<WhileStmt>(Loop)->getBody()
                                                  : nullptr; // do ... while (c);
  if (Body && isa<CompoundStmt>(Body))
    return Lexer::getLocForEndOfToken(Loop->getEndLoc(), 0, Ctx.getSourceManager(),
                                      Ctx.getLangOpts());
  std::optional<Token> Semi = tokenAfter(Loop->getEndLoc(), tok::semi, Ctx);
  return Semi ? Semi->getEndLoc() : SourceLocation();
}

} // namespace

void StreamBatchingCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(compoundStmt(unless(isExpansionInSystemHeader())).bind("block"), this);
  Finder->addMatcher(stmt(anyOf(forStmt(), cxxForRangeStmt(), whileStmt(), doStmt()),
                          unless(isExpansionInSystemHeader()))
                         .bind("loop"),
                     this);
}

void StreamBatchingCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  if (const auto *Block = Result.Nodes.getNodeAs<CompoundStmt>("block")) {
    std::vector<std::vector<StreamSubmission>> Runs = chainableRuns(Block, Ctx);
    // In a loop that one CommandList can batch, the loop's finding covers them.
    if (!Runs.empty() && !insideBatchableLoop(Block, Ctx))
      for (const std::vector<StreamSubmission> &Run : Runs)
        checkRun(Result, Run);
    return;
  }
  const auto *Loop = Result.Nodes.getNodeAs<Stmt>("loop");
  if (std::optional<BatchableLoop> Batch = asBatchableLoop(Loop, Ctx))
    if (!insideBatchableLoop(Loop, Ctx)) // Only the outermost one.
      checkLoop(Result, *Batch);
}

void StreamBatchingCheck::checkRun(const MatchFinder::MatchResult &Result,
                                   const std::vector<StreamSubmission> &Run) {
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = Ctx.getSourceManager();
  Diagnosis D;
  D.Loc = Run.front().Statement->getBeginLoc();
  D.Format = "%0 consecutive statements submit to stream '%1' one command list each; chain "
             "them into one statement to submit once";
  D.Args = {std::to_string(Run.size()), sourceText(Run.front().Stream->getSourceRange(), Ctx)};
  D.Highlight = CharSourceRange::getTokenRange(Run.front().Statement->getSourceRange());
  // Each later statement continues the first: the `;` before it and its
  // stream go, its `<<` lines up under the first one's. Comments between
  // them stay where they are; blank lines go.
  SourceLocation FirstShift = Run.front().FirstShift->getOperatorLoc();
  std::string Indent = lineIndentation(FirstShift, SM);
  unsigned Column = SM.getSpellingColumnNumber(FirstShift) - 1;
  std::string Continuation = lineEnding(FirstShift, SM) + Indent +
                             std::string(Column > Indent.size() ? Column - Indent.size() : 0, ' ');
  llvm::SmallVector<transformer::Edit, 1> Edits;
  for (size_t I = 1; I < Run.size(); ++I) {
    std::optional<Token> Semi = tokenAfter(Run[I - 1].Statement->getEndLoc(), tok::semi, Ctx);
    if (!Semi) {
      Edits.clear();
      break;
    }
    SourceLocation Begin = Run[I].Statement->getBeginLoc();
    SourceLocation Shift = Run[I].FirstShift->getOperatorLoc();
    D.Notes.emplace_back(Begin, "submitted separately here");
    bool OnlySpace = Lexer::getSourceText(CharSourceRange::getCharRange(Semi->getEndLoc(), Begin),
                                          SM, Ctx.getLangOpts())
                         .trim()
                         .empty();
    if (OnlySpace) {
      Edits.push_back(
          replace(CharSourceRange::getCharRange(Semi->getLocation(), Shift), Continuation));
      continue;
    }
    Edits.push_back(replace(CharSourceRange::getTokenRange(Semi->getLocation()), ""));
    unsigned At = SM.getSpellingColumnNumber(Begin) - 1;
    Edits.push_back(replace(CharSourceRange::getCharRange(Begin, Shift),
                            std::string(Column > At ? Column - At : 0, ' ')));
  }
  D.Safety =
      Edits.empty() ? FixSafety::none("a statement does not end with ';'") : FixSafety::safe();
  if (!Edits.empty())
    D.Edit = fixed(std::move(Edits));
  emit(Result, std::move(D));
}

void StreamBatchingCheck::checkLoop(const MatchFinder::MatchResult &Result,
                                    const BatchableLoop &Batch) {
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = Ctx.getSourceManager();
  const Stmt *Loop = Batch.Loop;
  std::string Stream = sourceText(Batch.Submissions.front().Stream->getSourceRange(), Ctx);
  Diagnosis D;
  D.Loc = Loop->getBeginLoc();
  D.Format = "this loop submits to stream '%0' once per iteration; fill one CommandList in "
             "the loop and submit it once after the loop";
  D.Args = {Stream};
  D.Highlight = CharSourceRange::getTokenRange(Loop->getBeginLoc());
  for (const StreamSubmission &Sub : Batch.Submissions)
    D.Notes.emplace_back(Sub.Statement->getBeginLoc(), "submitted in every iteration here");
  // The list is declared before the loop and committed after it.
  const Stmt *Parent = parentStmt(Loop, Ctx);
  SourceLocation End = endOfStatement(Loop, Ctx);
  if (!Parent || !isa<CompoundStmt>(Parent) || End.isInvalid()) {
    D.Safety = FixSafety::none("the loop is not a statement of a block, so there is no place "
                               "for the list before it");
    emit(Result, std::move(D));
    return;
  }
  // Names are taken per function: two loops of one function get two lists.
  std::string Name = freshName("commands", Loop, Ctx);
  std::string Indent = lineIndentation(Loop->getBeginLoc(), SM);
  std::string EndOfLine = lineEnding(Loop->getBeginLoc(), SM);
  llvm::SmallVector<transformer::Edit, 1> Edits;
  Edits.push_back(replace(CharSourceRange::getCharRange(Loop->getBeginLoc(), Loop->getBeginLoc()),
                          "auto " + Name + " = " + dslQualifier("CommandList", Loop, Ctx, false) +
                              "CommandList::create();" + EndOfLine + Indent));
  for (const StreamSubmission &Sub : Batch.Submissions)
    Edits.push_back(replace(CharSourceRange::getTokenRange(Sub.Stream->getSourceRange()), Name));
  Edits.push_back(replace(CharSourceRange::getCharRange(End, End),
                          EndOfLine + Indent + Stream + " << " + Name + ".commit();"));
  D.Edit = fixed(std::move(Edits));
  std::string Why = "the GPU gets the first command only after the last iteration, and the "
                    "list holds every iteration's commands until then";
  if (Batch.HeaderCall)
    Why += "; the host work of the loop header ('" +
           sourceText(Batch.HeaderCall->getSourceRange(), Ctx) +
           "') no longer overlaps the GPU work";
  D.Safety = FixSafety::unsafe(Why);
  emit(Result, std::move(D));
}

} // namespace kernel_tidy::rules
