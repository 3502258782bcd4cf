//===--- SequentialLaneReadsCheck.h - luisa-sequential-lane-reads ---===//

#ifndef KERNEL_TIDY_RULES_WARP_SEQUENTIALLANEREADSCHECK_H
#define KERNEL_TIDY_RULES_WARP_SEQUENTIALLANEREADSCHECK_H

#include "rules/RuleBase.h"

namespace kernel_tidy::rules {

/// Finds loops that add up warp_read_lane over the lanes below the current
/// one and replaces them with warp_prefix_sum / warp_prefix_product.
class SequentialLaneReadsCheck : public RuleBase {
public:
  using RuleBase::RuleBase;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace kernel_tidy::rules

#endif // KERNEL_TIDY_RULES_WARP_SEQUENTIALLANEREADSCHECK_H
