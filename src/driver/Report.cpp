//===--- Report.cpp - Text and JSON reports -------------------------------===//

#include "src/driver/Report.h"

#include "src/driver/Nesting.h"
#include "llvm/ADT/StringRef.h"
#include <algorithm>
#include <cstdio>
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
  struct Counts {
    unsigned All = 0, Safe = 0, Unsafe = 0;
  };
  std::map<std::string, Counts> PerRule;
  unsigned FilesWithFindings = 0;
  for (const FileResult &R : Results) {
    FilesWithFindings += !R.Findings.empty();
    for (const Finding &F : R.Findings) {
      Counts &C = PerRule[F.Rule];
      ++C.All;
      // Only a safe fix is applied by --fix alone.
      if (F.FixIt)
        ++(F.FixIt->Kind == Applicability::Safe ? C.Safe : C.Unsafe);
    }
  }
  RunSummary S = summarize(Results);
  std::string Out = std::to_string(S.Diagnostics) + " finding(s) in " +
                    std::to_string(FilesWithFindings) + " of " + std::to_string(S.Files) +
                    " file(s)";
  if (HiddenByBaseline)
    Out += "; " + std::to_string(HiddenByBaseline) + " more hidden by the baseline";
  Out += "\n";
  for (const auto &[Rule, C] : PerRule)
    Out += "  " + std::to_string(C.All) + "  " + Rule + " (" + std::to_string(C.Safe) +
           " fixable" +
           (C.Unsafe ? ", " + std::to_string(C.Unsafe) + " with an unsafe fix only" : "") +
           ")\n";
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
  return Kind == Applicability::Safe ? "safe" : Kind == Applicability::Unsafe ? "unsafe" : "none";
}

/// The blank that lines text up under \p Source up to byte \p Column (tabs
/// kept, one space per UTF-8 character), as Clang's caret line does.
static std::string blankUpTo(llvm::StringRef Source, size_t Column) {
  std::string Blank;
  for (size_t I = 0; I < Column; ++I) {
    unsigned char C = I < Source.size() ? Source[I] : ' ';
    if ((C & 0xC0) != 0x80)
      Blank += C == '\t' ? '\t' : ' ';
  }
  return Blank;
}

/// Clang's caret line: spaces up to the finding, `^` under its first
/// character and `~` under the rest of its range on that line (tabs kept,
/// so that the marks line up; one mark per UTF-8 character).
static std::string underline(llvm::StringRef Source, const Finding &F) {
  size_t Begin = F.Begin.Column > 0 ? F.Begin.Column - 1 : 0;
  size_t End = F.End.Line == F.Begin.Line && F.End.Column > F.Begin.Column
                   ? F.End.Column - 1
                   : F.End.Line > F.Begin.Line ? Source.size() : Begin + 1;
  std::string Line = blankUpTo(Source, Begin);
  for (size_t I = Begin; I < std::max(End, Begin + 1); ++I) {
    unsigned char C = I < Source.size() ? Source[I] : ' ';
    if ((C & 0xC0) == 0x80)
      continue; // A UTF-8 continuation byte: one mark per character.
    Line += I == Begin ? '^' : C == '\t' ? '\t' : '~';
  }
  return Line;
}

namespace {

/// Clang's colours for diagnostics (clang/lib/Frontend/TextDiagnostic.cpp):
/// bold locations and messages, magenta warnings, red errors, grey notes,
/// green carets and fix-its.
class Painter {
public:
  explicit Painter(bool Colour) : Colour(Colour) {}
  std::string bold(llvm::StringRef Text) const { return paint("\033[1m", Text); }
  std::string severity(llvm::StringRef Kind) const {
    const char *Code = Kind == "error"     ? "\033[0;1;31m"
                       : Kind == "warning" ? "\033[0;1;35m"
                                           : "\033[0;1;30m";
    return paint(Code, (Kind + ": ").str());
  }
  std::string green(llvm::StringRef Text) const { return paint("\033[0;1;32m", Text); }

