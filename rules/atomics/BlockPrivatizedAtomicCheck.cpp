//===--- BlockPrivatizedAtomicCheck.cpp - luisa-block-privatized-atomic ---===//

#include "rules/atomics/BlockPrivatizedAtomicCheck.h"

#include "rules/atomics/AtomicRewrite.h"
#include "rules/atomics/BlockPrivatization.h"
#include "rules/FixEdits.h"
#include "src/dsl/Matchers.h"
#include "src/dsl/Naming.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace kernel_tidy::dsl;
using namespace kernel_tidy::dsl::matchers;

namespace kernel_tidy::rules {

namespace {

/// The location just after the `;` that ends \p S (after \p S itself when
/// no `;` follows it).
SourceLocation endOfStatement(const Stmt *S, const SourceManager &SM, const LangOptions &LO) {
  SourceLocation Last = SM.getExpansionRange(S->getEndLoc()).getEnd();
  SourceLocation After = Lexer::findLocationAfterToken(Last, tok::semi, SM, LO, false);
  return After.isValid() ? After : Lexer::getLocForEndOfToken(Last, 0, SM, LO);
}

/// The value every thread's contribution starts from (the identity of \p Op).
std::string identityOf(CombineOp Op, QualType Element, ASTContext &Ctx) {
  PrintingPolicy Policy(Ctx.getLangOpts());
  bool Unsigned = Element->isUnsignedIntegerType();
  bool Int32 = Element->isIntegerType() && Ctx.getTypeSize(Element) == 32;
  if (isFloatingValue(Element))
    return "0.0f";
  if (Int32 && Op == CombineOp::Min)
    return Unsigned ? "~0u" : "2147483647";
  if (Int32 && Op == CombineOp::Max)
    return Unsigned ? "0u" : "(-2147483647 - 1)";
  if (Int32 && Op == CombineOp::BitAnd)
    return Unsigned ? "~0u" : "-1";
  if (Int32)
    return Unsigned ? "0u" : "0";
  // 64-bit sums, or and xor.
  return "static_cast<" + Element.getAsString(Policy) + ">(0)";
}

/// The rewrite of one atomic: the block's shared slot, set up by the
/// block's first thread before the kernel statement that holds the atomic
/// and read after a barrier behind it.
class BlockRewrite {
public:
  BlockRewrite(const PrivatizationPlan &P, ASTContext &Ctx, Analyses &A, dsl::Target Backend,
               bool AssumeReconvergence)
      : P(P), Ctx(Ctx), SM(Ctx.getSourceManager()), A(A), Backend(Backend),
        AssumeReconvergence(AssumeReconvergence), Op(reductionOf(P.Method)),
        TopBegin(SM.getExpansionLoc(P.Top->getBeginLoc())),
        TopEnd(endOfStatement(P.Top, SM, Ctx.getLangOpts())), Code(TopBegin, P.Fetch, Ctx),
        Slot(fresh(P.Used ? "block_cursor" : "block_" + collectiveSuffix(Op).str())),
        Read(Slot + ".read(0u)") {
    // Thread (0, 0, 0) of the block initialises and publishes the shared slot.
    for (unsigned Dim = 0; Dim < 3; ++Dim)
      if (P.Shape[Dim] > 1)
        Leader += (Leader.empty() ? "" : " & ") +
                  Code("{{dsl:thread_" + std::string(1, "xyz"[Dim]) + "}}() == 0u");
    Setup = Code("{{dsl:Shared}}<{{type}}> {{slot}}{1};\n"
                 "$if ({{leader}}) { {{slot}}.write(0u, {{identity}}); };\n"
                 "{{dsl:sync_block}}();\n",
                 {{"type", type(P.Element)},
                  {"slot", Slot},
                  {"leader", Leader},
                  {"identity", identityOf(P.Used ? CombineOp::Sum : Op, P.Element, Ctx)}});
  }

