//===--- Writes.h - Where DSL and host variables are written --------------===//

#ifndef KERNEL_TIDY_SRC_DSL_WRITES_H
#define KERNEL_TIDY_SRC_DSL_WRITES_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <unordered_map>
#include <vector>

namespace kernel_tidy::dsl {

/// One write to a variable after its declaration.
struct VariableWrite {
  const clang::Expr *Write = nullptr; ///< The assignment, increment, call...
  /// The value stored, for `V = X`, `V OP= X` and `V.m = X` (then the old
  /// value also flows in); nullptr when the value is unknown (++, a
  /// non-const reference or pointer taken).
  const clang::Expr *Value = nullptr;
  bool KeepsOldValue = false; ///< `V OP= X`, `V++`, a member written.
};

/// Finds the writes to local variables, indexing each function body once
/// per translation unit (nested lambdas included: they capture by reference).
class WriteAnalysis {
public:
  explicit WriteAnalysis(clang::ASTContext &Ctx) : Ctx(Ctx) {}

  /// Every write to \p Var in the body of the function or lambda that
  /// declares it (for a parameter, its function's body). Writes elsewhere
  /// (to globals) are not seen: callers treat non-locals as unknown.
  const std::vector<VariableWrite> &writesOf(const clang::VarDecl *Var);

  /// True if \p Var is written anywhere after its declaration.
  bool isWritten(const clang::VarDecl *Var) { return !writesOf(Var).empty(); }

  /// True if a body of the translation unit writes \p Field (constructor
  /// initialisers are not writes), or hands an object of its class by
  /// non-const reference to a function defined elsewhere. The first call
  /// indexes every body of the translation unit, headers included.
  bool isFieldWritten(const clang::FieldDecl *Field);

private:
  void indexBody(const clang::Stmt *Body);

  clang::ASTContext &Ctx;
  llvm::DenseSet<const clang::Stmt *> IndexedBodies;
  // Node-based: references handed out stay valid as the map grows, and a
  // variable's writes are complete once its body is indexed (never appended
  // to later: each body, nested ones included, is indexed once).
  std::unordered_map<const clang::VarDecl *, std::vector<VariableWrite>> Writes;
  const std::vector<VariableWrite> None;
  bool FieldsIndexed = false;
  llvm::DenseSet<const clang::FieldDecl *> WrittenFields;
  llvm::DenseSet<const clang::CXXRecordDecl *> EscapedRecords;
};

/// The variable that an lvalue expression denotes or is a part of (`v`,
/// `v.x`, `s[i]` for an array variable `s`), or nullptr.
const clang::VarDecl *writtenVariable(const clang::Expr *E);

} // namespace kernel_tidy::dsl

#endif // KERNEL_TIDY_SRC_DSL_WRITES_H
