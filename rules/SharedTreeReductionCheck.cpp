//===--- SharedTreeReductionCheck.cpp - luisa-shared-tree-reduction -------===//

#include "rules/SharedTreeReductionCheck.h"

#include "rules/FixEdits.h"
#include "src/dsl/Ast.h"
#include "src/dsl/Matchers.h"
#include "src/dsl/Naming.h"
#include "src/dsl/TreeReduction.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Transformer/Stencil.h"
#include "llvm/Support/MathExtras.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace kernel_tidy::dsl;
using namespace kernel_tidy::dsl::matchers;

namespace kernel_tidy::rules {

namespace {

/// The type of the Shared array \p Array as the fix can write it.
std::string sharedTypeText(const ValueDecl *Array, const Stmt *At, ASTContext &Ctx) {
  std::string Written;
  const auto *Declared = dyn_cast<DeclaratorDecl>(Array);
  if (const TypeSourceInfo *Info = Declared ? Declared->getTypeSourceInfo() : nullptr)
    Written = sourceText(Info->getTypeLoc().getSourceRange(), Ctx);
  if (!Written.empty() && Written.find("auto") == std::string::npos)
    return Written;
  PrintingPolicy Policy(Ctx.getLangOpts());
  return dslQualifier("Shared", At, Ctx, false) + "Shared<" +
         sharedElementType(Array->getType()).getAsString(Policy) + ">";
}

/// The function whose body holds \p S (through DSL and other lambdas).
const FunctionDecl *outermostFunction(const Stmt *S, ASTContext &Ctx) {
  const Stmt *Top = S;
  for (const Stmt *Up = parentStmt(Top, Ctx); Up; Up = parentStmt(Top, Ctx))
    Top = Up;
  auto Parents = Ctx.getParents(*Top);
  return Parents.empty() ? nullptr : Parents[0].get<FunctionDecl>();
}

/// " (in 'NAME', so every call site benefits)" when \p Loop is in a helper
/// function or method that kernels call, else "".
std::string helperClause(const Stmt *Loop, ASTContext &Ctx) {
  if (enclosingKernel(Loop, Ctx))
    return "";
  const Stmt *Top = Loop;
  for (const Stmt *Up = parentStmt(Top, Ctx); Up; Top = Up, Up = parentStmt(Top, Ctx))
    if (const auto *Lambda = dyn_cast<LambdaExpr>(Up); Lambda && !controlOfBody(Lambda->getBody(), Ctx))
      return ""; // A plain lambda: its callers are not followed.
  auto Parents = Ctx.getParents(*Top);
  const auto *F = Parents.empty() ? nullptr : Parents[0].get<FunctionDecl>();
  return F ? " (in '" + F->getNameAsString() + "', so every call site benefits)" : "";
}

} // namespace

void SharedTreeReductionCheck::registerMatchers(MatchFinder *Finder) {
  // Every step of a tree reduction has a barrier; the loop is found from it.
  Finder->addMatcher(syncBlock().bind("barrier"), this);
}

void SharedTreeReductionCheck::reportRunTimeBlock(const TreeReduction &Tree,
                                                  const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  Analyses &A = analyses(Ctx);
  const Stmt *Loop = Tree.Loop.Loop;
  // The strides start at half of what set_block_size got: a whole tree over
  // a block whose size the host decides.
  BlockSize Block = A.Blocks.sizeAt(Loop);
  if (Block.known() || !Block.SetBy || Block.SetBy->getNumArgs() < 1 ||
      !isSameVariable(Block.SetBy->getArg(0), Tree.Loop.HalfOf) || A.Uniformity.isDivergent(Loop))
    return;
  Diagnosis D;
  D.Loc = Ctx.getSourceManager().getExpansionLoc(Loop->getBeginLoc());
  D.Format = "shared-memory tree reduction of '%0'%3 takes %1 in each of its log2(block size) "
             "halving steps; %2 in each warp, one shared partial per warp and %2 over the "
             "partials need 2 barriers";
  D.Args = {Tree.Array->getNameAsString(),
            Tree.BarriersPerStep == 1 ? std::string("a sync_block()")
                                      : std::to_string(Tree.BarriersPerStep) + " sync_block() barriers",
            "warp_active_" + collectiveSuffix(Tree.Op).str(), helperClause(Loop, Ctx)};
  D.Kind = rewriteOf(Tree.Op, sharedElementType(Tree.Array->getType()), Ctx);
  D.Safety = FixSafety::none(Block.Why);
  emit(Result, std::move(D));
}

void SharedTreeReductionCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  Analyses &A = analyses(Ctx);
  const auto *Barrier = Result.Nodes.getNodeAs<CallExpr>("barrier");
  const auto *Body = dyn_cast_or_null<CompoundStmt>(enclosingStatement(Barrier, Ctx).Container);
  auto Tree = Body ? matchTreeReduction(Body, Ctx, A.Writes) : std::nullopt;
  // Every barrier of the loop finds it; the first one decides. A function
  // template's pattern has dependent types (a Kernel1D(...) that is not one
  // yet): its instantiations are reported, the pattern only when there are none.
  if (!Tree || !Decided.insert(Tree->Loop.Loop).second)
    return;
  if (const FunctionDecl *F = outermostFunction(Tree->Loop.Loop, Ctx);
      F && F->isDependentContext())
    if (const FunctionTemplateDecl *Template = F->getDescribedFunctionTemplate();
        Template && !Template->specializations().empty())
      return;
  const Stmt *Loop = Tree->Loop.Loop;
  if (Tree->Loop.HalfOf) {
    reportRunTimeBlock(*Tree, Result);
    return;
  }
  std::optional<int64_t> Extent = treeExtent(Tree->Loop.Values);
  if (!Extent)
    return;
  // A tree over a part of the block, or per row of a 2D block, is not the
  // block's reduction; one reached by only some threads is
  // luisa-divergent-barrier's finding.
  BlockSize Block = A.Blocks.sizeAt(Loop);
  auto Shape = Block.known();
  if (Shape ? (*Shape)[1] * (*Shape)[2] != 1 || (*Shape)[0] != *Extent
            : !llvm::isPowerOf2_64(*Extent))
    return;
  if (A.Uniformity.isDivergent(Loop))
    return;

