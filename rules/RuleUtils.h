//===--- RuleUtils.h - Helpers shared by kernel-tidy rules ----------------===//

#ifndef KERNEL_TIDY_RULES_RULEUTILS_H
#define KERNEL_TIDY_RULES_RULEUTILS_H

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseSet.h"
#include <optional>
#include <string>

namespace kernel_tidy::rules {

/// A full-expression statement and the statement that holds it.
struct EnclosingStatement {
  const clang::Stmt *Statement = nullptr;
  const clang::Stmt *Container = nullptr;
};

/// The statement whose full expression contains \p E, and its parent.
EnclosingStatement enclosingStatement(const clang::Expr *E,
                                      clang::ASTContext &Ctx);

/// The source text of \p Range as the user wrote it ("" inside macros).
std::string sourceText(clang::SourceRange Range, const clang::ASTContext &Ctx);

/// The file range from the first character of \p First to the end of
/// \p Last, extended over the `;` that follows it when there is one.
/// std::nullopt when the range cannot be edited in the user's file: a part of
/// it comes from a user macro, or it spans files. DSL sugar macros that begin
/// a statement (`$for`, `$if`) are allowed at the start.
std::optional<clang::CharSourceRange>
editableStatementRange(const clang::Stmt *First, const clang::Stmt *Last,
                       const clang::ASTContext &Ctx);

/// The whitespace that starts the line of \p Loc.
std::string lineIndentation(clang::SourceLocation Loc,
                            const clang::SourceManager &SM);

/// The line ending used at \p Loc ("\r\n" for CRLF files, else "\n").
std::string lineEnding(clang::SourceLocation Loc,
                       const clang::SourceManager &SM);

/// The location to report a finding at: the user's spelling of \p Loc.
clang::SourceLocation reportLocation(clang::SourceLocation Loc,
                                     const clang::SourceManager &SM);

/// The qualifier written before a call's callee ("luisa::compute::" or "").
std::string calleeQualifier(const clang::Expr *Call,
                            const clang::ASTContext &Ctx);

/// Remembers reported sites so that a pattern in a template is reported once,
/// however many times the template is instantiated.
class ReportedSites {
public:
  /// True the first time \p Loc is seen.
  bool insert(clang::SourceLocation Loc) {
    return Seen.insert(Loc.getRawEncoding()).second;
  }
  void clear() { Seen.clear(); }

private:
  llvm::DenseSet<clang::SourceLocation::UIntTy> Seen;
};

} // namespace kernel_tidy::rules

#endif // KERNEL_TIDY_RULES_RULEUTILS_H
