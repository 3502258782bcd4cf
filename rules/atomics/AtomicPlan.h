//===--- AtomicPlan.h - Which atomic rule owns an atomic ------------------===//
//
// Three rules rewrite per-thread atomics on one slot: luisa-block-privatized-
// atomic (one global atomic per block), luisa-warp-aggregated-atomic (one per
// warp: slot allocations and global counters) and luisa-shared-atomic-counter
// (one shared atomic per warp). One atomic gets one finding: the plan decides,
// once per atomic and translation unit, which rewrite owns it and why, from
// the rules that run. The checks report only what the plan gives them.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_RULES_ATOMICS_ATOMICPLAN_H
#define KERNEL_TIDY_RULES_ATOMICS_ATOMICPLAN_H

#include "rules/RuleBase.h"
#include "rules/atomics/BlockPrivatization.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/DenseMap.h"
#include <memory>
#include <optional>

namespace kernel_tidy::rules {

/// The rewrite that owns an atomic.
enum class AtomicOwner {
  None,            ///< No rule reports it.
  BlockPrivatized, ///< luisa-block-privatized-atomic.
  WarpSlot,        ///< luisa-warp-aggregated-atomic: a used old value (slot allocation).
  WarpCounter,     ///< luisa-warp-aggregated-atomic: a discarded old value on global memory.
  SharedCounter,   ///< luisa-shared-atomic-counter: a discarded old value on Shared memory.
};

/// The atomic rules that run (clang-tidy's enabled checks).
struct AtomicRulesEnabled {
  bool BlockPrivatized = false;
};

/// What the plan decided for one atomic.
struct AtomicDecision {
  AtomicOwner Owner = AtomicOwner::None;
  /// Why no rule owns it (for None), for tests and debugging.
  llvm::StringRef Why;
  /// For BlockPrivatized: where the rewrite's parts go.
  std::optional<PrivatizationPlan> Privatization;
};

/// The owners of a translation unit's atomics, decided once per atomic.
class AtomicPlan {
public:
  AtomicPlan(clang::ASTContext &Ctx, dsl::Analyses &A, clang::Preprocessor *PP,
             AtomicRulesEnabled Enabled)
      : Ctx(Ctx), A(A), PP(PP), Enabled(Enabled) {}

  clang::ASTContext &context() const { return Ctx; }

  /// The owner of the atomic \p Fetch (`OBJECT.atomic(I)[...].fetch_OP(V)`),
  /// whose `atomic(I)` call is \p Atomic.
  const AtomicDecision &ownerOf(const clang::CXXMemberCallExpr *Fetch,
                                const clang::CXXMemberCallExpr *Atomic);

private:
  AtomicDecision decide(const clang::CXXMemberCallExpr *Fetch,
                        const clang::CXXMemberCallExpr *Atomic);

  clang::ASTContext &Ctx;
  dsl::Analyses &A;
  clang::Preprocessor *PP;
  const AtomicRulesEnabled Enabled;
  llvm::DenseMap<const clang::CXXMemberCallExpr *, AtomicDecision> Decisions;
};

/// A rule of the atomics family: it reports the atomics that the
/// translation unit's AtomicPlan gives it.
class AtomicRuleBase : public RuleBase {
public:
  AtomicRuleBase(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context);
  void registerPPCallbacks(const clang::SourceManager &SM, clang::Preprocessor *PP,
                           clang::Preprocessor *ModuleExpanderPP) override {
    this->PP = PP;
  }
  void onEndOfTranslationUnit() override {
    Plan.reset();
    RuleBase::onEndOfTranslationUnit();
  }
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;

protected:
  /// The plan of the translation unit being checked.
  AtomicPlan &plan(clang::ASTContext &Ctx);
  /// True if the DSL sugar (`$if`) the rewrites spell is defined.
  bool hasDslSugar() const { return PP && PP->isMacroDefined("$if"); }
  /// The option AssumeWarpReconvergence (global fallback, default false):
  /// the user asserts that a warp runs together again after a divergent `$if`
  /// on every target of the run, which the warp-slot rewrites rely on.
  bool assumesWarpReconvergence() const { return AssumeWarpReconvergence; }

  clang::Preprocessor *PP = nullptr;

private:
  const AtomicRulesEnabled Enabled;
  const bool AssumeWarpReconvergence;
  std::unique_ptr<AtomicPlan> Plan;
};

} // namespace kernel_tidy::rules

#endif // KERNEL_TIDY_RULES_ATOMICS_ATOMICPLAN_H
