//===--- WarpAggregatedAtomicCheck.cpp - luisa-warp-aggregated-atomic -----===//

#include "rules/atomics/WarpAggregatedAtomicCheck.h"

#include "rules/atomics/AtomicRewrite.h"
#include "rules/FixEdits.h"
#include "src/dsl/Matchers.h"
#include "src/dsl/Naming.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Transformer/RangeSelector.h"
#include "clang/Tooling/Transformer/Stencil.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace kernel_tidy::dsl;
using namespace kernel_tidy::dsl::matchers;

namespace kernel_tidy::rules {

void WarpAggregatedAtomicCheck::registerMatchers(MatchFinder *Finder) {
  // exchange and compare_exchange have no warp-collective form.
  Finder->addMatcher(
      cxxMemberCallExpr(atomicFetch({"fetch_add", "fetch_sub", "fetch_min", "fetch_max",
                                     "fetch_and", "fetch_or", "fetch_xor"},
                                    "fetch", "atomic"),
                        hasArgument(0, expr().bind("operand"))),
      this);
}

void WarpAggregatedAtomicCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  const auto *Fetch = Result.Nodes.getNodeAs<CXXMemberCallExpr>("fetch");
  const auto *Atomic = Result.Nodes.getNodeAs<CXXMemberCallExpr>("atomic");
  AtomicOwner Owner = plan(Ctx).ownerOf(Fetch, Atomic).Owner;
  if (Owner != AtomicOwner::WarpSlot && Owner != AtomicOwner::WarpCounter)
    return;
  const Expr *Object = Atomic->getImplicitObjectArgument();
  bool OnShared = !sharedElementType(Object->IgnoreParenImpCasts()->getType()).isNull();
  Diagnosis D;
  // A condition of `$while (...)` is a macro argument: report where it is spelled.
  D.Loc = Ctx.getSourceManager().getFileLoc(Fetch->getBeginLoc());
  D.Args = {OnShared ? "shared" : "global", Fetch->getMethodDecl()->getName().str(),
            atomicObjectName(Object)};
  D.Highlight = CharSourceRange::getTokenRange(Fetch->getSourceRange());
  if (Owner == AtomicOwner::WarpCounter)
    reportGlobalCounter(Result, std::move(D));
  else
    reportSlotAllocation(Result, std::move(D));
}

void WarpAggregatedAtomicCheck::reportSlotAllocation(const MatchFinder::MatchResult &Result,
                                                     Diagnosis D) {
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = Ctx.getSourceManager();
  UniformityAnalysis &U = analyses(Ctx).Uniformity;
  const auto *Fetch = Result.Nodes.getNodeAs<CXXMemberCallExpr>("fetch");
  const auto *Operand = Result.Nodes.getNodeAs<Expr>("operand");
  QualType Element = dslValueType(Fetch->getType());
  if (isFloatingValue(Element)) {
    D.Format = "every thread does a %0 atomic %1 on the same slot of '%2' and uses its old "
               "value; float slots cannot be shared out per warp without changing rounding";
    D.Safety = FixSafety::none("the old values of a float sum depend on the order of the "
                               "additions, which a warp prefix sum changes");
    emit(Result, std::move(D));
    return;
  }
  bool UniformAmount = isBallotCountable(Operand, Element, U, Ctx);
  D.Args.push_back(UniformAmount ? "warp_active_count_bits" : "warp_active_sum");
  D.Args.push_back(UniformAmount ? "warp_prefix_count_bits" : "warp_prefix_sum");
  D.Format = "every thread takes a slot with a %0 atomic %1 on the same slot of '%2'; let "
             "one lane per warp take the warp's slots (%3) and give each lane its offset (%4)";
  if (!UniformAmount)
    D.Safety = warpPrefixSumSafety(Fetch, analyses(Ctx), target());
  if (D.Safety.Kind != Applicability::None)
    D.Safety = warpBaseReadSafety(target(), assumesWarpReconvergence());
  std::string OperandText = atomicOperandText(Operand, Element, Ctx);
  // The new code goes before the statement that holds the atomic: the
  // expression statement itself, or the declaration or `return` around it.
  EnclosingStatement Enclosing = enclosingStatement(Fetch, Ctx);
  const Stmt *Statement = isa_and_nonnull<DeclStmt, ReturnStmt>(Enclosing.Container)
                              ? Enclosing.Container
                              : Enclosing.Statement;
  bool InsideBlock = isa_and_nonnull<DeclStmt, ReturnStmt, CompoundStmt>(Enclosing.Container);
  auto Withhold = [&](std::string Why) {
    D.Safety = FixSafety::none(std::move(Why));
    emit(Result, std::move(D));
  };
  if (!hasDslSugar())
    return Withhold("the rewrite needs the DSL sugar ($if) of luisa/dsl/sugar.h");
  if (OperandText.empty() || !Statement)
    return Withhold("the atomic is spelled in a macro");
  if (!InsideBlock)
    return Withhold("the atomic is part of a host control statement");
  if (Statement->getBeginLoc().isMacroID())
    return Withhold("the atomic is in the condition of a DSL control statement, which the "
                    "aggregated atomic cannot be placed before");
  if (!UniformAmount && hasDeviceSideEffects(Operand))
    return Withhold("the amount writes memory, and the rewrite evaluates it twice");

  SourceLocation At = SM.getExpansionLoc(Statement->getBeginLoc());
  std::string Indent = lineIndentation(At, SM);
  bool StartsLine = SM.getColumnNumber(SM.getFileID(At), SM.getFileOffset(At)) == Indent.size() + 1;
  std::string Break = StartsLine ? lineEnding(At, SM) + Indent : " ";
  std::optional<WarpSlotCode> Code = warpSlotCode(
      Fetch, Operand, Element, UniformAmount, D.Args[1] == "fetch_sub",
      [&](StringRef Total) { return withArgumentReplaced(Fetch, Total, Ctx); }, Break, Ctx);
  if (!Code)
    return Withhold("the atomic is spelled in a macro");
  std::string Slot = inPlaceOf(Fetch, Code->Slot, Ctx, analyses(Ctx).Writes);

  D.bind("statement", Statement);
  D.Edit = transformer::flatten(
      transformer::edit(transformer::insertBefore(userCode(transformer::node("statement")),
                                                  transformer::cat(Code->Preamble))),
      transformer::edit(
          transformer::changeTo(userCode(transformer::node("fetch")), transformer::cat(Slot))));
  emit(Result, std::move(D));
}

void WarpAggregatedAtomicCheck::reportGlobalCounter(const MatchFinder::MatchResult &Result,
                                                    Diagnosis D) {
  ASTContext &Ctx = *Result.Context;
  const auto *Fetch = Result.Nodes.getNodeAs<CXXMemberCallExpr>("fetch");
  CombineOp Op = reductionOf(D.Args[1]);
  D.Args.push_back(collectiveName(Op));
  D.Format = "every thread does a %0 atomic %1 on the same slot of '%2'; reduce with %3 "
             "first and let one lane per warp do the atomic";
  D.Highlight.reset(); // The replaced statement.
  warpReducedAtomicFix(D, Fetch, Result.Nodes.getNodeAs<Expr>("operand"), Op, hasDslSugar(),
                       analyses(Ctx), target(), Ctx);
  emit(Result, std::move(D));
}

} // namespace kernel_tidy::rules
