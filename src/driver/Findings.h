//===--- Findings.h - What an analysis of one file produced ---------------===//

#ifndef KERNEL_TIDY_SRC_DRIVER_FINDINGS_H
#define KERNEL_TIDY_SRC_DRIVER_FINDINGS_H

#include "rules/FixProtocol.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kernel_tidy {

/// A position in a file: byte offset plus 1-based line and byte column.
struct Position {
  unsigned Offset = 0;
  unsigned Line = 1;
  unsigned Column = 1;
};

/// One replacement of a byte range of a file.
struct Edit {
  std::string File;
  Position Begin;
  Position End; ///< Begin + Length.
  std::string Replacement;
  /// The bytes [Begin, End) that the frontend saw when it made the edit. The
  /// fix applier refuses the file when they are not the bytes it edits: a
  /// frontend and the driver that disagree on positions would change other
  /// code (a coding line, a lone CR). Unset only for edits made in memory.
  std::optional<std::string> Replaced;
};

/// The edits of a fix and whether --fix may apply them (Safe or Unsafe).
struct Fix {
  Applicability Kind = Applicability::Safe;
  std::string Reason; ///< Why the fix is unsafe; empty for a safe fix.
  std::vector<Edit> Edits;
};

/// A byte range [Begin, End) of a file that a finding highlights.
struct Span {
  std::string File;
  Position Begin;
  Position End;
};

/// A note of a finding that carries no fix (e.g. that the rewrite is not
/// expected to be faster on the --target backend).
struct Note {
  std::string Message;
  std::string File;
  Position At;
};

/// Where a NOLINT comment for a finding's line goes, as the frontend's own
/// tokenizer found it (Python's `tokenize` for .py files).
struct NolintPlace {
  bool Possible = false;  ///< A comment can end the line without changing the code.
  unsigned Offset = 0;    ///< Where it goes: the line's end, or the ')' to join.
  bool JoinsList = false; ///< Offset is the ')' of a NOLINT(...) already there.
};

/// A rule's finding, with its fix if the rule offers one.
struct Finding {
  std::string Rule;
  std::string Message;
  std::string File;
  Position Begin;
  Position End;
  /// The ranges its rule highlighted (a Clang diagnostic's ranges), which
  /// the text report underlines; none given: [Begin, End) if not empty.
  std::vector<Span> Ranges;
  std::optional<Fix> FixIt;
  /// Without FixIt: why there is no fix, when the rule (or the verification
  /// of its fix) said so.
  std::string NoFixReason;
  std::vector<Note> Notes; ///< Notes without a fix, in the rule's order.
  bool AsError = false;    ///< Its rule matches the WarningsAsErrors globs.
  bool FixApplied = false; ///< Its fix is in FileResult::Fixed.
  /// Set by a frontend that finds line ends itself; unset for C++, whose
  /// lines the driver lexes.
  std::optional<NolintPlace> Nolint;
};

/// A compiler error that stopped the analysis of a file.
struct ParseError {
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
  std::string Message;
};

/// Everything known about one input file after analysis and fixing.
struct FileResult {
  std::string File;     ///< As given on the command line.
  std::string Original; ///< Contents that were analysed.
  /// The analysed texts of the other files (headers) that findings point
  /// into, by Finding::File, for the source lines of the text report.
  std::map<std::string, std::string> OtherTexts;
  /// How the analysis named those other files where that is not the path
  /// they are kept by (a header found through a relative include path is
  /// `inc/k.h`, relative to the compile directory), by that path: reports
  /// for people name them so, as clang-tidy prints them.
  std::map<std::string, std::string> Spellings;
  bool ReadFromDisk = false; ///< Original was read from File (not given in memory).
  std::vector<Finding> Findings;
  std::vector<ParseError> Errors;
  std::optional<std::string> Fixed;  ///< Contents with the applied fixes.
  unsigned FixedCount = 0;           ///< Findings whose fix was applied.
  std::vector<std::string> FixNotes; ///< Fixes dropped, with the reason.
  /// Problems that did not stop the analysis (an unusable compile database
  /// it fell back from), for stderr.
  std::vector<std::string> Warnings;

  /// \p Path (File, or a path of a finding) as reports for people name it.
  const std::string &shownName(const std::string &Path) const {
    auto It = Spellings.find(Path);
    return It == Spellings.end() ? Path : It->second;
  }
};

} // namespace kernel_tidy

#endif // KERNEL_TIDY_SRC_DRIVER_FINDINGS_H
