//===--- Naming.h - Names that generated code can use ---------------------===//

#ifndef KERNEL_TIDY_SRC_DSL_NAMING_H
#define KERNEL_TIDY_SRC_DSL_NAMING_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include <string>

namespace kernel_tidy::dsl {

/// The qualifier that code inserted at \p At must write before the
/// luisa::compute function \p Name so that the call resolves: "" when an
/// unqualified call finds it (a `using namespace luisa::compute` or a
/// using-declaration of the name in scope before \p At, code inside
/// namespace luisa::compute, or, with \p HasDslArgument, argument-dependent
/// lookup through a DSL-typed argument), else "luisa::compute::".
std::string dslQualifier(llvm::StringRef Name, const clang::Stmt *At, clang::ASTContext &Ctx,
                         bool HasDslArgument);

/// A name based on \p Base that no declaration or reference in the
/// outermost function around \p Site uses and that no other fix of this
/// translation unit took there, whichever rule made it (their fixes land in
/// the same text: two rules declaring `warp_sum` in one scope would clash).
std::string freshName(llvm::StringRef Base, const clang::Stmt *Site, clang::ASTContext &Ctx);

/// Forgets the names fixes took: called when a translation unit starts and
/// ends (the names are kept per thread, which checks one unit at a time).
void forgetNamesTakenByFixes();

} // namespace kernel_tidy::dsl

#endif // KERNEL_TIDY_SRC_DSL_NAMING_H
