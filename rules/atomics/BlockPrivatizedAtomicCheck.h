//===--- BlockPrivatizedAtomicCheck.h - luisa-block-privatized-atomic -----===//

#ifndef KERNEL_TIDY_RULES_ATOMICS_BLOCKPRIVATIZEDATOMICCHECK_H
#define KERNEL_TIDY_RULES_ATOMICS_BLOCKPRIVATIZEDATOMICCHECK_H

#include "rules/atomics/AtomicPlan.h"

namespace kernel_tidy::rules {

/// Finds per-thread atomics on one block-uniform slot of a global buffer and
/// privatizes them: a Shared slot per block, one global atomic per block.
class BlockPrivatizedAtomicCheck : public AtomicRuleBase {
public:
  using AtomicRuleBase::AtomicRuleBase;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace kernel_tidy::rules

#endif // KERNEL_TIDY_RULES_ATOMICS_BLOCKPRIVATIZEDATOMICCHECK_H
