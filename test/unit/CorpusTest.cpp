//===--- CorpusTest.cpp - Realistic DSL sources: every instance, no more --===//
//
// test/corpus/*.cpp are larger kernels written against the real LuisaCompute
// API, mixing the patterns with code that must not be reported. The findings
// must equal <name>.expected exactly, and every offered fix must compile.
//
//===----------------------------------------------------------------------===//

#include "src/driver/FixApplier.h"
#include "test/unit/TestSupport.h"
#include "llvm/Support/Path.h"
#include <cstdlib>
#include <gtest/gtest.h>

namespace kernel_tidy::test {
namespace {

class CorpusTest : public ::testing::TestWithParam<std::string> {};

TEST_P(CorpusTest, FindsEveryInstanceAndNothingElse) {
  const std::string Input = GetParam();
  const std::string Base = Input.substr(0, Input.size() - 4);
  auto Analyzer = sharedPrefixAnalyzer({}, Input);
  ASSERT_TRUE(Analyzer);
  FileResult Result = Analyzer->analyze(Input);
  // KERNEL_TIDY_UPDATE_FIXTURES=1 rewrites the expectation (review its diff).
  if (const char *Update = std::getenv("KERNEL_TIDY_UPDATE_FIXTURES");
      Update && std::string(Update) == "1")
    writeFile(Base + ".expected", describeFindings(Result));
  EXPECT_EQ(readFile(Base + ".expected"), describeFindings(Result));
  applyFixes(Result, *Analyzer, /*IncludeUnsafe=*/true);
  EXPECT_TRUE(Result.FixNotes.empty()) << Result.FixNotes.front();
}

std::string corpusCaseName(const ::testing::TestParamInfo<std::string> &Info) {
  std::string Name = llvm::sys::path::stem(Info.param).str();
  for (char &C : Name)
    if (!isalnum(static_cast<unsigned char>(C)))
      C = '_';
  return Name;
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusTest,
                         ::testing::ValuesIn(listFiles(sourceDir() + "/test/corpus", ".cpp")),
                         corpusCaseName);

} // namespace
} // namespace kernel_tidy::test
