//===--- RuleRegistryTest.cpp - Every rule is documented and tested -------===//

#include "rules/RuleRegistry.h"
#include "test/unit/Fixture.h"
#include "test/unit/TestSupport.h"
#include "clang-tidy/ClangTidy.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <gtest/gtest.h>
#include <cstdlib>
#include <map>
#include <regex>
#include <set>

namespace kernel_tidy::test {
namespace {

TEST(RuleRegistry, ModuleRegistersExactlyTheRegistry) {
  std::set<std::string> Registered;
  for (const auto &Name : clang::tidy::getAllChecksAndOptions(false).Names)
    if (Name.getKey().starts_with("luisa-"))
      Registered.insert(Name.getKey().str());
  std::set<std::string> Listed; // The CuTe DSL rules are Python, not clang-tidy checks.
  for (const auto &Rule : rules::allRules())
    if (Rule.Language == "C++")
      Listed.insert(Rule.Id.str());
  EXPECT_EQ(Listed, Registered);
}

TEST(RuleRegistry, EveryRuleHasADocPage) {
  for (const auto &Rule : rules::allRules()) {
    std::string Doc = readFile(sourceDir() + "/docs/rules/" + Rule.Id.str() + ".md");
    ASSERT_FALSE(Doc.empty()) << "docs/rules/" << Rule.Id.str() << ".md is missing";
    EXPECT_NE(std::string::npos, Doc.find("# " + Rule.Id.str())) << Rule.Id.str();
    for (const char *Section :
         {"## Before", "## After", "## When it is safe", "## When it does not fire", "## Options"})
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

TEST(RuleRegistry, FixKindsAreTheKindsTheFixturesShow) {
  // `kernel-tidy rules`, the README and SARIF say which fixes a rule can
  // give: exactly the kinds its findings have somewhere in the fixtures.
  const std::regex Warning(
      R"(warning: .* \[((?:luisa|cute)-[a-z-]+)\] \(fix: (safe|unsafe|none)\)$)");
  std::map<std::string, std::set<std::string>> Seen;
  for (const std::string &File : fixtureFiles())
    for (const Expectation &E : loadFixture(File).Expectations) {
      std::smatch Match;
      if (std::regex_search(E.Text, Match, Warning))
        Seen[Match[1]].insert(Match[2]);
    }
  for (const auto &Rule : rules::allRules()) {
    std::string Kinds;
    for (const char *Kind : {"safe", "unsafe", "none"})
      if (Seen[Rule.Id.str()].count(Kind))
        Kinds += (Kinds.empty() ? "" : "/") + std::string(Kind);
    EXPECT_EQ(Kinds, Rule.FixKinds.str()) << Rule.Id.str();
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

/// The README's rules table, one row per rule of the registry (the row
/// scripts/new-rule appends).
std::string rulesTable() {
  std::string Table = "| rule | fix | what |\n|---|---|---|\n";
  for (const auto &Rule : rules::allRules())
    Table += ("| [" + Rule.Id + "](docs/rules/" + Rule.Id + ".md) | " + Rule.FixKinds + " | " +
              Rule.Summary + " |\n")
                 .str();
  return Table;
}

TEST(RuleRegistry, ReadmeTableIsTheRegistry) {
  const std::string Path = sourceDir() + "/README.md";
  std::string Readme = readFile(Path);
  const std::string Begin = "<!-- The rules table is generated from rules/Rules.def";
  const std::string End = "<!-- end of the rules table -->";
  size_t From = Readme.find(Begin);
  ASSERT_NE(std::string::npos, From) << "README.md lacks '" << Begin << "'";
  From = Readme.find('\n', From) + 1;
  size_t To = Readme.find(End, From);
  ASSERT_NE(std::string::npos, To) << "README.md lacks '" << End << "'";
  const char *Update = std::getenv("KERNEL_TIDY_UPDATE_FIXTURES");
  if (Update && std::string(Update) == "1") {
    Readme.replace(From, To - From, rulesTable());
    writeFile(Path, Readme);
  }
  EXPECT_EQ(rulesTable(), Readme.substr(From, To - From))
      << "KERNEL_TIDY_UPDATE_FIXTURES=1 rewrites the table";
}

} // namespace
} // namespace kernel_tidy::test
