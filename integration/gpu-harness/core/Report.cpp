//===--- Report.cpp - JSON and Markdown results of a harness run ----------===//

#include "Report.h"
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <nlohmann/json.hpp>
#include <tuple>

namespace kernel_tidy::harness {

namespace {

using Json = nlohmann::ordered_json;

struct Counts {
  std::size_t Cases = 0, Equivalent = 0, Fixes = 0, BothUndefined = 0, Breaks = 0, BothWrong = 0;
};

Counts countVerdicts(const std::vector<CaseResult> &Results) {
  Counts C;
  for (const CaseResult &R : Results) {
    ++C.Cases;
    switch (R.Outcome) {
    case Verdict::Equivalent:
      ++C.Equivalent;
      break;
    case Verdict::RewriteFixes:
      ++C.Fixes;
      break;
    case Verdict::BothUndefined:
      ++C.BothUndefined;
      break;
    case Verdict::RewriteBreaks:
      ++C.Breaks;
      break;
    case Verdict::BothWrong:
      ++C.BothWrong;
      break;
    }
  }
  return C;
}

/// JSON has no infinities or NaN: those become the strings "inf", "-inf" and
/// "nan" (a string, not null, so that they cannot be mistaken for a missing
/// value).
Json number(double Value) {
  if (std::isnan(Value))
    return "nan";
  if (std::isinf(Value))
    return Value > 0 ? "inf" : "-inf";
  return Value;
}

Json comparisonJson(const Comparison &C) {
  return Json{{"checked", C.Checked},
              {"mismatches", C.Mismatches},
              {"max_ulp", number(C.MaxUlp)},
              {"detail", C.Detail}};
}

Json summaryJson(const Summary &S) {
  return Json{
      {"median_s", number(S.Median)}, {"mean_s", number(S.Mean)},          {"min_s", number(S.Min)},
      {"max_s", number(S.Max)},       {"rel_stddev", number(S.RelStdDev)}, {"samples", S.Samples},
      {"discarded", S.Discarded},     {"stop_reason", S.StopReason}};
}

/// \p Counts by name; with \p NonZeroOnly only those that are not 0.
Json costsJson(const CostCounts &Counts, bool NonZeroOnly = false) {
  Json Out = Json::object();
  for (const CostCount &C : Counts)
    if (!NonZeroOnly || C.Value != 0)
      Out[C.Name] = number(C.Value);
  return Out;
}

Json timingJson(const CaseResult &R) {
  Json SpeedUpJson{{"estimate", number(R.Speed.Estimate)},
                   {"low", number(R.Speed.Low)},
                   {"high", number(R.Speed.High)},
                   {"confidence", number(R.Speed.Confidence)},
                   {"gain", gainName(classify(R.Speed))}};
  return Json{{"before", summaryJson(R.BeforeTime)},
              {"after", summaryJson(R.AfterTime)},
              {"speed_up", SpeedUpJson},
              {"batch_before_s", number(R.BeforeBatch)},
              {"batch_after_s", number(R.AfterBatch)}};
}

Json resultJson(const CaseResult &R) {
  Json Out{{"rule", R.Rule},
           {"case", R.Case},
           {"type", R.Type},
           {"shape", R.Shape},
           {"inputs", R.Inputs},
           {"verdict", verdictName(R.Outcome)},
           {"why", R.Why},
           {"before", comparisonJson(R.Before)},
           {"after", comparisonJson(R.After)}};
  if (R.Timed)
    Out["timing"] = timingJson(R);
  if (!R.BeforeCosts.empty())
    Out["costs"] = Json{{"before", costsJson(R.BeforeCosts, true)},
                        {"after", costsJson(R.AfterCosts, true)},
                        {"verdict", executorVerdict(R.BeforeCosts, R.AfterCosts)}};
  return Out;
}

/// One fix (a rule's case and type) and what is known of its cost: the result
/// whose counters stand for it (null without counters) and its compiled counts.
struct FixCosts {
  std::string Rule, Case, Type;
  const CaseResult *Counted = nullptr;
  const CompiledCase *Compiled = nullptr;
};

/// The fixes of \p Results in their order; a fix's counters are those of its
/// "full-warps" run on "uniform" inputs at 32 lanes, else of its first run.
std::vector<FixCosts> fixesOf(const std::vector<CaseResult> &Results,
                              const CompiledCounts &Compiled) {
  std::vector<FixCosts> Fixes;
  for (const CaseResult &R : Results) {
    auto Same = [&](const FixCosts &F) {
      return F.Rule == R.Rule && F.Case == R.Case && F.Type == R.Type;
    };
    auto It = std::find_if(Fixes.begin(), Fixes.end(), Same);
    if (It == Fixes.end()) {
      auto Found = Compiled.find(R.Case + "_" + R.Type);
      Fixes.push_back(
          {R.Rule, R.Case, R.Type, nullptr, Found == Compiled.end() ? nullptr : &Found->second});
      It = std::prev(Fixes.end());
    }
    bool Standard = R.Shape == "full-warps" && R.Inputs == "uniform";
    if (!R.BeforeCosts.empty() && (!It->Counted || Standard) &&
        !(It->Counted && It->Counted->Shape == "full-warps" && It->Counted->Inputs == "uniform"))
      It->Counted = &R;
  }
  Fixes.erase(std::remove_if(Fixes.begin(), Fixes.end(),
                             [](const FixCosts &F) { return !F.Counted && !F.Compiled; }),
              Fixes.end());
  return Fixes;
}

Json fixJson(const FixCosts &F) {
  Json Out{{"rule", F.Rule}, {"case", F.Case}, {"type", F.Type}};
  if (F.Counted)
    Out["executor"] =
        Json{{"shape", F.Counted->Shape},
             {"inputs", F.Counted->Inputs},
             {"before", costsJson(F.Counted->BeforeCosts)},
             {"after", costsJson(F.Counted->AfterCosts)},
             {"verdict", executorVerdict(F.Counted->BeforeCosts, F.Counted->AfterCosts)}};
  if (F.Compiled) {
    Json PerArch = Json::object();
    for (const CompiledArch &Arch : *F.Compiled)
      PerArch[Arch.Arch] = compiledVerdict(Arch);
    Out["compiled"] =
        Json{{"level", "ptx"}, {"verdicts", PerArch}, {"summary", compiledSummary(*F.Compiled)}};
  }
  return Out;
}

template <typename... Args> std::string format(const char *Format, Args... Values) {
  char Buffer[128];
  std::snprintf(Buffer, sizeof Buffer, Format, Values...);
  return Buffer;
}

/// A table cell: a '|' would end the cell early.
std::string cell(const std::string &Text) {
  std::string Out;
  for (char C : Text) {
    if (C == '|')
      Out += '\\';
    Out += C;
  }
  return Out;
}

std::string speedUpText(const SpeedUp &S) {
  return format("%.2fx [%.2f, %.2f]", S.Estimate, S.Low, S.High);
}

/// \p Untimed fills the time columns of a result that was not timed.
std::string markdownRow(const CaseResult &R, const std::string &Untimed) {
  std::vector<std::string> Cells{cell(R.Rule),
                                 cell(R.Case),
                                 cell(R.Type),
                                 cell(R.Shape),
                                 cell(R.Inputs),
                                 verdictName(R.Outcome),
                                 format("%g", R.Before.MaxUlp),
                                 format("%g", R.After.MaxUlp),
                                 R.Timed ? format("%.2f", R.BeforeTime.Median * 1e6) : Untimed,
                                 R.Timed ? format("%.2f", R.AfterTime.Median * 1e6) : Untimed,
                                 R.Timed ? speedUpText(R.Speed) : Untimed,
                                 R.Timed ? format("%.2f", R.BeforeBatch * 1e6) : Untimed,
                                 R.Timed ? format("%.2f", R.AfterBatch * 1e6) : Untimed};
  std::string Row = "|";
  for (const std::string &Text : Cells)
    Row += " " + Text + " |";
  return Row + "\n";
}

/// The results in a stable order: by rule, case, type, shape and inputs.
std::vector<const CaseResult *> sorted(const std::vector<CaseResult> &Results) {
  std::vector<const CaseResult *> Order;
  for (const CaseResult &R : Results)
    Order.push_back(&R);
  std::stable_sort(Order.begin(), Order.end(), [](const CaseResult *A, const CaseResult *B) {
    return std::tie(A->Rule, A->Case, A->Type, A->Shape, A->Inputs) <
           std::tie(B->Rule, B->Case, B->Type, B->Shape, B->Inputs);
  });
  return Order;
}

/// Text inside a C string literal.
std::string escaped(const std::string &Text) {
  std::string Out;
  for (char C : Text) {
    if (C == '"' || C == '\\')
      Out += '\\';
    Out += C;
  }
  return Out;
}

std::string lowercase(std::string Text) {
  for (char &C : Text)
    C = static_cast<char>(std::tolower(static_cast<unsigned char>(C)));
  return Text;
}

/// The op of a case name: its second '_'-separated token ("butterfly_sum",
/// "scan_sum_inclusive" -> "sum"); the whole name when it has no '_'.
std::string opOfCase(const std::string &Case) {
  std::size_t First = Case.find('_');
  if (First == std::string::npos)
    return Case;
  std::size_t Second = Case.find('_', First + 1);
  return Case.substr(First + 1,
                     Second == std::string::npos ? std::string::npos : Second - First - 1);
}

std::string operationOf(const CaseResult &R) {
  return R.Operation.empty() ? opOfCase(R.Case) : R.Operation;
}

std::string valueClassOf(const std::string &Type) {
  return Type == "f32" || Type == "f16" ? "float" : "int";
}

const char *gainEnumerator(Gain G) {
  switch (G) {
  case Gain::Faster:
    return "Faster";
  case Gain::Parity:
    return "Parity";
  case Gain::Slower:
    return "Slower";
  }
  return "Parity";
}

} // namespace

const char *verdictName(Verdict V) {
  switch (V) {
  case Verdict::Equivalent:
    return "equivalent";
  case Verdict::RewriteFixes:
    return "rewrite-fixes-original";
  case Verdict::BothUndefined:
    return "both-undefined";
  case Verdict::RewriteBreaks:
    return "rewrite-breaks";
  case Verdict::BothWrong:
    return "both-wrong";
  }
  return "?";
}

bool isFailure(Verdict V) { return V == Verdict::RewriteBreaks || V == Verdict::BothWrong; }

Judgement judge(ValueType Type, const Expected &Want, const RunOutput &Before,
                const RunOutput &After) {
  Judgement Breaks, Wrong;
  bool Fixed = false, BothUndefined = false;
  auto Note = [&](Judgement &J, Verdict V, std::string Text) {
    if (J.Detail.empty())
      J = {V, std::move(Text)};
  };
  auto Show = [&](const RunOutput &Out, std::size_t I) {
    return Out.undefined(I) ? std::string("undefined") : formatValue(Type, Out.Value[I]);
  };
  for (int H = 0; H < HazardCount; ++H)
    if (After.Hazards[H] > Before.Hazards[H])
      Note(Breaks, Verdict::RewriteBreaks,
           std::string("the rewrite has ") + std::to_string(After.Hazards[H]) + " " +
               hazardName(static_cast<Hazard>(H)) + " events, the original " +
               std::to_string(Before.Hazards[H]));
  std::size_t Elements = std::max(Before.Value.size(), After.Value.size());
  for (std::size_t I = 0; I < Elements; ++I) {
    bool Referenced = I < Want.Value.size() && I < Want.Defined.size() && Want.Defined[I];
    std::string Where = "element " + std::to_string(I) + ": ";
    std::string Expect = Referenced ? ", expected " + formatValue(Type, Want.Value[I]) : "";
    if (Before.undefined(I)) {
      if (After.undefined(I))
        BothUndefined = true;
      else if (!Referenced || acceptable(Want, I, After.Value[I]))
        Fixed = true;
      else
        Note(Wrong, Verdict::BothWrong,
             Where + "undefined before, " + Show(After, I) + " after" + Expect);
      continue;
    }
    if (After.undefined(I)) {
      Note(Breaks, Verdict::RewriteBreaks,
           Where + Show(Before, I) + " before, undefined after" + Expect);
      continue;
    }
    double B = Before.Value[I], A = After.Value[I];
    if (Referenced && acceptable(Want, I, B)) {
      if (!acceptable(Want, I, A))
        Note(Breaks, Verdict::RewriteBreaks,
             Where + formatValue(Type, B) + " before, " + formatValue(Type, A) + " after" + Expect +
                 " (bound " + formatValue(ValueType::F32, Want.Bound[I]) + ")");
      continue;
    }
    // The original's value is not the reference's: the rewrite must keep it.
    double Bound = Referenced && I < Want.Bound.size() ? 2 * Want.Bound[I] : 0;
    bool Same = (std::isnan(A) && std::isnan(B)) || A == B ||
                (std::isfinite(A) && std::isfinite(B) && std::fabs(A - B) <= Bound);
    if (!Same)
      Note(Breaks, Verdict::RewriteBreaks,
           Where + formatValue(Type, B) + " before, " + formatValue(Type, A) + " after" + Expect);
    else if (Referenced)
      Note(Wrong, Verdict::BothWrong, Where + formatValue(Type, B) + " before and after" + Expect);
  }
  if (!Breaks.Detail.empty())
    return Breaks;
  if (!Wrong.Detail.empty())
    return Wrong;
  if (Fixed)
    return {Verdict::RewriteFixes, "the original is undefined where the rewrite is right"};
  if (BothUndefined)
    return {Verdict::BothUndefined, "both undefined where the original is"};
  return {};
}

std::string toJson(const RunInfo &Run, const std::vector<CaseResult> &Results,
                   const CompiledCounts &Compiled) {
  Json Out;
  Out["schema"] = "kernel-tidy-gpu-harness/1";
  Out["run"] = Json{{"gpu", Run.Gpu},
                    {"driver", Run.Driver},
                    {"backend", Run.Backend},
                    {"date", Run.Date},
                    {"kernel_tidy_commit", Run.KernelTidyCommit}};
  Json List = Json::array();
  for (const CaseResult &R : Results)
    List.push_back(resultJson(R));
  Out["results"] = std::move(List);
  Counts C = countVerdicts(Results);
  Out["summary"] = Json{{"cases", C.Cases},
                        {"equivalent", C.Equivalent},
                        {"rewrite_fixes_original", C.Fixes},
                        {"both_undefined", C.BothUndefined},
                        {"rewrite_breaks", C.Breaks},
                        {"both_wrong", C.BothWrong}};
  Json Fixes = Json::array();
  for (const FixCosts &F : fixesOf(Results, Compiled))
    Fixes.push_back(fixJson(F));
  Out["fixes"] = std::move(Fixes);
  return Out.dump(2) + "\n";
}

std::string toMarkdown(const RunInfo &Run, const std::vector<CaseResult> &Results,
                       const CompiledCounts &Compiled) {
  std::string Out = "# kernel-tidy GPU harness results\n\n";
  Out += "- GPU: " + Run.Gpu + "\n";
  Out += "- Driver: " + Run.Driver + "\n";
  Out += "- Backend: " + Run.Backend + "\n";
  Out += "- Date: " + Run.Date + "\n";
  Out += "- kernel-tidy commit: " + Run.KernelTidyCommit + "\n\n";
  Out +=
      "| rule | case | type | shape | inputs | verdict | max ulp before | max ulp after "
      "| before (us) | after (us) | speed-up [95% CI] | batch before (us) | batch after (us) |\n";
  Out += "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  // The SIMT executor times nothing; on a GPU, an untimed row is one not worth timing.
  std::string Untimed = Run.Backend == "simt" ? "not timed (simt)" : "-";
  for (const CaseResult *R : sorted(Results))
    Out += markdownRow(*R, Untimed);
  Counts C = countVerdicts(Results);
  Out += "\n" + std::to_string(C.Cases) + " cases: " + std::to_string(C.Equivalent) +
         " equivalent, " + std::to_string(C.Fixes) + " rewrite-fixes-original, " +
         std::to_string(C.BothUndefined) + " both-undefined, " + std::to_string(C.Breaks) +
         " rewrite-breaks, " + std::to_string(C.BothWrong) + " both-wrong.\n";
  std::vector<FixCosts> Fixes = fixesOf(Results, Compiled);
  if (Fixes.empty())
    return Out;
  Out += "\n## Costs per fix\n\nThe SIMT executor's cost counters per warp (full-warps shape, "
         "uniform inputs, 32 lanes) and the compiled PTX counts (docs/compiled-counts.md); "
         "docs/gpu-harness.md#costs-per-fix says what each can and cannot show.\n\n"
         "| rule | case | type | executor, per warp | compiled (PTX) |\n|---|---|---|---|---|\n";
  for (const FixCosts &F : Fixes)
    Out += "| " + cell(F.Rule) + " | " + cell(F.Case) + " | " + cell(F.Type) + " | " +
           (F.Counted ? cell(executorVerdict(F.Counted->BeforeCosts, F.Counted->AfterCosts))
                      : std::string("-")) +
           " | " + (F.Compiled ? cell(compiledSummary(*F.Compiled)) : std::string("-")) + " |\n";
  return Out;
}

std::string_view profitabilityOp(Op O) {
  // The table spells bit operations without opName's "bit_".
  std::string_view Name = opName(O);
  if (Name.substr(0, 4) == "bit_")
    Name.remove_prefix(4);
  return Name;
}

std::string toProfitabilityLines(const RunInfo &Run, const std::vector<CaseResult> &Results) {
  std::string Out;
  std::string Target = lowercase(Run.Backend);
  std::string Measured = "measured: " + Run.Gpu + ", driver " + Run.Driver + ", " + Run.Date;
  for (const CaseResult &R : Results) {
    if (!R.Timed || R.Shape != "full-warps" || R.Inputs != "uniform")
      continue;
    Out += "KERNEL_TIDY_GAIN(\"" + escaped(R.Rule) + "\", \"" + escaped(operationOf(R)) + "\", \"" +
           valueClassOf(R.Type) + "\", \"" + escaped(Target) + "\", " +
           gainEnumerator(classify(R.Speed)) + ", \"" +
           escaped(Measured + ": " + speedUpText(R.Speed)) + "\")\n";
  }
  return Out;
}

} // namespace kernel_tidy::harness
