//===--- LaneShifts.h - Warp loops that read lanes at shifting offsets ----===//
//
// Software warp reductions and scans read a partner lane at `lane + offset`,
// `lane - offset` or `lane ^ offset` for offset = 1, 2, 4, ...: a host loop
// over constant offsets, or a device `$while (offset < warp_lane_count())`
// that doubles the offset. These recognise such loops, one step at a time
// (read, optional guard, combine), and see through the small helpers people
// write for the combining operation (`reduce_op(a, b)`).
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_RULES_WARP_LANESHIFTS_H
#define KERNEL_TIDY_RULES_WARP_LANESHIFTS_H

#include "src/dsl/Calls.h"
#include "src/dsl/Statements.h"
#include "src/dsl/Writes.h"
#include "clang/AST/ASTContext.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include <optional>
#include <vector>

namespace kernel_tidy::dsl {

/// How a step names its partner lane.
enum class LaneShift {
  Down, ///< `lane + offset` (shuffle-down reduction).
  Up,   ///< `lane - offset` (lane-shift scan).
  Xor,  ///< `lane ^ offset` (butterfly).
};

/// `Lane + Offset` (either order), `Lane - Offset` or `Lane ^ Offset` (either
/// order), with Offset a variable; whether Lane is a lane id is the caller's.
struct LaneOffsetIndex {
  LaneShift Shift;
  const clang::Expr *Lane = nullptr;
  const clang::VarDecl *Offset = nullptr;
};
std::optional<LaneOffsetIndex> matchLaneOffsetIndex(const clang::Expr *Index);

/// True if \p E has the shape of \p Index: the same operator, lane variable
/// and offset variable.
bool isSameLaneOffset(const clang::Expr *E, const LaneOffsetIndex &Index);

/// The offsets a loop gives its variable, one per iteration.
struct OffsetLoop {
  const clang::Stmt *Loop = nullptr;         ///< Host `for`, or the `$while` statement.
  const clang::CompoundStmt *Body = nullptr; ///< The loop's body.
  const clang::VarDecl *Var = nullptr;
  bool Device = false;                 ///< A `$while` that doubles Var at the end of its body.
  const clang::Stmt *Update = nullptr; ///< For Device: that doubling statement.
  /// Device `$while (Var < warp_lane_count())`: 1, 2, ... up to half the warp.
  bool UpToLaneCount = false;
  std::vector<int64_t> Values; ///< Otherwise: Var's value in each iteration.
};

/// The loop whose body is \p Body when it is a host loop over \p Var with
/// constant values, or a device `$while (Var < BOUND)` (BOUND:
/// `warp_lane_count()`, a local initialised from it and never written, or a
/// host constant) where Var starts at 1, is written
/// only by a doubling statement at the end of the body (`Var <<= 1u`,
/// `Var *= 2u`, `Var = Var * 2u`, `Var += Var`...), and the loop has no exits.
std::optional<OffsetLoop> matchOffsetLoop(const clang::CompoundStmt *Body,
                                          const clang::VarDecl *Var, clang::ASTContext &Ctx,
                                          WriteAnalysis &Writes);

/// A read of a partner lane: `warp_read_lane(V, INDEX)` itself, or a call of
/// a shuffle helper that returns one (`ShuffleDown(v, lane, offset)`), with V
/// and INDEX in the caller's terms. A helper is a function or lambda over its
/// parameters whose body is `return warp_read_lane(P, LANE OP OFFSET);`, or
/// reads it into a local (through a local index at most) and returns that,
/// after replacing it by P where the partner is out of range: below FIRST for
/// a shift up (`$if (LANE - OFFSET < FIRST)`, FIRST 0 at the call) or past
/// LAST for a shift down (`$if (LANE + OFFSET > LAST)`, LAST a host constant
/// at the call, or a run-time value: RuntimeLast). Other helpers, and
/// Callables, are not seen through.
struct LaneRead {
  const clang::CallExpr *Call = nullptr;       ///< warp_read_lane, or the helper call.
  const clang::Expr *Value = nullptr;          ///< V, in the caller.
  LaneOffsetIndex Index;                       ///< In the caller's terms.
  const clang::FunctionDecl *Helper = nullptr; ///< nullptr for warp_read_lane.
  const clang::CallExpr *WarpRead = nullptr;   ///< The warp_read_lane (Call, or in Helper).
  std::string HelperName;                      ///< As the call spells it (a lambda's variable).
  /// A shift-down helper returns the lane's own value for partners past this lane.
  std::optional<int64_t> LastPartner;
  /// A shift-down helper's clamp on a bound the caller passes at run time
  /// (`$if (LANE + OFFSET > LAST)`, LAST an argument that is no host constant).
  struct RuntimeClamp {
    const clang::Expr *Bound = nullptr; ///< LAST, in the caller.
    bool AtBound = false;               ///< `>= LAST`: the partner at LAST too.
  };
  std::optional<RuntimeClamp> RuntimeLast;
};
std::optional<LaneRead> matchLaneRead(const clang::CallExpr *Call, clang::ASTContext &Ctx);

/// One step of a lane-shift loop: `T t = READ;` then `V = OP(V, t)`, or
/// `V = OP(V, READ)` directly, either optionally inside `$if (GUARD) { ... };`,
/// READ a LaneRead of V.
struct LaneShiftStep {
  LaneRead Read;
  const clang::Expr *Target = nullptr; ///< V, read and accumulated.
  CombineOp Op = CombineOp::Sum;
  LaneOffsetIndex Index;
  const clang::Expr *Guard = nullptr; ///< The `$if` condition, or nullptr.
  /// OP is a call of a function, lambda or functor (seen through), not an operator.
  bool CombinesThroughCall = false;
};

/// A loop whose body is exactly one lane-shift step (plus, for a device
/// loop, the doubling of the offset).
struct LaneShiftLoop {
  OffsetLoop Loop;
  LaneShiftStep Step;
};

/// The lane-shift loop that \p Read (a `warp_read_lane` call, or a call of a
/// shuffle helper, see LaneRead) is the read of.
std::optional<LaneShiftLoop> matchLaneShiftLoop(const clang::CallExpr *Read, clang::ASTContext &Ctx,
                                                WriteAnalysis &Writes);

/// The bound a shuffle-down guard puts on `lane + offset`.
struct DownBound {
  /// The warp (`< warp_lane_count()`) or a limit B: `< B` (Strict) or `<= B`.
  bool WholeWarp = false;
  const clang::Expr *Limit = nullptr;
  bool Strict = true;
};
/// `INDEX < B`, `INDEX <= B`, `B > INDEX`, `B >= INDEX` with INDEX the step's
/// `lane + offset`; std::nullopt for other guards.
std::optional<DownBound> matchDownBound(const clang::Expr *Guard, const LaneOffsetIndex &Index);

/// True if the step's guard \p Bound combines no partner that the shuffle
/// helper's run-time clamp \p Clamp replaces (the same bound variable, and
/// the partner at it only when the clamp leaves it alone).
bool guardExcludesClamped(const DownBound &Bound, const LaneRead::RuntimeClamp &Clamp);

/// True for a scan guard `lane >= offset` or `offset <= lane`.
bool isScanGuard(const clang::Expr *Guard, const LaneOffsetIndex &Index);

} // namespace kernel_tidy::dsl

#endif // KERNEL_TIDY_RULES_WARP_LANESHIFTS_H