  /// `LOCATION: KIND: MESSAGE` and a newline.
  std::string line(llvm::StringRef Location, llvm::StringRef Kind,
                   llvm::StringRef Message) const {
    return bold((Location + ": ").str()) + severity(Kind) + bold(Message) + "\n";
  }

private:
  std::string paint(const char *Code, llvm::StringRef Text) const {
    return Colour && !Text.empty() ? Code + Text.str() + "\033[0m" : Text.str();
  }
  bool Colour;
};

std::string positionText(const Position &P) {
  return std::to_string(P.Line) + ":" + std::to_string(P.Column);
}

/// The lines of \p Replacement in the source gutter, the first one starting
/// at \p Lead (the blank up to its column); `\r` dropped.
std::string replacementLines(llvm::StringRef Replacement, const std::string &Gutter,
                             const std::string &Lead, const Painter &P) {
  std::string Out;
  llvm::StringRef Rest(Replacement);
  bool First = true;
  while (!Rest.empty()) {
    auto [Line, Tail] = Rest.split('\n');
    Out += Gutter + " | " + (First ? Lead : "") + P.green(Line.rtrim('\r')) + "\n";
    First = false;
    Rest = Tail;
  }
  return Out;
}

/// One finding: Clang's diagnostic with the source line and caret, the fix
/// as Clang shows a fix-it (the replacement under the caret line; edits of
/// other lines as notes), then the notes and what became of the fix.
std::string formatFinding(const FileResult &R, const Finding &F, const TextOptions &Options) {
  Painter P(Options.Colour);
  std::string Where = F.File + ":" + positionText(F.Begin);
  // As clang-tidy marks findings that --warnings-as-errors promotes.
  std::string Out = P.line(Where, F.AsError ? "error" : "warning",
                           F.Message + " [" + F.Rule +
                               (F.AsError ? ",-warnings-as-errors" : "") + "]");
  std::string Gutter(5, ' ');
  std::string Source;
  bool ShowsSource = F.File == R.File;
  if (ShowsSource) {
    std::string Number = std::to_string(F.Begin.Line);
    Gutter = std::string(Number.size() < 5 ? 5 - Number.size() : 0, ' ') + Number;
    Source = lineOf(R.Original, F.Begin.Line);
    Out += Gutter + " | " + Source + "\n";
    Gutter.assign(Gutter.size(), ' ');
    Out += Gutter + " | " + P.green(underline(Source, F)) + "\n";
  }
  // Clang shows a fix-it under the caret line when it edits that line.
  const Edit *UnderCaret = nullptr;
  if (F.FixIt && ShowsSource && !F.FixIt->Edits.empty()) {
    const Edit &First = F.FixIt->Edits.front();
    if (First.File == R.File && First.Begin.Line == F.Begin.Line && !First.Replacement.empty())
      UnderCaret = &First;
  }
  if (UnderCaret)
    Out += replacementLines(UnderCaret->Replacement, Gutter,
                            blankUpTo(Source, UnderCaret->Begin.Column ? UnderCaret->Begin.Column - 1 : 0), P);
  for (const Note &N : F.Notes)
    Out += P.line(N.File + ":" + positionText(N.At), "note", N.Message);
  // The reasons as the rules' notes say them (and clang-tidy prints them).
  if (!F.NoFixReason.empty())
    Out += P.line(Where, "note", fix_protocol::noFixNote(F.NoFixReason));
  if (!F.FixIt)
    return Out;
  for (const Edit &E : F.FixIt->Edits) {
    if (&E == UnderCaret)
      continue;
    bool Also = UnderCaret || &E != &F.FixIt->Edits.front();
    std::string What = std::string(Also ? "the fix also " : "fix: ") +
                       (E.Replacement.empty() ? "removes " : "replaces ") + positionText(E.Begin) +
                       "-" + positionText(E.End) + (E.Replacement.empty() ? "" : " with:");
    Out += P.line(E.File + ":" + positionText(E.Begin), "note", What);
    Out += replacementLines(E.Replacement, std::string(5, ' '), "", P);
  }
  if (F.FixIt->Kind == Applicability::Unsafe)
    Out += P.line(Where, "note",
                  fix_protocol::labelled(
                      (fix_protocol::UnsafeFix +
                       (F.FixApplied ? "" : " (applied only with --unsafe-fixes)"))
                          .str(),
                      F.FixIt->Reason));
  if (F.FixApplied && Options.FixesWritten)
    Out += P.line(Where, "note", "FIX-IT applied suggested code changes");
  return Out;
}

} // namespace

