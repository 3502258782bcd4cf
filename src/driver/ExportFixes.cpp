//===--- ExportFixes.cpp - Fixes in clang-tidy's --export-fixes format ----===//

#include "src/driver/ExportFixes.h"

#include "src/driver/CuteFrontend.h"
#include "src/driver/Paths.h"
#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace kernel_tidy {

std::string exportFixesYaml(const std::vector<FileResult> &Results, bool IncludeUnsafe,
                            unsigned *PythonFixesLeftOut) {
  if (PythonFixesLeftOut)
    *PythonFixesLeftOut = 0;
  clang::tooling::TranslationUnitDiagnostics Export;
  if (!Results.empty())
    Export.MainSourceFile = absolutePath(Results.front().File);
  for (const FileResult &R : Results) {
    if (!R.Errors.empty())
      continue; // Files that do not parse are never fixed.
    for (const Finding &F : R.Findings) {
      clang::tooling::Diagnostic Diag;
      Diag.DiagnosticName = F.Rule;
      Diag.DiagLevel = clang::tooling::Diagnostic::Warning;
      Diag.Message.Message = F.Message;
      Diag.Message.FilePath = absolutePath(F.File);
      Diag.Message.FileOffset = F.Begin.Offset;
      bool Applied = F.FixIt && (F.FixIt->Kind == Applicability::Safe || IncludeUnsafe);
      if (Applied && isPythonFile(F.File)) {
        Applied = false;
        if (PythonFixesLeftOut)
          ++*PythonFixesLeftOut;
      }
      if (Applied) {
        for (const Edit &E : F.FixIt->Edits) {
          std::string File = absolutePath(E.File);
          llvm::consumeError(Diag.Message.Fix[File].add(clang::tooling::Replacement(
              File, E.Begin.Offset, E.End.Offset - E.Begin.Offset, E.Replacement)));
        }
      }
      Export.Diagnostics.push_back(std::move(Diag));
    }
  }
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  llvm::yaml::Output YAML(OS);
  YAML << Export;
  OS.flush();
  return Text;
}

} // namespace kernel_tidy
