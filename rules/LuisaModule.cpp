//===--- LuisaModule.cpp - The kernel-tidy clang-tidy module --------------===//
//
// Registers every rule of rules/Rules.def as a clang-tidy check, so that the
// same checks serve the kernel-tidy CLI, `clang-tidy --load` and clangd.
//
//===----------------------------------------------------------------------===//

#include "rules/AllChecks.h"
#include "rules/RuleRegistry.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyModuleRegistry.h"

using namespace clang::tidy;

namespace kernel_tidy::rules {

static const RuleInfo Rules[] = {
#define KERNEL_TIDY_RULE(Id, Class, Kind, Fix, Summary) {Id, Fix, Summary, "C++", Kind},
#define KERNEL_TIDY_CUTE_RULE(Id, Kind, Fix, Summary) {Id, Fix, Summary, "Python", Kind},
#include "rules/Rules.def"
};

llvm::ArrayRef<RuleInfo> allRules() { return Rules; }

const RuleInfo *findRule(llvm::StringRef Id) {
  for (const RuleInfo &Rule : Rules)
    if (Rule.Id == Id)
      return &Rule;
  return nullptr;
}

/// The clang-tidy module holding every kernel-tidy check.
class LuisaModule : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &Factories) override {
#define KERNEL_TIDY_RULE(Id, Class, Kind, Fix, Summary) Factories.registerCheck<Class>(Id);
#include "rules/Rules.def"
  }
};

static ClangTidyModuleRegistry::Add<LuisaModule> X("luisa-module",
                                                   "LuisaCompute DSL kernel checks (kernel-tidy).");

volatile int LuisaModuleAnchorSource = 0;

} // namespace kernel_tidy::rules
