//===--- Costs.cpp - What a rewrite costs, counted without a GPU ----------===//

#include "Costs.h"
#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace kernel_tidy::harness {

namespace {

/// A count as the report writes it: an integer without decimals.
std::string countText(double Value) {
  char Text[32];
  std::snprintf(Text, sizeof Text, "%.4g", Value);
  return Text;
}

std::string spaced(std::string Name) {
  for (char &C : Name)
    if (C == '_')
      C = ' ';
  return Name;
}

/// "fewer" when every change is down, "more" when every one is up, "same"
/// without any, else "mixed".
std::string direction(int Down, int Up) {
  if (Down == 0 && Up == 0)
    return "same";
  return Up == 0 ? "fewer" : Down == 0 ? "more" : "mixed";
}

/// The PTX kinds a verdict names when they change, warp communication first
/// (compiled_counts.py's COMMUNICATION), then the other memory instructions.
const char *const CompiledKinds[] = {"shfl",         "redux",     "vote",        "bar",
                                     "ld_shared",    "st_shared", "atom_shared", "atom_global",
                                     "atom_generic", "atom_cas",  "ld_global",   "st_global"};
const char *const Communication[] = {"shfl",        "redux",       "vote",
                                     "bar",         "ld_shared",   "st_shared",
                                     "atom_shared", "atom_global", "atom_generic"};

double countOf(const std::map<std::string, double> &Counts, const char *Kind) {
  auto It = Counts.find(Kind);
  return It == Counts.end() ? 0 : It->second;
}

double communication(const std::map<std::string, double> &Counts) {
  double Sum = 0;
  for (const char *Kind : Communication)
    Sum += countOf(Counts, Kind);
  return Sum;
}

/// Reads the cases of docs/compiled-counts.json's \p Root into \p Cases.
void addCases(const nlohmann::json &Root, std::map<std::string, CompiledCase> &Cases) {
  for (const nlohmann::json &Entry : Root.at("cases")) {
    CompiledCase Case;
    for (const nlohmann::json &Arch : Root.at("archs")) {
      const nlohmann::json &Counts = Entry.at("counts").at(Arch.get<std::string>());
      CompiledArch Counted{Arch.get<std::string>(), {}, {}};
      for (auto &[Kind, Value] : Counts.at("before").items())
        Counted.Before[Kind] = Value.get<double>();
      for (auto &[Kind, Value] : Counts.at("after").items())
        Counted.After[Kind] = Value.get<double>();
      Case.push_back(std::move(Counted));
    }
    Cases[Entry.at("case").get<std::string>() + "_" + Entry.at("suffix").get<std::string>()] =
        std::move(Case);
  }
}

} // namespace

std::string executorVerdict(const CostCounts &Before, const CostCounts &After) {
  std::string PerWarp, Maxima;
  int Down = 0, Up = 0;
  for (const CostCount &B : Before) {
    if (B.Name == "warps")
      continue;
    for (const CostCount &A : After) {
      if (A.Name != B.Name || A.Value == B.Value)
        continue;
      (A.Value < B.Value ? Down : Up) += 1;
      std::string &Changes = B.IsMaximum ? Maxima : PerWarp;
      Changes += (Changes.empty() ? "" : ", ") + spaced(B.Name) + " " + countText(B.Value) +
                 " -> " + countText(A.Value);
    }
  }
  std::string Verdict = direction(Down, Up);
  if (!PerWarp.empty())
    Verdict += ": " + PerWarp + " per warp";
  if (!Maxima.empty())
    Verdict += (PerWarp.empty() ? ": " : "; ") + Maxima;
  return Verdict;
}

std::map<std::string, CompiledCase> parseCompiledCounts(const std::string &Text) {
  nlohmann::json Root = nlohmann::json::parse(Text, nullptr, false);
  if (Root.is_discarded() || !Root.is_object() || !Root.contains("cases") ||
      !Root["cases"].is_array() || !Root.contains("archs"))
    throw std::runtime_error("not a compiled-counts file (docs/compiled-counts.json): no "
                             "\"archs\" and \"cases\"");
  std::map<std::string, CompiledCase> Cases;
  try {
    addCases(Root, Cases);
  } catch (const nlohmann::json::exception &E) {
    throw std::runtime_error(std::string("not a compiled-counts file "
                                         "(docs/compiled-counts.json): ") +
                             E.what());
  }
  return Cases;
}

std::string compiledVerdict(const CompiledArch &Counts) {
  if (countOf(Counts.Before, "loops") != 0 || countOf(Counts.After, "loops") != 0)
    return "loop";
  double CommBefore = communication(Counts.Before), CommAfter = communication(Counts.After);
  double TotalBefore = countOf(Counts.Before, "total"), TotalAfter = countOf(Counts.After, "total");
  // As compiled_counts.py: a total within 10% (at least 2 instructions, integer
  // division) is the same.
  double Tolerance = std::max(2.0, double(static_cast<long long>(TotalBefore) / 10));
  int Total = TotalAfter - TotalBefore > Tolerance   ? 1
              : TotalBefore - TotalAfter > Tolerance ? -1
                                                     : 0;
  int Comm = (CommAfter > CommBefore) - (CommAfter < CommBefore);
  if (Comm == 0 && Total == 0)
    return "same";
  if (Comm <= 0 && Total <= 0)
    return "fewer";
  if (Comm >= 0 && Total >= 0)
    return "more";
  return "mixed";
}

std::string compiledSummary(const CompiledCase &Case) {
  // Per architecture its text, then architectures with equal texts joined.
  std::vector<std::pair<std::string, std::string>> Groups; // text, architectures
  for (const CompiledArch &Arch : Case) {
    std::string Changes;
    for (const char *Kind : CompiledKinds) {
      double B = countOf(Arch.Before, Kind), A = countOf(Arch.After, Kind);
      if (A != B)
        Changes += std::string(Changes.empty() ? "" : ", ") + Kind + " " + countText(B) + " -> " +
                   countText(A);
    }
    Changes += std::string(Changes.empty() ? "" : ", ") + "total " +
               countText(countOf(Arch.Before, "total")) + " -> " +
               countText(countOf(Arch.After, "total"));
    std::string Text = compiledVerdict(Arch) + " (" + Changes + ")";
    bool Joined = false;
    for (auto &[GroupText, Archs] : Groups)
      if (GroupText == Text) {
        Archs += ", " + Arch.Arch;
        Joined = true;
      }
    if (!Joined)
      Groups.emplace_back(Text, Arch.Arch);
  }
  std::string Summary;
  for (auto &[Text, Archs] : Groups)
    Summary += (Summary.empty() ? "" : "; ") + Archs + ": " + Text;
  return Summary;
}

} // namespace kernel_tidy::harness
