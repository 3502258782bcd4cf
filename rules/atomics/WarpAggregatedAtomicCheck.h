//===--- WarpAggregatedAtomicCheck.h - luisa-warp-aggregated-atomic -------===//

#ifndef KERNEL_TIDY_RULES_ATOMICS_WARPAGGREGATEDATOMICCHECK_H
#define KERNEL_TIDY_RULES_ATOMICS_WARPAGGREGATEDATOMICCHECK_H

#include "rules/atomics/AtomicPlan.h"

namespace kernel_tidy::rules {

/// Finds per-thread atomics on one warp-uniform slot (slot allocations on
/// Shared or Buffer counters, global counters) and lets one lane per warp do them.
class WarpAggregatedAtomicCheck : public AtomicRuleBase {
public:
  using AtomicRuleBase::AtomicRuleBase;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  /// A used old value: every lane gets its slot from one atomic per warp.
  void reportSlotAllocation(const clang::ast_matchers::MatchFinder::MatchResult &Result,
                            Diagnosis D);
  /// A discarded old value on a buffer: reduce, then one atomic per warp.
  void reportGlobalCounter(const clang::ast_matchers::MatchFinder::MatchResult &Result,
                           Diagnosis D);
};

} // namespace kernel_tidy::rules

#endif // KERNEL_TIDY_RULES_ATOMICS_WARPAGGREGATEDATOMICCHECK_H
