//===--- SharedAccessModel.h - A kernel's Shared accesses in its control --===//
//
// The model that SharedAccesses builds of one kernel and that its two other
// units read: BarrierIntervals (which accesses two threads can reach between
// the same two barriers) and ThreadValues (an index's value in one thread).
// A tree of the kernel's structured control (sequences, branches, loops) with
// the barriers, exits, opaque steps and Shared accesses at its leaves, helper
// calls inlined as call frames. Internal to src/dsl.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_SRC_DSL_SHAREDACCESSMODEL_H
#define KERNEL_TIDY_SRC_DSL_SHAREDACCESSMODEL_H

#include "src/dsl/IntExpr.h"
#include "src/dsl/SharedAccessRecords.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include <deque>
#include <memory>
#include <optional>
#include <vector>

namespace kernel_tidy::dsl {

namespace shared_access_detail {

inline constexpr unsigned MaxInlineDepth = 8;
inline constexpr unsigned MaxThreads = 4096;
inline constexpr unsigned MaxCombinations = 256;
inline constexpr uint64_t EvaluationBudget = 4'000'000; ///< Index evaluations per kernel.

/// A helper, lambda or Callable whose body runs at its call site.
struct CallFrame {
  const CallFrame *Parent = nullptr;
  const clang::CallExpr *Call = nullptr;
  const clang::FunctionDecl *Callee = nullptr;
  unsigned ArgOffset = 0; ///< Where the callee's first parameter is in Call's arguments.
};

/// A condition a thread satisfies (Positive) or fails to be inside a node.
struct Guard {
  const clang::Expr *Cond = nullptr;
  bool Positive = true;
  const CallFrame *Frame = nullptr;
};

/// The structured control of a kernel: sequences, branches, loops and the
/// barriers, exits and accesses at their leaves.
struct Node {
  enum Kind { Seq, Branch, Loop, Barrier, Access, Exit, Opaque };
  Kind K = Seq;
  Node *Parent = nullptr;
  unsigned Slot = 0; ///< Position in Parent->Children.
  std::vector<Node *> Children;
  std::vector<Guard> Guards;              ///< A Seq that is a branch arm or a loop body.
  std::vector<bool> ArmUniform;           ///< Branch: each arm's own condition is block-uniform.
  const clang::Stmt *Statement = nullptr; ///< Loop: the DSL or host loop statement.
  const clang::VarDecl *Var = nullptr;    ///< Loop: the variable that changes per iteration.
  std::vector<int64_t> Values;            ///< Loop: Var's values, when known.
  bool ValuesKnown = false;
  bool Host = false; ///< Loop: unrolled while the kernel is built.
  unsigned AccessIndex = 0;
  int PassFree = -1; ///< Memo of passFree().
};

/// The argument that \p Frame's call passes to \p Parm (a default argument's
/// expression when it passes none), or nullptr.
const clang::Expr *argumentOf(const CallFrame *Frame, const clang::ParmVarDecl *Parm);

/// The frame whose callee declares \p Parm, or nullptr.
const CallFrame *frameOf(const clang::ParmVarDecl *Parm, const CallFrame *Frame);

/// What a call runs while the kernel is built: the body of a user function,
/// lambda or Callable, with its callee and where the callee's first
/// parameter is among the call's arguments.
struct InlinedCall {
  const clang::FunctionDecl *Callee = nullptr;
  const clang::Stmt *Body = nullptr; ///< nullptr when the body is out of sight.
  unsigned ArgOffset = 0;
  bool Library = false; ///< The DSL's or the system's code: never entered.
};
InlinedCall inlinedCall(const clang::CallExpr *Call, const clang::SourceManager &SM);

/// The model of one kernel: its control tree and the accesses at its leaves.
struct KernelModel {
  std::deque<shared_access_detail::Node> Nodes;
  std::deque<shared_access_detail::CallFrame> Frames;
  shared_access_detail::Node *Root = nullptr;
  std::vector<SharedAccess> Accesses;
  std::vector<shared_access_detail::Node *> AccessNodes;
  std::vector<const shared_access_detail::CallFrame *> AccessFrames;
  std::vector<shared_access_detail::Node *>
      InstanceDeclaredIn; ///< Per array instance: the Seq that constructs it.
  std::vector<SharedRace> Races;
  bool RacesDone = false;
  const clang::LambdaExpr *Kernel = nullptr;
  unsigned Dimension = 1;
  std::array<unsigned, 3> Shape{1, 1, 1};
  std::optional<unsigned> WarpLanes;
  /// The arithmetic views of the indices and conditions (one walk each).
  std::unique_ptr<IntExprViews> Views;
};

} // namespace shared_access_detail

} // namespace kernel_tidy::dsl

#endif // KERNEL_TIDY_SRC_DSL_SHAREDACCESSMODEL_H
