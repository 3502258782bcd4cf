//===--- Statements.h - The shapes of DSL statements ----------------------===//
//
// `$if (c) { ... };`, `$while (c) { ... };`, `$for (i, n) { ... };` are C++
// expressions: a builder combined with lambdas through `%`, `*` and `/`. These
// recognise them (with the real sugar.h or the bundled model, which expands
// alike), and the DSL statements the rules look for inside them.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_SRC_DSL_STATEMENTS_H
#define KERNEL_TIDY_SRC_DSL_STATEMENTS_H

#include "src/dsl/Names.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <cstdint>
#include <optional>
#include <vector>

namespace kernel_tidy::dsl {

/// The body of a DSL block statement `BUILDER % [&]() { ... }` (the shape of
/// `$if`, `$for`, `$loop` bodies); nullptr for other statements.
const clang::CompoundStmt *dslBlockBody(const clang::Stmt *S);

/// A `$if (Cond) { Then };` with no `$elif`/`$else`.
struct DslIf {
  const clang::Expr *Cond = nullptr;
  const clang::CompoundStmt *Then = nullptr;
};
std::optional<DslIf> matchDslIf(const clang::Stmt *S);

/// A DSL control statement around a body.
struct DslControl {
  enum Kind { If, Elif, Else, While, Loop, For, Switch, Case, Default };
  Kind K;
  /// The conditions that decide whether the body runs: for `$if` its
  /// condition, for `$elif`/`$else` every condition of the chain up to it,
  /// for `$while` its condition, for `$for` (and `for (... : dynamic_range)`)
  /// the range arguments, for `$switch`/`$case` the switch value.
  std::vector<const clang::Expr *> Conditions;
  const clang::Stmt *Body = nullptr;      ///< The body the control runs.
  const clang::Stmt *Statement = nullptr; ///< The whole DSL statement.

  bool isLoop() const { return K == While || K == Loop || K == For; }
};

/// The DSL control statement whose body (a lambda body or the body of a
/// device `for`) is \p Body, or std::nullopt.
std::optional<DslControl> controlOfBody(const clang::Stmt *Body, clang::ASTContext &Ctx);

/// The arguments of `dynamic_range(...)` (or `$for`'s
/// `dynamic_range_with_comment`) that \p Loop iterates over; std::nullopt
/// when \p Loop is a host loop.
std::optional<std::vector<const clang::Expr *>>
deviceRangeArguments(const clang::CXXForRangeStmt *Loop);

/// The device range loop (`$for`) whose loop variable is \p Var, or nullptr.
const clang::CXXForRangeStmt *deviceLoopOf(const clang::VarDecl *Var, clang::ASTContext &Ctx);

/// `$return(...)`, `$break`, `$continue`: statements that leave a DSL scope.
enum class DslExit { Return, Break, Continue };
std::optional<DslExit> matchDslExit(const clang::Expr *E);

/// `OP(A, B)` for a commutative combining operation: `A + B`, `A * B`, `A & B`,
/// `A | B`, `A ^ B`, `max(A, B)` or `min(A, B)`.
struct Combination {
  CombineOp Op;
  const clang::Expr *LHS;
  const clang::Expr *RHS;
  /// The helper OP was seen through (matchCombinationThroughHelpers), if any.
  const clang::FunctionDecl *Helper = nullptr;
};
std::optional<Combination> matchCombination(const clang::Expr *E);

/// `V = OP(V, R)`, `V = OP(R, V)` or `V OP= R`: one step of an accumulation.
struct AccumulateStep {
  const clang::Expr *Target = nullptr;  ///< V, the accumulated variable.
  const clang::Expr *Operand = nullptr; ///< R, the value combined into V.
  CombineOp Op = CombineOp::Sum;
};
std::optional<AccumulateStep> matchAccumulateStep(const clang::Stmt *S);

/// The step `Target = C` is when the combination \p C takes \p Target as
/// one of its operands (`V = OP(V, R)` or `V = OP(R, V)`), or std::nullopt.
std::optional<AccumulateStep> accumulationInto(const clang::Expr *Target, const Combination &C);

// Expression shapes the pattern matchers share. Each looks through the DSL's
// wrappers (`Var`/`Expr` construction, `def`, implicit conversions).

/// The variable \p E names, or nullptr.
const clang::VarDecl *variableOf(const clang::Expr *E);

/// Whether \p E names \p Var.
bool isVariable(const clang::Expr *E, const clang::VarDecl *Var);

/// \p E as a call of a binary overloaded operator (`a * b` on DSL values),
/// or nullptr.
const clang::CXXOperatorCallExpr *binaryDslOperator(const clang::Expr *E);

/// Whether \p E is a host constant equal to \p Value.
bool isHostValue(const clang::Expr *E, int64_t Value, const clang::ASTContext &Ctx);

/// Whether \p E doubles a value \p IsBase accepts: `B * 2`, `2 * B`,
/// `B << 1` or `B + B`.
bool isDoubled(const clang::Expr *E, llvm::function_ref<bool(const clang::Expr *)> IsBase,
               const clang::ASTContext &Ctx);

/// Whether \p S contains a `$return`, `$break` or `$continue`.
bool containsDslExit(const clang::Stmt *S);

/// True if a host or DSL loop around \p S repeats it below \p Scope (the
/// block that declares a variable S uses).
bool repeatedWithin(const clang::Stmt *S, const clang::Stmt *Scope, clang::ASTContext &Ctx);

} // namespace kernel_tidy::dsl

#endif // KERNEL_TIDY_SRC_DSL_STATEMENTS_H
