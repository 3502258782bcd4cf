//===--- IntExpr.h - Integer expressions of kernel code as arithmetic -----===//
//
// Three analyses compute with the integers of kernel code: host constants
// (HostEval), the value of an index in one thread of a block (the race
// finder of SharedAccesses, ThreadValues) and the interval of an index over a
// block (IndexRange). They share this view: one walk of an expression that
// sees through temporaries, parentheses and the DSL's wrappers (`Var`/`Expr`
// copies, `def(x)`) and keeps what the arithmetic is made of: constants, the
// DSL's thread, block and lane indices, variables, helper calls, operators
// and conversions. What a variable or a call is worth depends on the
// evaluator (host bindings, call frames, loop iterations, intervals), so
// those stay leaves that each evaluator resolves.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_SRC_DSL_INTEXPR_H
#define KERNEL_TIDY_SRC_DSL_INTEXPR_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/OperationKinds.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Allocator.h"
#include <cstdint>
#include <optional>

namespace kernel_tidy::dsl {

/// One node of the arithmetic view of an expression.
struct IntExpr {
  enum Kind {
    Unknown,  ///< Nothing an evaluator can compute with.
    Constant, ///< A host constant that Clang's evaluator knows: Value.
    Builtin,  ///< A DSL index or size of the calling thread: Which, Axis.
    Variable, ///< A variable (Var, Ref); Value: the constant Clang knows for it.
    Call,     ///< The result of a user helper, lambda or Callable: CallSite.
    Convert,  ///< Operands[0] converted to Type.
    Unary,    ///< UnaryOp on Operands[0], the result converted to Type.
    Binary,   ///< BinaryOp on Operands[0] and [1], the result converted to Type.
    Min,      ///< `min(a, b)` on DSL values, converted to Type.
    Max,      ///< `max(a, b)` on DSL values, converted to Type.
    Select,   ///< Operands[0] ? Operands[1] : Operands[2] (host code).
  };
  /// The DSL's indices and sizes: `thread_x()` and `thread_id().x` are both
  /// ThreadId along axis 0.
  enum Index { ThreadId, BlockId, DispatchId, BlockSize, DispatchSize, LaneId, LaneCount };

  Kind K = Unknown;
  bool Dsl = false;      ///< A device value (built into the kernel), not a host one.
  bool Implicit = false; ///< Convert: an implicit conversion of C++.
  const clang::Expr *Source = nullptr;
  clang::QualType Type;
  std::optional<int64_t> Value;
  Index Which = ThreadId;
  unsigned Axis = 0;
  const clang::VarDecl *Var = nullptr;
  const clang::DeclRefExpr *Ref = nullptr;
  const clang::CallExpr *CallSite = nullptr;
  clang::BinaryOperatorKind BinaryOp = clang::BO_Comma;
  bool UnsignedOperands = false; ///< Binary: host operands of unsigned type.
  clang::UnaryOperatorKind UnaryOp = clang::UO_Plus;
  llvm::SmallVector<const IntExpr *, 2> Operands;
};

/// The views of the expressions of one translation unit, each built once.
class IntExprViews {
public:
  explicit IntExprViews(const clang::ASTContext &Ctx) : Ctx(Ctx) {}
  IntExprViews(const IntExprViews &) = delete;
  IntExprViews &operator=(const IntExprViews &) = delete;

  /// \p E as DSL arithmetic when it is a DSL value, else as host C++.
  const IntExpr *of(const clang::Expr *E);

  /// \p E as host C++ (a DSL value inside it is Unknown).
  const IntExpr *ofHost(const clang::Expr *E);

private:
  IntExpr *add(IntExpr::Kind K, const clang::Expr *Source, bool Dsl);
  const IntExpr *dsl(const clang::Expr *E);
  const IntExpr *host(const clang::Expr *E);
  const IntExpr *builtin(const clang::Expr *Source, llvm::StringRef Name,
                         std::optional<unsigned> Axis);

  const clang::ASTContext &Ctx;
  llvm::SpecificBumpPtrAllocator<IntExpr> Nodes;
  llvm::DenseMap<const clang::Expr *, const IntExpr *> Views, HostViews;
};

/// \p V without the implicit conversions at its top (what
/// `Expr::IgnoreParenImpCasts` leaves of its source).
const IntExpr *withoutImplicitConversions(const IntExpr *V);

// The arithmetic of the evaluators: checked, so that they have no undefined
// behaviour themselves, and without a value where C++ has undefined behaviour.

/// \p Value converted to the integer type \p T as C++ converts: unsigned
/// types wrap; a signed type that cannot hold it means overflow (no value).
/// Values of other types pass unchanged.
std::optional<int64_t> fitToType(int64_t Value, clang::QualType T, const clang::ASTContext &Ctx);

/// \p L \p Op \p R on int64_t; \p Unsigned: the operands' type is unsigned
/// (a left shift of a negative value is then not undefined).
std::optional<int64_t> applyBinary(clang::BinaryOperatorKind Op, int64_t L, int64_t R,
                                   bool Unsigned);

/// \p Op \p V on int64_t (`-`, `+`, `~`, `!`).
std::optional<int64_t> applyUnary(clang::UnaryOperatorKind Op, int64_t V);

} // namespace kernel_tidy::dsl

#endif // KERNEL_TIDY_SRC_DSL_INTEXPR_H
