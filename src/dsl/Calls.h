//===--- Calls.h - What a call of user code runs --------------------------===//
//
// Kernels call small helpers of their own (`reduce_op(a, b)`, lambdas,
// Callables): rules see through them to the operation they perform, and ask
// what every caller passes for a parameter. The DSL's, the standard
// library's and system code is opaque.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_SRC_DSL_CALLS_H
#define KERNEL_TIDY_SRC_DSL_CALLS_H

#include "src/dsl/Statements.h"
#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>
#include <vector>

namespace kernel_tidy::dsl {

/// The function a call runs and the arguments it passes to the function's
/// parameters (appended to \p Args): the callee of a plain or member call,
/// the `operator()` of a lambda object, or the lambda of a Callable variable;
/// nullptr for the DSL's, the standard library's and system code.
const clang::FunctionDecl *calledFunction(const clang::CallExpr *Call,
                                          llvm::SmallVectorImpl<const clang::Expr *> &Args);

/// matchCombination, also through a call of a helper whose body is only
/// `return OP(a, b);` over its two parameters: a function, a method, a lambda
/// or a Callable (`reduce_op(x, y)` is then `OP(x, y)`). The helper may first
/// copy its parameters into locals, and OP may itself be such a helper's call
/// (two helpers deep: a functor that swaps its operands for another).
std::optional<Combination> matchCombinationThroughHelpers(const clang::Expr *E,
                                                          clang::ASTContext &Ctx);

/// matchAccumulateStep, with the combination seen through helpers.
std::optional<AccumulateStep> matchAccumulateThroughHelpers(const clang::Stmt *S,
                                                            clang::ASTContext &Ctx);

/// The call sites of functions, methods, lambdas and Callables in one
/// translation unit, indexed on first use, to see what callers pass.
class CallSiteIndex {
public:
  explicit CallSiteIndex(clang::ASTContext &Ctx) : Ctx(Ctx) {}
  /// The argument passed for \p Param at every call of its function in the
  /// translation unit (for templates, of any instantiation); std::nullopt
  /// when a call cannot be matched to its arguments (a call through a
  /// pointer, or the function's address taken).
  std::optional<std::vector<const clang::Expr *>> argumentsFor(const clang::ParmVarDecl *Param);
  /// The name under which callers call the function that declares \p Param.
  std::string calleeName(const clang::ParmVarDecl *Param);

private:
  void build();
  /// The function or Callable variable that calls of \p Param's function name.
  const clang::Decl *keyOf(const clang::ParmVarDecl *Param);
  struct Call {
    const clang::CallExpr *E;
    unsigned FirstArg; ///< Index of the argument for the first parameter.
  };
  clang::ASTContext &Ctx;
  bool Built = false;
  llvm::DenseMap<const clang::Decl *, std::vector<Call>> Calls;
  llvm::DenseSet<const clang::Decl *> Escaped; ///< Referenced other than by a call.
};

} // namespace kernel_tidy::dsl

#endif // KERNEL_TIDY_SRC_DSL_CALLS_H
