//===--- RuleRegistryTest.cpp - Every rule is documented and tested -------===//

#include "rules/RuleRegistry.h"
#include "test/unit/Fixture.h"
#include "test/unit/TestSupport.h"
#include "clang-tidy/ClangTidy.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <gtest/gtest.h>
#include <set>

namespace kernel_tidy::test {
namespace {

TEST(RuleRegistry, ModuleRegistersExactlyTheRegistry) {
  std::set<std::string> Registered;
  for (const auto &Name : clang::tidy::getAllChecksAndOptions(false).Names)
    if (Name.getKey().starts_with("luisa-"))
      Registered.insert(Name.getKey().str());
  std::set<std::string> Listed;
  for (const auto &Rule : rules::allRules())
    Listed.insert(Rule.Id.str());
  EXPECT_EQ(Listed, Registered);
}

TEST(RuleRegistry, EveryRuleHasADocPage) {
  for (const auto &Rule : rules::allRules()) {
    std::string Doc = readFile(sourceDir() + "/docs/rules/" + Rule.Id.str() + ".md");
    ASSERT_FALSE(Doc.empty()) << "docs/rules/" << Rule.Id.str() << ".md is missing";
    EXPECT_NE(std::string::npos, Doc.find("# " + Rule.Id.str())) << Rule.Id.str();
    for (const char *Section : {"## Before", "## After", "## When it is safe",
                                "## When it does not fire", "## Options"})
      EXPECT_NE(std::string::npos, Doc.find(Section))
          << Rule.Id.str() << " doc lacks '" << Section << "'";
  }
}

TEST(RuleRegistry, EveryRuleHasPositiveNegativeAndNearMissFixtures) {
  // Positive: a warning is expected (in some run); negative: none is.
  for (const auto &Rule : rules::allRules()) {
    std::string Dir = sourceDir() + "/test/fixtures/" + Rule.Id.str();
    unsigned Positive = 0, Negative = 0, NearMiss = 0;
    for (const std::string &File : fixtureFiles()) {
      if (llvm::sys::path::parent_path(File) != Dir)
        continue;
      bool Warns = loadFixture(File).expectsWarning();
      Positive += Warns;
      Negative += !Warns;
      NearMiss += llvm::sys::path::filename(File).starts_with("near-miss");
    }
    EXPECT_GT(Positive, 0u) << Rule.Id.str() << " has no positive fixture";
    EXPECT_GT(Negative, 0u) << Rule.Id.str() << " has no negative fixture";
    EXPECT_GT(NearMiss, 0u) << Rule.Id.str() << " has no near-miss fixture";
  }
}

TEST(RuleRegistry, EveryFixtureFolderIsARule) {
  for (const std::string &Dir : listFiles(sourceDir() + "/test/fixtures", "")) {
    if (!llvm::sys::fs::is_directory(Dir))
      continue; // README.md
    std::string Name = llvm::sys::path::filename(Dir).str();
    EXPECT_NE(nullptr, rules::findRule(Name)) << "fixtures for unknown rule " << Name;
  }
}

} // namespace
} // namespace kernel_tidy::test
