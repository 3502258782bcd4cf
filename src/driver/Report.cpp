//===--- Report.cpp - Text and JSON reports -------------------------------===//

#include "src/driver/Report.h"

#include "src/driver/Nesting.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/TextDiagnostic.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Base64.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

namespace kernel_tidy {

using clang::CharSourceRange;
using clang::DiagnosticsEngine;
using clang::FixItHint;
using clang::SourceLocation;

RunSummary summarize(const std::vector<FileResult> &Results) {
  RunSummary Summary;
  for (const FileResult &R : Results) {
    ++Summary.Files;
    Summary.Diagnostics += R.Findings.size();
    for (const Finding &F : R.Findings) {
      Summary.Fixable += F.FixIt && F.FixIt->Kind == Applicability::Safe;
      Summary.UnsafeFixable += F.FixIt && F.FixIt->Kind == Applicability::Unsafe;
      Summary.AsErrors += F.AsError;
    }
    Summary.Fixed += R.FixedCount;
  }
  return Summary;
}

std::string formatStatistics(const std::vector<FileResult> &Results, unsigned HiddenByBaseline) {
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
    Out += "  " + std::to_string(C.All) + "  " + Rule + " (" + std::to_string(C.Safe) + " fixable" +
           (C.Unsafe ? ", " + std::to_string(C.Unsafe) + " with an unsafe fix only" : "") + ")\n";
  return Out;
}

static const char *applicabilityName(Applicability Kind) {
  return Kind == Applicability::Safe ? "safe" : Kind == Applicability::Unsafe ? "unsafe" : "none";
}

namespace {

/// Diagnostics printed by Clang itself: clang::TextDiagnostic, the renderer
/// behind clang-tidy's output, over a SourceManager that holds the texts the
/// findings were made on. One per report, as clang-tidy keeps one per run: a
/// diagnostic at the place of the one before shows no second snippet.
class ClangText {
public:
  explicit ClangText(bool Colour)
      : Options(new clang::DiagnosticOptions), Files(clang::FileSystemOptions()),
        Engine(new clang::DiagnosticIDs, Options, new clang::IgnoringDiagConsumer),
        Sources(Engine, Files), Stream(Out), Printer(Stream, Language, &*Options) {
    Options->ShowColors = Colour;
    Stream.enable_colors(Colour);
  }

  /// Serves \p Text as the contents of \p File, which diagnostics name
  /// \p Shown (File when empty).
  void addText(const std::string &File, llvm::StringRef Text, llvm::StringRef Shown = "") {
    auto [It, New] = Ids.try_emplace(File);
    if (New)
      It->second = Sources.createFileID(
          llvm::MemoryBuffer::getMemBufferCopy(Text, Shown.empty() ? File : Shown));
  }

  /// \p At in \p File, whose text was added or is read now from disk (as
  /// clang-tidy reads it); invalid when there is none.
  SourceLocation location(const std::string &File, const Position &At) {
    clang::FileID Id = idOf(File);
    if (Id.isInvalid())
      return {};
    unsigned Size = Sources.getBufferData(Id).size();
    return Sources.getLocForStartOfFile(Id).getLocWithOffset(std::min(At.Offset, Size));
  }

  /// The location of a parse error's line and column.
  SourceLocation location(const ParseError &E) {
    clang::FileID Id = idOf(E.File);
    if (!E.Line || Id.isInvalid())
      return {};
    return Sources.translateLineCol(Id, E.Line, std::max(E.Column, 1u));
  }

  CharSourceRange range(const std::string &File, const Position &Begin, const Position &End) {
    return CharSourceRange::getCharRange(location(File, Begin), location(File, End));
  }

  /// Prints a diagnostic at \p Loc; without one, at \p Where (a file, or
  /// "FILE:LINE:COLUMN") and without source.
  void emit(SourceLocation Loc, llvm::StringRef Where, DiagnosticsEngine::Level Level,
            llvm::StringRef Message, llvm::ArrayRef<CharSourceRange> Ranges = {},
            llvm::ArrayRef<FixItHint> Hints = {}) {
    if (Loc.isValid()) {
      Printer.emitDiagnostic(clang::FullSourceLoc(Loc, Sources), Level, Message, Ranges, Hints);
      return;
    }
    Stream.changeColor(llvm::raw_ostream::SAVEDCOLOR, /*Bold=*/true) << Where << ": ";
    Stream.resetColor();
    clang::TextDiagnostic::printDiagnosticLevel(Stream, Level, Options->ShowColors);
    clang::TextDiagnostic::printDiagnosticMessage(Stream, Level == DiagnosticsEngine::Note, Message,
                                                  0, 0, Options->ShowColors);
  }

