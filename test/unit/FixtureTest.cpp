//===--- FixtureTest.cpp - Per-rule fixtures: exact findings and fixes ----===//
//
// Each test/fixtures/<rule>/<case>.cpp is analysed with the bundled DSL
// model. <case>.expected lists the exact findings, one
// `LINE:COL: warning: MESSAGE [RULE] (fix: safe|unsafe|none)` line each,
// followed by a `LINE:COL: note: MESSAGE` line per note without a fix (the
// note holding an unsafe fix is not listed: the fix kind says it);
// <case>.fixed.cpp is the exact text after --fix --unsafe-fixes (no file: the
// text must not change). A first line `// kernel-tidy-args: --warp-size=64
// --target=cuda` (also --checks=GLOBS) sets options, as the CLI's would.
//
//===----------------------------------------------------------------------===//

#include "src/driver/FixApplier.h"
#include "test/unit/TestSupport.h"
#include "llvm/Support/Path.h"
#include <gtest/gtest.h>

namespace kernel_tidy::test {
namespace {

std::vector<std::string> fixtureCases() {
  std::vector<std::string> Cases;
  for (const std::string &RuleDir : listFiles(sourceDir() + "/test/fixtures", ""))
    for (const std::string &File : listFiles(RuleDir, ".cpp"))
      if (!llvm::StringRef(File).ends_with(".fixed.cpp"))
        Cases.push_back(File);
  return Cases;
}

std::string withoutExtension(const std::string &Path) {
  return Path.substr(0, Path.size() - 4);
}

class FixtureTest : public ::testing::TestWithParam<std::string> {};

TEST_P(FixtureTest, FindingsAndFixesAreExact) {
  const std::string Input = GetParam();
  const std::string Base = withoutExtension(Input);
  ASSERT_TRUE(fileExists(Base + ".expected")) << "missing " << Base << ".expected";
  const std::string Source = readFile(Input);
  auto Analyzer = modelAnalyzer(fixtureOptions(Source));
  ASSERT_TRUE(Analyzer);

  FileResult Result = Analyzer->analyze(Input);
  EXPECT_EQ(readFile(Base + ".expected"), describeFindings(Result));

  FileResult WithUnsafe = Result;
  applyFixes(WithUnsafe, *Analyzer, /*IncludeUnsafe=*/true);
  EXPECT_TRUE(WithUnsafe.FixNotes.empty())
      << "a fix was dropped: " << WithUnsafe.FixNotes.front();
  const std::string Fixed = WithUnsafe.Fixed.value_or(Source);
  const std::string ExpectedFixed =
      fileExists(Base + ".fixed.cpp") ? readFile(Base + ".fixed.cpp") : Source;
  EXPECT_EQ(ExpectedFixed, Fixed);

  // Safe-only fixing applies exactly the findings marked safe.
  FileResult SafeOnly = Result;
  applyFixes(SafeOnly, *Analyzer, /*IncludeUnsafe=*/false);
  unsigned SafeCount = 0;
  for (const Finding &F : Result.Findings)
    SafeCount += F.FixIt && F.FixIt->Kind == Applicability::Safe;
  EXPECT_EQ(SafeCount, SafeOnly.FixedCount);

  if (!WithUnsafe.Fixed)
    return;
  // The fixed text compiles and is a fixed point: nothing left to fix.
  FileResult Again = Analyzer->analyze(Input, Fixed);
  EXPECT_TRUE(Again.Errors.empty()) << describeFindings(Again);
  for (const Finding &F : Again.Findings)
    EXPECT_FALSE(F.FixIt.has_value())
        << "fixable finding after fixing: " << describeFindings(Again);
  applyFixes(Again, *Analyzer, /*IncludeUnsafe=*/true);
  EXPECT_EQ(Fixed, Again.Fixed.value_or(Fixed));
}

std::string caseName(const ::testing::TestParamInfo<std::string> &Info) {
  llvm::StringRef Path(Info.param);
  llvm::StringRef Case = llvm::sys::path::stem(Path);
  llvm::StringRef Rule = llvm::sys::path::filename(llvm::sys::path::parent_path(Path));
  std::string Name = (Rule.drop_front(6) + "_" + Case).str();
  for (char &C : Name)
    if (!isalnum(static_cast<unsigned char>(C)))
      C = '_';
  return Name;
}

INSTANTIATE_TEST_SUITE_P(Rules, FixtureTest, ::testing::ValuesIn(fixtureCases()),
                         caseName);

} // namespace
} // namespace kernel_tidy::test
