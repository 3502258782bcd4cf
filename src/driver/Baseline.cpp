//===--- Baseline.cpp - Findings that already existed ---------------------===//

#include "src/driver/Baseline.h"

#include "src/driver/Fingerprint.h"
#include "src/driver/JsonFields.h"
#include "src/driver/Nesting.h"
#include "src/driver/Paths.h"
#include <algorithm>
#include <nlohmann/json.hpp>

namespace kernel_tidy {
namespace {

constexpr int BaselineVersion = 1;

std::string keyOf(const std::string &Rule, const std::string &File,
                  const std::string &Fingerprint) {
  return Rule + '\n' + File + '\n' + Fingerprint;
}

} // namespace

std::vector<BaselineEntry> baselineEntries(const FileResult &Result, const std::string &Root) {
  std::vector<std::string> Prints = fingerprintFindings(Result);
  std::vector<BaselineEntry> Entries;
  for (size_t I = 0; I < Result.Findings.size(); ++I) {
    const Finding &F = Result.Findings[I];
    Entries.push_back({F.Rule, relativeToRoot(F.File, Root), Prints[I], F.Message});
  }
  return Entries;
}

std::string formatBaseline(const std::vector<BaselineEntry> &Entries) {
  nlohmann::json Findings = nlohmann::json::array();
  for (const BaselineEntry &E : Entries)
    Findings.push_back({{"rule", E.Rule},
                        {"file", E.File},
                        {"fingerprint", E.Fingerprint},
                        {"message", E.Message}});
  nlohmann::json Baseline = {{"kernel_tidy_baseline", BaselineVersion}, {"findings", Findings}};
  return Baseline.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::optional<std::vector<BaselineEntry>> parseBaseline(const std::string &Text,
                                                        std::string &Error) {
  if (std::string Problem = nestingProblem(Text, /*JsonStrings=*/true); !Problem.empty()) {
    Error = "not a kernel-tidy baseline: " + Problem;
    return std::nullopt;
  }
  nlohmann::json Baseline = nlohmann::json::parse(Text, nullptr, /*allow_exceptions=*/false);
  if (Baseline.is_discarded() || !Baseline.is_object() ||
      Baseline["kernel_tidy_baseline"] != BaselineVersion || !Baseline["findings"].is_array()) {
    Error = "not a kernel-tidy baseline (version " + std::to_string(BaselineVersion) + ")";
    return std::nullopt;
  }
  std::vector<BaselineEntry> Entries;
  for (const nlohmann::json &F : Baseline["findings"]) {
    if (!F.is_object() || !hasString(F, "rule") || !hasString(F, "file") ||
        !hasString(F, "fingerprint") || (F.contains("message") && !hasString(F, "message"))) {
      Error = "baseline entry without rule, file and fingerprint (and a message, if any, "
              "that is a string): " +
              F.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      return std::nullopt;
    }
    Entries.push_back(
        {F.at("rule"), F.at("file"), F.at("fingerprint"), F.value("message", std::string())});
  }
  return Entries;
}

BaselineFilter::BaselineFilter(const std::vector<BaselineEntry> &Entries) {
  for (const BaselineEntry &E : Entries)
    Keys.push_back(keyOf(E.Rule, E.File, E.Fingerprint));
  std::sort(Keys.begin(), Keys.end());
}

unsigned BaselineFilter::removeKnown(FileResult &Result, const std::string &Root) const {
  std::vector<BaselineEntry> Current = baselineEntries(Result, Root);
  std::vector<Finding> Kept;
  for (size_t I = 0; I < Current.size(); ++I) {
    const BaselineEntry &E = Current[I];
    if (!std::binary_search(Keys.begin(), Keys.end(), keyOf(E.Rule, E.File, E.Fingerprint)))
      Kept.push_back(std::move(Result.Findings[I]));
  }
  unsigned Removed = Result.Findings.size() - Kept.size();
  Result.Findings = std::move(Kept);
  return Removed;
}

} // namespace kernel_tidy
