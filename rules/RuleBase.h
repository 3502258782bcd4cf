//===--- RuleBase.h - What every kernel-tidy check shares -----------------===//

#ifndef KERNEL_TIDY_RULES_RULEBASE_H
#define KERNEL_TIDY_RULES_RULEBASE_H

#include "rules/FixProtocol.h"
#include "src/dsl/Analyses.h"
#include "src/dsl/Naming.h"
#include "src/dsl/Profitability.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "clang/Tooling/Transformer/RewriteRule.h"
#include "llvm/ADT/DenseSet.h"
#include <memory>
#include <optional>

namespace kernel_tidy::rules {

/// What a finding's rewrite combines, as src/dsl/Profitability.def keys it.
struct Rewrite {
  dsl::CombineOp Op;
  bool IsFloat; ///< Float-class values (see dsl::isFloatValueClass).
};

/// A finding as a rule describes it; RuleBase::emit reports it.
struct Diagnosis {
  clang::SourceLocation Loc;
  /// A clang diagnostic format string with %0, %1... for Args.
  llvm::StringRef Format;
  llvm::SmallVector<std::string, 4> Args;
  /// The code to underline; by default the code the rewrite replaces.
  std::optional<clang::CharSourceRange> Highlight;
  /// The rewrite, evaluated on the match plus Bindings (null: no rewrite).
  clang::transformer::EditGenerator Edit;
  FixSafety Safety;
  std::optional<Rewrite> Kind; ///< For the per-backend profitability note.
  /// Nodes the rule found in check() that the Edit refers to by name.
  std::vector<std::pair<std::string, clang::DynTypedNode>> Bindings;
  /// Notes that explain the finding (where, what), listed after the warning.
  std::vector<std::pair<clang::SourceLocation, std::string>> Notes;

  template <typename T> Diagnosis &bind(std::string Id, const T *Node) {
    Bindings.emplace_back(std::move(Id), clang::DynTypedNode::create(*Node));
    return *this;
  }
};

/// Whether a rewrite that combines \p Values with \p Op in another order
/// keeps the results: a floating-point sum or product does not (rounding).
/// \p Combiner names what combines them in the message ("warp_active_sum
/// combines"), \p Order the order it differs from.
FixSafety reassociationSafety(dsl::CombineOp Op, clang::QualType Values, llvm::StringRef Combiner,
                              llvm::StringRef Order = "another order");

/// Makes checks attach unsafe fixes to their notes unless the check option
/// UnsafeFixes says otherwise, and repeat the reason in a note without a fix
/// (kernel-clangd, which offers a note's fix as its own code action and
/// drops that note's text from the diagnostic). By default they are attached only when UnsafeFixes
/// is true: clang-tidy exports note fixes, and `run-clang-tidy -fix` applies every exported fix.
void offerUnsafeFixesByDefault();

/// A kernel-tidy check: C++17 DSL code, one report per source site (a
/// template instantiated twice is reported once), safe fixes on the warning,
/// unsafe fixes on a note (attached when the option UnsafeFixes is true;
/// applied only on request, as clang-tidy's --fix-notes), a note with the
/// reason when a rewrite was withheld (both written as FixProtocol.h says),
/// and a note where the rewrite is not expected to be faster on the Target
/// backend.
///
/// Every check reads the option WarpSize (default 32; the width of kernels
/// that do not call set_warp_size) once and hands it to its analyses: which
/// lanes exist decides index ranges and races as much as warp rewrites.
class RuleBase : public clang::tidy::ClangTidyCheck {
public:
  RuleBase(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context);
  bool isLanguageVersionSupported(const clang::LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus17;
  }
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;
  void onStartOfTranslationUnit() override { dsl::forgetNamesTakenByFixes(); }
  void onEndOfTranslationUnit() override {
    Reported.clear();
    TUAnalyses.reset();
    dsl::forgetNamesTakenByFixes();
  }

protected:
  /// The backends the run allows (the option Target).
  dsl::Target target() const { return Backend; }

  /// Reports \p D unless its site was reported already.
  void emit(const clang::ast_matchers::MatchFinder::MatchResult &Result, Diagnosis D);

  /// The analyses of the translation unit being checked.
  dsl::Analyses &analyses(clang::ASTContext &Ctx);

  /// The warp width at \p S (Unknown when WarpSize is not a width).
  dsl::WarpWidth widthAt(const clang::Stmt *S, clang::ASTContext &Ctx) {
    return analyses(Ctx).Widths.widthAt(S);
  }

  /// The bool option \p Name (global fallback; \p Default when unset or,
  /// diagnosed, when not a bool).
  bool boolOption(llvm::StringRef Name, bool Default) const;

  /// The rewrite that combines \p Op over values of type \p Values.
  static Rewrite rewriteOf(dsl::CombineOp Op, clang::QualType Values,
                           const clang::ASTContext &Ctx) {
    return {Op, dsl::isFloatValueClass(Values, Ctx)};
  }

private:
  /// The option Target (global fallback, default any), diagnosed if unknown.
  dsl::Target targetOption() const;
  /// The widths of kernels without set_warp_size: the option WarpSize
  /// (global fallback; no width, diagnosed, when it is not one) where it is
  /// set, else the Target's native range. Reads Backend.
  dsl::DefaultWarpWidths defaultWidthsOption() const;
  /// The option UnsafeFixes (global fallback), diagnosed if not a bool.
  bool unsafeFixesOption() const;
  /// The fix-its of \p D; none, with \p D.Safety turned to None and the
  /// reason, when the rewrite cannot be applied safely.
  std::vector<clang::FixItHint>
  fixItsOf(const clang::ast_matchers::MatchFinder::MatchResult &Result, Diagnosis &D);
  void noteProfitability(clang::SourceLocation Loc, Rewrite Kind);

  const dsl::Target Backend;
  const bool UnsafeFixes;
  const dsl::DefaultWarpWidths DefaultWidths;
  llvm::DenseSet<clang::SourceLocation::UIntTy> Reported;
  std::unique_ptr<dsl::Analyses> TUAnalyses;
};

} // namespace kernel_tidy::rules

#endif // KERNEL_TIDY_RULES_RULEBASE_H
