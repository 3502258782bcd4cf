//===--- BlockPrivatizedAtomicCheck.h - luisa-block-privatized-atomic -----===//

#ifndef KERNEL_TIDY_RULES_BLOCKPRIVATIZEDATOMICCHECK_H
#define KERNEL_TIDY_RULES_BLOCKPRIVATIZEDATOMICCHECK_H

#include "rules/RuleBase.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/StringSet.h"

namespace kernel_tidy::rules {

/// True if luisa-block-privatized-atomic rewrites the atomic \p Fetch
/// (`OBJECT.atomic(I).fetch_OP(V)`): luisa-warp-aggregated-atomic then
/// leaves it to that rule, so that one atomic gets one finding.
bool isBlockPrivatizable(const clang::CXXMemberCallExpr *Fetch, clang::ASTContext &Ctx,
                         dsl::Analyses &A, clang::Preprocessor *PP);

/// Finds per-thread atomics on one block-uniform slot of a global buffer and
/// privatizes them: a Shared slot per block, one global atomic per block.
class BlockPrivatizedAtomicCheck : public RuleBase {
public:
  using RuleBase::RuleBase;
  void registerPPCallbacks(const clang::SourceManager &SM, clang::Preprocessor *PP,
                           clang::Preprocessor *ModuleExpanderPP) override {
    this->PP = PP;
  }
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  clang::Preprocessor *PP = nullptr;
};

} // namespace kernel_tidy::rules

#endif // KERNEL_TIDY_RULES_BLOCKPRIVATIZEDATOMICCHECK_H
