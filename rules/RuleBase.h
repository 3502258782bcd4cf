//===--- RuleBase.h - What every kernel-tidy check shares -----------------===//

#ifndef KERNEL_TIDY_RULES_RULEBASE_H
#define KERNEL_TIDY_RULES_RULEBASE_H

#include "rules/RuleUtils.h"
#include "src/dsl/Profitability.h"
#include "clang-tidy/ClangTidyCheck.h"
#include <optional>

namespace kernel_tidy::rules {

/// What a finding's rewrite combines, as src/dsl/Profitability.def keys it.
struct Rewrite {
  dsl::CombineOp Op;
  bool IsFloat; ///< Float-class values (see dsl::isFloatValueClass).
};

/// A kernel-tidy check: C++17 DSL code, one report per source site, fixes
/// that are safe (on the warning) or unsafe (on a note), and a note where the
/// rewrite is not expected to be faster on the Target backend.
class RuleBase : public clang::tidy::ClangTidyCheck {
public:
  RuleBase(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context);
  bool isLanguageVersionSupported(
      const clang::LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus17;
  }
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;
  void onEndOfTranslationUnit() override {
    Reported.clear();
    Scans.clear();
  }

protected:
  /// Reports \p Message at \p Loc unless that site was reported already (a
  /// template instantiated twice). A fix goes on the warning; with an
  /// \p UnsafeReason it goes on a note saying why, which clang-tidy applies
  /// only on request (--fix-notes, kernel-tidy's --unsafe-fixes). When the
  /// profitability table says \p Kind is not faster on the target, a note
  /// without a fix says so.
  void report(clang::SourceLocation Loc, Rewrite Kind, llvm::StringRef Message,
              std::optional<clang::CharSourceRange> Range,
              std::optional<clang::FixItHint> Fix,
              llvm::StringRef UnsafeReason = "");

  /// The rewrite that combines \p Op over values of type \p Values.
  static Rewrite rewriteOf(dsl::CombineOp Op, clang::QualType Values,
                           const clang::ASTContext &Ctx) {
    return {Op, dsl::isFloatValueClass(Values, Ctx)};
  }

private:
  /// The option Target (global fallback, default any), diagnosed if unknown.
  dsl::Target targetOption() const;
  void noteProfitability(clang::SourceLocation Loc, Rewrite Kind);

  const dsl::Target Backend;
  ReportedSites Reported;

protected:
  /// Scans of whole bodies for this translation unit: a check() installs it
  /// first (dsl::UseScanCache Use(Scans);).
  dsl::ScanCache Scans;
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
