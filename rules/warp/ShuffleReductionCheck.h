//===--- ShuffleReductionCheck.h - luisa-shuffle-reduction ----------------===//

#ifndef KERNEL_TIDY_RULES_WARP_SHUFFLEREDUCTIONCHECK_H
#define KERNEL_TIDY_RULES_WARP_SHUFFLEREDUCTIONCHECK_H

#include "rules/RuleBase.h"
#include "rules/warp/LaneShifts.h"
#include <memory>

namespace kernel_tidy::rules {

/// Finds warp reductions and inclusive scans written as warp_read_lane loops
/// over offsets 1, 2, 4... and replaces them with warp_active_* or
/// warp_prefix_* collectives.
class ShuffleReductionCheck : public RuleBase {
public:
  using RuleBase::RuleBase;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override {
    CallSites.reset();
    RuleBase::onEndOfTranslationUnit();
  }

private:
  /// "" when \p Lane is the warp lane id; the helper's name when it is a
  /// parameter that every call in the translation unit passes the lane id;
  /// std::nullopt otherwise. A member that holds the lane id only in this
  /// translation unit's instantiations of its class template is one, and
  /// \p OnlyHere names it.
  std::optional<std::string> laneSource(const clang::Expr *Lane, clang::ASTContext &Ctx,
                                        const clang::FieldDecl *&OnlyHere);

  std::unique_ptr<dsl::CallSiteIndex> CallSites; ///< Of the current translation unit.
};

} // namespace kernel_tidy::rules

#endif // KERNEL_TIDY_RULES_WARP_SHUFFLEREDUCTIONCHECK_H
