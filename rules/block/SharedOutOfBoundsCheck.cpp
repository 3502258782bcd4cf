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

/// An index that may leave its Shared array.
struct OutOfBounds {
  const VarDecl *Array;
  int64_t Size;     ///< The array's elements.
  ValueRange Range; ///< What the index may be.
  BlockSize Block;  ///< The block the access runs in.
};

/// The facts of an \p Access to \p Array at \p Index whose index may leave the
/// array; std::nullopt where it stays in it or a guard may keep it there.
std::optional<OutOfBounds> outOfBounds(const Expr *Access, const Expr *Array, const Expr *Index,
                                       Analyses &A, ASTContext &Ctx) {
  std::optional<int64_t> Size = A.Ranges.sharedSize(Array);
  if (!Size)
    return std::nullopt;
  // A thread-dependent guard or early exit may keep the index in bounds.
  const Stmt *At = anchorStatement(Access, Ctx);
  if (A.Uniformity.controlOf(At) > Variance::Block || guardedOnIndex(At, Index, A.Flow))
    return std::nullopt;
  std::optional<ValueRange> Range = A.Ranges.rangeOf(Index);
  if (!Range || (Range->Min >= 0 && Range->Max < *Size))
    return std::nullopt;
  return OutOfBounds{A.Ranges.sharedVariable(Array), *Size, *Range, A.Blocks.sizeAt(At)};
}

/// Notes where the array of \p Found is declared and where its block size
/// comes from.
void addDeclarationNotes(Diagnosis &D, const OutOfBounds &Found, const SourceManager &SM) {
  const BlockSize &Block = Found.Block;
  D.Notes.emplace_back(SM.getFileLoc(Found.Array->getLocation()),
                       "'" + Found.Array->getNameAsString() + "' is declared with " +
                           std::to_string(Found.Size) + " elements here");
  if (Block.From == BlockSize::Set && Block.SetBy)
    D.Notes.emplace_back(SM.getFileLoc(Block.SetBy->getBeginLoc()),
                         "the block size " + shapeText(Block) + " is set here");
  else if (Block.From == BlockSize::Default)
    D.Notes.emplace_back(D.Loc, "the kernel does not call set_block_size, so its block is "
                                "LuisaCompute's default " +
                                    shapeText(Block));
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
  const auto *Index = Result.Nodes.getNodeAs<Expr>("index");
  std::optional<OutOfBounds> Found =
      outOfBounds(Result.Nodes.getNodeAs<Expr>("access"), Result.Nodes.getNodeAs<Expr>("array"),
                  Index, analyses(Ctx), Ctx);
  if (!Found)
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  std::string IndexText = sourceText(Index->getSourceRange(), Ctx);
  Diagnosis D;
  D.Loc = SM.getFileLoc(Index->getBeginLoc());
  D.Highlight = CharSourceRange::getTokenRange(SM.getFileLoc(Index->getBeginLoc()),
                                               SM.getFileLoc(Index->getEndLoc()));
  D.Format = "out-of-bounds shared access: '%0' ranges over [%1, %2]%3, but '%4' has %5 "
             "elements";
  D.Args = {IndexText.size() > 60 ? "the index" : IndexText,
            std::to_string(Found->Range.Min),
            std::to_string(Found->Range.Max),
            Found->Block.known() ? " in a " + shapeText(Found->Block) + " block" : "",
            Found->Array->getNameAsString(),
            std::to_string(Found->Size)};
  D.Safety = FixSafety::none();
  addDeclarationNotes(D, *Found, SM);
  emit(Result, std::move(D));
}

} // namespace kernel_tidy::rules
