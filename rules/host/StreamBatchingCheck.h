//===--- StreamBatchingCheck.h - luisa-stream-batching --------------------===//

#ifndef KERNEL_TIDY_RULES_HOST_STREAMBATCHINGCHECK_H
#define KERNEL_TIDY_RULES_HOST_STREAMBATCHINGCHECK_H

#include "rules/RuleBase.h"
#include "rules/host/StreamSubmissions.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"

namespace kernel_tidy::rules {

/// Host code: consecutive `stream << ...;` statements on one Stream -> one
/// chained statement; a loop that only submits to one stream -> one
/// CommandList filled in the loop and committed after it.
class StreamBatchingCheck : public RuleBase {
public:
  using RuleBase::RuleBase;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  void checkRun(const clang::ast_matchers::MatchFinder::MatchResult &Result,
                const std::vector<dsl::StreamSubmission> &Run);
  void checkLoop(const clang::ast_matchers::MatchFinder::MatchResult &Result,
                 const dsl::BatchableLoop &Batch);
};

} // namespace kernel_tidy::rules

#endif // KERNEL_TIDY_RULES_HOST_STREAMBATCHINGCHECK_H
