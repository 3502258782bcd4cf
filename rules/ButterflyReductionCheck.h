//===--- ButterflyReductionCheck.h - luisa-butterfly-reduction ------------===//

#ifndef KERNEL_TIDY_RULES_BUTTERFLYREDUCTIONCHECK_H
#define KERNEL_TIDY_RULES_BUTTERFLYREDUCTIONCHECK_H

#include "rules/RuleUtils.h"
#include "clang-tidy/ClangTidyCheck.h"

namespace kernel_tidy::rules {

/// Finds XOR-butterfly reductions over the whole warp built from
/// warp_read_lane and replaces them with one warp_active_* collective.
class ButterflyReductionCheck : public clang::tidy::ClangTidyCheck {
public:
  ButterflyReductionCheck(llvm::StringRef Name,
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

#endif // KERNEL_TIDY_RULES_BUTTERFLYREDUCTIONCHECK_H
