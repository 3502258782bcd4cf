//===--- FixApplier.cpp - Verified, atomic application of fixes -----------===//

#include "src/driver/FixApplier.h"

#include "src/driver/Analyzer.h"
#include "src/driver/AtomicFile.h"
#include "src/driver/CuteFrontend.h"
#include "clang/Format/Format.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Support/Errc.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <map>

using namespace clang;

namespace kernel_tidy {

namespace {

/// Adds the edits of \p F to \p Set; false (and \p Set unchanged) if they
/// overlap edits already there.
bool addFix(tooling::Replacements &Set, const Fix &F, const std::string &Path) {
  tooling::Replacements Extended = Set;
  for (const Edit &E : F.Edits) {
    if (auto Err = Extended.add(tooling::Replacement(
            Path, E.Begin.Offset, E.End.Offset - E.Begin.Offset, E.Replacement))) {
      llvm::consumeError(std::move(Err));
      return false;
    }
  }
  Set = std::move(Extended);
  return true;
}

/// The fixed text, formatted by the file's .clang-format if it has one.
std::optional<std::string> render(const std::string &Path, const std::string &Original,
                                  const tooling::Replacements &Set) {
  tooling::Replacements Final = Set;
  // clang-format would take Python for C++ (an unknown extension): not formatted.
  auto Style = format::getStyle("file", Path, "none");
  if (Style && !Style->DisableFormat && !isPythonFile(Path)) {
    auto Formatted = format::formatReplacements(Original, Set, *Style);
    if (Formatted)
      Final = std::move(*Formatted);
    else
      llvm::consumeError(Formatted.takeError());
  } else if (!Style) {
    llvm::consumeError(Style.takeError());
  }
  auto Text = tooling::applyAllReplacements(Original, Final);
  if (!Text) {
    llvm::consumeError(Text.takeError());
    return std::nullopt;
  }
  return *Text;
}

/// Re-parses the texts that sets of fixes give one file, each text once.
class Verifier {
public:
  Verifier(FileResult &Result, Analyzer &Reparser) : Result(Result), Reparser(Reparser) {}

  /// The fixed text of \p Set, or std::nullopt with \p Error.
  std::optional<std::string> check(const tooling::Replacements &Set, std::string &Error) {
    auto Text = render(Result.File, Result.Original, Set);
    if (!Text) {
      Error = "its edits do not apply";
      return std::nullopt;
    }
    auto [It, New] = Errors.try_emplace(*Text);
    if (New)
      It->second = firstError(Reparser.analyze(Result.File, *Text));
    Error = It->second;
    return Error.empty() ? Text : std::nullopt;
  }

  FileResult &Result;

private:
  static std::string firstError(const FileResult &Reparsed) {
    if (Reparsed.Errors.empty())
      return "";
    const ParseError &E = Reparsed.Errors.front();
    std::string Where = E.Line ? " (" + std::to_string(E.Line) + ":" + std::to_string(E.Column) +
                                     " of the fixed text)"
                               : "";
    return E.Message + Where;
  }

