//===--- ButterflyReductionCheck.h - luisa-butterfly-reduction ------------===//

#ifndef KERNEL_TIDY_RULES_WARP_BUTTERFLYREDUCTIONCHECK_H
#define KERNEL_TIDY_RULES_WARP_BUTTERFLYREDUCTIONCHECK_H

#include "rules/RuleBase.h"

namespace kernel_tidy::rules {

/// Finds XOR-butterfly reductions over the whole warp built from
/// warp_read_lane and replaces them with one warp_active_* collective.
class ButterflyReductionCheck : public RuleBase {
public:
  using RuleBase::RuleBase;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace kernel_tidy::rules

#endif // KERNEL_TIDY_RULES_WARP_BUTTERFLYREDUCTIONCHECK_H
