//===--- Divergence.h - Why only some threads reach a statement -----------===//
//
// UniformityAnalysis says *whether* a value or a statement's control differs
// between threads; this unit says *why*, with the source code to point at:
// the thread-dependent value that flows into a condition, and the condition,
// exit or helper call that lets some threads of a block reach a statement
// while others do not. C++ helpers, lambdas and Callables called while a
// kernel is built run their DSL statements at the call site, so the control
// around a call counts for the statements inside the callee.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_SRC_DSL_DIVERGENCE_H
#define KERNEL_TIDY_SRC_DSL_DIVERGENCE_H

#include "src/dsl/ControlFlow.h"
#include "src/dsl/Uniformity.h"
#include "src/dsl/Writes.h"
#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <optional>
#include <vector>

namespace kernel_tidy::dsl {

/// The value that makes an expression differ between threads.
struct VaryingSource {
  enum Kind {
    Builtin,   ///< A thread, lane or dispatch id, or a warp collective.
    Atomic,    ///< The old value returned by an atomic operation.
    Parameter, ///< A helper or Callable parameter: its callers decide.
    UserCall,  ///< The result of a user function or Callable.
    Unknown,   ///< Something the analysis cannot name.
  };
  Kind K = Unknown;
  const clang::Expr *Leaf = nullptr;       ///< Where the value is produced.
  const clang::VarDecl *Through = nullptr; ///< The local it reaches the expression by.

  /// True if the value provably differs between threads (not only maybe).
  bool isDefinite() const { return K == Builtin || K == Atomic; }
};

/// Why some threads of a block may reach a statement while others do not.
struct DivergenceWitness {
  const clang::Expr *Condition = nullptr;        ///< The condition or trip count.
  const clang::Stmt *Control = nullptr;          ///< The DSL statement it decides.
  DslControl::Kind ControlKind = DslControl::If; ///< What Control is.
  const clang::CallExpr *Exit = nullptr;         ///< The `$return`/`$break`/`$continue` taken.
  VaryingSource Source;                          ///< What makes Condition vary.
  /// The helper, lambda or Callable calls from the kernel down to the
  /// statement's function, outermost first.
  std::vector<const clang::CallExpr *> Calls;
};

/// Explains divergence: sources of variance and witnesses of divergent
/// control, following calls of helpers, lambdas and Callables.
class DivergenceAnalysis {
public:
  DivergenceAnalysis(clang::ASTContext &Ctx, UniformityAnalysis &Uniformity,
                     ControlFlowAnalysis &Flow, WriteAnalysis &Writes)
      : Ctx(Ctx), Uniformity(Uniformity), Flow(Flow), Writes(Writes) {}

  /// The first value that makes \p E less uniform than \p Bound; std::nullopt
  /// when \p E is at most \p Bound.
  std::optional<VaryingSource> sourceOf(const clang::Expr *E, Variance Bound = Variance::Block);

  /// A witness that \p S runs under control that is not block-uniform
  /// because of a definite source; std::nullopt when there is none (also
  /// when the divergence rests only on unknown calls or on parameters that
  /// no caller passes a thread-dependent value to).
  std::optional<DivergenceWitness> witnessFor(const clang::Stmt *S);

  /// The calls, anywhere in the translation unit, of the function, lambda or
  /// Callable whose body is \p Body.
  const std::vector<const clang::CallExpr *> &callersOf(const clang::Stmt *Body);

private:
  std::optional<VaryingSource> sourceIn(const clang::Expr *E, Variance Bound,
                                        llvm::SmallPtrSetImpl<const clang::VarDecl *> &Seen);
  std::optional<DivergenceWitness> witnessIn(const clang::Stmt *S, unsigned Depth,
                                             llvm::SmallPtrSetImpl<const clang::Stmt *> &Bodies);
  /// A witness for one condition of a control in \p Body, mapping helper
  /// parameters to the arguments of \p Body's callers.
  std::optional<DivergenceWitness> witnessOfCondition(const clang::Expr *Cond,
                                                      const clang::Stmt *Body);

  clang::ASTContext &Ctx;
  UniformityAnalysis &Uniformity;
  ControlFlowAnalysis &Flow;
  WriteAnalysis &Writes;
};

} // namespace kernel_tidy::dsl

#endif // KERNEL_TIDY_SRC_DSL_DIVERGENCE_H
