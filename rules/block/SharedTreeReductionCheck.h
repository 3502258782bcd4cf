//===--- SharedTreeReductionCheck.h - luisa-shared-tree-reduction ---------===//

#ifndef KERNEL_TIDY_RULES_BLOCK_SHAREDTREEREDUCTIONCHECK_H
#define KERNEL_TIDY_RULES_BLOCK_SHAREDTREEREDUCTIONCHECK_H

#include "rules/RuleBase.h"
#include "rules/block/TreeReduction.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"

namespace kernel_tidy::rules {

/// Finds block-wide tree reductions in a Shared array (a halving loop with a
/// sync_block() per step) and replaces them with a warp_active_* collective
/// per warp, one shared partial per warp and a second collective over those.
class SharedTreeReductionCheck : public RuleBase {
public:
  using RuleBase::RuleBase;
  void registerPPCallbacks(const clang::SourceManager &SM, clang::Preprocessor *PP,
                           clang::Preprocessor *ModuleExpanderPP) override {
    this->PP = PP;
  }
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override {
    RuleBase::onEndOfTranslationUnit();
    Decided.clear();
  }

private:
  /// The tree reduction whose step holds \p Barrier, the first time one of
  /// its barriers finds it; std::nullopt if none or already decided.
  std::optional<dsl::TreeReduction> undecidedTree(const clang::CallExpr *Barrier,
                                                  clang::ASTContext &Ctx);
  /// A whole tree whose strides start at half of a run-time set_block_size.
  void reportRunTimeBlock(const dsl::TreeReduction &Tree,
                          const clang::ast_matchers::MatchFinder::MatchResult &Result);

  clang::Preprocessor *PP = nullptr;
  llvm::DenseSet<const clang::Stmt *> Decided; ///< Loops already reported or rejected.
};

} // namespace kernel_tidy::rules

#endif // KERNEL_TIDY_RULES_BLOCK_SHAREDTREEREDUCTIONCHECK_H
