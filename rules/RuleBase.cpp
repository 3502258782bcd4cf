//===--- RuleBase.cpp - What every kernel-tidy check shares ---------------===//

#include "rules/RuleBase.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace kernel_tidy::rules {

void RuleBase::report(SourceLocation Loc, StringRef Message,
                      std::optional<CharSourceRange> Range,
                      std::optional<FixItHint> Fix, StringRef UnsafeReason) {
  if (!Reported.insert(Loc))
    return;
  bool Unsafe = !UnsafeReason.empty();
  {
    auto Warning = diag(Loc, "%0") << Message;
    if (Range)
      Warning << *Range;
    if (Fix && !Unsafe)
      Warning << *Fix;
  }
  if (Fix && Unsafe)
    diag(Loc, "unsafe fix: %0", DiagnosticIDs::Note) << UnsafeReason << *Fix;
}

WarpReadLaneRule::WarpReadLaneRule(StringRef Name,
                                   tidy::ClangTidyContext *Context)
    : RuleBase(Name, Context),
      WarpSize(Options.getLocalOrGlobal("WarpSize", 32U)) {}

void WarpReadLaneRule::storeOptions(tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "WarpSize", WarpSize);
}

void WarpReadLaneRule::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      callExpr(callee(functionDecl(hasName("::luisa::compute::warp_read_lane"))))
          .bind("read"),
      this);
}

} // namespace kernel_tidy::rules
