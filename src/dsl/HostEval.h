//===--- HostEval.h - Constant evaluation of host (C++) code --------------===//
//
// A kernel is built by running C++ on the host, so host values such as the
// variable of a `for` loop around DSL statements are constants of the kernel.
// These evaluate them as C++ would: in the expression's type, with unsigned
// wrap-around, and without a value where C++ has undefined behaviour, on the
// host view of the expression (IntExpr).
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_SRC_DSL_HOSTEVAL_H
#define KERNEL_TIDY_SRC_DSL_HOSTEVAL_H

#include "src/dsl/IntExpr.h"
#include "src/dsl/Writes.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include <cstdint>
#include <optional>
#include <vector>

namespace kernel_tidy::dsl {

/// Values bound to host variables while evaluating, e.g. the variable of a
/// host `for` loop in one iteration.
using HostBindings = llvm::DenseMap<const clang::VarDecl *, int64_t>;

/// Evaluates the host view \p V (IntExpr) as C++ does; variables in
/// \p Bindings take their bound values. A DSL value has none.
std::optional<int64_t> evaluateHost(const IntExpr *V, const clang::ASTContext &Ctx,
                                    const HostBindings &Bindings = HostBindings());

/// Evaluates a host integer expression; variables in \p Bindings take their
/// bound values. std::nullopt when \p E is not a host constant, when a value
/// does not fit in int64_t, or when C++ leaves the result undefined (signed
/// overflow, division by zero, oversized shifts).
std::optional<int64_t> evaluateHostInt(const clang::Expr *E, const clang::ASTContext &Ctx,
                                       const HostBindings &Bindings = HostBindings());

/// Bindings for the host locals that \p E names which are declared with a
/// host-constant initialiser and never written (`auto block_size = 1024;`):
/// constants of the kernel that C++ does not call constant expressions.
HostBindings constantLocals(const clang::Expr *E, const clang::ASTContext &Ctx,
                            WriteAnalysis &Writes);
/// The same, with the initialisers' views kept in \p Views.
HostBindings constantLocals(const clang::Expr *E, const clang::ASTContext &Ctx,
                            WriteAnalysis &Writes, IntExprViews &Views);

/// A host loop over an integer variable with constant values.
struct HostLoop {
  const clang::VarDecl *Var = nullptr;
  std::vector<int64_t> Values; ///< The variable's value in each iteration.
};

/// The values a host loop gives its variable: a counting `for` (simulated,
/// at most \p MaxIterations) or a range `for` over a braced list or a
/// constant array. std::nullopt for loops of other shapes.
std::optional<HostLoop> evaluateHostLoop(const clang::Stmt *Loop, const clang::ASTContext &Ctx,
                                         unsigned MaxIterations = 1024);

} // namespace kernel_tidy::dsl

#endif // KERNEL_TIDY_SRC_DSL_HOSTEVAL_H
