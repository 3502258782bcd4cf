//===--- DivergentBarrierCheck.h - luisa-divergent-barrier ----------------===//

#ifndef KERNEL_TIDY_RULES_BLOCK_DIVERGENTBARRIERCHECK_H
#define KERNEL_TIDY_RULES_BLOCK_DIVERGENTBARRIERCHECK_H

#include "rules/RuleBase.h"

namespace kernel_tidy::rules {

/// Reports a sync_block() that only some threads of a block reach (under a
/// thread-dependent condition, after a thread-dependent exit, or in a helper
/// called so); there is no fix.
class DivergentBarrierCheck : public RuleBase {
public:
  using RuleBase::RuleBase;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace kernel_tidy::rules

#endif // KERNEL_TIDY_RULES_BLOCK_DIVERGENTBARRIERCHECK_H
