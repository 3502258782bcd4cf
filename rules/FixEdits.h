//===--- FixEdits.h - Edits that never lose the user's code ---------------===//
//
// Every rule's rewrite goes through these: the range it replaces must be
// spelled by the user (not inside a macro other than the DSL's statement
// sugar), comments inside it are kept, and a range that holds preprocessor
// directives (whose inactive branches a re-parse cannot see) is not edited.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_RULES_FIXEDITS_H
#define KERNEL_TIDY_RULES_FIXEDITS_H

#include "clang/AST/ASTContext.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Tooling/Transformer/RangeSelector.h"
#include "clang/Tooling/Transformer/RewriteRule.h"
#include "llvm/Support/Error.h"
#include <string>
#include <utility>
#include <vector>

namespace kernel_tidy::rules {

/// \p Selector, restricted to ranges the user spelled: both ends in the
/// file, except that a range may begin with a DSL statement sugar macro
/// (`$if`, `$for`...). Other ranges are an error, so the rule gets no fix.
clang::transformer::RangeSelector userCode(clang::transformer::RangeSelector Selector);

/// `enclose(statement(First), statement(Last))` restricted to user code:
/// the statements bound as \p First .. \p Last with the `;` after Last.
clang::transformer::RangeSelector userStatements(std::string First, std::string Last);

/// The replacement of \p Range by \p Text, made safe: the comments inside
/// the range are kept, each on its own line before the new text. An error
/// (with the reason) when the range holds a preprocessor directive.
llvm::Expected<clang::FixItHint> safeReplacement(clang::CharSourceRange Range, llvm::StringRef Text,
                                                 const clang::ASTContext &Ctx);

/// The source text of \p Range as the user wrote it ("" inside macros).
std::string sourceText(clang::SourceRange Range, const clang::ASTContext &Ctx);

/// The whitespace that starts the line of \p Loc.
std::string lineIndentation(clang::SourceLocation Loc, const clang::SourceManager &SM);

/// The line ending used at \p Loc ("\r\n" for CRLF files, else "\n").
std::string lineEnding(clang::SourceLocation Loc, const clang::SourceManager &SM);

/// The qualifier written before a call's callee ("luisa::compute::" or "").
std::string calleeQualifier(const clang::Expr *Call, const clang::ASTContext &Ctx);

/// The edits that replace \p Body, the unbraced body of the host loop or
/// `if` \p Control (dsl::unbracedBodyOwner), with the lines that \p Code
/// writes, in braces: `{` after the control's header, the lines at the
/// body's indentation (one level below the header's when the body shares its
/// line), `}` on a line of its own at the header's. \p Code gets the line
/// break and indentation to put between its lines. An error when the header
/// or the body is spelled in a macro.
llvm::Expected<clang::transformer::EditGenerator>
bracedBodyEdits(const clang::Stmt *Control, const clang::Stmt *Body,
                llvm::function_ref<std::string(llvm::StringRef Break)> Code,
                clang::ASTContext &Ctx);

/// Code that a rewrite writes at one place of the file, from a template:
/// `{{name}}` is the hole \p name; `{{dsl:name}}` is the DSL name \p name,
/// qualified as code at the site must write it (dsl::dslQualifier); each
/// line break of the template becomes the file's line ending followed by
/// the indentation of the place's line. Holes are filled with their text as
/// it is (their own line breaks are the caller's); a brace before a hole
/// stays a brace (`{{{n}}u}`).
class CodeTemplate {
public:
  /// Code for the line of \p Line; DSL names qualified as at \p Site.
  CodeTemplate(clang::SourceLocation Line, const clang::Stmt *Site, clang::ASTContext &Ctx);

  using Holes = llvm::ArrayRef<std::pair<llvm::StringRef, std::string>>;
  std::string operator()(llvm::StringRef Template, Holes Values = {}) const;

  /// The line ending and indentation each template line break becomes.
  const std::string &lineBreak() const { return Break; }

private:
  const clang::Stmt *Site;
  clang::ASTContext &Ctx;
  std::string Break;
};

/// A rewrite's edits, made in any order and handed to RuleBase as one
/// Diagnosis::Edit: an insertion where a replacement begins or ends is
/// joined to it, since the fix applier takes one edit per range.
class EditList {
public:
  void change(clang::CharSourceRange Range, std::string Text);
  void insert(clang::SourceLocation Loc, std::string Text) {
    change(clang::CharSourceRange::getCharRange(Loc, Loc), std::move(Text));
  }
  /// The joined edits, for Diagnosis::Edit.
  clang::transformer::EditGenerator generator() const;

private:
  std::vector<clang::transformer::Edit> Edits;
};

} // namespace kernel_tidy::rules

#endif // KERNEL_TIDY_RULES_FIXEDITS_H
