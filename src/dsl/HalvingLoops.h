//===--- HalvingLoops.h - Loops whose variable halves ---------------------===//
//
// Block reductions step over strides N/2, N/4, ..., 1: a host `for` over
// constants or a device `$while` that halves a DSL variable, and index a
// Shared array by the thread's index. Both the tree-reduction rule and the
// Shared-memory access model recognise these loops and element accesses.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_SRC_DSL_HALVINGLOOPS_H
#define KERNEL_TIDY_SRC_DSL_HALVINGLOOPS_H

#include "src/dsl/Statements.h"
#include "src/dsl/Writes.h"
#include "clang/AST/ASTContext.h"
#include <optional>
#include <vector>

namespace kernel_tidy::dsl {

/// True if \p E is the thread's index along x in its block: `thread_x()`,
/// `thread_id().x`, or a local initialised from one and never written.
bool isThreadX(const clang::Expr *E, WriteAnalysis &Writes);

/// An element of a Shared array named by a variable, a parameter or a member
/// (also through a pointer: `(*p)[i]`, `p->read(i)`): `s[i]`, `s.read(i)`,
/// `s.write(i, v)` or `s.atomic(i)`.
struct SharedElement {
  const clang::Expr *Access = nullptr; ///< The whole access expression.
  const clang::ValueDecl *Array = nullptr;
  const clang::Expr *Index = nullptr;
  const clang::Expr *Stored = nullptr; ///< For `write`: the value.
};
std::optional<SharedElement> matchSharedElement(const clang::Expr *E);

/// A loop whose variable halves every iteration.
struct HalvingLoop {
  const clang::Stmt *Loop = nullptr; ///< Host `for`, or the `$while` statement.
  const clang::CompoundStmt *Body = nullptr;
  const clang::VarDecl *Var = nullptr;
  bool Device = false;                 ///< A `$while` over a DSL variable.
  const clang::Stmt *Update = nullptr; ///< For Device: the halving statement in Body.
  /// For an endless `$loop`/`$while (true)`: its `$if (V == K) { $break; };`.
  const clang::Stmt *Exit = nullptr;
  std::vector<int64_t> Values; ///< Var's value in each iteration.
  /// For a device loop that halves down to 1 from a start that is not a
  /// constant, `B / 2` or `B >> 1`: B (Values is then empty).
  const clang::Expr *HalfOf = nullptr;
};

/// The loop whose body is \p Body when it is a host loop over constant
/// values, or a device `$while (V > 0u)` (also `V >= 1u`, `V != 0u`, `V > K`)
/// where V is initialised with a host constant and written only by one
/// halving statement of the body (`V >>= 1u`, `V /= 2u`, `V = V / 2u`,
/// `V = V >> 1u`) after every other use of V there, and the body has no
/// `$break`/`$continue`/`$return`; or an endless `$loop`/`$while (true)`
/// whose only exit is `$if (V == K) { $break; };` (K a host constant, 0
/// for a whole tree) first or last in the body, from a start above K. A device loop may also start
/// at half of a run-time value (HalfOf) when nothing runs before its exit test.
std::optional<HalvingLoop> matchHalvingLoop(const clang::CompoundStmt *Body, clang::ASTContext &Ctx,
                                            WriteAnalysis &Writes);

} // namespace kernel_tidy::dsl

#endif // KERNEL_TIDY_SRC_DSL_HALVINGLOOPS_H
