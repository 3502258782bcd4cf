//===--- DslModel.h - What a LuisaCompute DSL construct is ----------------===//
//
// The semantic layer shared by all kernel-tidy rules: it answers questions
// such as "is this the warp lane id?", "what warp width does this kernel
// use?", "is this index the same for every thread?" on Clang's AST, for code
// parsed either with the real LuisaCompute headers or with the bundled model.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_SRC_DSL_DSLMODEL_H
#define KERNEL_TIDY_SRC_DSL_DSLMODEL_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>
#include <vector>

namespace kernel_tidy::dsl {

/// A warp-collective combining operation, as used by reductions and scans.
enum class CombineOp { Sum, Product, Min, Max, BitAnd, BitOr, BitXor };

/// Suffix of the warp_active_* builtin that performs \p Op ("sum", "bit_and").
llvm::StringRef collectiveSuffix(CombineOp Op);

/// Values bound to host (C++) variables while constant-evaluating, e.g. the
/// variable of a host `for` loop in one iteration.
using HostBindings = llvm::DenseMap<const clang::VarDecl *, int64_t>;

/// True if \p D is declared in namespace luisa::compute (any inline or nested
/// `detail`-free namespace below it), e.g. luisa::compute::dsl::warp_read_lane.
bool isInLuisaCompute(const clang::Decl *D);

/// True if \p E (after stripping wrappers) calls the LuisaCompute free
/// function named \p Name.
bool isDslCall(const clang::Expr *E, llvm::StringRef Name);

/// Name of the LuisaCompute free function \p E calls, or "" if it is none.
llvm::StringRef dslCallName(const clang::Expr *E);

/// Strips what the DSL wraps around a value without changing it: implicit
/// casts and temporaries, parentheses, copy/move/converting constructions of
/// Var/Expr, and `def(x)`.
const clang::Expr *stripDslWrappers(const clang::Expr *E);

/// True for Var<T>, Expr<T>, Ref<T> and the other luisa::compute value
/// wrappers, i.e. values that live on the device.
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

/// True if \p A and \p B denote the same variable or member access.
bool isSameVariable(const clang::Expr *A, const clang::Expr *B);

/// The statement that holds \p S; for the body of a lambda, the LambdaExpr.
/// nullptr at the top of a function.
const clang::Stmt *parentStmt(const clang::Stmt *S, clang::ASTContext &Ctx);

/// The function body (lambda or function) that contains \p S, innermost first.
const clang::Stmt *enclosingFunctionBody(const clang::Stmt *S,
                                         clang::ASTContext &Ctx);

/// True if \p Var is assigned, compound-assigned or incremented anywhere in
/// \p Scope after its declaration.
bool isReassigned(const clang::VarDecl *Var, const clang::Stmt *Scope,
                  clang::ASTContext &Ctx);

/// True if the local \p Var is written anywhere in the body of the function
/// or lambda that declares it (nested lambdas included, since they capture
/// it by reference). Memoized in the current ScanCache, if any.
bool isReassignedAfterDeclaration(const clang::VarDecl *Var, clang::ASTContext &Ctx);

/// True if \p E is `warp_lane_id()`, or a variable initialised from it and
/// never reassigned.
bool isWarpLaneId(const clang::Expr *E, clang::ASTContext &Ctx);

/// The set_warp_size calls of one function body: whether there are any, and
/// the width they agree on (none when unknown or conflicting).
struct WarpSizeSetting {
  bool SetsWidth = false;
  std::optional<unsigned> Width;
};

/// Remembers, for one translation unit, the answers of scans over whole
/// function bodies: a check asks about the same lane variable for every
/// warp_read_lane call, which made the scans quadratic in the kernel size.
class ScanCache {
public:
  void clear() {
    Reassigned.clear();
    WarpSizes.clear();
  }

private:
  friend bool isReassignedAfterDeclaration(const clang::VarDecl *, clang::ASTContext &);
  friend std::optional<unsigned> inferWarpSize(const clang::Stmt *, clang::ASTContext &);
  llvm::DenseMap<const clang::VarDecl *, bool> Reassigned;
  llvm::DenseMap<const clang::Stmt *, WarpSizeSetting> WarpSizes;
};

/// Makes \p Cache the one that the queries on this thread use while this
/// object lives (a check installs its own around each match).
class UseScanCache {
public:
  explicit UseScanCache(ScanCache &Cache);
  ~UseScanCache();
  UseScanCache(const UseScanCache &) = delete;
  UseScanCache &operator=(const UseScanCache &) = delete;

private:
  ScanCache *Previous;
};

/// Evaluates a host integer expression; variables in \p Bindings take their
/// bound values. std::nullopt when \p E is not a host constant.
std::optional<int64_t> evaluateHostInt(const clang::Expr *E,
                                       const clang::ASTContext &Ctx,
                                       const HostBindings &Bindings = HostBindings());

/// A host `for` loop over an integer variable with constant bounds.
struct HostLoop {
  const clang::VarDecl *Var = nullptr;
  std::vector<int64_t> Values;
};

/// The values a host `for` loop gives its variable, by simulating it (at most
/// \p MaxIterations); std::nullopt if the loop is not of that shape.
std::optional<HostLoop> evaluateHostLoop(const clang::ForStmt *Loop,
                                         const clang::ASTContext &Ctx,
                                         unsigned MaxIterations = 1024);

/// The constant warp width set by `set_warp_size(N)` in the kernel around
/// \p S; std::nullopt when there is none or N is not a constant.
std::optional<unsigned> inferWarpSize(const clang::Stmt *S,
                                      clang::ASTContext &Ctx);

/// True if \p E has the same value in every thread of a dispatch: host values,
/// kernel arguments, block/dispatch-level builtins, and DSL variables
/// initialised only from such values.
bool isThreadUniform(const clang::Expr *E, clang::ASTContext &Ctx);

/// The body of a DSL block statement `BUILDER % [&]() { ... }` (the shape of
/// `$if`, `$for`, `$loop` bodies); nullptr for other statements.
const clang::CompoundStmt *dslBlockBody(const clang::Stmt *S);

/// A `$if (Cond) { Then };` with no `$elif`/`$else`.
struct DslIf {
  const clang::Expr *Cond = nullptr;
  const clang::CompoundStmt *Then = nullptr;
};
std::optional<DslIf> matchDslIf(const clang::Stmt *S);

/// The statements of a block body; a single statement is its own block.
std::vector<const clang::Stmt *> blockStatements(const clang::Stmt *Body);

/// `V = OP(V, R)`, `V = OP(R, V)` or `V OP= R`: one step of an accumulation.
struct AccumulateStep {
  const clang::Expr *Target = nullptr;  ///< V, the accumulated variable.
  const clang::Expr *Operand = nullptr; ///< R, the value combined into V.
  CombineOp Op = CombineOp::Sum;
};
std::optional<AccumulateStep> matchAccumulateStep(const clang::Stmt *S);

} // namespace kernel_tidy::dsl

#endif // KERNEL_TIDY_SRC_DSL_DSLMODEL_H
