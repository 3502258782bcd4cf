//===--- SharedRaceCheck.h - luisa-shared-race ----------------------------===//

#ifndef KERNEL_TIDY_RULES_BLOCK_SHAREDRACECHECK_H
#define KERNEL_TIDY_RULES_BLOCK_SHAREDRACECHECK_H

#include "rules/RuleBase.h"

namespace kernel_tidy::rules {

/// Reports a Shared element that one thread writes and another reads within
/// one barrier interval (no sync_block() between them on some path), with a
/// witness pair of threads; there is no fix.
class SharedRaceCheck : public RuleBase {
public:
  using RuleBase::RuleBase;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace kernel_tidy::rules

#endif // KERNEL_TIDY_RULES_BLOCK_SHAREDRACECHECK_H
