//===--- Ast.h - Navigating the AST of DSL code ---------------------------===//
//
// DSL code nests statements in lambdas (`$if (c) { ... };` is a call with a
// lambda argument), so walking up from a statement crosses lambda bodies:
// these helpers do that walk once, for every analysis and rule.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_SRC_DSL_AST_H
#define KERNEL_TIDY_SRC_DSL_AST_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include <string>
#include <vector>

namespace kernel_tidy::dsl {

/// The statement that holds \p S; for the body of a lambda, the LambdaExpr.
/// nullptr at the top of a function.
const clang::Stmt *parentStmt(const clang::Stmt *S, clang::ASTContext &Ctx);

/// The function body (lambda or function) that contains \p S, innermost first.
const clang::Stmt *enclosingFunctionBody(const clang::Stmt *S, clang::ASTContext &Ctx);

/// True if \p S is in code instantiated from a template (a function
/// template's specialization or a member of a class template's), which every
/// instantiation shares.
bool isInTemplateInstantiation(const clang::Stmt *S, clang::ASTContext &Ctx);

/// The LambdaExpr whose body is \p Body, or nullptr.
const clang::LambdaExpr *lambdaOfBody(const clang::Stmt *Body, clang::ASTContext &Ctx);

/// A full-expression statement and the statement that holds it.
struct EnclosingStatement {
  const clang::Stmt *Statement = nullptr;
  const clang::Stmt *Container = nullptr;
};

/// The statement that is \p S or whose full expression contains it, and its
/// parent.
EnclosingStatement enclosingStatement(const clang::Stmt *S, clang::ASTContext &Ctx);

/// True if the value of \p E is discarded: it is a statement of its own
/// (through temporaries and parentheses) or cast to void.
bool isDiscardedResult(const clang::Expr *E, clang::ASTContext &Ctx);

/// The host loop or `if` whose whole body or branch \p E is (through
/// temporaries and parentheses), written without braces: its value is
/// discarded too, but a statement put before it would land outside.
/// nullptr otherwise.
const clang::Stmt *unbracedBodyOwner(const clang::Expr *E, clang::ASTContext &Ctx);

/// The element path of an atomic reference: \p Reference stripped of the
/// components (`.x`, a struct's member) and subscripts (`[j]`) that select
/// inside a slot, and of the local variables that hold a reference (an
/// AtomicRef cannot be reassigned), down to what the path starts from
/// (normally the `atomic(i)` call).
struct AtomicPath {
  const clang::Expr *Root = nullptr;
  std::vector<const clang::Expr *> Subscripts; ///< Every `[j]`'s index, outermost first.
};
AtomicPath atomicPathOf(const clang::Expr *Reference);

/// The statements of a block body; a single statement is its own block.
std::vector<const clang::Stmt *> blockStatements(const clang::Stmt *Body);

/// The lambda that \p E is, through implicit nodes and parentheses.
const clang::LambdaExpr *asLambda(const clang::Expr *E);

/// The lambda that a variable's initialiser wraps (`Callable f = [](...) {...};`,
/// through conversions and constructions), or nullptr.
const clang::LambdaExpr *lambdaOfInit(const clang::Expr *E);

/// What kind of function a lambda is to the DSL.
enum class LambdaRole {
  Kernel,   ///< Converted to Kernel1D/2D/3D or compiled by a device.
  Callable, ///< Converted to a Callable.
  Other,    ///< A DSL statement body, a helper or plain host code.
};

/// The role of \p Lambda, from the type it initialises or the call it is
/// passed to.
LambdaRole lambdaRole(const clang::LambdaExpr *Lambda, clang::ASTContext &Ctx);

/// The innermost kernel or Callable lambda around \p S (nullptr when S is in
/// a helper function or host code).
const clang::LambdaExpr *enclosingKernel(const clang::Stmt *S, clang::ASTContext &Ctx);

/// The statements that run before \p S in the blocks around it (innermost
/// block first, each block's in source order), stopping below \p Stop (the
/// function body when nullptr).
std::vector<const clang::Stmt *> statementsBefore(const clang::Stmt *S, clang::ASTContext &Ctx,
                                                  const clang::Stmt *Stop = nullptr);

/// A RecursiveASTVisitor over the DSL code of one kernel: it enters the
/// lambdas of DSL statement bodies, not other kernels or Callables.
template <typename Derived> class KernelCodeVisitor : public clang::RecursiveASTVisitor<Derived> {
public:
  explicit KernelCodeVisitor(clang::ASTContext &Ctx) : Ctx(Ctx) {}
  bool shouldVisitLambdaBody() const { return true; }
  bool TraverseLambdaExpr(clang::LambdaExpr *Lambda) {
    if (lambdaRole(Lambda, Ctx) != LambdaRole::Other)
      return true;
    return clang::RecursiveASTVisitor<Derived>::TraverseLambdaExpr(Lambda);
  }

protected:
  clang::ASTContext &Ctx;
};

/// The calls of the DSL builtin \p Name in the code of one kernel or
/// builder body (DSL statement bodies included, other kernels and Callables
/// not: their settings are their own), in source order.
std::vector<const clang::CallExpr *> dslCallsIn(const clang::Stmt *Body, llvm::StringRef Name,
                                                clang::ASTContext &Ctx);

/// The name of what \p Call runs: a function, a lambda or Callable
/// variable ("the callee" when it is none of them).
std::string calleeName(const clang::CallExpr *Call);

/// True if \p S or any expression under it names \p Var.
bool mentionsVariable(const clang::Stmt *S, const clang::VarDecl *Var);

/// The block that declares the local \p Var (nullptr for a parameter or a
/// variable declared otherwise).
const clang::Stmt *declaringBlock(const clang::VarDecl *Var, clang::ASTContext &Ctx);

} // namespace kernel_tidy::dsl

#endif // KERNEL_TIDY_SRC_DSL_AST_H
