//===--- ControlFlow.h - The DSL control around a statement ---------------===//

#ifndef KERNEL_TIDY_SRC_DSL_CONTROLFLOW_H
#define KERNEL_TIDY_SRC_DSL_CONTROLFLOW_H

#include "src/dsl/Statements.h"
#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"
#include <unordered_map>
#include <vector>

namespace kernel_tidy::dsl {

/// The DSL control statements around a statement, up to the body of the
/// kernel, Callable or function that holds it.
struct ControlSummary {
  std::vector<DslControl> Controls;  ///< Innermost first.
  const clang::Stmt *Body = nullptr; ///< The kernel or function body.
  /// The kernel or Callable lambda whose body is Body; nullptr for a helper
  /// function or a plain lambda, whose caller decides the control.
  const clang::LambdaExpr *Kernel = nullptr;
};

/// A DSL statement that leaves a scope, and where it is.
struct ExitSite {
  DslExit Kind;
  const clang::CallExpr *Call;
};

/// Control-flow facts of DSL code: enclosing controls, barriers and early
/// exits. Memoized per body for one translation unit.
class ControlFlowAnalysis {
public:
  explicit ControlFlowAnalysis(clang::ASTContext &Ctx) : Ctx(Ctx) {}

  /// The controls around \p S.
  ControlSummary enclosing(const clang::Stmt *S);

  /// The DSL controls around \p Inner that do not also enclose \p Outer.
  std::vector<DslControl> controlsBetween(const clang::Stmt *Inner, const clang::Stmt *Outer);

  /// The `sync_block()` calls below \p Body in source order (DSL bodies
  /// included, other kernels and Callables excluded).
  const std::vector<const clang::CallExpr *> &barriers(const clang::Stmt *Body);

  /// The `$return`, `$break` and `$continue` statements below \p Body, in
  /// source order (same scope as barriers()).
  const std::vector<ExitSite> &exits(const clang::Stmt *Body);

  /// A `$return` that threads may take before they reach a statement, and
  /// the statement that holds it: the controls between the two decide which
  /// threads take it.
  struct PriorReturn {
    ExitSite Exit;
    const clang::Stmt *Holder;
  };
  /// The `$return`s that may run before \p S in its body: those in the
  /// statements before it and, when \p S is in a C++ loop (unrolled as the
  /// kernel is recorded), every one in that loop, which an earlier trip
  /// recorded before this trip's copy of \p S.
  std::vector<PriorReturn> returnsBefore(const clang::Stmt *S);

  /// An exit that leaves a DSL loop early, with the controls between it and
  /// the loop's body (innermost first): those decide which threads leave.
  struct LoopExit {
    ExitSite Exit;
    std::vector<DslControl> Inside;
  };
  /// The exits below the body of \p Loop that leave it: every `$return`, and
  /// the `$break`s and `$continue`s that no inner loop holds.
  std::vector<LoopExit> exitsLeaving(const DslControl &Loop);

private:
  struct BodyFacts {
    std::vector<const clang::CallExpr *> Barriers;
    std::vector<ExitSite> Exits;
  };
  const BodyFacts &factsOf(const clang::Stmt *Body);

  clang::ASTContext &Ctx;
  // Node-based: references handed out stay valid as the map grows.
  std::unordered_map<const clang::Stmt *, BodyFacts> Facts;
};

/// The statement that holds \p S for ControlFlowAnalysis and Uniformity: an
/// expression in a variable's initialiser is anchored at the DeclStmt.
const clang::Stmt *anchorStatement(const clang::Stmt *S, clang::ASTContext &Ctx);

} // namespace kernel_tidy::dsl

#endif // KERNEL_TIDY_SRC_DSL_CONTROLFLOW_H
