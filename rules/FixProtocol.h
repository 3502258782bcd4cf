//===--- FixProtocol.h - A fix's applicability, and its notes --------------===//
//
// A rule decides whether its fix keeps the program's results; the report, the
// CLI's --fix and kernel-clangd's code actions must all know that decision.
// Inside the process it is data (Applicability, FixSafety). Between the rules
// and their readers it travels through clang-tidy, whose only carrier for it
// is a diagnostic's notes, so this header owns both directions of that
// encoding: the notes RuleBase writes and what the driver and kernel-clangd
// read back from them. Nothing else spells the notes' prefixes.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_RULES_FIXPROTOCOL_H
#define KERNEL_TIDY_RULES_FIXPROTOCOL_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include <string>
#include <utility>

namespace kernel_tidy {

/// Whether a fix keeps the program's results (Ruff's Applicability): Safe
/// fixes are applied by --fix, Unsafe ones only on request, None is a
/// finding whose rewrite was withheld.
enum class Applicability { Safe, Unsafe, None };

/// A fix's applicability and, unless it is Safe, why.
struct FixSafety {
  Applicability Kind = Applicability::Safe;
  std::string Reason; ///< Why the fix is unsafe, or why there is none.

  static FixSafety safe() { return {Applicability::Safe, ""}; }
  static FixSafety unsafe(std::string Why) { return {Applicability::Unsafe, std::move(Why)}; }
  static FixSafety none(std::string Why = "") { return {Applicability::None, std::move(Why)}; }

  /// Makes a fix that is offered unsafe for one more reason \p Why (joined
  /// to the ones it has); no fix stays no fix.
  void addHazard(const std::string &Why) {
    if (Kind == Applicability::None)
      return;
    Reason = Kind == Applicability::Unsafe ? Reason + "; and " + Why : Why;
    Kind = Applicability::Unsafe;
  }
};

namespace fix_protocol {

/// The words that introduce an unsafe fix's reason ("unsafe fix: REASON").
inline constexpr llvm::StringLiteral UnsafeFix = "unsafe fix";
/// The words that introduce the reason a rewrite was withheld.
inline constexpr llvm::StringLiteral NoFix = "no automatic fix";

/// "LABEL: REASON", as every reader shows a reason.
inline std::string labelled(llvm::StringRef Label, llvm::StringRef Reason) {
  return (Label + ": " + Reason).str();
}

/// The note that carries an unsafe fix (its fix-its are the fix).
inline std::string unsafeFixNote(llvm::StringRef Reason) { return labelled(UnsafeFix, Reason); }

/// The note that announces an unsafe fix that was not attached.
inline std::string withheldUnsafeFixNote(llvm::StringRef Reason) {
  return unsafeFixNote(Reason) + " (set the check option UnsafeFixes to true to get it)";
}

/// The note that says why a finding has no fix.
inline std::string noFixNote(llvm::StringRef Reason) { return labelled(NoFix, Reason); }

/// What a note of a finding says about the finding's fix.
struct NoteMeaning {
  enum Kind {
    Plain,     ///< Explains the finding; shown as it is.
    UnsafeFix, ///< Carries the unsafe fix; Reason says why it is unsafe.
    NoFix,     ///< Says why there is no fix (Reason).
  } K = Plain;
  llvm::StringRef Reason;
};

/// Reads a note that RuleBase wrote: \p Message is its text, \p HasFix
/// whether it carries fix-its (only the unsafe fix's note does).
inline NoteMeaning readNote(llvm::StringRef Message, bool HasFix) {
  std::string Prefix = labelled(UnsafeFix, "");
  if (HasFix)
    return {NoteMeaning::UnsafeFix,
            Message.starts_with(Prefix) ? Message.drop_front(Prefix.size()) : Message};
  if (Message.consume_front(labelled(NoFix, "")))
    return {NoteMeaning::NoFix, Message};
  return {NoteMeaning::Plain, ""};
}

/// Whether \p Title, a clangd code action made from a note's fix, is an
/// unsafe fix (clangd titles such an action with the note's text).
inline bool isUnsafeFixTitle(llvm::StringRef Title) {
  return Title.starts_with(labelled(UnsafeFix, ""));
}

} // namespace fix_protocol
} // namespace kernel_tidy

#endif // KERNEL_TIDY_RULES_FIXPROTOCOL_H
