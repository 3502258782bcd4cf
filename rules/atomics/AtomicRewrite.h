//===--- AtomicRewrite.h - Text pieces of rewritten atomics ---------------===//
//
// The atomic rules (luisa-shared-atomic-counter, luisa-warp-aggregated-atomic,
// luisa-block-privatized-atomic) rewrite `OBJECT.atomic(I).fetch_OP(V)`:
// these build the parts of the new code from what the user wrote, and decide
// which atomics are already done by one thread.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_RULES_ATOMICS_ATOMICREWRITE_H
#define KERNEL_TIDY_RULES_ATOMICS_ATOMICREWRITE_H

#include "rules/RuleBase.h"
#include "src/dsl/Names.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringSet.h"
#include <optional>
#include <string>

namespace kernel_tidy::rules {

/// The warp collective that combines the operands of an atomic fetch_OP.
dsl::CombineOp reductionOf(llvm::StringRef Method);

/// The variable or member that the Shared array or buffer an atomic is taken
/// on names (through `*p`, `p->`, `buffer->`), or nullptr.
const clang::ValueDecl *atomicObjectDecl(const clang::Expr *Object);

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

/// True if the active lanes of every warp that runs \p S form a run from
/// lane 0: a block of one row (x, 1, 1) and control that is the same for
/// every thread of a block.
bool activeLanesAreContiguous(const clang::Stmt *S, dsl::Analyses &A);

/// How safe it is to reduce the \p Element values with \p Collective at
/// \p At before one atomic per warp on \p Backend: reassociated float sums
/// round differently (unsafe), and LuisaCompute's CUDA collectives leave
/// values out when the active lanes have gaps (float and 64-bit values
/// always, 32-bit integers below sm_80): no fix where the run allows CUDA.
FixSafety warpReductionSafety(dsl::CombineOp Op, clang::QualType Element,
                              llvm::StringRef Collective, const clang::Stmt *At, dsl::Analyses &A,
                              dsl::Target Backend);

/// How safe it is to give each lane its offset with LuisaCompute's
/// warp_prefix_sum of per-lane amounts at \p At on \p Backend: its CUDA
/// shuffle scan leaves values out when the active lanes have gaps (no fix
/// where the run allows CUDA); exact otherwise.
FixSafety warpPrefixSumSafety(const clang::Stmt *At, dsl::Analyses &A, dsl::Target Backend);

/// How safe it is for the lanes of a warp to read, after the first active
/// lane's `$if`, the warp base that lane took: only where every target the
/// run allows promises that the warp's lanes run together again after that
/// `$if` (DirectX's wave operations see the lanes of the programmer's
/// control flow), or where the user asserts it (\p AssumeReconvergence, the
/// option AssumeWarpReconvergence). Elsewhere a lane can read a base not yet
/// written and two lanes get one slot: no fix.
FixSafety warpBaseReadSafety(dsl::Target Backend, bool AssumeReconvergence);

/// True if \p E writes DSL memory (an atomic or a write), so evaluating it
/// twice would change the program.
bool hasDeviceSideEffects(const clang::Stmt *E);

/// \p Value as the replacement of the atomic call \p Fetch in its
/// expression: parenthesized unless it stands alone (an initialiser, a call
/// argument, the right-hand side of an assignment), and as `def(...)` for an
/// `auto` variable that is assigned later (it must stay an assignable Var).
std::string inPlaceOf(const clang::Expr *Fetch, std::string Value, clang::ASTContext &Ctx,
                      dsl::WriteAnalysis &Writes);

/// How uniform the slot that \p Fetch updates is: the index of \p Atomic
/// joined with every subscript of the element path between them
/// (`atomic(i)[j].x`).
dsl::Variance slotVariance(const clang::CXXMemberCallExpr *Fetch,
                           const clang::CXXMemberCallExpr *Atomic, dsl::UniformityAnalysis &U);

/// True if \p S runs under a `$if`/`$elif` that admits at most one thread
/// of a row of the block: `thread_x() == X` with X warp-uniform (also
/// `thread_id().x`, `dispatch_x()`, a local variable initialised from one
/// and never written again), or a conjunction with such a side.
bool runsOnOneThread(const clang::Stmt *S, dsl::Analyses &A);

/// True if a per-lane amount of a slot allocation can be counted with
/// ballots: \p Operand is warp-uniform and the counter a 32-bit integer.
bool isBallotCountable(const clang::Expr *Operand, clang::QualType Element,
                       dsl::UniformityAnalysis &U, clang::ASTContext &Ctx);

/// A slot allocation done once per warp: statements to put before the use
/// and the expression that gives each lane its slot.
struct WarpSlotCode {
  std::string Preamble; ///< The statements, each followed by the line break.
  std::string Slot;     ///< The lane's slot, not parenthesized.
};

/// The warp-aggregated form of the slot allocation \p Fetch (fetch_add or
/// fetch_sub of \p Operand on \p Element values): the warp's total and
/// the lanes' offsets, a `warp_base` taken by the first active lane with
/// the atomic that \p AtomicWith makes from the total's name, and the slot
/// `warp_read_first_active_lane(base) +/- offset` (minus when \p CountDown).
/// Names are fresh in \p Fetch's function (dsl::freshName);
/// std::nullopt when the operand or the atomic is not spelled in the file.
std::optional<WarpSlotCode>
warpSlotCode(const clang::CallExpr *Fetch, const clang::Expr *Operand, clang::QualType Element,
             bool BallotCounts, bool CountDown,
             llvm::function_ref<std::string(llvm::StringRef Total)> AtomicWith,
             llvm::StringRef Break, clang::ASTContext &Ctx);

/// `auto PARTIAL = COLLECTIVE(OPERAND);` and
/// `$if (warp_is_first_active_lane()) { ATOMIC; };` on two lines (joined by
/// \p Break): a per-thread atomic reduced first and done by one lane per warp.
std::string warpReducedAtomicCode(llvm::StringRef Collective, llvm::StringRef Partial,
                                  const clang::Expr *Operand, llvm::StringRef OperandText,
                                  llvm::StringRef NewAtomic, llvm::StringRef Break,
                                  const clang::Stmt *At, clang::ASTContext &Ctx);

/// Gives \p D the fix of a discarded atomic \p Fetch (bound as "fetch") on
/// a slot every lane shares: the warp's \p Operand values reduced with
/// \p Op's collective, then one atomic by the first active lane (two
/// statements in place of the atomic's; in braces when the atomic is the
/// unbraced body of a host loop or `if`), and the fix's safety, or the
/// reason there is none. \p HasSugar: `$if` is defined.
void warpReducedAtomicFix(Diagnosis &D, const clang::CXXMemberCallExpr *Fetch,
                          const clang::Expr *Operand, dsl::CombineOp Op, bool HasSugar,
                          dsl::Analyses &A, dsl::Target Backend, clang::ASTContext &Ctx);

} // namespace kernel_tidy::rules

#endif // KERNEL_TIDY_RULES_ATOMICS_ATOMICREWRITE_H
