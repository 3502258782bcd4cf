//===--- RuleBase.cpp - What every kernel-tidy check shares ---------------===//

#include "rules/RuleBase.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace kernel_tidy::rules {

RuleBase::RuleBase(StringRef Name, tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context), Backend(targetOption()) {}

dsl::Target RuleBase::targetOption() const {
  StringRef Value = Options.getLocalOrGlobal("Target", "any");
  if (auto Parsed = dsl::parseTarget(Value))
    return *Parsed;
  configurationDiag("invalid configuration value '%0' for option 'Target'; "
                    "expected %1")
      << Value << dsl::targetChoices();
  return dsl::Target::Any;
}

void RuleBase::storeOptions(tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "Target", dsl::targetName(Backend));
}

void RuleBase::report(SourceLocation Loc, Rewrite Kind, StringRef Message,
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
  noteProfitability(Loc, Kind);
}

void RuleBase::noteProfitability(SourceLocation Loc, Rewrite Kind) {
  auto Entry =
      dsl::lookupGain(getID(), dsl::gainOpName(Kind.Op), Kind.IsFloat, Backend);
  if (!Entry || Entry->Outcome == dsl::Gain::Faster)
    return;
  // The finding is still a valid lint, so it stays, with its fix; the note
  // only withdraws the speed claim. It carries no fix: clang-tidy's
  // --fix-notes applies a note's fix only when exactly one note has one.
  diag(Loc,
       "on %0 this rewrite %select{is not expected to be faster|is expected "
       "to be slower}1 (%2); it is kept for readability and robustness",
       DiagnosticIDs::Note)
      << dsl::targetName(Backend) << (Entry->Outcome == dsl::Gain::Slower)
      << Entry->Source;
}

WarpReadLaneRule::WarpReadLaneRule(StringRef Name,
                                   tidy::ClangTidyContext *Context)
    : RuleBase(Name, Context),
      WarpSize(Options.getLocalOrGlobal("WarpSize", 32U)) {}

void WarpReadLaneRule::storeOptions(tidy::ClangTidyOptions::OptionMap &Opts) {
  RuleBase::storeOptions(Opts);
  Options.store(Opts, "WarpSize", WarpSize);
}

void WarpReadLaneRule::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      callExpr(callee(functionDecl(hasName("::luisa::compute::warp_read_lane"))))
          .bind("read"),
      this);
}

} // namespace kernel_tidy::rules
