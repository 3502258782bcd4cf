//===--- VerdictCorpusTest.cpp - Precision and recall on test/verdicts ----===//
//
// test/verdicts/*.cpp hold small kernels, each a CASE with the rules that
// must report inside it (test/verdicts/README.md). This test runs the judged
// rules, prints true/false positives, false negatives, precision and recall
// per rule, and fails when a case's outcome differs from its verdict other
// than by a recorded `(known: missed)` / `(known: false-alarm)`.
//
//===----------------------------------------------------------------------===//

#include "test/unit/TestSupport.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include <gtest/gtest.h>
#include <map>
#include <set>

namespace kernel_tidy::test {
namespace {

struct VerdictCase {
  std::string Name;
  unsigned FirstLine = 0, LastLine = 0;
  std::set<std::string> Expected;
  std::string Known; ///< "", "missed" or "false-alarm".
};

struct VerdictFile {
  std::set<std::string> Rules;
  std::vector<VerdictCase> Cases;
};

VerdictFile parseVerdicts(const std::string &Text) {
  VerdictFile File;
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  llvm::StringRef(Text).split(Lines, '\n');
  for (unsigned I = 0; I < Lines.size(); ++I) {
    llvm::StringRef Line = Lines[I].trim();
    if (Line.consume_front("// RULES:")) {
      llvm::SmallVector<llvm::StringRef, 4> Rules;
      Line.split(Rules, ',', -1, false);
      for (llvm::StringRef Rule : Rules)
        File.Rules.insert(Rule.trim().str());
    } else if (Line.consume_front("// CASE ")) {
      if (!File.Cases.empty())
        File.Cases.back().LastLine = I; // 1-based line I is the one before.
      VerdictCase Case;
      auto [Name, Rest] = Line.split(':');
      Case.Name = Name.trim().str();
      Case.FirstLine = I + 1;
      if (auto Open = Rest.find("(known:"); Open != llvm::StringRef::npos) {
        Case.Known = Rest.substr(Open + 7).rtrim(") ").trim().str();
        Rest = Rest.substr(0, Open);
      }
      llvm::SmallVector<llvm::StringRef, 4> Rules;
      Rest.split(Rules, ',', -1, false);
      for (llvm::StringRef Rule : Rules)
        if (Rule.trim() != "none")
          Case.Expected.insert(Rule.trim().str());
      File.Cases.push_back(std::move(Case));
    }
  }
  if (!File.Cases.empty())
    File.Cases.back().LastLine = Lines.size();
  return File;
}

struct Counts {
  unsigned TruePositives = 0, FalsePositives = 0, FalseNegatives = 0, TrueNegatives = 0;
};

TEST(VerdictCorpus, PrecisionAndRecall) {
  std::map<std::string, Counts> PerRule;
  auto Analyzer = modelAnalyzer();
  ASSERT_TRUE(Analyzer);
  std::vector<std::string> Files = listFiles(sourceDir() + "/test/verdicts", ".cpp");
  ASSERT_FALSE(Files.empty());
  for (const std::string &Path : Files) {
    VerdictFile Verdicts = parseVerdicts(readFile(Path));
    ASSERT_FALSE(Verdicts.Rules.empty()) << Path << ": no RULES line";
    FileResult Result = Analyzer->analyze(Path);
    EXPECT_TRUE(Result.Errors.empty()) << Path << ": " << Result.Errors.front().Message;
    for (const VerdictCase &Case : Verdicts.Cases) {
      std::set<std::string> Found;
      for (const Finding &F : Result.Findings)
        if (F.Begin.Line >= Case.FirstLine && F.Begin.Line <= Case.LastLine &&
            Verdicts.Rules.count(F.Rule))
          Found.insert(F.Rule);
      bool Deviates = false;
      std::string Kind;
      for (const std::string &Rule : Verdicts.Rules) {
        bool Expected = Case.Expected.count(Rule), Reported = Found.count(Rule);
        Counts &C = PerRule[Rule];
        if (Expected && Reported)
          ++C.TruePositives;
        else if (Reported)
          ++C.FalsePositives, Deviates = true, Kind = "false-alarm";
        else if (Expected)
          ++C.FalseNegatives, Deviates = true, Kind = "missed";
        else
          ++C.TrueNegatives;
      }
      EXPECT_EQ(Case.Known, Deviates ? Kind : "")
          << Path << ": case " << Case.Name << " (line " << Case.FirstLine << ")";
    }
  }
  for (const auto &[Rule, C] : PerRule) {
    unsigned Reported = C.TruePositives + C.FalsePositives;
    unsigned Bugs = C.TruePositives + C.FalseNegatives;
    llvm::outs() << llvm::format(
        "%-30s TP %3u  FP %3u  FN %3u  TN %3u  precision %5.3f  recall %5.3f\n", Rule.c_str(),
        C.TruePositives, C.FalsePositives, C.FalseNegatives, C.TrueNegatives,
        Reported ? double(C.TruePositives) / Reported : 1.0,
        Bugs ? double(C.TruePositives) / Bugs : 1.0);
  }
  llvm::outs().flush();
}

} // namespace
} // namespace kernel_tidy::test
