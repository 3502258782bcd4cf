//===--- BarrierIntervals.h - Accesses two threads reach between barriers --===//
//
// Threads of a block run from one sync_block() to the next in no order. Two
// accesses of a kernel's model (SharedAccessModel) meet when some path
// between them passes no barrier: in either order in a sequence, in two arms
// of a thread-dependent branch, or around a loop's back edge (the second
// access one iteration later). A meeting also says how each loop around the
// accesses binds its variable on the two sides, for the per-thread
// evaluation of their indices (ThreadValues). Internal to src/dsl.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_SRC_DSL_BARRIERINTERVALS_H
#define KERNEL_TIDY_SRC_DSL_BARRIERINTERVALS_H

#include "src/dsl/SharedAccessModel.h"
#include <vector>

namespace kernel_tidy::dsl::shared_access_detail {

/// How the two accesses' copies of a loop variable relate.
enum class Tie { Same, Free, NextAB, NextBA, Distinct };

/// Which iterations of a loop one side can be in: a barrier-free path that
/// leaves a loop whose every iteration has a barrier starts in its last
/// iteration, one that enters it ends in its first.
enum class Iterations { Any, First, Last };

/// How a loop's variable is bound on the two sides of a meeting.
struct LoopBinding {
  const Node *Loop = nullptr;
  Tie T = Tie::Free;
  Iterations A = Iterations::Any, B = Iterations::Any; ///< For Free.
};

/// One way two threads can be in one barrier interval at two accesses.
struct Meeting {
  SharedRace::Order Sequence = SharedRace::WriteThenRead;
  const Node *AcrossLoop = nullptr;
  /// The loops around either access (a Free loop around one access only
  /// binds that side).
  std::vector<LoopBinding> Loops;
};

/// The ways two threads can be at accesses \p A and \p B of \p M within
/// one barrier interval (none when every path between them has a barrier).
std::vector<Meeting> meetingsOf(shared_access_detail::KernelModel &M, unsigned A, unsigned B);

} // namespace kernel_tidy::dsl::shared_access_detail

#endif // KERNEL_TIDY_SRC_DSL_BARRIERINTERVALS_H
