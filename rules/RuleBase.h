//===--- RuleBase.h - What every kernel-tidy check shares -----------------===//

#ifndef KERNEL_TIDY_RULES_RULEBASE_H
#define KERNEL_TIDY_RULES_RULEBASE_H

#include "rules/RuleUtils.h"
#include "clang-tidy/ClangTidyCheck.h"
#include <optional>

namespace kernel_tidy::rules {

/// A kernel-tidy check: C++17 DSL code, one report per source site, and
/// fixes that are safe (on the warning) or unsafe (on a note).
class RuleBase : public clang::tidy::ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  bool isLanguageVersionSupported(
      const clang::LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus17;
  }
  void onEndOfTranslationUnit() override { Reported.clear(); }

protected:
  /// Reports \p Message at \p Loc unless that site was reported already (a
  /// template instantiated twice). A fix goes on the warning; with an
  /// \p UnsafeReason it goes on a note saying why, which clang-tidy applies
  /// only on request (--fix-notes, kernel-tidy's --unsafe-fixes).
  void report(clang::SourceLocation Loc, llvm::StringRef Message,
              std::optional<clang::CharSourceRange> Range,
              std::optional<clang::FixItHint> Fix,
              llvm::StringRef UnsafeReason = "");

private:
  ReportedSites Reported;
};

/// A check of warp_read_lane patterns, whose meaning depends on the warp
/// width (option WarpSize, default 32, unless the kernel sets it).
class WarpReadLaneRule : public RuleBase {
public:
  WarpReadLaneRule(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context);
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;
  /// Matches every warp_read_lane call, bound as "read".
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;

protected:
  const unsigned WarpSize;
};

} // namespace kernel_tidy::rules

#endif // KERNEL_TIDY_RULES_RULEBASE_H
