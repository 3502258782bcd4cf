//===--- BlockPrivatization.h - Where a block-privatized atomic goes -----===//
//
// A global atomic that every thread of a block does on one block-uniform slot
// can become one Shared slot per block and one global atomic per block. This
// decides whether that rewrite applies to an atomic and where its parts go;
// AtomicPlan asks it first, BlockPrivatizedAtomicCheck writes the rewrite.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_RULES_ATOMICS_BLOCKPRIVATIZATION_H
#define KERNEL_TIDY_RULES_ATOMICS_BLOCKPRIVATIZATION_H

#include "src/dsl/Analyses.h"
#include "src/dsl/Statements.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Preprocessor.h"
#include <array>
#include <optional>
#include <string>
#include <vector>

namespace kernel_tidy::rules {

/// Where the privatized form goes: the atomic, the kernel statement around
/// it (the barriers go before and after it), and for a used old value the
/// statements that move behind the barriers.
struct PrivatizationPlan {
  const clang::CXXMemberCallExpr *Fetch = nullptr;
  const clang::CXXMemberCallExpr *Atomic = nullptr;
  const clang::Expr *Operand = nullptr;
  clang::QualType Element;
  llvm::StringRef Method;
  bool Used = false;
  const clang::Stmt *Top = nullptr; ///< The statement of the kernel body that holds the atomic.
  /// Used old value: the statement that holds the atomic (it and the rest of
  /// its block run behind the barriers), and the `$if (pred)` it is in (when
  /// Top is that `$if`).
  const clang::Stmt *Statement = nullptr;
  std::optional<dsl::DslIf> Guard;
  std::vector<const clang::DeclStmt *> Hoisted; ///< Declarations the moved statements use.
  std::array<unsigned, 3> Shape{0, 0, 0};
};

/// The block-uniform decision and the placement of the rewrite for the
/// atomic \p Fetch (`OBJECT.atomic(I).fetch_OP(V)` on a buffer), or
/// std::nullopt where it does not apply (then the warp-level rules decide).
std::optional<PrivatizationPlan> planPrivatization(const clang::CXXMemberCallExpr *Fetch,
                                                   clang::ASTContext &Ctx, dsl::Analyses &A,
                                                   clang::Preprocessor *PP);

/// The text of the condition of a `$if` (a macro argument), or "".
std::string conditionText(const clang::Expr *Cond, clang::ASTContext &Ctx);

} // namespace kernel_tidy::rules

#endif // KERNEL_TIDY_RULES_ATOMICS_BLOCKPRIVATIZATION_H
