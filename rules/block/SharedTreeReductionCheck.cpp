//===--- SharedTreeReductionCheck.cpp - luisa-shared-tree-reduction -------===//

#include "rules/block/SharedTreeReductionCheck.h"

#include "rules/FixEdits.h"
#include "src/dsl/Ast.h"
#include "src/dsl/Matchers.h"
#include "src/dsl/Naming.h"
#include "rules/block/TreeReduction.h"
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
    if (const auto *Lambda = dyn_cast<LambdaExpr>(Up);
        Lambda && !controlOfBody(Lambda->getBody(), Ctx))
      return ""; // A plain lambda: its callers are not followed.
  auto Parents = Ctx.getParents(*Top);
  const auto *F = Parents.empty() ? nullptr : Parents[0].get<FunctionDecl>();
  return F ? " (in '" + F->getNameAsString() + "', so every call site benefits)" : "";
}

/// True for code in a function template's pattern that has instantiations:
/// the pattern has dependent types (a Kernel1D(...) that is not one yet), so
/// its instantiations are reported, the pattern only when there are none.
bool inInstantiatedPattern(const Stmt *S, ASTContext &Ctx) {
  const FunctionDecl *F = outermostFunction(S, Ctx);
  if (!F || !F->isDependentContext())
    return false;
  const FunctionTemplateDecl *Template = F->getDescribedFunctionTemplate();
  return Template && !Template->specializations().empty();
}

/// A tree reduction over the whole block, and the warps its rewrite needs.
struct BlockTree {
  BlockTree(const TreeReduction &Tree, int64_t Threads, const Expr *Combine, bool ShapeKnown,
            const WarpWidth &Width)
      : Tree(Tree), Threads(Threads), Combine(Combine), Lanes(Width.known() ? Width.Narrowest : 0),
        Assumed(Lanes), OneWarp(ShapeKnown && Lanes && Threads <= Lanes) {
    // The rewrite must hold for every width the kernel may run with: one
    // partial per warp of the narrowest (indexed by warp_lane_count() at run
    // time), combined by one warp, so the narrowest warp must hold them all.
    while (Assumed && Assumed * Assumed < Threads && Assumed < Width.Widest)
      Assumed *= 2;
  }

  const TreeReduction &Tree;
  int64_t Threads;
  /// For a tree that stops at several partials: the expression after it
  /// that combines them, which the rewrite replaces with slot 0.
  const Expr *Combine;
  int64_t Lanes;   ///< The narrowest warp; 0 when the width is unknown.
  int64_t Assumed; ///< The narrowest warp the rewrite is right for.
  bool OneWarp;    ///< The block is known to be one warp.
};

/// Whether the tree \p T can be rewritten, and if not why; the notes that
/// show the uses that stop it go to \p D.
FixSafety treeSafety(const BlockTree &T, const BlockSize &Block, const WarpWidth &Width,
                     Diagnosis &D, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Array = T.Tree.Array->getNameAsString();
  TreeLeftovers Left = leftoversOf(T.Tree, Ctx, T.Combine);
  FixSafety Safety = FixSafety::safe();
  if (!Block.known())
    Safety = FixSafety::none(Block.Why);
  else if (!llvm::isPowerOf2_64(T.Threads))
    Safety = FixSafety::none("the kernel's block size (" + std::to_string(T.Threads) +
                             " threads) is not a power of two, so the halving strides leave "
                             "slots out of the tree");
  else if (!T.Lanes)
    Safety = FixSafety::none(Width.whyUnknown());
  else if (T.Threads > T.Assumed * T.Assumed)
    Safety = FixSafety::none("the block has " + std::to_string(T.Threads / T.Assumed) +
                             " warps, more partials than one warp of " + std::to_string(T.Assumed) +
                             " lanes can combine");
  else if (Left.ArrayEscapes)
    Safety = FixSafety::none("'" + Array +
                             "' is reached through a pointer, a reference or a "
                             "member, so the rule cannot see its other uses");
  else if (Left.OtherRead) {
    Safety = FixSafety::none(
        T.Combine ? "'" + Array +
                        "' is used after the reduction outside the combination of its partials, "
                        "where the tree leaves other values than the rewrite"
                  : "'" + Array +
                        "' is read at another index than 0 after the "
                        "reduction, where the tree leaves partial results");
    D.Notes.emplace_back(SM.getExpansionLoc(Left.OtherRead->getBeginLoc()),
                         "'" + Array + "' is read here after the reduction");
  } else if (Left.VariableUse) {
    const auto *Var = cast<DeclRefExpr>(Left.VariableUse)->getDecl();
    Safety = FixSafety::none("'" + Var->getNameAsString() +
                             "' is used after the reduction, "
                             "and the rewrite does not leave in it what the loop does");
    D.Notes.emplace_back(SM.getExpansionLoc(Left.VariableUse->getBeginLoc()),
                         "'" + Var->getNameAsString() + "' is used here after the reduction");
  } else {
    Safety =
        reassociationSafety(T.Tree.Op, sharedElementType(T.Tree.Array->getType()),
                            collectiveName(T.Tree.Op) + " combines", "another order than the tree");
  }
  if (T.Assumed > T.Lanes)
    Safety.addHazard("the fix assumes warps of at least " + std::to_string(T.Assumed) +
                     " lanes (one warp combines the " + std::to_string(T.Threads / T.Assumed) +
                     " partials), but " + Width.RangeWhy);
  return Safety;
}

