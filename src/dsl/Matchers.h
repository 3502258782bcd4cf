//===--- Matchers.h - ASTMatchers for DSL constructs ----------------------===//
//
// Rules describe the structure they look for declaratively; these matchers
// name the DSL's constructs so that a rule's registerMatchers reads like the
// pattern it finds.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_SRC_DSL_MATCHERS_H
#define KERNEL_TIDY_SRC_DSL_MATCHERS_H

#include "src/dsl/Ast.h"
#include "src/dsl/Names.h"
#include "src/dsl/Statements.h"
#include "clang/ASTMatchers/ASTMatchers.h"

namespace kernel_tidy::dsl::matchers {

/// A declaration in namespace luisa::compute (inline namespaces included).
AST_MATCHER(clang::Decl, isLuisaCompute) { return isInLuisaCompute(&Node); }

/// A call of a LuisaCompute free function with one of the given names.
inline auto dslCall(llvm::ArrayRef<llvm::StringRef> Names) {
  using namespace clang::ast_matchers;
  return callExpr(unless(cxxOperatorCallExpr()), unless(cxxMemberCallExpr()),
                  callee(functionDecl(hasAnyName(Names), isLuisaCompute())));
}

/// A warp builtin call (`warp_active_sum`, `warp_read_lane`, ...).
AST_MATCHER(clang::CallExpr, isWarpBuiltin) { return dslCallName(&Node).starts_with("warp_"); }

/// `sync_block()`.
inline auto syncBlock() { return dslCall({"sync_block"}); }

/// The body of a DSL control statement (`$if`, `$elif`, `$else`, `$while`,
/// `$loop`, `$for`, `$switch`/`$case`/`$default`, or a device `for`).
AST_MATCHER(clang::Stmt, isDslControlBody) {
  return controlOfBody(&Node, Finder->getASTContext()).has_value();
}

/// A `$if (c) { ... }` statement without `$elif`/`$else`.
AST_MATCHER(clang::Expr, isDslIf) {
  return llvm::isa<clang::CXXOperatorCallExpr>(Node) && matchDslIf(&Node).has_value();
}

/// A lambda that becomes a kernel (Kernel1D/2D/3D or `device.compile`).
AST_MATCHER(clang::LambdaExpr, isKernelLambda) {
  return lambdaRole(&Node, Finder->getASTContext()) == LambdaRole::Kernel;
}

/// A lambda that becomes a Callable.
AST_MATCHER(clang::LambdaExpr, isCallableLambda) {
  return lambdaRole(&Node, Finder->getASTContext()) == LambdaRole::Callable;
}

/// An expression whose value is discarded (a statement of its own).
AST_MATCHER(clang::Expr, isDiscardedResult) {
  return dsl::isDiscardedResult(&Node, Finder->getASTContext());
}

/// The whole body of a host loop or `if` branch without braces.
AST_MATCHER(clang::Expr, isUnbracedBody) {
  return unbracedBodyOwner(&Node, Finder->getASTContext()) != nullptr;
}

/// An expression whose type is a Shared<T> array (through pointers).
AST_MATCHER(clang::Expr, hasSharedType) { return !sharedElementType(Node.getType()).isNull(); }

/// An expression whose type is a global buffer handle.
AST_MATCHER(clang::Expr, hasBufferType) { return isBufferType(Node.getType()); }

/// `OBJECT.atomic(i)` on a Shared array or a buffer; binds the atomic call
/// as \p AtomicId.
inline auto atomicReference(std::string AtomicId) {
  using namespace clang::ast_matchers;
  return cxxMemberCallExpr(callee(cxxMethodDecl(hasName("atomic"))),
                           on(ignoringParenImpCasts(expr(anyOf(hasSharedType(), hasBufferType())))))
      .bind(AtomicId);
}

/// An atomic reference whose element path (dsl::atomicPathOf: components,
/// subscripts, local variables holding a reference) starts from what
/// \p Inner matches.
AST_MATCHER_P(clang::Expr, atomicPathFrom, clang::ast_matchers::internal::Matcher<clang::Expr>,
              Inner) {
  const clang::Expr *Root = atomicPathOf(&Node).Root;
  return Root && Inner.matches(*Root, Finder, Builder);
}

/// `OBJECT.atomic(i).fetch_OP(v)` for the given operations, bound as
/// \p FetchId, with the atomic reference bound as \p AtomicId; also on a
/// component or an element of it, `OBJECT.atomic(i)[j].x.fetch_OP(v)`, and
/// through a local variable that holds the reference.
inline auto atomicFetch(llvm::ArrayRef<llvm::StringRef> Operations, std::string FetchId,
                        std::string AtomicId) {
  using namespace clang::ast_matchers;
  return cxxMemberCallExpr(callee(cxxMethodDecl(hasAnyName(Operations))),
                           on(atomicPathFrom(atomicReference(std::move(AtomicId)))))
      .bind(FetchId);
}

/// `s[i]`, `s.read(i)` or `s.write(i, v)` on a Shared array.
inline auto sharedAccess() {
  using namespace clang::ast_matchers;
  return expr(anyOf(cxxOperatorCallExpr(hasOverloadedOperatorName("[]"),
                                        hasArgument(0, ignoringParenImpCasts(hasSharedType()))),
                    cxxMemberCallExpr(callee(cxxMethodDecl(hasAnyName("read", "write"))),
                                      on(ignoringParenImpCasts(hasSharedType())))));
}

} // namespace kernel_tidy::dsl::matchers

#endif // KERNEL_TIDY_SRC_DSL_MATCHERS_H