  void print(llvm::StringRef Text) { Stream << Text; }
  std::string take() {
    Stream.flush();
    return std::move(Out);
  }

private:
  clang::FileID idOf(const std::string &File) {
    if (!Ids.count(File))
      if (auto Buffer = llvm::MemoryBuffer::getFile(File, /*IsText=*/false,
                                                    /*RequiresNullTerminator=*/false))
        addText(File, (*Buffer)->getBuffer());
    return Ids[File];
  }

  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> Options;
  clang::FileManager Files;
  DiagnosticsEngine Engine;
  clang::SourceManager Sources;
  clang::LangOptions Language;
  std::string Out;
  llvm::raw_string_ostream Stream;
  clang::TextDiagnostic Printer;
  std::map<std::string, clang::FileID> Ids;
};

std::string positionText(const Position &P) {
  return std::to_string(P.Line) + ":" + std::to_string(P.Column);
}

/// One finding as clang-tidy prints it: the diagnostic with its ranges and,
/// for a safe fix, its fix-its; the notes clang-tidy adds after a fix is
/// applied; the rule's notes; an unsafe fix as the note that carries it,
/// and why there is no fix.
void emitFinding(ClangText &Text, const FileResult &R, const Finding &F,
                 const TextOptions &Options) {
  SourceLocation Loc = Text.location(F.File, F.Begin);
  std::string Where = R.shownName(F.File) + ":" + positionText(F.Begin);
  std::vector<CharSourceRange> Ranges;
  for (const Span &S : F.Ranges)
    Ranges.push_back(Text.range(S.File, S.Begin, S.End));
  if (F.Ranges.empty() && F.End.Offset > F.Begin.Offset)
    Ranges.push_back(Text.range(F.File, F.Begin, F.End));
  std::vector<FixItHint> Hints;
  if (F.FixIt)
    for (const Edit &E : F.FixIt->Edits)
      Hints.push_back(
          FixItHint::CreateReplacement(Text.range(E.File, E.Begin, E.End), E.Replacement));
  bool Safe = F.FixIt && F.FixIt->Kind == Applicability::Safe;
  // As clang-tidy marks findings that --warnings-as-errors promotes.
  Text.emit(Loc, Where, F.AsError ? DiagnosticsEngine::Error : DiagnosticsEngine::Warning,
            F.Message + " [" + F.Rule + (F.AsError ? ",-warnings-as-errors" : "") + "]", Ranges,
            Safe ? Hints : std::vector<FixItHint>());
  // Clang's fix-it lines cannot show a replacement of several lines: say that it exists.
  if (Safe && !F.FixApplied && llvm::any_of(F.FixIt->Edits, [](const Edit &E) {
        return llvm::StringRef(E.Replacement).find_first_of("\r\n") != llvm::StringRef::npos;
      }))
    Text.emit(Loc, Where, DiagnosticsEngine::Note,
              "safe fix over several lines (applied by --fix; --diff shows it)");
  if (F.FixApplied && Options.FixesWritten)
    for (const Edit &E : F.FixIt->Edits)
      Text.emit(Text.location(E.File, E.Begin), R.shownName(E.File) + ":" + positionText(E.Begin),
                DiagnosticsEngine::Note, "FIX-IT applied suggested code changes");
  for (const Note &N : F.Notes)
    Text.emit(Text.location(N.File, N.At), R.shownName(N.File) + ":" + positionText(N.At),
              DiagnosticsEngine::Note, N.Message);
  if (F.FixIt && !Safe)
    Text.emit(Loc, Where, DiagnosticsEngine::Note,
              fix_protocol::labelled((fix_protocol::UnsafeFix +
                                      (F.FixApplied ? "" : " (applied only with --unsafe-fixes)"))
                                         .str(),
                                     F.FixIt->Reason),
              {}, Hints);
  // The reason as the rule's note says it (and clang-tidy prints it).
  if (!F.NoFixReason.empty())
    Text.emit(Loc, Where, DiagnosticsEngine::Note, fix_protocol::noFixNote(F.NoFixReason));
}

} // namespace

std::vector<FileResult> remainingFindings(std::vector<FileResult> Results) {
  for (FileResult &R : Results)
    llvm::erase_if(R.Findings, [](const Finding &F) { return F.FixApplied; });
  return Results;
}

std::string formatText(const std::vector<FileResult> &Results, const TextOptions &Options) {
  ClangText Text(Options.Colour);
  for (const FileResult &R : Results) {
    Text.addText(R.File, R.Original);
    for (const auto &[File, Contents] : R.OtherTexts)
      Text.addText(File, Contents, R.shownName(File));
    for (const ParseError &E : R.Errors) {
      const std::string &Shown = R.shownName(E.File);
      Text.emit(Text.location(E),
                E.Line ? Shown + ":" + std::to_string(E.Line) + ":" + std::to_string(E.Column)
                       : Shown,
                DiagnosticsEngine::Error, E.Message);
    }
    for (const Finding &F : R.Findings)
      emitFinding(Text, R, F, Options);
    for (const std::string &Note : R.FixNotes)
      Text.print(Note + "\n");
  }
  return Text.take();
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

std::string formatFixableFooter(const std::vector<FileResult> &Results) {
  RunSummary S = summarize(Results);
  std::string Unsafe = std::to_string(S.UnsafeFixable);
  if (S.Fixable == 0)
    return S.UnsafeFixable ? Unsafe + " fixable with --fix --unsafe-fixes.\n" : "";
  std::string Out = std::to_string(S.Fixable) + " fixable with --fix";
  if (S.UnsafeFixable)
    Out += "; " + Unsafe + " more with --fix --unsafe-fixes";
  return Out + ".\n";
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
  nlohmann::json Position = {{"file", E.File},
                             {"offset", E.Begin.Offset},
                             {"length", E.End.Offset - E.Begin.Offset},
                             {"replacement", E.Replacement},
                             {"line", E.Begin.Line},
                             {"column", E.Begin.Column},
                             {"end_line", E.End.Line},
                             {"end_column", E.End.Column}};
  // JSON strings hold Unicode, not bytes: a replacement that is not UTF-8
  // would reach a consumer with U+FFFD in place of its bytes, so its bytes go
  // in base64 and "replacement" is null, which no consumer applies unseen.
  if (!llvm::json::isUTF8(E.Replacement)) {
    Position["replacement"] = nullptr;
    Position["replacement_base64"] = llvm::encodeBase64(E.Replacement);
  }
  return Position;
}

std::string formatJson(const std::vector<FileResult> &Results, const std::string &ToolVersion) {
  nlohmann::json Diagnostics = nlohmann::json::array();
  nlohmann::json Errors = nlohmann::json::array();
  for (const FileResult &R : Results) {
    for (const ParseError &E : R.Errors)
      Errors.push_back(
          {{"file", E.File}, {"line", E.Line}, {"column", E.Column}, {"message", E.Message}});
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
      Diagnostics.push_back(
          {{"rule", F.Rule},
           {"severity", F.AsError ? "error" : "warning"},
           {"message", F.Message},
           {"file", F.File},
           {"line", F.Begin.Line},
           {"column", F.Begin.Column},
           {"end_line", F.End.Line},
           {"end_column", F.End.Column},
           {"fix", Fix},
           {"fixed", F.FixApplied},
           {"no_fix_reason",
            F.NoFixReason.empty() ? nlohmann::json(nullptr) : nlohmann::json(F.NoFixReason)},
           {"notes", Notes}});
    }
  }
  RunSummary S = summarize(Results);
  nlohmann::json Report = {{"version", 1},
                           {"tool", {{"name", "kernel-tidy"}, {"version", ToolVersion}}},
                           {"diagnostics", Diagnostics},
                           {"summary",
                            {{"files", S.Files},
                             {"diagnostics", S.Diagnostics},
                             {"fixable", S.Fixable},
                             {"unsafe_fixable", S.UnsafeFixable},
                             {"fixed", S.Fixed},
                             {"errors", Errors}}}};
  return Report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

} // namespace kernel_tidy