  const SourceManager &SM = Ctx.getSourceManager();
  std::string Array = Tree->Array->getNameAsString();
  std::string Thread = sourceText(Tree->Thread->getSourceRange(), Ctx);
  std::string Collective = "warp_active_" + collectiveSuffix(Tree->Op).str();
  QualType Element = sharedElementType(Tree->Array->getType());
  int64_t Threads = *Extent;
  WarpWidth Width = widthAt(Loop, Ctx);
  // The rewrite must hold for every width the kernel may run with: one
  // partial per warp of the narrowest (indexed by warp_lane_count() at run
  // time), combined by one warp, so the narrowest warp must hold them all.
  int64_t Lanes = Width.known() ? Width.Narrowest : 0;
  int64_t Assumed = Lanes; // The narrowest warp the rewrite is right for.
  while (Assumed && Assumed * Assumed < Threads && Assumed < Width.Widest)
    Assumed *= 2;
  bool OneWarp = Shape && Lanes && Threads <= Lanes;

  Diagnosis D;
  D.Loc = SM.getExpansionLoc(Loop->getBeginLoc());
  D.Format = OneWarp ? "shared-memory tree reduction of '%0'%4 takes %1 sync_block() barriers in "
                       "%2 halving steps; the block is one warp, so %3 needs 1"
                     : "shared-memory tree reduction of '%0'%4 takes %1 sync_block() barriers in "
                       "%2 halving steps; %3 in each warp, one shared partial per warp and %3 "
                       "over the partials need 2";
  D.Args = {Array, std::to_string(Tree->BarriersPerStep * Tree->Loop.Values.size()),
            std::to_string(Tree->Loop.Values.size()), Collective, helperClause(Loop, Ctx)};
  D.Kind = rewriteOf(Tree->Op, Element, Ctx);

