//===--- ExportFixes.cpp - Fixes in clang-tidy's --export-fixes format ----===//

#include "src/driver/ExportFixes.h"

#include "src/driver/CuteFrontend.h"
#include "src/driver/Paths.h"
#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace kernel_tidy {
namespace {

std::string validUtf8(const std::string &Text) {
  return llvm::json::isUTF8(Text) ? Text : llvm::json::fixUTF8(Text);
}

std::string toYaml(clang::tooling::TranslationUnitDiagnostics &Export) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  llvm::yaml::Output YAML(OS);
  YAML << Export;
  OS.flush();
  return Text;
}

/// The replacements of each diagnostic as clang-apply-replacements reads
/// them back from \p Yaml; none when the document does not parse.
std::optional<std::vector<clang::tooling::Diagnostic>> readBack(const std::string &Yaml) {
  clang::tooling::TranslationUnitDiagnostics Read;
  llvm::yaml::Input YAML(Yaml);
  YAML >> Read;
  if (YAML.error())
    return std::nullopt;
  return std::move(Read.Diagnostics);
}

bool sameReplacements(const clang::tooling::Diagnostic &A, const clang::tooling::Diagnostic &B) {
  if (A.Message.Fix.size() != B.Message.Fix.size())
    return false;
  for (const auto &[File, Replacements] : A.Message.Fix) {
    auto Other = B.Message.Fix.find(File);
    if (Other == B.Message.Fix.end() || Replacements.size() != Other->second.size())
      return false;
    for (auto I = Replacements.begin(), J = Other->second.begin(); I != Replacements.end();
         ++I, ++J)
      if (I->getFilePath() != J->getFilePath() || I->getOffset() != J->getOffset() ||
          I->getLength() != J->getLength() || I->getReplacementText() != J->getReplacementText())
        return false;
  }
  return true;
}

} // namespace

std::string exportFixesYaml(const std::vector<FileResult> &Results, bool IncludeUnsafe,
                            ExportGaps *Gaps) {
  ExportGaps Ignored;
  if (!Gaps)
    Gaps = &Ignored;
  *Gaps = {};
  clang::tooling::TranslationUnitDiagnostics Export;
  if (!Results.empty())
    Export.MainSourceFile = validUtf8(absolutePath(Results.front().File));
  std::vector<const Finding *> Origin; // Of each diagnostic.
  for (const FileResult &R : Results) {
    if (!R.Errors.empty())
      continue; // Files that do not parse are never fixed.
    for (const Finding &F : R.Findings) {
      clang::tooling::Diagnostic Diag;
      Diag.DiagnosticName = validUtf8(F.Rule);
      Diag.DiagLevel = clang::tooling::Diagnostic::Warning;
      Diag.Message.Message = validUtf8(F.Message);
      Diag.Message.FilePath = validUtf8(absolutePath(F.File));
      Diag.Message.FileOffset = F.Begin.Offset;
      bool Applied = F.FixIt && (F.FixIt->Kind == Applicability::Safe || IncludeUnsafe);
      if (Applied && isPythonFile(F.File)) {
        Applied = false;
        ++Gaps->PythonFixes;
      }
      if (Applied) {
        for (const Edit &E : F.FixIt->Edits) {
          std::string File = absolutePath(E.File);
          llvm::consumeError(Diag.Message.Fix[File].add(clang::tooling::Replacement(
              File, E.Begin.Offset, E.End.Offset - E.Begin.Offset, E.Replacement)));
        }
      }
      Export.Diagnostics.push_back(std::move(Diag));
      Origin.push_back(&F);
    }
  }
  // Read back as clang-apply-replacements reads it: a fix whose bytes do not
  // come back exactly (LLVM's YAML reader stops at a byte that is not UTF-8,
  // so the text applied would be cut short) is not exported.
  std::string Text = toYaml(Export);
  std::optional<std::vector<clang::tooling::Diagnostic>> Read = readBack(Text);
  bool Dropped = false;
  for (size_t I = 0; I < Export.Diagnostics.size(); ++I) {
    clang::tooling::Diagnostic &Diag = Export.Diagnostics[I];
    if (Diag.Message.Fix.empty() ||
        (Read && Read->size() == Export.Diagnostics.size() && sameReplacements(Diag, (*Read)[I])))
      continue;
    const Finding &F = *Origin[I];
    Gaps->Refused.push_back(F.File + ":" + std::to_string(F.Begin.Line) + ":" +
                            std::to_string(F.Begin.Column) + ": the fix of [" + F.Rule +
                            "] is not exported: its replacement text or file name holds bytes "
                            "that are not UTF-8, which clang-tidy's YAML cannot carry; apply it "
                            "with --fix");
    Diag.Message.Fix.clear();
    Dropped = true;
  }
  return Dropped ? toYaml(Export) : Text;
}

} // namespace kernel_tidy
