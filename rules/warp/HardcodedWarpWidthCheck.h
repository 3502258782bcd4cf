//===--- HardcodedWarpWidthCheck.h - luisa-hardcoded-warp-width -----------===//

#ifndef KERNEL_TIDY_RULES_WARP_HARDCODEDWARPWIDTHCHECK_H
#define KERNEL_TIDY_RULES_WARP_HARDCODEDWARPWIDTHCHECK_H

#include "rules/RuleBase.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace kernel_tidy::rules {

/// Finds `id / 32u`, `id % 32u`, `id & 31u`, `id >> 5u` on thread or lane ids
/// in kernels that do not set_warp_size(32), and spells the width as
/// warp_lane_count() (an unsafe fix: it changes 64-wide results on purpose);
/// and host warp counts, `block_size / 32` or `>> 5` on a block size or as
/// the size of a Shared array, spelled with device.compute_warp_size().
class HardcodedWarpWidthCheck : public RuleBase {
public:
  using RuleBase::RuleBase;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

  void onEndOfTranslationUnit() override {
    IndexedFor = nullptr;
    RuleBase::onEndOfTranslationUnit();
  }

private:
  void checkHost(const clang::ast_matchers::MatchFinder::MatchResult &Result);
  const clang::ASTContext *IndexedFor = nullptr; ///< The unit SetBlockSizeArguments is of.
  llvm::SmallPtrSet<const clang::ValueDecl *, 8> SetBlockSizeArguments;
};

} // namespace kernel_tidy::rules

#endif // KERNEL_TIDY_RULES_WARP_HARDCODEDWARPWIDTHCHECK_H
