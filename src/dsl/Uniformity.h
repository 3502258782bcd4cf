//===--- Uniformity.h - Which threads see the same value ------------------===//
//
// A DSL expression is uniform over the grid (host values, kernel arguments),
// over a block (block_id, shared reads at uniform slots), over a warp (the
// result of a warp collective), or thread-varying (thread_id, lane ids,
// atomic results). Variables take the join of every value stored into them
// and of the control under which the stores run (flow-insensitive, so one
// varying assignment makes a variable varying). A statement is under
// divergent control when an enclosing DSL condition or trip count, or an
// earlier early exit's condition, is not block-uniform.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_SRC_DSL_UNIFORMITY_H
#define KERNEL_TIDY_SRC_DSL_UNIFORMITY_H

#include "src/dsl/BlockSize.h"
#include "src/dsl/ControlFlow.h"
#include "src/dsl/WarpWidth.h"
#include "src/dsl/Writes.h"
#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringRef.h"
#include <vector>

namespace kernel_tidy::dsl {

/// How widely a value is shared, from most to least uniform.
enum class Variance { Grid, Block, Warp, Thread };

/// The less uniform of \p A and \p B.
inline Variance join(Variance A, Variance B) { return A < B ? B : A; }

/// "grid-uniform", "block-uniform", "warp-uniform", "thread-varying".
llvm::StringRef varianceName(Variance V);

/// The uniformity of DSL expressions and the divergence of statements,
/// memoized for one translation unit.
class UniformityAnalysis {
public:
  /// Without \p Blocks and \p Widths, no block shape is known (only a
  /// guard that pins a thread of the block proves one lane per warp).
  UniformityAnalysis(clang::ASTContext &Ctx, WriteAnalysis &Writes, ControlFlowAnalysis &Flow,
                     BlockSizeAnalysis *Blocks = nullptr, WarpWidthAnalysis *Widths = nullptr)
      : Ctx(Ctx), Writes(Writes), Flow(Flow), Blocks(Blocks), Widths(Widths) {}

  /// How uniform the value of \p E is.
  Variance varianceOf(const clang::Expr *E);

  /// How uniform the decision to run \p S is: the join of the conditions
  /// and trip counts of the DSL controls around it (loops also count the
  /// conditions of the exits inside them), of the early exits before it and,
  /// in a helper, lambda or Callable, of the control of every call of it
  /// (their statements run with the threads that make the call).
  Variance controlOf(const clang::Stmt *S);

  /// The calls, anywhere in the translation unit, of the function, lambda or
  /// Callable whose body is \p Body (none for a kernel's body).
  const std::vector<const clang::CallExpr *> &callersOf(const clang::Stmt *Body);

  /// True if some threads of a block may reach \p S while others do not.
  bool isDivergent(const clang::Stmt *S) { return controlOf(S) > Variance::Block; }

  /// The condition (or trip count, or exit) that makes \p S run under
  /// control less uniform than \p Bound, innermost first; nullptr if none.
  const clang::Stmt *divergentCause(const clang::Stmt *S, Variance Bound);

  /// True if \p E is the warp lane id: `warp_lane_id()`, a local
  /// variable initialised from it and never written again, or a member that
  /// holds it (isLaneIdField).
  bool isLaneId(const clang::Expr *E);

  /// True if every object of \p Field's class holds the lane id in it: each
  /// constructor initialises it from `warp_lane_id()` (copies copy it), no
  /// code of the translation unit writes it, and for a class template the
  /// same holds in every specialization (they share the methods' source)
  /// and in the template itself, for the instantiations other translation
  /// units make (unless \p InThisTranslationUnit).
  bool isLaneIdField(const clang::FieldDecl *Field, bool InThisTranslationUnit = false);

  /// A per-thread index along one dimension of the block, times a constant,
  /// plus a warp-uniform offset: `dispatch_x() + prefix`, `2u * t.x` with
  /// `auto t = thread_id();`.
  struct ThreadLine {
    unsigned Dim = 0;    ///< 0, 1, 2: x, y, z.
    uint64_t Stride = 1; ///< Modulo 2^32.
  };
  /// \p E as a ThreadLine, if it is one: thread_x/y/z(), dispatch_x/y/z(), a
  /// component of thread_id() or dispatch_id() (also of a local holding
  /// one), a local initialised from one and never written again, and sums
  /// with warp-uniform values and products with host constants of those.
  std::optional<ThreadLine> threadLineOf(const clang::Expr *E);

  /// True if at most one lane per warp can make \p Cond true:
  /// `warp_is_first_active_lane()`, `lane == X` with X warp-uniform, an
  /// x-index equal to a warp-uniform value or its residue modulo a power of
  /// two at least the warp width (`(dispatch_x() + prefix) % 256u == 0u`)
  /// where each warp lies in one row of the block, a conjunction that pins
  /// one thread of the block (`t.x == 0u & t.y == 0u` in a 2D block), or a
  /// conjunction with such a side.
  bool admitsOneLanePerWarp(const clang::Expr *Cond);

  /// True if \p S runs under a `$if`/`$elif` whose own condition admits at
  /// most one lane per warp.
  bool runsOnOneLanePerWarp(const clang::Stmt *S);

private:
  Variance varianceOfVariable(const clang::VarDecl *Var);
  Variance varianceOfCall(const clang::CallExpr *Call);
  Variance joinOf(llvm::ArrayRef<const clang::Expr *> Exprs);
  Variance conditionsOf(const DslControl &Control);
  Variance priorExitsOf(const clang::Stmt *S);
  bool admitsOneLaneOfARow(const clang::Expr *Equal, const clang::Expr *Side,
                           const clang::Expr *Other);
  bool warpsLieInRows(const clang::Stmt *S);
  void pinnedDimensions(const clang::Expr *Cond, unsigned &Pinned);
  const clang::Decl *functionKey(const clang::Stmt *Body);

  clang::ASTContext &Ctx;
  WriteAnalysis &Writes;
  ControlFlowAnalysis &Flow;
  BlockSizeAnalysis *Blocks;
  WarpWidthAnalysis *Widths;
  llvm::DenseMap<const clang::VarDecl *, Variance> Variables;
  llvm::DenseSet<const clang::VarDecl *> InProgress;
  unsigned Assumptions = 0;                                ///< Cycles broken optimistically so far.
  llvm::DenseMap<const clang::Stmt *, Variance> Controls;  ///< Per statement.
  llvm::DenseMap<const clang::Stmt *, Variance> LoopExits; ///< Per loop body.
  llvm::DenseSet<const clang::Stmt *> BodiesInProgress;    ///< Of controlOf's callers.
  bool CallsIndexed = false;
  llvm::DenseMap<const clang::Decl *, std::vector<const clang::CallExpr *>> Calls;
  const std::vector<const clang::CallExpr *> NoCalls;
  /// Per field: holds the lane id in this translation unit, and also in the template.
  llvm::DenseMap<const clang::FieldDecl *, std::pair<bool, bool>> LaneFields;
};

} // namespace kernel_tidy::dsl

#endif // KERNEL_TIDY_SRC_DSL_UNIFORMITY_H
