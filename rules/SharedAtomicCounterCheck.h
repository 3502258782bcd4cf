//===--- SharedAtomicCounterCheck.h - luisa-shared-atomic-counter ---------===//

#ifndef KERNEL_TIDY_RULES_SHAREDATOMICCOUNTERCHECK_H
#define KERNEL_TIDY_RULES_SHAREDATOMICCOUNTERCHECK_H

#include "rules/RuleBase.h"
#include "llvm/ADT/StringSet.h"

namespace kernel_tidy::rules {

/// Finds per-thread shared atomics on one slot and aggregates them per warp
/// so that one lane per warp does the atomic.
class SharedAtomicCounterCheck : public RuleBase {
public:
  using RuleBase::RuleBase;
  void registerPPCallbacks(const clang::SourceManager &SM, clang::Preprocessor *PP,
                           clang::Preprocessor *ModuleExpanderPP) override {
    this->PP = PP;
  }
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  clang::Preprocessor *PP = nullptr;
};

} // namespace kernel_tidy::rules

#endif // KERNEL_TIDY_RULES_SHAREDATOMICCOUNTERCHECK_H