  Analyzer &Reparser;
  std::map<std::string, std::string> Errors; // Fixed text -> first error.
};

bool editsOnlyItsFile(const Finding &F, const std::string &File) {
  return llvm::all_of(F.FixIt->Edits, [&](const Edit &E) { return E.File == File; });
}

/// Turns the fix of \p F into "no fix", saying why.
void dropFix(Finding &F, const std::string &Error) {
  F.FixIt.reset();
  F.NoFixReason = std::string("the fix was dropped because the fixed file does not ") +
                  (isPythonFile(F.File) ? "parse: " : "compile: ") + Error;
}

/// Keeps of \p Batch (fixes that do not overlap) those that compile
/// together, adding them one at a time when all of them together do not.
void verifyBatch(Verifier &V, const std::vector<Finding *> &Batch,
                 const tooling::Replacements &All) {
  std::string Error;
  if (V.check(All, Error))
    return;
  tooling::Replacements Accepted;
  for (Finding *F : Batch) {
    tooling::Replacements Trial = Accepted;
    addFix(Trial, *F->FixIt, V.Result.File);
    if (V.check(Trial, Error))
      Accepted = std::move(Trial);
    else
      dropFix(*F, Error);
  }
}

/// Whether every edit of \p Result's fixes lies in its text and replaces the
/// bytes its frontend reported there; if not, an error of the file that names
/// the first one, so that nothing is fixed or written. Positions that the
/// frontend and the driver do not agree on (a PEP 263 coding line, a lone CR)
/// would otherwise edit unrelated code (issue 31).
bool editsReplaceTheReportedText(FileResult &Result) {
  for (const Finding &F : Result.Findings) {
    if (!F.FixIt)
      continue;
    for (const Edit &E : F.FixIt->Edits) {
      if (E.File != Result.File)
        continue;
      size_t Begin = E.Begin.Offset, End = E.End.Offset, Size = Result.Original.size();
      bool Inside = Begin <= End && End <= Size;
      if (Inside && (!E.Replaced || Result.Original.compare(Begin, End - Begin, *E.Replaced) == 0))
        continue;
      Result.Errors.push_back(
          {Result.File, F.Begin.Line, F.Begin.Column,
           "the fix of " + F.Rule + " does not replace the text its rule reported (" +
               (Inside ? "bytes " + std::to_string(Begin) + " to " + std::to_string(End) + " differ"
                       : "it lies outside the file") +
               "): the positions cannot be trusted, nothing is fixed"});
      return false;
    }
  }
  return true;
}

void verifyWith(Verifier &V) {
  FileResult &Result = V.Result;
  if (!Result.Errors.empty() || !editsReplaceTheReportedText(Result))
    return;
  // Without this the re-parse of a removed file (or of a file whose folder
  // went away) fails and every fix would be reported as not compiling.
  if (Result.ReadFromDisk && !llvm::sys::fs::exists(Result.File)) {
    Result.Errors.push_back({Result.File, 0, 0, "the file was removed during the run"});
    return;
  }
  // Overlapping fixes cannot be applied together: each goes to the first
  // batch it does not overlap.
  std::vector<std::vector<Finding *>> Batches;
  std::vector<tooling::Replacements> Sets;
  for (Finding &F : Result.Findings) {
    if (!F.FixIt || !editsOnlyItsFile(F, Result.File))
      continue;
    size_t I = 0;
    while (I < Sets.size() && !addFix(Sets[I], *F.FixIt, Result.File))
      ++I;
    if (I == Sets.size()) {
      Sets.emplace_back();
      Batches.emplace_back();
      if (!addFix(Sets.back(), *F.FixIt, Result.File)) {
        dropFix(F, "its edits overlap each other");
        continue;
      }
    }
    Batches[I].push_back(&F);
  }
  for (size_t I = 0; I < Batches.size(); ++I)
    verifyBatch(V, Batches[I], Sets[I]);
}

} // namespace

void verifyFixes(FileResult &Result, Analyzer &Reparser) {
  Verifier V(Result, Reparser);
  verifyWith(V);
}

void applyFixes(FileResult &Result, Analyzer &Reparser, bool IncludeUnsafe) {
  if (!Result.Errors.empty())
    return;
  Verifier V(Result, Reparser);
  verifyWith(V);
  if (!Result.Errors.empty())
    return;
  std::vector<Finding *> Selected;
  tooling::Replacements All;
  for (Finding &F : Result.Findings) {
    if (!F.FixIt || (F.FixIt->Kind == Applicability::Unsafe && !IncludeUnsafe))
      continue;
    if (!editsOnlyItsFile(F, Result.File)) {
      Result.FixNotes.push_back(F.File + ":" + std::to_string(F.Begin.Line) +
                                ": fix not applied: it edits another file");
      continue;
    }
    if (!addFix(All, *F.FixIt, Result.File)) {
      Result.FixNotes.push_back(F.File + ":" + std::to_string(F.Begin.Line) +
                                ": fix not applied: it overlaps another fix");
      continue;
    }
    Selected.push_back(&F);
  }
  if (Selected.empty())
    return;
  std::string Error;
  if (auto Candidate = V.check(All, Error)) {
    Result.Fixed = *Candidate;
    Result.FixedCount = Selected.size();
    for (Finding *F : Selected)
      F->FixApplied = true;
    return;
  }
  // Fixes that compile alone may not compile together: keep those that do,
  // one at a time.
  tooling::Replacements Accepted;
  std::optional<std::string> Text;
  unsigned Count = 0;
  for (Finding *F : Selected) {
    tooling::Replacements Trial = Accepted;
    addFix(Trial, *F->FixIt, Result.File);
    if (auto Candidate = V.check(Trial, Error)) {
      Accepted = std::move(Trial);
      Text = std::move(Candidate);
      F->FixApplied = true;
      ++Count;
      continue;
    }
    Result.FixNotes.push_back(F->File + ":" + std::to_string(F->Begin.Line) +
                              ": fix dropped: the fixed file does not compile: " + Error);
  }
  if (Count == 0)
    return;
  Result.Fixed = std::move(Text);
  Result.FixedCount = Count;
}

std::string writeFileAtomically(const std::string &Path, const std::string &Contents,
                                const std::string &Expected) {
  // Write through symbolic links to the file they name.
  llvm::SmallString<256> Target;
  if (std::error_code EC = llvm::sys::fs::real_path(Path, Target))
    return Path + ": cannot resolve path: " + EC.message();
  auto Current = llvm::MemoryBuffer::getFile(Target, /*IsText=*/false,
                                             /*RequiresNullTerminator=*/false);
  if (!Current)
    return Path + ": cannot read file: " + Current.getError().message();
  if ((*Current)->getBuffer() != Expected)
    return Path + ": file changed on disk since it was analysed; not overwritten";
  llvm::sys::fs::file_status Status;
  if (std::error_code EC = llvm::sys::fs::status(Target, Status))
    return Path + ": " + EC.message();
  // A rename would replace a read-only file (and root may write anything):
  // respect the user's intent that the file must not change.
  if ((Status.permissions() & llvm::sys::fs::all_write) == 0)
    return Path + ": file is read-only; not modified";
  // The folder too: a rename writes to it, and root would write anyway. A
  // folder no one may write to says that its files must not change.
  llvm::sys::fs::file_status Folder;
  if (!llvm::sys::fs::status(llvm::sys::path::parent_path(Target), Folder) &&
      (Folder.permissions() & llvm::sys::fs::all_write) == 0)
    return Path + ": its folder is read-only; not modified";
  // Replacing one name of a hard-linked file would split it from the others.
  if (Status.getLinkCount() > 1)
    return Path + ": file has " + std::to_string(Status.getLinkCount()) +
           " hard links; not modified (a fix would split them)";

  // Checked again right before the rename: an editor may have saved the
  // file while the fixed text was written and synced.
  auto Unchanged = [&]() -> std::string {
    llvm::sys::fs::file_status Now;
    auto Text = llvm::MemoryBuffer::getFile(Target, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
    if (llvm::sys::fs::status(Target, Now) || !Text || (*Text)->getBuffer() != Expected ||
        Now.getUniqueID() != Status.getUniqueID() || Now.getSize() != Status.getSize() ||
        Now.getLastModificationTime() != Status.getLastModificationTime())
      return Path + ": file changed on disk since it was analysed; not overwritten";
    return "";
  };
  return writeAtomically(Path, Contents, Status.permissions(), Unchanged);
}

} // namespace kernel_tidy
