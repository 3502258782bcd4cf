//===--- TidyFindings.cpp - clang-tidy's diagnostics as findings ----------===//

#include "src/driver/TidyFindings.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <map>
#include <optional>

using namespace clang;
using namespace clang::tidy;

namespace kernel_tidy {

/// Reads files that findings point into, once each, and turns offsets into
/// positions with a line index (a big file has hundreds of findings).
namespace {

class ContentCache {
public:
  /// The 1-based line and byte column of \p Offset in \p Path (an offset
  /// past the end is placed at the end).
  Position position(const std::string &Path, unsigned Offset) {
    const Content &File = get(Path);
    Position Result;
    Result.Offset = Offset;
    unsigned Clamped = std::min<size_t>(Offset, File.Text.size());
    auto Next = std::upper_bound(File.LineStarts.begin(), File.LineStarts.end(), Clamped);
    Result.Line = static_cast<unsigned>(Next - File.LineStarts.begin());
    Result.Column = Clamped - *std::prev(Next) + 1;
    return Result;
  }
  void put(const std::string &Path, std::string Text) { Cache[Path] = index(std::move(Text)); }
  /// The bytes [Offset, Offset + Length) of \p Path; std::nullopt past its end.
  std::optional<std::string> text(const std::string &Path, unsigned Offset, unsigned Length) {
    const Content &File = get(Path);
    if (Offset > File.Text.size() || Length > File.Text.size() - Offset)
      return std::nullopt;
    return File.Text.substr(Offset, Length);
  }
  /// The whole text of \p Path (empty when it cannot be read).
  const std::string &text(const std::string &Path) { return get(Path).Text; }

private:
  struct Content {
    std::string Text;
    std::vector<unsigned> LineStarts; // offset of the first byte of each line
  };

  static Content index(std::string Text) {
    Content Result{std::move(Text), {0}};
    // Clang's line breaks, which the text report counts: LF, CR LF and a
    // lone CR (issue 49, item 10: one numbering in every format).
    const std::string &T = Result.Text;
    for (size_t I = 0; I < T.size(); ++I)
      if (T[I] == '\n' || (T[I] == '\r' && (I + 1 == T.size() || T[I + 1] != '\n')))
        Result.LineStarts.push_back(static_cast<unsigned>(I + 1));
    return Result;
  }

  const Content &get(const std::string &Path) {
    auto It = Cache.find(Path);
    if (It != Cache.end())
      return It->second;
    std::string Text;
    if (auto Buffer = llvm::MemoryBuffer::getFile(Path))
      Text = (*Buffer)->getBuffer().str();
    return Cache[Path] = index(std::move(Text));
  }

  std::map<std::string, Content> Cache;
};

} // namespace

/// Makes the paths of \p Error absolute from the directory of its compile
/// command (\p CommandDirectory when Clang did not record one), as
/// clang-tidy resolves them: a compile database may name the
/// source relatively in its command (`-c k.cpp`, as Bear and Meson write
/// it), and a relative path would then name the current folder's own k.cpp
/// in the report, the baseline and the exported fixes (issue 31, item 4).
/// Records in \p Spellings each resolved path's name as Clang had it.
static void resolvePaths(ClangTidyError &Error, llvm::StringRef CommandDirectory,
                         std::map<std::string, std::string> &Spellings) {
  llvm::StringRef Directory =
      Error.BuildDirectory.empty() ? CommandDirectory : llvm::StringRef(Error.BuildDirectory);
  auto Resolve = [&](std::string Path) {
    if (Path.empty() || !llvm::sys::path::is_relative(Path) || Directory.empty())
      return Path;
    llvm::SmallString<256> Absolute(Path);
    llvm::sys::fs::make_absolute(Directory, Absolute);
    llvm::sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
    Spellings.emplace(Absolute.str().str(), Path);
    return Absolute.str().str();
  };
  auto ResolveMessage = [&](tooling::DiagnosticMessage &Message) {
    Message.FilePath = Resolve(Message.FilePath);
    for (tooling::FileByteRange &Range : Message.Ranges)
      Range.FilePath = Resolve(Range.FilePath);
    llvm::StringMap<tooling::Replacements> Fix;
    for (const auto &FileFix : Message.Fix) {
      tooling::Replacements &Set = Fix[Resolve(FileFix.first().str())];
      for (const tooling::Replacement &R : FileFix.second)
        if (auto Err = Set.add(tooling::Replacement(Resolve(R.getFilePath().str()), R.getOffset(),
                                                    R.getLength(), R.getReplacementText())))
          llvm::consumeError(std::move(Err)); // The same set as before: no conflict.
    }
    Message.Fix = std::move(Fix);
  };
  ResolveMessage(Error.Message);
  for (tooling::DiagnosticMessage &Note : Error.Notes)
    ResolveMessage(Note);
}

namespace {

/// Converts the diagnostics of one input; reads each other file once.
class Converter {
public:
  explicit Converter(const TidyInput &Input) : Input(Input) {
    Cache.put(Input.AbsFile, Input.Text);
  }

  /// A compiler error or an unmatched NOLINTBEGIN/NOLINTEND fails the file,
  /// as in clang-tidy (it would otherwise hide or expose findings the user
  /// did not mean to); other diagnostics are not errors of the file.
  std::optional<ParseError> parseError(const ClangTidyError &Error) {
    bool IsNolintError = Error.DiagnosticName == "clang-tidy-nolint";
    if (Error.DiagLevel != tooling::Diagnostic::Error ||
        !(IsNolintError || StringRef(Error.DiagnosticName).starts_with("clang-diagnostic-")))
      return std::nullopt;
    const tooling::DiagnosticMessage &Message = Error.Message;
    std::string Text = Message.Message + (IsNolintError ? " [clang-tidy-nolint]" : "");
    if (Message.FilePath.empty())
      return ParseError{Input.File, 0, 0, Text};
    Position At = Cache.position(Message.FilePath, Message.FileOffset);
    return ParseError{displayName(Message.FilePath), At.Line, At.Column, Text};
  }

