//===--- FixFuzzer.cpp - libFuzzer target: parse -> rules -> fix -> reparse -===//
//
// Each input is a DSL source file. It is analysed with the bundled model, all
// fixes (safe and unsafe) are applied, and the result must keep the
// invariants the ctest runs check (test/unit/FixInvariants.h: no fix dropped,
// the fixed text compiles, nothing is left to fix, comments and directives
// are kept). Crashes, sanitizer reports and broken invariants abort. Seed
// corpus: test/fixtures/*/*.cpp and test/fuzz/corpus/.
//
// The model is parsed once into a precompiled header (built at start-up with
// clang++-19), so that an execution costs a small parse, not the headers.
//
//===----------------------------------------------------------------------===//

#include "src/driver/Analyzer.h"
#include "test/unit/FixInvariants.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

namespace {

std::unique_ptr<kernel_tidy::Analyzer> makeAnalyzer() {
  const std::string Model = KERNEL_TIDY_SOURCE_DIR "/src/dsl/api-model";
  const std::string Header = KERNEL_TIDY_SOURCE_DIR "/test/fuzz/prelude.h";
  llvm::SmallString<128> Pch;
  llvm::sys::fs::createTemporaryFile("kernel-tidy-fuzz", "pch", Pch);
  std::string PchPath = Pch.str().str();
  std::vector<llvm::StringRef> Args{"clang++-19", "-x", "c++-header", "-std=c++20",
                                    "-isystem", Model, Header, "-o", PchPath};
  if (llvm::sys::ExecuteAndWait("/usr/bin/clang++-19", Args) != 0) {
    std::fprintf(stderr, "cannot build the model's precompiled header\n");
    std::abort();
  }
  kernel_tidy::AnalysisOptions Options;
  Options.ForceBundledModel = true;
  Options.ModelDir = Model;
  Options.ResourceDir = KERNEL_TIDY_CLANG_RESOURCE_DIR;
  Options.ExtraArgs = {"-include-pch", PchPath};
  std::string Error;
  auto Result = kernel_tidy::Analyzer::create(Options, Error);
  if (!Result)
    std::abort();
  return Result;
}

/// The input's path: in a real folder, since the analysis runs there (the
/// text itself is served from memory and never written).
std::string inputPath() {
  llvm::SmallString<128> Dir;
  if (llvm::sys::fs::createUniqueDirectory("kernel-tidy-fuzz", Dir))
    std::abort();
  return (Dir + "/input.cpp").str();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  static std::unique_ptr<kernel_tidy::Analyzer> Analyzer = makeAnalyzer();
  static const std::string Path = inputPath();
  std::string Source(reinterpret_cast<const char *>(Data), Size);
  kernel_tidy::test::InvariantOutcome Outcome =
      kernel_tidy::test::checkFixInvariants(*Analyzer, Path, Source);
  if (std::getenv("KERNEL_TIDY_FUZZ_VERBOSE"))
    std::fprintf(stderr, "parsed: %d, findings: %u, fixed: %u\n", Outcome.Parsed,
                 Outcome.Findings, Outcome.Fixed);
  if (Outcome.Violations.empty())
    return 0;
  for (const std::string &Violation : Outcome.Violations)
    std::fprintf(stderr, "%s\n", Violation.c_str());
  std::abort();
}