  TreeLeftovers Left = leftoversOf(*Tree, Ctx);
  FixSafety Safety = FixSafety::safe();
  if (!Shape)
    Safety = FixSafety::none(Block.Why);
  else if (!llvm::isPowerOf2_64(Threads))
    Safety = FixSafety::none("the kernel's block size (" + std::to_string(Threads) +
                             " threads) is not a power of two, so the halving strides leave "
                             "slots out of the tree");
  else if (!Lanes)
    Safety = FixSafety::none(Width.whyUnknown());
  else if (Threads > Assumed * Assumed)
    Safety = FixSafety::none("the block has " + std::to_string(Threads / Assumed) +
                             " warps, more partials than one warp of " +
                             std::to_string(Assumed) + " lanes can combine");
  else if (Left.ArrayEscapes)
    Safety = FixSafety::none("'" + Array + "' is reached through a pointer, a reference or a "
                             "member, so the rule cannot see its other uses");
  else if (Left.OtherRead) {
    Safety = FixSafety::none("'" + Array + "' is read at another index than 0 after the "
                             "reduction, where the tree leaves partial results");
    D.Notes.emplace_back(SM.getExpansionLoc(Left.OtherRead->getBeginLoc()),
                         "'" + Array + "' is read here after the reduction");
  } else if (Left.VariableUse) {
    const auto *Var = cast<DeclRefExpr>(Left.VariableUse)->getDecl();
    Safety = FixSafety::none("'" + Var->getNameAsString() + "' is used after the reduction, "
                             "and the rewrite does not leave in it what the loop does");
    D.Notes.emplace_back(SM.getExpansionLoc(Left.VariableUse->getBeginLoc()),
                         "'" + Var->getNameAsString() + "' is used here after the reduction");
  } else if ((Tree->Op == CombineOp::Sum || Tree->Op == CombineOp::Product) &&
             isFloatingValue(Element))
    Safety = FixSafety::unsafe(Collective + " combines the floating-point values in another "
                               "order than the tree, so the result can differ by rounding");
  // The operation comes from a call in code every instantiation shares, and
  // another instantiation may pass another one (a ReduceOp template argument).
  if (Safety.K != FixSafety::None && Tree->CombineHelper && isInTemplateInstantiation(Loop, Ctx))
    Safety = FixSafety::none("the combining operation is a call in code instantiated from a "
                             "template, which other instantiations share with other operations");
  if (Assumed > Lanes)
    Safety.addHazard("the fix assumes warps of at least " + std::to_string(Assumed) +
                     " lanes (one warp combines the " + std::to_string(Threads / Assumed) +
                     " partials), but " + Width.RangeWhy);

  std::string Replacement;
  bool Spelled = !Thread.empty() && PP && PP->isMacroDefined("$if");
  if (Safety.K != FixSafety::None && Spelled) {
    std::string Indent = lineIndentation(D.Loc, SM);
    std::string NL = lineEnding(D.Loc, SM) + Indent;
    auto Q = [&](StringRef Name) { return dslQualifier(Name, Loop, Ctx, false) + Name.str(); };
    std::string Suffix = collectiveSuffix(Tree->Op).str();
    std::string Partial = freshName("warp_" + Suffix, Loop, Ctx);
    std::string Own = Array + "[" + Thread + "]";
    if (OneWarp) {
      Replacement = "auto " + Partial + " = " + Q(Collective) + "(" + Own + ");" + NL +
                    "$if (" + Thread + " == 0u) { " + Array + "[0u] = " + Partial + "; };" + NL +
                    Q("sync_block") + "();";
    } else {
      std::string Slots = freshName("warp_results", Loop, Ctx);
      std::string Total = freshName("block_" + Suffix, Loop, Ctx);
      std::string LaneCount = Q("warp_lane_count") + "()";
      Replacement =
          sharedTypeText(Tree->Array, Loop, Ctx) + " " + Slots + "{" +
          std::to_string(std::max<int64_t>(Threads / Assumed, 1)) + "u};" + NL + "auto " +
          Partial + " = " +
          Q(Collective) + "(" + Own + ");" + NL + "$if (" + Q("warp_is_first_active_lane") +
          "()) { " + Slots + "[" + Thread + " / " + LaneCount + "] = " + Partial + "; };" + NL +
          Q("sync_block") + "();" + NL + "$if (" + Thread + " < " + std::to_string(Threads) +
          "u / " + LaneCount + ") {" + NL + "    auto " + Total + " = " + Q(Collective) + "(" +
          Slots + "[" + Thread + "]);" + NL + "    $if (" + Thread + " == 0u) { " + Array +
          "[0u] = " + Total + "; };" + NL + "};" + NL + Q("sync_block") + "();";
    }
    D.bind("loop", Loop);
    D.Edit = transformer::edit(
        transformer::changeTo(userStatements("loop", "loop"), transformer::cat(Replacement)));
  } else if (Safety.K != FixSafety::None) {
    Safety = FixSafety::none("the thread index is spelled in a macro, or the DSL's $if is not "
                             "available");
  }
  D.Safety = std::move(Safety);
  emit(Result, std::move(D));
}

} // namespace kernel_tidy::rules