/// The code that replaces the tree's loop (at \p Loc): each warp reduces
/// its threads' values, and one warp the warps' partials.
std::string treeReplacement(const BlockTree &T, StringRef Thread, SourceLocation Loc,
                            ASTContext &Ctx) {
  const Stmt *Loop = T.Tree.Loop.Loop;
  CodeTemplate Code(Loc, Loop, Ctx);
  std::string Suffix = collectiveSuffix(T.Tree.Op).str();
  std::string Partial = freshName("warp_" + Suffix, Loop, Ctx);
  std::string Collective = Code("{{dsl:" + collectiveName(T.Tree.Op) + "}}");
  std::string Array = T.Tree.Array->getNameAsString();
  if (T.OneWarp)
    return Code("auto {{partial}} = {{collective}}({{array}}[{{thread}}]);\n"
                "$if ({{thread}} == 0u) { {{array}}[0u] = {{partial}}; };\n"
                "{{dsl:sync_block}}();",
                {{"partial", Partial},
                 {"collective", Collective},
                 {"array", Array},
                 {"thread", Thread.str()}});
  std::string Slots = freshName("warp_results", Loop, Ctx);
  std::string Total = freshName("block_" + Suffix, Loop, Ctx);
  return Code("{{shared}} {{slots}}{{{partials}}u};\n"
              "auto {{partial}} = {{collective}}({{array}}[{{thread}}]);\n"
              "$if ({{dsl:warp_is_first_active_lane}}()) { "
              "{{slots}}[{{thread}} / {{dsl:warp_lane_count}}()] = {{partial}}; };\n"
              "{{dsl:sync_block}}();\n"
              "$if ({{thread}} < {{threads}}u / {{dsl:warp_lane_count}}()) {\n"
              "    auto {{total}} = {{collective}}({{slots}}[{{thread}}]);\n"
              "    $if ({{thread}} == 0u) { {{array}}[0u] = {{total}}; };\n"
              "};\n"
              "{{dsl:sync_block}}();",
              {{"shared", sharedTypeText(T.Tree.Array, Loop, Ctx)},
               {"slots", Slots},
               {"partials", std::to_string(std::max<int64_t>(T.Threads / T.Assumed, 1))},
               {"partial", Partial},
               {"collective", Collective},
               {"array", Array},
               {"thread", Thread.str()},
               {"threads", std::to_string(T.Threads)},
               {"total", Total}});
}

/// The finding for the whole-block tree \p T (which stops at \p Partials
/// partials), before its rewrite and fix are decided.
Diagnosis treeDiagnosis(const BlockTree &T, int64_t Partials, ASTContext &Ctx) {
  const TreeReduction &Tree = T.Tree;
  Diagnosis D;
  D.Loc = Ctx.getSourceManager().getExpansionLoc(Tree.Loop.Loop->getBeginLoc());
  D.Format = T.OneWarp ? "shared-memory tree reduction of '%0'%4 takes %1 sync_block() barriers in "
                         "%2 halving steps%5; the block is one warp, so %3 needs 1"
                       : "shared-memory tree reduction of '%0'%4 takes %1 sync_block() barriers in "
                         "%2 halving steps%5; %3 in each warp, one shared partial per warp and %3 "
                         "over the partials need 2";
  D.Args = {Tree.Array->getNameAsString(),
            std::to_string(Tree.BarriersPerStep * Tree.Loop.Values.size()),
            std::to_string(Tree.Loop.Values.size()),
            collectiveName(Tree.Op),
            helperClause(Tree.Loop.Loop, Ctx),
            T.Combine ? " and a combination of its last " + std::to_string(Partials) + " partials"
                      : ""};
  return D;
}

/// Puts on \p D the rewrite of the tree \p T, and for a tree that stops at
/// several partials the use of slot 0 in their combination.
void addRewrite(Diagnosis &D, const BlockTree &T, StringRef Thread, ASTContext &Ctx) {
  D.bind("loop", T.Tree.Loop.Loop);
  auto Tree = transformer::changeTo(userStatements("loop", "loop"),
                                    transformer::cat(treeReplacement(T, Thread, D.Loc, Ctx)));
  if (!T.Combine) {
    D.Edit = transformer::edit(std::move(Tree));
    return;
  }
  // The rewrite leaves the whole result in slot 0, which the combination of
  // the partials then reads alone.
  std::string Array = T.Tree.Array->getNameAsString();
  D.bind("combine", T.Combine);
  D.Edit = transformer::editList(
      {std::move(Tree), transformer::changeTo(userCode(transformer::node("combine")),
                                              transformer::cat(Array + "[0u]"))});
  D.Notes.emplace_back(Ctx.getSourceManager().getExpansionLoc(T.Combine->getBeginLoc()),
                       "the fix replaces the combination of the partials with '" + Array +
                           "[0u]', where the rewrite leaves the block's result");
}

