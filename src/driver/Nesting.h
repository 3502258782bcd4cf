//===--- Nesting.h - Bounded nesting of JSON and YAML the tool did not write ===//
//
// nlohmann's copy, dump and comparison of a value recurse once per level, and
// so does LLVM's YAML parser: a baseline, report, line filter or .clang-tidy
// nested a million levels deep overflowed the stack (issue 31, items 6 to 8).
// Such text is refused before it reaches a parser.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_DRIVER_NESTING_H
#define KERNEL_TIDY_DRIVER_NESTING_H

#include "llvm/ADT/StringRef.h"
#include <algorithm>
#include <string>

namespace kernel_tidy {

/// Deeper than any report, baseline or configuration the tool reads.
constexpr unsigned MaxNesting = 256;

/// The deepest nesting of '[' and '{' in \p Text. With \p JsonStrings,
/// brackets inside JSON strings do not count; otherwise (YAML) every bracket
/// counts, which can only overestimate.
inline unsigned nestingDepth(llvm::StringRef Text, bool JsonStrings) {
  unsigned Depth = 0, Deepest = 0;
  bool InString = false;
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (InString) {
      if (C == '\\')
        ++I;
      else if (C == '"')
        InString = false;
      continue;
    }
    if (C == '"' && JsonStrings)
      InString = true;
    else if (C == '[' || C == '{')
      Deepest = std::max(Deepest, ++Depth);
    else if ((C == ']' || C == '}') && Depth > 0)
      --Depth;
  }
  return Deepest;
}

/// "" when \p Text nests at most MaxNesting levels, else why it is refused.
inline std::string nestingProblem(llvm::StringRef Text, bool JsonStrings) {
  if (nestingDepth(Text, JsonStrings) <= MaxNesting)
    return "";
  return "nested more than " + std::to_string(MaxNesting) + " levels deep";
}

} // namespace kernel_tidy

#endif // KERNEL_TIDY_DRIVER_NESTING_H
