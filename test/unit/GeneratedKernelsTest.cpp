//===--- GeneratedKernelsTest.cpp - Fix invariants on generated inputs ----===//
//
// A bounded run of the structure-aware generator (KernelGenerator) and a
// replay of the fuzz corpus (test/fuzz/corpus): on every input the fixes
// compile, leave nothing to fix, are a fixed point and keep every comment and
// directive (FixInvariants). KERNEL_TIDY_GENERATED_CASES and
// KERNEL_TIDY_GENERATED_SEED run more or other cases; a failing case is
// printed whole, with its seed.
//
//===----------------------------------------------------------------------===//

#include "test/unit/FixInvariants.h"
#include "test/unit/KernelGenerator.h"
#include "test/unit/TestSupport.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include <cstdlib>
#include <gtest/gtest.h>

namespace kernel_tidy::test {
namespace {

unsigned fromEnvironment(const char *Name, unsigned Default) {
  const char *Value = std::getenv(Name);
  unsigned Parsed;
  return Value && !llvm::StringRef(Value).getAsInteger(10, Parsed) ? Parsed : Default;
}

std::string describe(const InvariantOutcome &Outcome) {
  return llvm::join(Outcome.Violations, "\n");
}

TEST(GeneratedKernels, FixesKeepTheInvariants) {
  const unsigned Cases = fromEnvironment("KERNEL_TIDY_GENERATED_CASES", 24);
  const unsigned FirstSeed = fromEnvironment("KERNEL_TIDY_GENERATED_SEED", 1);
  std::string Dir = makeTempDir();
  auto RemoveDir = llvm::make_scope_exit([&] { llvm::sys::fs::remove_directories(Dir); });
  std::string Path = Dir + "/generated.cpp";
  writeFile(Path, generateKernelSource(FirstSeed));
  auto Analyzer = sharedPrefixAnalyzer({}, Path);
  ASSERT_TRUE(Analyzer);
  unsigned Parsed = 0, WithFindings = 0, WithFixes = 0;
  for (unsigned Seed = FirstSeed; Seed < FirstSeed + Cases; ++Seed) {
    std::string Text = generateKernelSource(Seed);
    InvariantOutcome Outcome = checkFixInvariants(*Analyzer, Path, Text);
    Parsed += Outcome.Parsed;
    WithFindings += Outcome.Findings > 0;
    WithFixes += Outcome.Fixed > 0;
    EXPECT_TRUE(Outcome.Violations.empty()) << "seed " << Seed << ":\n"
                                            << describe(Outcome) << "\n--- input ---\n"
                                            << Text;
  }
  // The generator must make inputs the rules work on, or the run checks nothing.
  EXPECT_GE(Parsed * 10, Cases * 9) << Parsed << " of " << Cases << " compiled";
  EXPECT_GE(WithFindings * 2, Cases) << WithFindings << " of " << Cases << " had findings";
  EXPECT_GE(WithFixes * 3, Cases) << WithFixes << " of " << Cases << " were fixed";
  std::printf("generated cases: %u, compiled: %u, with findings: %u, fixed: %u\n", Cases, Parsed,
              WithFindings, WithFixes);
}

TEST(GeneratedKernels, TheSameSeedGivesTheSameSource) {
  EXPECT_EQ(generateKernelSource(7), generateKernelSource(7));
  EXPECT_NE(generateKernelSource(7), generateKernelSource(8));
}

TEST(FixInvariants, CommentsAndDirectivesAreFoundAsWritten) {
  EXPECT_EQ(
      (std::vector<std::string>{"// a", "#ifdef X", "/* b */", "#endif", "// X", "#define Y 1"}),
      commentsAndDirectives("int x; // a\n#ifdef X\nint y = 1 /* b */;\n#endif // X\n"
                            "  #define Y 1\nconst char *s = \"// not a comment\";\n"));
}

// Inputs kept because they once broke an invariant or are hostile shapes:
// each must keep them now.
TEST(FuzzCorpus, EveryInputKeepsTheInvariants) {
  std::vector<std::string> Inputs = listFiles(sourceDir() + "/test/fuzz/corpus", ".cpp");
  ASSERT_FALSE(Inputs.empty());
  for (const std::string &Input : Inputs) {
    auto Analyzer = sharedPrefixAnalyzer({}, Input);
    ASSERT_TRUE(Analyzer);
    InvariantOutcome Outcome = checkFixInvariants(*Analyzer, Input, readFile(Input));
    EXPECT_TRUE(Outcome.Violations.empty()) << Input << ":\n" << describe(Outcome);
  }
}

} // namespace
} // namespace kernel_tidy::test
