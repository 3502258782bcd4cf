//===--- AtomicPlan.cpp - Which atomic rule owns an atomic ----------------===//

#include "rules/atomics/AtomicPlan.h"

#include "rules/atomics/AtomicRewrite.h"
#include "src/dsl/Ast.h"
#include "src/dsl/Names.h"

using namespace clang;
using namespace kernel_tidy::dsl;

namespace kernel_tidy::rules {

const AtomicDecision &AtomicPlan::ownerOf(const CXXMemberCallExpr *Fetch,
                                          const CXXMemberCallExpr *Atomic) {
  auto [It, Inserted] = Decisions.try_emplace(Fetch);
  if (Inserted)
    It->second = decide(Fetch, Atomic);
  return It->second;
}

AtomicDecision AtomicPlan::decide(const CXXMemberCallExpr *Fetch, const CXXMemberCallExpr *Atomic) {
  auto Nobody = [](llvm::StringRef Why) { return AtomicDecision{AtomicOwner::None, Why, {}}; };
  // The block's rewrite goes first: it saves more than one atomic per warp.
  if (Enabled.BlockPrivatized)
    if (auto Privatization = planPrivatization(Fetch, Ctx, A, PP))
      return {AtomicOwner::BlockPrivatized, "", std::move(Privatization)};
  UniformityAnalysis &U = A.Uniformity;
  const Expr *Object = Atomic->getImplicitObjectArgument();
  bool OnShared = !sharedElementType(Object->IgnoreParenImpCasts()->getType()).isNull();
  bool Discarded = isDiscardedResult(Fetch, Ctx) || unbracedBodyOwner(Fetch, Ctx);
  if (Atomic->getNumArgs() != 1 || Fetch->getNumArgs() != 1 ||
      !dslValueType(Fetch->getType())->isScalarType())
    return Nobody("not one scalar operand on one slot");
  // One lane's atomic stands for the warp only if every lane names its slot.
  if (slotVariance(Fetch, Atomic, U) > Variance::Warp)
    return Nobody("the lanes of a warp may name different slots");
  if (U.runsOnOneLanePerWarp(Fetch))
    return Nobody("at most one lane per warp runs it");
  if (OnShared && Discarded)
    return {AtomicOwner::SharedCounter, "", std::nullopt};
  if (runsOnOneThread(Fetch, A))
    return Nobody("one thread of a row of the block runs it");
  if (Discarded)
    return {AtomicOwner::WarpCounter, "", std::nullopt};
  StringRef Method = Fetch->getMethodDecl()->getName();
  if (Method == "fetch_add" || Method == "fetch_sub")
    return {AtomicOwner::WarpSlot, "", std::nullopt};
  return Nobody("a used old value of min, max, and, or, xor has no prefix builtin to share "
                "it out");
}

AtomicRuleBase::AtomicRuleBase(StringRef Name, tidy::ClangTidyContext *Context)
    : RuleBase(Name, Context), Enabled{Context->isCheckEnabled("luisa-block-privatized-atomic")},
      AssumeWarpReconvergence(boolOption("AssumeWarpReconvergence", false)) {}

void AtomicRuleBase::storeOptions(tidy::ClangTidyOptions::OptionMap &Opts) {
  RuleBase::storeOptions(Opts);
  Options.store(Opts, "AssumeWarpReconvergence", AssumeWarpReconvergence ? "true" : "false");
}

AtomicPlan &AtomicRuleBase::plan(ASTContext &Ctx) {
  if (!Plan || &Plan->context() != &Ctx)
    Plan = std::make_unique<AtomicPlan>(Ctx, analyses(Ctx), PP, Enabled);
  return *Plan;
}

} // namespace kernel_tidy::rules
