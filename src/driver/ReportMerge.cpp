//===--- ReportMerge.cpp - One report from the reports of CI shards -------===//

#include "src/driver/ReportMerge.h"

#include "src/driver/Baseline.h"
#include "src/driver/JsonFields.h"
#include "src/driver/Nesting.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>

using nlohmann::json;

namespace kernel_tidy {
namespace {

enum class ReportKind { Sarif, Json, Baseline, Unknown };

/// A count of the JSON report's summary, which merging adds up.
struct SummaryCount {
  const char *Name;
  bool Required; ///< False for a count newer than version 1's first reports.
};
const SummaryCount SummaryCounts[] = {{"files", true},
                                      {"diagnostics", true},
                                      {"fixable", true},
                                      {"unsafe_fixable", false},
                                      {"fixed", true}};

bool hasCount(const json &Item, const char *Key) {
  auto It = Item.find(Key);
  return It != Item.end() && It->is_number_unsigned();
}

/// Whether \p Array is an array of objects each satisfying \p Valid.
bool allEntries(const json &Array, const std::function<bool(const json &)> &Valid) {
  return Array.is_array() && std::all_of(Array.begin(), Array.end(), [&](const json &Item) {
           return Item.is_object() && Valid(Item);
         });
}

bool isSarifEntry(const json &Result) {
  const json &Location = Result.value("locations", json());
  if (!hasString(Result.value("message", json::object()), "text"))
    return false;
  // Results and notifications are ordered by the file of their first location.
  return Location.is_array() && !Location.empty() && Location[0].is_object() &&
         hasString(Location[0]
                       .value("physicalLocation", json::object())
                       .value("artifactLocation", json::object()),
                   "uri");
}

bool isJsonDiagnostic(const json &D) {
  return hasString(D, "rule") && hasString(D, "message") && hasString(D, "file") &&
         hasCount(D, "line") && hasCount(D, "column");
}

bool isJsonError(const json &E) { return hasString(E, "file") && hasString(E, "message"); }

/// What \p Report is, checking the shape merging and the readers of the
/// merged report rely on, entry by entry (a field of another type, or an
/// entry without its file, is not a report of that kind).
ReportKind kindOf(const json &Report) {
  if (!Report.is_object())
    return ReportKind::Unknown;
  auto Is = [&](const char *Key, json::value_t Type) {
    auto It = Report.find(Key);
    return It != Report.end() && It->type() == Type;
  };
  if (Is("runs", json::value_t::array) && Report.value("version", json()) == "2.1.0" &&
      Report.at("runs").size() == 1 && Report.at("runs")[0].is_object()) {
    const json &Run = Report.at("runs")[0];
    const json &Invocations = Run.value("invocations", json());
    if (!allEntries(Run.value("results", json()), isSarifEntry) || !Invocations.is_array() ||
        Invocations.empty() || !Invocations[0].is_object() ||
        !Invocations[0].value("executionSuccessful", json()).is_boolean() ||
        !allEntries(Invocations[0].value("toolExecutionNotifications", json()), isSarifEntry))
      return ReportKind::Unknown;
    return ReportKind::Sarif;
  }
  if (Is("diagnostics", json::value_t::array) && Is("summary", json::value_t::object)) {
    const json &Summary = Report.at("summary");
    for (const SummaryCount &Count : SummaryCounts)
      if ((Count.Required || Summary.contains(Count.Name)) && !hasCount(Summary, Count.Name))
        return ReportKind::Unknown;
    if (!allEntries(Report.at("diagnostics"), isJsonDiagnostic) ||
        Summary.at("diagnostics") != Report.at("diagnostics").size() ||
        !allEntries(Summary.value("errors", json()), isJsonError))
      return ReportKind::Unknown;
    return ReportKind::Json;
  }
  // A baseline as --baseline reads it (version, every entry).
  std::string Ignored;
  if (Report.contains("kernel_tidy_baseline") && parseBaseline(Report.dump(), Ignored))
    return ReportKind::Baseline;
  return ReportKind::Unknown;
}

/// Appends \p From to \p To and orders the whole by \p FileOf, stably.
void appendByFile(json &To, const json &From,
                  const std::function<std::string(const json &)> &FileOf) {
  for (const json &Item : From)
    To.push_back(Item);
  std::stable_sort(To.begin(), To.end(),
                   [&](const json &A, const json &B) { return FileOf(A) < FileOf(B); });
}

std::string sarifUri(const json &ResultOrNotification) {
  return ResultOrNotification.at("locations")
      .at(0)
      .at("physicalLocation")
      .at("artifactLocation")
      .value("uri", "");
}

void mergeSarif(json &Into, const json &Log) {
  json &Run = Into["runs"][0];
  const json &Other = Log.at("runs").at(0);
  appendByFile(Run["results"], Other.at("results"), sarifUri);
  json &Invocation = Run["invocations"][0];
  const json &OtherInvocation = Other.at("invocations").at(0);
  Invocation["executionSuccessful"] = Invocation["executionSuccessful"].get<bool>() &&
                                      OtherInvocation.at("executionSuccessful").get<bool>();
  appendByFile(Invocation["toolExecutionNotifications"],
               OtherInvocation.at("toolExecutionNotifications"), sarifUri);
}

/// Adds \p Report to \p Into; false if a summary count would pass 2^64.
bool mergeJson(json &Into, const json &Report) {
  auto FileOf = [](const json &Item) { return Item.value("file", ""); };
  appendByFile(Into["diagnostics"], Report.at("diagnostics"), FileOf);
  json &Summary = Into["summary"];
  const json &From = Report.at("summary");
  for (const SummaryCount &Entry : SummaryCounts) {
    // A count newer than the report adds 0.
    const char *Count = Entry.Name;
    auto CountIn = [Count](const json &Summary) {
      return Summary.contains(Count) ? Summary.at(Count).get<uint64_t>() : uint64_t(0);
    };
    uint64_t Sum;
    if (__builtin_add_overflow(CountIn(Summary), CountIn(From), &Sum))
      return false;
    Summary[Count] = Sum;
  }
  appendByFile(Summary["errors"], Report.at("summary").at("errors"), FileOf);
  return true;
}

void mergeBaseline(json &Into, const json &Baseline) {
  appendByFile(Into["findings"], Baseline.at("findings"),
               [](const json &Item) { return Item.value("file", ""); });
}

} // namespace

std::optional<std::string> mergeReports(const std::vector<std::string> &Texts, std::string &Error) {
  std::optional<json> Merged;
  ReportKind Kind = ReportKind::Unknown;
  for (size_t I = 0; I < Texts.size(); ++I)
    try {
      if (std::string Problem = nestingProblem(Texts[I], /*JsonStrings=*/true); !Problem.empty()) {
        Error = "report " + std::to_string(I + 1) + " is " + Problem;
        return std::nullopt;
      }
      json Report = json::parse(Texts[I], nullptr, /*allow_exceptions=*/false);
      ReportKind ThisKind = kindOf(Report);
      if (ThisKind == ReportKind::Unknown || (Merged && ThisKind != Kind)) {
        Error = "report " + std::to_string(I + 1) +
                " is not a kernel-tidy SARIF log, JSON report or baseline like the first";
        return std::nullopt;
      }
      if (!Merged) {
        Kind = ThisKind;
        // An empty start, so that the first report is ordered like the others.
        Merged = Report;
        if (Kind == ReportKind::Sarif) {
          (*Merged)["runs"][0]["results"] = json::array();
          (*Merged)["runs"][0]["invocations"][0]["toolExecutionNotifications"] = json::array();
          (*Merged)["runs"][0]["invocations"][0]["executionSuccessful"] = true;
        } else if (Kind == ReportKind::Json) {
          (*Merged)["diagnostics"] = json::array();
          json &Summary = (*Merged)["summary"] = json::object();
          for (const SummaryCount &Count : SummaryCounts)
            Summary[Count.Name] = 0;
          Summary["errors"] = json::array();
        } else {
          (*Merged)["findings"] = json::array();
        }
      }
      if (Kind == ReportKind::Sarif) {
        mergeSarif(*Merged, Report);
      } else if (Kind == ReportKind::Baseline) {
        mergeBaseline(*Merged, Report);
      } else if (!mergeJson(*Merged, Report)) {
        Error = "report " + std::to_string(I + 1) + ": the merged summary counts would pass 2^64";
        return std::nullopt;
      }
    } catch (const json::exception &E) {
      Error = "report " + std::to_string(I + 1) + " is malformed: " + E.what();
      return std::nullopt;
    }
  if (!Merged) {
    Error = "no reports to merge";
    return std::nullopt;
  }
  return Merged->dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

} // namespace kernel_tidy
