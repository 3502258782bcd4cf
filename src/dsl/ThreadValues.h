//===--- ThreadValues.h - Index values in one thread, and race witnesses --===//
//
// The per-thread evaluator of SharedAccesses: the value that an index or a
// branch condition of a kernel's model (SharedAccessModel) has in one thread
// of a block, computed on its IntExpr view with the thread's ids, the loop
// iterations a meeting (BarrierIntervals) binds and the arguments of the
// call frames; a value that is the same in every thread but unknown is a
// large symbol, different per seed. On top of it, the search for a race
// witness: two distinct threads of the block whose write and read index one
// element. Anything the evaluator cannot see into gives no witness.
// Internal to src/dsl.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_SRC_DSL_THREADVALUES_H
#define KERNEL_TIDY_SRC_DSL_THREADVALUES_H

#include "src/dsl/BarrierIntervals.h"
#include "src/dsl/HostEval.h"
#include "src/dsl/IndexRange.h"
#include "src/dsl/Uniformity.h"
#include "src/dsl/Writes.h"
#include "llvm/ADT/DenseMap.h"
#include <array>
#include <optional>
#include <utility>

namespace kernel_tidy::dsl::shared_access_detail {

/// The evaluation state of one side (thread) of a candidate race.
struct Side {
  std::array<int64_t, 3> Thread{0, 0, 0};
  llvm::DenseMap<const clang::VarDecl *, int64_t> Loops;
  HostBindings Host;
  unsigned Seed = 0;
  unsigned Which = 0;
};

/// The value of a kernel's integer expressions in one thread of a block.
class ThreadValues {
public:
  using KernelModel = shared_access_detail::KernelModel;
  ThreadValues(clang::ASTContext &Ctx, UniformityAnalysis &Uniformity, WriteAnalysis &Writes,
               KernelModel &M, bool BlockKnown)
      : Ctx(Ctx), Uniformity(Uniformity), Writes(Writes), M(M), BlockKnown(BlockKnown) {}

  /// The value of \p E, evaluated where frame \p F runs, in thread \p S.
  std::optional<int64_t> valueOf(const clang::Expr *E, const CallFrame *F, const Side &S) {
    return eval(M.Views->of(E), F, S, 0);
  }

  enum class Pass { Yes, No, Unknown };

  /// Whether thread \p S passes the conditions around access \p Access.
  Pass guardsHold(unsigned Access, const Side &S);

  /// True once the evaluations of this kernel are over budget.
  bool exhausted() const { return Evaluations > EvaluationBudget; }

  /// A large value for an unknown uniform quantity: far from any index a
  /// thread id makes, different per seed (and per side when \p Which < 2).
  static int64_t symbol(const void *Key, unsigned Seed, unsigned Which);

private:
  std::optional<int64_t> eval(const IntExpr *V, const CallFrame *F, const Side &S, unsigned Depth);
  std::optional<int64_t> deviceValue(const IntExpr *V, const CallFrame *F, const Side &S,
                                     unsigned Depth);
  std::optional<int64_t> builtin(const IntExpr *V, const Side &S);
  std::optional<int64_t> helperResult(const clang::CallExpr *Call, const CallFrame *F,
                                      const Side &S, unsigned Depth);
  std::optional<int64_t> host(const IntExpr *V, const CallFrame *F, const Side &S, unsigned Depth);
  std::optional<int64_t> variable(const IntExpr *V, const CallFrame *F, const Side &S,
                                  unsigned Depth);
  std::optional<int64_t> normalize(std::optional<int64_t> V, clang::QualType T);

  clang::ASTContext &Ctx;
  UniformityAnalysis &Uniformity;
  WriteAnalysis &Writes;
  KernelModel &M;
  bool BlockKnown;
  uint64_t Evaluations = 0;
};

/// Searches the threads of a block for a witness of a race in one kernel.
class RaceWitnessSearch {
public:
  using KernelModel = shared_access_detail::KernelModel;
  RaceWitnessSearch(clang::ASTContext &Ctx, UniformityAnalysis &Uniformity, WriteAnalysis &Writes,
                    IndexRangeAnalysis &Ranges, KernelModel &M, bool BlockKnown)
      : Values(Ctx, Uniformity, Writes, M, BlockKnown), Ranges(Ranges), M(M) {}

  /// A witness that the write \p W and the read \p R meet at one element,
  /// found with both seeds of the unknown uniform values.
  std::optional<SharedRace> witness(unsigned W, unsigned R, const Meeting &Meet);

  bool exhausted() const { return Values.exhausted(); }

private:
  std::vector<std::pair<Side, Side>> combinations(const Meeting &Meet, unsigned Seed);
  std::optional<SharedRace> witnessWithSeed(unsigned W, unsigned R, const Meeting &Meet,
                                            unsigned Seed);
  bool onPath(const Node *Loop, bool SideA) const;

  ThreadValues Values;
  IndexRangeAnalysis &Ranges;
  KernelModel &M;
  const Node *CurrentA = nullptr, *CurrentB = nullptr;
};

} // namespace kernel_tidy::dsl::shared_access_detail

#endif // KERNEL_TIDY_SRC_DSL_THREADVALUES_H
