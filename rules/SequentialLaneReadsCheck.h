//===--- SequentialLaneReadsCheck.h - luisa-sequential-lane-reads ------------===//

#ifndef KERNEL_TIDY_RULES_SEQUENTIALLANEREADSCHECK_H
#define KERNEL_TIDY_RULES_SEQUENTIALLANEREADSCHECK_H

#include "rules/RuleUtils.h"
#include "clang-tidy/ClangTidyCheck.h"

namespace kernel_tidy::rules {

/// Finds loops that add up warp_read_lane over the lanes below the current
/// one and replaces them with warp_prefix_sum / warp_prefix_product.
class SequentialLaneReadsCheck : public clang::tidy::ClangTidyCheck {
public:
  SequentialLaneReadsCheck(llvm::StringRef Name,
                          clang::tidy::ClangTidyContext *Context);
  bool isLanguageVersionSupported(
      const clang::LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus17;
  }
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override { Reported.clear(); }

private:
  const unsigned WarpSize;
  ReportedSites Reported;
};

} // namespace kernel_tidy::rules

#endif // KERNEL_TIDY_RULES_SEQUENTIALLANEREADSCHECK_H