/// \p Safety, or none where the rewrite's text cannot be trusted: an operation
/// that instantiations of a template share, a thread index spelled in a macro.
FixSafety rewriteSafety(FixSafety Safety, const BlockTree &T,
                        const std::optional<PartialsCombine> &Combine, StringRef Thread,
                        Preprocessor *PP, ASTContext &Ctx) {
  // The operation comes from a call in code every instantiation shares, and
  // another instantiation may pass another one (a ReduceOp template argument).
  if (Safety.Kind != Applicability::None &&
      (T.Tree.CombineHelper || (Combine && Combine->Helper)) &&
      isInTemplateInstantiation(T.Tree.Loop.Loop, Ctx))
    return FixSafety::none("the combining operation is a call in code instantiated from a "
                           "template, which other instantiations share with other operations");
  if (Safety.Kind != Applicability::None && (Thread.empty() || !PP || !PP->isMacroDefined("$if")))
    return FixSafety::none("the thread index is spelled in a macro, or the DSL's $if is not "
                           "available");
  return Safety;
}

/// The elements \p Tree combines (and the partials it leaves) when it
/// reduces its whole 1D block of \p Block and every thread of the block
/// reaches it; std::nullopt for a tree over a part of the block or per row
/// of a 2D block (not the block's reduction) and for one reached by only
/// some threads (luisa-divergent-barrier's finding).
std::optional<TreeSpan> wholeBlockSpan(const TreeReduction &Tree, const BlockSize &Block,
                                       Analyses &A) {
  std::optional<TreeSpan> Span = treeSpan(Tree.Loop.Values);
  if (!Span || A.Uniformity.isDivergent(Tree.Loop.Loop))
    return std::nullopt;
  auto Shape = Block.known();
  if (Shape ? (*Shape)[1] * (*Shape)[2] != 1 || (*Shape)[0] != Span->Extent
            : !llvm::isPowerOf2_64(Span->Extent))
    return std::nullopt;
  return Span;
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
            Tree.BarriersPerStep == 1
                ? std::string("a sync_block()")
                : std::to_string(Tree.BarriersPerStep) + " sync_block() barriers",
            collectiveName(Tree.Op), helperClause(Loop, Ctx)};
  D.Kind = rewriteOf(Tree.Op, sharedElementType(Tree.Array->getType()), Ctx);
  D.Safety = FixSafety::none(Block.Why);
  emit(Result, std::move(D));
}

std::optional<TreeReduction> SharedTreeReductionCheck::undecidedTree(const CallExpr *Barrier,
                                                                     ASTContext &Ctx) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(enclosingStatement(Barrier, Ctx).Container);
  auto Tree = Body ? matchTreeReduction(Body, Ctx, analyses(Ctx).Writes) : std::nullopt;
  // Every barrier of the loop finds it; the first one decides.
  if (!Tree || !Decided.insert(Tree->Loop.Loop).second ||
      inInstantiatedPattern(Tree->Loop.Loop, Ctx))
    return std::nullopt;
  return Tree;
}

void SharedTreeReductionCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  std::optional<TreeReduction> Tree =
      undecidedTree(Result.Nodes.getNodeAs<CallExpr>("barrier"), Ctx);
  if (!Tree)
    return;
  if (Tree->Loop.HalfOf)
    return reportRunTimeBlock(*Tree, Result);
  const Stmt *Loop = Tree->Loop.Loop;
  BlockSize Block = analyses(Ctx).Blocks.sizeAt(Loop);
  std::optional<TreeSpan> Span = wholeBlockSpan(*Tree, Block, analyses(Ctx));
  // A tree that stops at K partials is the block's reduction only with the
  // combination of exactly those K that follows it.
  std::optional<PartialsCombine> Combine;
  if (!Span ||
      (Span->Partials > 1 && !(Combine = matchPartialsCombine(*Tree, Span->Partials, Ctx))))
    return;

  WarpWidth Width = widthAt(Loop, Ctx);
  BlockTree Whole(*Tree, Span->Extent, Combine ? Combine->Combine : nullptr,
                  Block.known().has_value(), Width);
  Diagnosis D = treeDiagnosis(Whole, Span->Partials, Ctx);
  D.Kind = rewriteOf(Tree->Op, sharedElementType(Tree->Array->getType()), Ctx);
  std::string Thread = sourceText(Tree->Thread->getSourceRange(), Ctx);
  D.Safety =
      rewriteSafety(treeSafety(Whole, Block, Width, D, Ctx), Whole, Combine, Thread, PP, Ctx);
  if (D.Safety.Kind != Applicability::None)
    addRewrite(D, Whole, Thread, Ctx);
  emit(Result, std::move(D));
}

} // namespace kernel_tidy::rules
