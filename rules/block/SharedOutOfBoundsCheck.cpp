//===--- SharedOutOfBoundsCheck.cpp - luisa-shared-out-of-bounds ----------===//

#include "rules/block/SharedOutOfBoundsCheck.h"

#include "rules/FixEdits.h"
#include "src/dsl/Matchers.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace kernel_tidy::dsl;
using namespace kernel_tidy::dsl::matchers;

namespace kernel_tidy::rules {

namespace {

/// The local variables an expression names.
class VariableCollector : public RecursiveASTVisitor<VariableCollector> {
public:
  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      Vars.insert(Var->getCanonicalDecl());
    return true;
  }
  llvm::SmallPtrSet<const VarDecl *, 8> Vars;
};

/// True if a condition around \p Access tests a variable of \p Index (a
/// guard such as `$if (i < 4u)` may bound it).
bool guardedOnIndex(const Stmt *Access, const Expr *Index, ControlFlowAnalysis &Flow) {
  VariableCollector InIndex;
  InIndex.TraverseStmt(const_cast<Expr *>(Index));
  for (const DslControl &Control : Flow.enclosing(Access).Controls) {
    if (Control.K == DslControl::For || Control.K == DslControl::Loop)
      continue; // A device for's range is part of its variable's range.
    for (const Expr *Cond : Control.Conditions) {
      VariableCollector InCond;
      InCond.TraverseStmt(const_cast<Expr *>(Cond));
      for (const VarDecl *Var : InCond.Vars)
        if (InIndex.Vars.contains(Var))
          return true;
    }
  }
  return false;
}

std::string shapeText(const BlockSize &Size) {
  return std::to_string(Size.Shape[0]) + "x" + std::to_string(Size.Shape[1]) + "x" +
         std::to_string(Size.Shape[2]);
}

} // namespace

void SharedOutOfBoundsCheck::registerMatchers(MatchFinder *Finder) {
  auto Array = ignoringParenImpCasts(expr(hasSharedType()).bind("array"));
  Finder->addMatcher(
      expr(anyOf(cxxOperatorCallExpr(hasOverloadedOperatorName("[]"), hasArgument(0, Array),
                                     hasArgument(1, expr().bind("index"))),
                 cxxMemberCallExpr(callee(cxxMethodDecl(hasAnyName("read", "write", "atomic"))),
                                   on(Array), hasArgument(0, expr().bind("index")))))
          .bind("access"),
      this);
}

void SharedOutOfBoundsCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  const auto *Access = Result.Nodes.getNodeAs<Expr>("access");
  const auto *Array = Result.Nodes.getNodeAs<Expr>("array");
  const auto *Index = Result.Nodes.getNodeAs<Expr>("index");
  dsl::Analyses &A = analyses(Ctx);
  std::optional<int64_t> Size = A.Ranges.sharedSize(Array);
  if (!Size)
    return;
  // A thread-dependent guard or early exit may keep the index in bounds.
  const Stmt *At = anchorStatement(Access, Ctx);
  if (A.Uniformity.controlOf(At) > Variance::Block || guardedOnIndex(At, Index, A.Flow))
    return;
  std::optional<ValueRange> Range = A.Ranges.rangeOf(Index);
  if (!Range || (Range->Min >= 0 && Range->Max < *Size))
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  const VarDecl *Var = A.Ranges.sharedVariable(Array);
  BlockSize Block = A.Blocks.sizeAt(At);
  std::string IndexText = sourceText(Index->getSourceRange(), Ctx);
  Diagnosis D;
  D.Loc = SM.getFileLoc(Index->getBeginLoc());
  D.Highlight = CharSourceRange::getTokenRange(SM.getFileLoc(Index->getBeginLoc()),
                                               SM.getFileLoc(Index->getEndLoc()));
  D.Format = "out-of-bounds shared access: '%0' ranges over [%1, %2]%3, but '%4' has %5 "
             "elements";
  D.Args = {IndexText.size() > 60 ? "the index" : IndexText,
            std::to_string(Range->Min),
            std::to_string(Range->Max),
            Block.known() ? " in a " + shapeText(Block) + " block" : "",
            Var->getNameAsString(),
            std::to_string(*Size)};
  D.Safety = FixSafety::none();
  D.Notes.emplace_back(SM.getFileLoc(Var->getLocation()),
                       "'" + Var->getNameAsString() + "' is declared with " +
                           std::to_string(*Size) + " elements here");
  if (Block.From == BlockSize::Set && Block.SetBy)
    D.Notes.emplace_back(SM.getFileLoc(Block.SetBy->getBeginLoc()),
                         "the block size " + shapeText(Block) + " is set here");
  else if (Block.From == BlockSize::Default)
    D.Notes.emplace_back(D.Loc, "the kernel does not call set_block_size, so its block is "
                                "LuisaCompute's default " +
                                    shapeText(Block));
  emit(Result, std::move(D));
}

} // namespace kernel_tidy::rules
