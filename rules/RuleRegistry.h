//===--- RuleRegistry.h - The list of kernel-tidy rules -------------------===//

#ifndef KERNEL_TIDY_RULES_RULEREGISTRY_H
#define KERNEL_TIDY_RULES_RULEREGISTRY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace kernel_tidy::rules {

/// What the tool knows about a rule without running it.
struct RuleInfo {
  llvm::StringRef Id;
  llvm::StringRef FixKinds; ///< Of "safe", "unsafe", "none": "safe/unsafe/none".
  llvm::StringRef Summary;
  /// "C++" (a clang-tidy check of rules/) or "Python" (a CuTe DSL rule of
  /// frontends/cute, run by the driver on .py files).
  llvm::StringRef Language;
  /// "correctness", "portability" or "performance" (rules/Rules.def).
  llvm::StringRef Kind;
};

/// Every rule, in registry order (rules/Rules.def).
llvm::ArrayRef<RuleInfo> allRules();

/// The rule named \p Id, or nullptr.
const RuleInfo *findRule(llvm::StringRef Id);

/// Forces the linker to keep the check module in static builds.
extern volatile int LuisaModuleAnchorSource;

} // namespace kernel_tidy::rules

#endif // KERNEL_TIDY_RULES_RULEREGISTRY_H
