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
#include "llvm/Support/Error.h"
#include <string>

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
llvm::Expected<clang::FixItHint> safeReplacement(clang::CharSourceRange Range,
                                                 llvm::StringRef Text,
                                                 const clang::ASTContext &Ctx);

/// The source text of \p Range as the user wrote it ("" inside macros).
std::string sourceText(clang::SourceRange Range, const clang::ASTContext &Ctx);

/// The whitespace that starts the line of \p Loc.
std::string lineIndentation(clang::SourceLocation Loc, const clang::SourceManager &SM);

/// The line ending used at \p Loc ("\r\n" for CRLF files, else "\n").
std::string lineEnding(clang::SourceLocation Loc, const clang::SourceManager &SM);

/// The qualifier written before a call's callee ("luisa::compute::" or "").
std::string calleeQualifier(const clang::Expr *Call, const clang::ASTContext &Ctx);

} // namespace kernel_tidy::rules

#endif // KERNEL_TIDY_RULES_FIXEDITS_H
