//===--- SharedAtomicCounterCheck.h - luisa-shared-atomic-counter ---------===//

#ifndef KERNEL_TIDY_RULES_ATOMICS_SHAREDATOMICCOUNTERCHECK_H
#define KERNEL_TIDY_RULES_ATOMICS_SHAREDATOMICCOUNTERCHECK_H

#include "rules/atomics/AtomicPlan.h"

namespace kernel_tidy::rules {

/// Finds per-thread shared atomics on one slot and aggregates them per warp
/// so that one lane per warp does the atomic.
class SharedAtomicCounterCheck : public AtomicRuleBase {
public:
  using AtomicRuleBase::AtomicRuleBase;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace kernel_tidy::rules

#endif // KERNEL_TIDY_RULES_ATOMICS_SHAREDATOMICCOUNTERCHECK_H