  /// The old value is unused: each warp adds its reduced values to the
  /// shared slot; after the barrier one thread applies the block's total to
  /// the global slot.
  FixSafety accumulate(StringRef OperandText) {
    std::string Collective = collectiveName(Op);
    std::string Partial = fresh("warp_" + collectiveSuffix(Op).str());
    std::string SharedOp = Op == CombineOp::Sum ? "fetch_add" : P.Method.str();
    SourceLocation At = SM.getExpansionLoc(P.Fetch->getBeginLoc());
    Edits.insert(TopBegin, Setup);
    Edits.change(CharSourceRange::getCharRange(At, endOfStatement(P.Fetch, SM, Ctx.getLangOpts())),
                 warpReducedAtomicCode(Collective, Partial, P.Operand, OperandText,
                                       Slot + ".atomic(0u)." + SharedOp + "(" + Partial + ")",
                                       lineEnding(At, SM) + lineIndentation(At, SM), P.Fetch, Ctx));
    Edits.insert(TopEnd, Code("\n{{dsl:sync_block}}();\n$if ({{leader}}) { {{total}}; };",
                              {{"leader", Leader}, {"total", global(Read)}}));
    FixSafety Safety = warpReductionSafety(Op, P.Element, Collective, P.Fetch, A, Backend);
    // Float atomics add (planPrivatization); the block's sum reorders them too.
    if (Safety.Kind == Applicability::None || !isFloatingValue(P.Element))
      return Safety;
    return reassociationSafety(CombineOp::Sum, P.Element, "the block's sum adds");
  }

  /// The old value is used: threads take offsets in the block's range from
  /// the shared counter (one atomic per warp); one thread takes the block's
  /// range from the global counter and publishes its base in the shared
  /// slot. Nothing when the code cannot be written.
  std::optional<FixSafety> handOutOffsets() {
    bool Counted = isBallotCountable(P.Operand, P.Element, A.Uniformity, Ctx);
    std::string Offset = fresh("block_offset");
    SourceLocation StatementBegin = SM.getExpansionLoc(P.Statement->getBeginLoc());
    std::string InnerBreak =
        P.Guard ? lineEnding(StatementBegin, SM) + lineIndentation(StatementBegin, SM)
                : Code.lineBreak();
    std::optional<WarpSlotCode> Slots = warpSlotCode(
        P.Fetch, P.Operand, P.Element, Counted, /*CountDown=*/false,
        [&](StringRef Total) { return Slot + ".atomic(0u).fetch_add(" + Total.str() + ")"; },
        InnerBreak, Ctx);
    CharSourceRange FetchRange = Lexer::makeFileCharRange(
        CharSourceRange::getTokenRange(P.Fetch->getSourceRange()), SM, Ctx.getLangOpts());
    if (!Slots || FetchRange.isInvalid())
      return std::nullopt;
    std::string TakeOffset = Slots->Preamble + Offset + " = " + Slots->Slot + ";";
    std::string Publish =
        Code("{{dsl:sync_block}}();\n$if ({{leader}}) { {{slot}}.write(0u, {{total}}); };\n"
             "{{dsl:sync_block}}();",
             {{"leader", Leader}, {"slot", Slot}, {"total", global(Read)}});
    std::string Base = inPlaceOf(
        P.Fetch, Read + (Op == CombineOp::Sum && P.Method == "fetch_sub" ? " - " : " + ") + Offset,
        Ctx, A.Writes);
    std::string Declare = Code("{{dsl:Var}}<{{type}}> {{offset}};\n",
                               {{"type", type(P.Element)}, {"offset", Offset}});
    if (!P.Guard) {
      Edits.insert(TopBegin,
                   Setup + Declare + TakeOffset + Code.lineBreak() + Publish + Code.lineBreak());
      Edits.change(FetchRange, Base);
    } else if (!moveGuardedStatements(StatementBegin, FetchRange, Base, Declare, TakeOffset,
                                      Publish, InnerBreak)) {
      return std::nullopt;
    }
    FixSafety Safety = Counted ? FixSafety::safe() : warpPrefixSumSafety(P.Fetch, A, Backend);
    if (Safety.Kind == Applicability::None)
      return Safety;
    // The lanes read the warp's base from its shared atomic after the
    // leader's $if, as the warp-aggregated slot rewrite does.
    return warpBaseReadSafety(Backend, AssumeReconvergence);
  }

