//===--- Names.h - DSL names, value types and sugar macros ----------------===//
//
// What a name or a type means in LuisaCompute, for code parsed with the real
// headers or with the bundled model: which functions are DSL builtins, which
// types hold device values, which macros are the DSL's statement sugar.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_SRC_DSL_NAMES_H
#define KERNEL_TIDY_SRC_DSL_NAMES_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace kernel_tidy::dsl {

/// A warp-collective combining operation, as used by reductions and scans.
enum class CombineOp { Sum, Product, Min, Max, BitAnd, BitOr, BitXor };

/// Suffix of the warp_active_* builtin that performs \p Op ("sum", "bit_and").
llvm::StringRef collectiveSuffix(CombineOp Op);

/// True for thread_x/y/z() and dispatch_x/y/z(): a component of the calling
/// thread's own index in the block or the dispatch.
bool isThreadIndexComponent(llvm::StringRef Name);

/// True for thread_id() and dispatch_id(): the calling thread's own index.
bool isThreadIndexVector(llvm::StringRef Name);

/// The warp_active_* builtin that performs \p Op ("warp_active_sum").
std::string collectiveName(CombineOp Op);

/// True if \p D is declared in namespace luisa::compute (through inline
/// namespaces and records below it), e.g. luisa::compute::dsl::warp_read_lane.
bool isInLuisaCompute(const clang::Decl *D);

/// True if \p D is declared anywhere below namespace luisa::compute, its
/// `detail` namespaces included: part of the DSL's library, not user code.
bool isInLuisaComputeLibrary(const clang::Decl *D);

/// True for functions of the DSL's library (namespace luisa), the standard
/// library and system headers. The analyses never look into their bodies,
/// so a shared header parse may skip the bodies of those that are not
/// templates (SharedHeaderParse).
bool isLibraryFunction(const clang::FunctionDecl *FD, const clang::SourceManager &SM);

/// Name of the LuisaCompute free function \p E calls, or "" if it is none.
llvm::StringRef dslCallName(const clang::Expr *E);

/// Strips what the DSL wraps around a value without changing it: implicit
/// casts and temporaries, parentheses, copy/move/converting constructions of
/// Var/Expr, `Ref<T>::operator Expr<T>()` and `def(x)`.
const clang::Expr *stripDslWrappers(const clang::Expr *E);

/// True if \p E (after stripping wrappers) calls the LuisaCompute free
/// function named \p Name.
bool isDslCall(const clang::Expr *E, llvm::StringRef Name);

/// The call \p E makes to the LuisaCompute function \p Name (after stripping
/// wrappers), or nullptr.
const clang::CallExpr *asDslCall(const clang::Expr *E, llvm::StringRef Name);

/// True for Var<T>, Expr<T>, Ref<T> and types derived from them: values that
/// live on the device.
bool isDslValueType(clang::QualType T);

/// The element type T of a DSL value wrapper (Var<T>, Expr<T>...); the type
/// itself for host types.
clang::QualType dslValueType(clang::QualType T);

/// True if values of \p T (a host or DSL type; scalars, vectors, matrices) are
/// floating point, so that reassociating a sum or product changes rounding.
bool isFloatingValue(clang::QualType T);

/// The element type of a luisa::compute::Shared<T> (through pointers and
/// references); a null type when \p T is not a Shared array.
clang::QualType sharedElementType(clang::QualType T);

/// True if \p T is a global buffer of the DSL (BufferVar<T> and its aliases
/// such as BufferFloat, or a Buffer<T>/BufferView<T> captured by the kernel).
bool isBufferType(clang::QualType T);

/// True if \p A and \p B denote the same variable or member access.
bool isSameVariable(const clang::Expr *A, const clang::Expr *B);

/// True for the DSL sugar macros that begin a statement whose body the user
/// writes after the macro: `$if`, `$elif`, `$else`, `$for`, `$while`, `$loop`,
/// `$switch`, `$case`, `$default`.
bool isStatementSugarMacro(llvm::StringRef Name);

/// True if \p Loc lies in the expansion of one of the statement sugar macros.
bool isInStatementSugar(clang::SourceLocation Loc, const clang::SourceManager &SM,
                        const clang::LangOptions &LangOpts);

} // namespace kernel_tidy::dsl

#endif // KERNEL_TIDY_SRC_DSL_NAMES_H