  /// A check's diagnostic, its fix typed by the notes that carry it.
  Finding finding(const ClangTidyError &Error) {
    const tooling::DiagnosticMessage &Message = Error.Message;
    Finding F;
    F.Rule = Error.DiagnosticName;
    F.Message = Message.Message;
    F.File = displayName(Message.FilePath);
    F.Begin = F.End = Cache.position(Message.FilePath, Message.FileOffset);
    F.AsError = Error.IsWarningAsError;
    if (!Message.Ranges.empty() && Message.Ranges[0].FilePath == Message.FilePath)
      F.End =
          Cache.position(Message.FilePath, Message.Ranges[0].FileOffset + Message.Ranges[0].Length);
    for (const tooling::FileByteRange &Range : Message.Ranges)
      F.Ranges.push_back({displayName(Range.FilePath),
                          Cache.position(Range.FilePath, Range.FileOffset),
                          Cache.position(Range.FilePath, Range.FileOffset + Range.Length)});
    if (!Message.Fix.empty())
      F.FixIt = Fix{Applicability::Safe, "", edits(Message.Fix)};
    for (const tooling::DiagnosticMessage &Note : Error.Notes) {
      fix_protocol::NoteMeaning Meaning = fix_protocol::readNote(Note.Message, !Note.Fix.empty());
      if (Meaning.K == fix_protocol::NoteMeaning::UnsafeFix) {
        if (!F.FixIt)
          F.FixIt = Fix{Applicability::Unsafe, Meaning.Reason.str(), edits(Note.Fix)};
      } else if (Meaning.K == fix_protocol::NoteMeaning::NoFix) {
        F.NoFixReason = Meaning.Reason.str();
      } else {
        F.Notes.push_back({Note.Message, displayName(Note.FilePath),
                           Cache.position(Note.FilePath, Note.FileOffset)});
      }
    }
    if (F.FixIt)
      F.NoFixReason.clear();
    return F;
  }

  /// Makes the paths of \p Error absolute, remembering how Clang named them.
  void resolve(ClangTidyError &Error) { resolvePaths(Error, Input.CommandDirectory, Spellings); }

  /// Gives \p Result the texts of the other files (headers) that \p F or
  /// \p E point into, for the text report's source lines, and their names
  /// as Clang spelled them.
  void keepOtherTexts(const Finding &F, FileResult &Result) {
    auto Keep = [&](const std::string &File) { keepOtherText(File, Result); };
    Keep(F.File);
    for (const Span &S : F.Ranges)
      Keep(S.File);
    for (const Note &N : F.Notes)
      Keep(N.File);
    if (F.FixIt)
      for (const Edit &E : F.FixIt->Edits)
        Keep(E.File);
  }
  void keepOtherTexts(const ParseError &E, FileResult &Result) {
    if (E.Line)
      keepOtherText(E.File, Result);
  }

private:
  void keepOtherText(const std::string &File, FileResult &Result) {
    if (File == Input.File || Result.OtherTexts.count(File))
      return;
    Result.OtherTexts[File] = Cache.text(File);
    if (auto It = Spellings.find(File); It != Spellings.end())
      Result.Spellings.emplace(File, It->second);
  }

  /// The analysed file as the user named it; other files as clang-tidy did.
  std::string displayName(const std::string &Path) const {
    return Path == Input.AbsFile ? Input.File : Path;
  }

  std::vector<Edit> edits(const llvm::StringMap<tooling::Replacements> &Fix) {
    std::vector<Edit> Edits;
    for (const auto &FileFix : Fix) {
      for (const tooling::Replacement &R : FileFix.second) {
        std::string Path = R.getFilePath().str();
        // The text the positions were computed on is what the fix applier
        // must find there: Replaced is checked before any edit is applied.
        Edits.push_back(Edit{displayName(Path), Cache.position(Path, R.getOffset()),
                             Cache.position(Path, R.getOffset() + R.getLength()),
                             R.getReplacementText().str(),
                             Cache.text(Path, R.getOffset(), R.getLength())});
      }
    }
    return Edits;
  }

  const TidyInput &Input;
  ContentCache Cache;
  std::map<std::string, std::string> Spellings; ///< By resolved path.
};

} // namespace

void addTidyDiagnostics(std::vector<ClangTidyError> Errors, const TidyInput &Input,
                        FileResult &Result, llvm::function_ref<bool(const Finding &)> Keep) {
  Converter Convert(Input);
  for (ClangTidyError &Error : Errors) {
    Convert.resolve(Error);
    if (std::optional<ParseError> Failure = Convert.parseError(Error)) {
      Convert.keepOtherTexts(*Failure, Result);
      Result.Errors.push_back(std::move(*Failure));
      continue;
    }
    if (StringRef(Error.DiagnosticName).starts_with("clang-tidy-"))
      continue; // Configuration problems reach the user through stderr.
    Finding F = Convert.finding(Error);
    if (!Keep(F))
      continue;
    Convert.keepOtherTexts(F, Result);
    Result.Findings.push_back(std::move(F));
  }
}

} // namespace kernel_tidy