std::string formatText(const std::vector<FileResult> &Results, const TextOptions &Options) {
  Painter P(Options.Colour);
  std::string Out;
  for (const FileResult &R : Results) {
    for (const ParseError &E : R.Errors)
      Out += P.line(E.Line ? E.File + ":" + std::to_string(E.Line) + ":" +
                                 std::to_string(E.Column)
                           : E.File,
                    "error", E.Message);
    for (const Finding &F : R.Findings)
      Out += formatFinding(R, F, Options);
    for (const std::string &Note : R.FixNotes)
      Out += Note + "\n";
  }
  return Out;
}

std::string formatCheckProfile(const std::vector<std::string> &Profiles) {
  struct Times {
    double Wall = 0, User = 0, System = 0;
  };
  std::map<std::string, Times> PerCheck;
  unsigned Read = 0;
  for (const std::string &Text : Profiles) {
    if (nestingDepth(Text, /*JsonStrings=*/true) > MaxNesting)
      continue;
    nlohmann::json Profile = nlohmann::json::parse(Text, nullptr, /*allow_exceptions=*/false);
    if (!Profile.is_object() || !Profile["profile"].is_object())
      continue;
    ++Read;
    // "time.clang-tidy.<check>.wall|user|sys": seconds.
    for (const auto &[Key, Value] : Profile["profile"].items()) {
      llvm::StringRef Name(Key);
      if (!Value.is_number() || !Name.consume_front("time.clang-tidy."))
        continue;
      auto [Check, Kind] = Name.rsplit('.');
      Times &T = PerCheck[Check.str()];
      (Kind == "wall" ? T.Wall : Kind == "user" ? T.User : T.System) += Value.get<double>();
    }
  }
  std::vector<std::pair<std::string, Times>> Rows(PerCheck.begin(), PerCheck.end());
  std::stable_sort(Rows.begin(), Rows.end(),
                   [](const auto &A, const auto &B) { return A.second.Wall > B.second.Wall; });
  std::string Out = "time per check over " + std::to_string(Read) +
                    " analyses (seconds; fixed texts are analysed again):\n"
                    "      wall      user    system  check\n";
  char Line[256];
  Times Total;
  for (const auto &[Check, T] : Rows) {
    std::snprintf(Line, sizeof(Line), "%10.4f%10.4f%10.4f  %s\n", T.Wall, T.User, T.System,
                  Check.c_str());
    Out += Line;
    Total.Wall += T.Wall;
    Total.User += T.User;
    Total.System += T.System;
  }
  std::snprintf(Line, sizeof(Line), "%10.4f%10.4f%10.4f  total\n", Total.Wall, Total.User,
                Total.System);
  return Out + Line;
}

std::string formatFixSummary(const std::vector<FileResult> &Results, bool Written) {
  RunSummary S = summarize(Results);
  unsigned Findings = S.Diagnostics, Fixed = S.Fixed;
  auto Count = [](unsigned N, const char *Noun) {
    return std::to_string(N) + " " + Noun + (N == 1 ? "" : "s");
  };
  std::string Out = "Found " + Count(Findings, "finding");
  if (Findings == 0)
    return Out + ".\n";
  return Out + " (" + std::to_string(Fixed) + (Written ? " fixed, " : " fixable by this diff, ") +
         std::to_string(Findings - Fixed) + " remaining).\n";
}

std::string formatAppliedFixes(const std::vector<FileResult> &Results) {
  std::string Files;
  unsigned Total = 0;
  for (const FileResult &R : Results) {
    std::map<std::string, unsigned> PerRule;
    for (const Finding &F : R.Findings)
      if (F.FixApplied)
        ++PerRule[F.Rule];
    if (PerRule.empty())
      continue;
    Files += "- " + R.File + ":\n";
    for (const auto &[Rule, N] : PerRule) {
      Files += "    " + std::to_string(N) + " \u00d7 " + Rule + "\n";
      Total += N;
    }
  }
  if (Total == 0)
    return "No fixes applied.\n";
  return "Fixed " + std::to_string(Total) + (Total == 1 ? " finding:\n" : " findings:\n") + Files;
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