  EditList Edits;

private:
  /// The atomic behind a `$if (pred)`: the statements from the atomic's to
  /// the end of the `$if` body move behind the barriers, under the same
  /// `$if`, with the atomic replaced by \p Base; the declarations they use
  /// are hoisted.
  bool moveGuardedStatements(SourceLocation StatementBegin, CharSourceRange FetchRange,
                             StringRef Base, StringRef Declare, StringRef TakeOffset,
                             StringRef Publish, StringRef InnerBreak) {
    const LangOptions &LO = Ctx.getLangOpts();
    SourceLocation MovedEnd = endOfStatement(blockStatements(P.Guard->Then).back(), SM, LO);
    CharSourceRange Moved = CharSourceRange::getCharRange(StatementBegin, MovedEnd);
    std::string MovedText = Lexer::getSourceText(Moved, SM, LO).str();
    unsigned FetchBegin =
        SM.getFileOffset(FetchRange.getBegin()) - SM.getFileOffset(StatementBegin);
    unsigned FetchEnd = SM.getFileOffset(FetchRange.getEnd()) - SM.getFileOffset(StatementBegin);
    if (MovedText.empty() || FetchEnd > MovedText.size())
      return false;
    MovedText = MovedText.substr(0, FetchBegin) + Base.str() + MovedText.substr(FetchEnd);
    std::string Hoists;
    for (const DeclStmt *Decl : P.Hoisted) {
      const auto *Var = cast<VarDecl>(Decl->getSingleDecl());
      Hoists +=
          Code("{{dsl:Var}}<{{type}}> {{name}};\n",
               {{"type", type(dslValueType(Var->getType()))}, {"name", Var->getName().str()}});
      SourceLocation DeclBegin = SM.getExpansionLoc(Decl->getBeginLoc());
      SourceLocation InitBegin = SM.getFileLoc(Var->getInit()->getBeginLoc());
      Edits.change(CharSourceRange::getCharRange(DeclBegin, InitBegin),
                   Var->getName().str() + " = ");
    }
    Edits.insert(TopBegin, Setup + Declare.str() + Hoists);
    Edits.change(Moved, TakeOffset.str());
    Edits.insert(TopEnd,
                 Code("\n{{publish}}\n$if ({{guard}}) {",
                      {{"publish", Publish.str()}, {"guard", conditionText(P.Guard->Cond, Ctx)}}) +
                     InnerBreak.str() + MovedText + Code("\n};"));
    return true;
  }

  std::string fresh(StringRef Base) { return freshName(Base, P.Fetch, Ctx); }
  std::string type(QualType T) const { return T.getAsString(PrintingPolicy(Ctx.getLangOpts())); }
  /// The one global atomic of the block, with the block's total.
  std::string global(StringRef Total) { return withArgumentReplaced(P.Fetch, Total, Ctx); }

  const PrivatizationPlan &P;
  ASTContext &Ctx;
  const SourceManager &SM;
  Analyses &A;
  dsl::Target Backend;
  bool AssumeReconvergence;
  CombineOp Op;
  SourceLocation TopBegin, TopEnd;
  CodeTemplate Code;
  std::string Slot, Read, Leader, Setup;
};

} // namespace

void BlockPrivatizedAtomicCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      cxxMemberCallExpr(
          atomicFetch({"fetch_add", "fetch_sub", "fetch_min", "fetch_max", "fetch_and", "fetch_or",
                       "fetch_xor"},
                      "fetch", "atomic"),
          on(ignoringImplicit(cxxMemberCallExpr(on(ignoringParenImpCasts(hasBufferType())))))),
      this);
}

void BlockPrivatizedAtomicCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = Ctx.getSourceManager();
  const auto *Fetch = Result.Nodes.getNodeAs<CXXMemberCallExpr>("fetch");
  const AtomicDecision &Decision =
      plan(Ctx).ownerOf(Fetch, Result.Nodes.getNodeAs<CXXMemberCallExpr>("atomic"));
  if (Decision.Owner != AtomicOwner::BlockPrivatized)
    return;
  const PrivatizationPlan *P = &*Decision.Privatization;
  std::string OperandText = atomicOperandText(P->Operand, P->Element, Ctx);
  if (OperandText.empty() || withArgumentReplaced(Fetch, "x", Ctx).empty())
    return;

  Diagnosis D;
  D.Loc = SM.getFileLoc(Fetch->getBeginLoc());
  D.Args = {P->Method.str(), atomicObjectName(P->Atomic->getImplicitObjectArgument())};
  D.Highlight = CharSourceRange::getTokenRange(SM.getFileLoc(Fetch->getBeginLoc()),
                                               SM.getFileLoc(Fetch->getEndLoc()));
  D.Format = P->Used ? "every thread of the block takes a slot with a global atomic %0 on the "
                       "same slot of '%1'; take the block's slots with one global atomic per "
                       "block and hand out the offsets from a shared counter"
                     : "every thread of the block does a global atomic %0 on the same slot of "
                       "'%1'; accumulate the block's values in shared memory and do one global "
                       "atomic per block";
  BlockRewrite Rewrite(*P, Ctx, analyses(Ctx), target(), assumesWarpReconvergence());
  std::optional<FixSafety> Safety =
      P->Used ? Rewrite.handOutOffsets() : Rewrite.accumulate(OperandText);
  if (!Safety)
    return;
  D.Safety = std::move(*Safety);
  D.Edit = Rewrite.Edits.generator();
  emit(Result, std::move(D));
}

} // namespace kernel_tidy::rules
