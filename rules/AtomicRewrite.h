//===--- AtomicRewrite.h - Text pieces of rewritten atomics ---------------===//
//
// The atomic rules (luisa-shared-atomic-counter, luisa-warp-aggregated-atomic)
// rewrite `OBJECT.atomic(I).fetch_OP(V)`: these build the parts of the new
// code from what the user wrote.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_RULES_ATOMICREWRITE_H
#define KERNEL_TIDY_RULES_ATOMICREWRITE_H

#include "rules/RuleBase.h"
#include "src/dsl/Names.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include <string>

namespace kernel_tidy::rules {

/// The warp collective that combines the operands of an atomic fetch_OP.
dsl::CombineOp reductionOf(llvm::StringRef Method);

/// The declared name of the Shared array or buffer an atomic is taken on
/// (through `*p`, `p->`), or "" when it is not a variable or member.
std::string atomicObjectName(const clang::Expr *Object);

/// The operand as written, converted to the element type when it is a host
/// value of another type (the DSL does not convert `1` to a uint atomic).
std::string atomicOperandText(const clang::Expr *Operand, clang::QualType Element,
                              clang::ASTContext &Ctx);

/// The text of \p Call with its only argument replaced by \p NewArgument
/// ("" when the call is not spelled in the file).
std::string withArgumentReplaced(const clang::CallExpr *Call, llvm::StringRef NewArgument,
                                 clang::ASTContext &Ctx);

/// How safe it is to reduce the \p Element values with \p Collective before
/// one atomic per warp: reassociated float sums round differently, and
/// LuisaCompute's CUDA collectives of float and 64-bit values lose values
/// when the active lanes have gaps.
FixSafety warpReductionSafety(dsl::CombineOp Op, clang::QualType Element,
                              llvm::StringRef Collective, clang::ASTContext &Ctx);

} // namespace kernel_tidy::rules

#endif // KERNEL_TIDY_RULES_ATOMICREWRITE_H
