//===--- SharedOutOfBoundsCheck.h - luisa-shared-out-of-bounds ------------===//

#ifndef KERNEL_TIDY_RULES_BLOCK_SHAREDOUTOFBOUNDSCHECK_H
#define KERNEL_TIDY_RULES_BLOCK_SHAREDOUTOFBOUNDSCHECK_H

#include "rules/RuleBase.h"

namespace kernel_tidy::rules {

/// Reports an index of a constant-size Shared<T> whose range over the block
/// (thread and lane ids, constant block size) goes past the array; no fix.
class SharedOutOfBoundsCheck : public RuleBase {
public:
  using RuleBase::RuleBase;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace kernel_tidy::rules

#endif // KERNEL_TIDY_RULES_BLOCK_SHAREDOUTOFBOUNDSCHECK_H
