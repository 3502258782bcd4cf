//===--- Report.cpp - Text and JSON reports -------------------------------===//

#include "src/driver/Report.h"

#include "llvm/ADT/StringRef.h"
#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

namespace kernel_tidy {

RunSummary summarize(const std::vector<FileResult> &Results) {
  RunSummary Summary;
  for (const FileResult &R : Results) {
    ++Summary.Files;
    Summary.Diagnostics += R.Findings.size();
    for (const Finding &F : R.Findings) {
      Summary.Fixable += F.FixIt.has_value();
      Summary.AsErrors += F.AsError;
    }
    Summary.Fixed += R.FixedCount;
  }
  return Summary;
}

std::string formatStatistics(const std::vector<FileResult> &Results,
                             unsigned HiddenByBaseline) {
  std::map<std::string, std::pair<unsigned, unsigned>> PerRule; // All, fixable.
  unsigned FilesWithFindings = 0;
  for (const FileResult &R : Results) {
    FilesWithFindings += !R.Findings.empty();
    for (const Finding &F : R.Findings) {
      ++PerRule[F.Rule].first;
      PerRule[F.Rule].second += F.FixIt.has_value();
    }
  }
  RunSummary S = summarize(Results);
  std::string Out = std::to_string(S.Diagnostics) + " finding(s) in " +
                    std::to_string(FilesWithFindings) + " of " + std::to_string(S.Files) +
                    " file(s)";
  if (HiddenByBaseline)
    Out += "; " + std::to_string(HiddenByBaseline) + " more hidden by the baseline";
  Out += "\n";
  for (const auto &[Rule, Counts] : PerRule)
    Out += "  " + std::to_string(Counts.first) + "  " + Rule + " (" +
           std::to_string(Counts.second) + " fixable)\n";
  return Out;
}

static std::string lineOf(const std::string &Text, unsigned Line) {
  size_t Begin = 0;
  for (unsigned L = 1; L < Line && Begin != std::string::npos; ++L) {
    Begin = Text.find('\n', Begin);
    if (Begin != std::string::npos)
      ++Begin;
  }
  if (Begin == std::string::npos || Begin > Text.size())
    return "";
  size_t End = Text.find('\n', Begin);
  std::string Result = Text.substr(Begin, End == std::string::npos ? End : End - Begin);
  if (!Result.empty() && Result.back() == '\r')
    Result.pop_back();
  return Result;
}

static const char *applicabilityName(Applicability Kind) {
  return Kind == Applicability::Safe ? "safe" : "unsafe";
}

/// Clang's caret line: spaces up to the finding, `^` under its first
/// character and `~` under the rest of its range on that line (tabs kept,
/// so that the marks line up; one mark per UTF-8 character).
static std::string underline(llvm::StringRef Source, const Finding &F) {
  size_t Begin = F.Begin.Column > 0 ? F.Begin.Column - 1 : 0;
  size_t End = F.End.Line == F.Begin.Line && F.End.Column > F.Begin.Column
                   ? F.End.Column - 1
                   : F.End.Line > F.Begin.Line ? Source.size() : Begin + 1;
  std::string Line;
  for (size_t I = 0; I < std::max(End, Begin + 1); ++I) {
    unsigned char C = I < Source.size() ? Source[I] : ' ';
    if ((C & 0xC0) == 0x80)
      continue; // A UTF-8 continuation byte: one mark per character.
    if (I < Begin)
      Line += C == '\t' ? '\t' : ' ';
    else
      Line += I == Begin ? '^' : C == '\t' ? '\t' : '~';
  }
  return Line;
}

std::string formatText(const std::vector<FileResult> &Results) {
  std::string Out;
  for (const FileResult &R : Results) {
    for (const ParseError &E : R.Errors) {
      Out += E.File;
      if (E.Line)
        Out += ":" + std::to_string(E.Line) + ":" + std::to_string(E.Column);
      Out += ": error: " + E.Message + "\n";
    }
    for (const Finding &F : R.Findings) {
      std::string Where = F.File + ":" + std::to_string(F.Begin.Line) + ":" +
                          std::to_string(F.Begin.Column);
      // As clang-tidy marks findings that --warnings-as-errors promotes.
      Out += Where + (F.AsError ? ": error: " : ": warning: ") + F.Message + " [" +
             F.Rule + (F.AsError ? ",-warnings-as-errors" : "") + "]\n";
      if (F.File == R.File) {
        std::string Gutter = std::to_string(F.Begin.Line);
        Gutter = std::string(Gutter.size() < 5 ? 5 - Gutter.size() : 0, ' ') + Gutter;
        std::string Source = lineOf(R.Original, F.Begin.Line);
        Out += Gutter + " | " + Source + "\n";
        Out += std::string(Gutter.size(), ' ') + " | " + underline(Source, F) + "\n";
      }
      for (const Note &N : F.Notes)
        Out += N.File + ":" + std::to_string(N.At.Line) + ":" + std::to_string(N.At.Column) +
               ": note: " + N.Message + "\n";
      // The reasons as the rules' notes say them (and clang-tidy prints them).
      if (!F.NoFixReason.empty())
        Out += Where + ": note: no automatic fix: " + F.NoFixReason + "\n";
      if (!F.FixIt)
        continue;
      if (!F.FixIt->Reason.empty())
        Out += Where + ": note: unsafe fix: " + F.FixIt->Reason + "\n";
      for (const Edit &E : F.FixIt->Edits) {
        Out += Where + ": note: " +
               (F.FixIt->Kind == Applicability::Safe
                    ? std::string("fix")
                    : std::string("unsafe fix (applied with --unsafe-fixes)")) +
               ": replace " + std::to_string(E.Begin.Line) + ":" +
               std::to_string(E.Begin.Column) + "-" + std::to_string(E.End.Line) +
               ":" + std::to_string(E.End.Column) + " with:\n";
        // Show the replacement as a block, each line under the note.
        llvm::StringRef Rest(E.Replacement);
        while (!Rest.empty()) {
          auto [Line, Tail] = Rest.split('\n');
          Out += "      " + Line.ltrim(" \t").rtrim('\r').str() + "\n";
          Rest = Tail;
        }
      }
    }
    for (const std::string &Note : R.FixNotes)
      Out += Note + "\n";
  }
  return Out;
}

static nlohmann::json positionJson(const Edit &E) {
  return {{"file", E.File},
          {"offset", E.Begin.Offset},
          {"length", E.End.Offset - E.Begin.Offset},
          {"replacement", E.Replacement},
          {"line", E.Begin.Line},
          {"column", E.Begin.Column},
          {"end_line", E.End.Line},
          {"end_column", E.End.Column}};
}

std::string formatJson(const std::vector<FileResult> &Results,
                       const std::string &ToolVersion) {
  nlohmann::json Diagnostics = nlohmann::json::array();
  nlohmann::json Errors = nlohmann::json::array();
  for (const FileResult &R : Results) {
    for (const ParseError &E : R.Errors)
      Errors.push_back({{"file", E.File},
                        {"line", E.Line},
                        {"column", E.Column},
                        {"message", E.Message}});
    for (const Finding &F : R.Findings) {
      nlohmann::json Fix = nullptr;
      if (F.FixIt) {
        nlohmann::json Edits = nlohmann::json::array();
        for (const Edit &E : F.FixIt->Edits)
          Edits.push_back(positionJson(E));
        Fix = {{"applicability", applicabilityName(F.FixIt->Kind)},
               {"reason", F.FixIt->Reason.empty() ? nlohmann::json(nullptr)
                                                  : nlohmann::json(F.FixIt->Reason)},
               {"edits", Edits}};
      }
      nlohmann::json Notes = nlohmann::json::array();
      for (const Note &N : F.Notes)
        Notes.push_back({{"message", N.Message},
                         {"file", N.File},
                         {"line", N.At.Line},
                         {"column", N.At.Column}});
      Diagnostics.push_back({{"rule", F.Rule},
                             {"severity", F.AsError ? "error" : "warning"},
                             {"message", F.Message},
                             {"file", F.File},
                             {"line", F.Begin.Line},
                             {"column", F.Begin.Column},
                             {"end_line", F.End.Line},
                             {"end_column", F.End.Column},
                             {"fix", Fix},
                             {"fixed", F.FixApplied},
                             {"no_fix_reason", F.NoFixReason.empty()
                                                   ? nlohmann::json(nullptr)
                                                   : nlohmann::json(F.NoFixReason)},
                             {"notes", Notes}});
    }
  }
  RunSummary S = summarize(Results);
  nlohmann::json Report = {
      {"version", 1},
      {"tool", {{"name", "kernel-tidy"}, {"version", ToolVersion}}},
      {"diagnostics", Diagnostics},
      {"summary",
       {{"files", S.Files},
        {"diagnostics", S.Diagnostics},
        {"fixable", S.Fixable},
        {"fixed", S.Fixed},
        {"errors", Errors}}}};
  return Report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

} // namespace kernel_tidy
