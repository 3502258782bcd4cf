//===--- SharedAccesses.h - Shared-memory accesses and barrier intervals --===//
//
// A kernel's threads run from one sync_block() to the next without any order
// between them: two accesses to one Shared element by different threads, at
// least one a write, race when some path between them (in either order, also
// around a loop's back edge, or in two arms of a thread-dependent branch)
// passes no barrier. This unit lists the Shared reads and writes a kernel
// emits (following C++ helpers, lambdas and Callables to their call sites, as
// the kernel builder runs them), places them in the kernel's structured
// control (sequences, branches, device and host loops, barriers, exits), and
// decides for each write/read pair whether some barrier interval holds both
// and whether the index arithmetic gives two distinct threads of the block the
// same element. A race is reported only with a witness: concrete threads and
// an element; anything the evaluator cannot see into gives no race.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_SRC_DSL_SHAREDACCESSES_H
#define KERNEL_TIDY_SRC_DSL_SHAREDACCESSES_H

#include "src/dsl/BlockSize.h"
#include "src/dsl/IndexRange.h"
#include "src/dsl/SharedAccessRecords.h"
#include "src/dsl/Uniformity.h"
#include "src/dsl/WarpWidth.h"
#include "src/dsl/Writes.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace kernel_tidy::dsl {

namespace shared_access_detail {
struct KernelModel;
} // namespace shared_access_detail

/// The Shared accesses, barrier intervals and races of kernels, memoized per
/// kernel for one translation unit.
class SharedAccessAnalysis {
public:
  SharedAccessAnalysis(clang::ASTContext &Ctx, UniformityAnalysis &Uniformity,
                       BlockSizeAnalysis &Blocks, WarpWidthAnalysis &Widths,
                       IndexRangeAnalysis &Ranges, WriteAnalysis &Writes);
  ~SharedAccessAnalysis();
  SharedAccessAnalysis(const SharedAccessAnalysis &) = delete;
  SharedAccessAnalysis &operator=(const SharedAccessAnalysis &) = delete;

  /// The Shared reads and writes that \p Kernel emits, in emission order.
  const std::vector<SharedAccess> &accessesIn(const clang::LambdaExpr *Kernel);

  /// True if some barrier-free path (or two arms of a thread-dependent
  /// branch, or a loop's back edge) connects accesses \p A and \p B of
  /// \p Kernel: two threads can be between the same two barriers there.
  bool mayShareInterval(const clang::LambdaExpr *Kernel, unsigned A, unsigned B);

  /// The races of \p Kernel: one per write/read pair with a witness.
  const std::vector<SharedRace> &racesIn(const clang::LambdaExpr *Kernel);

private:
  using KernelModel = shared_access_detail::KernelModel;
  KernelModel &modelOf(const clang::LambdaExpr *Kernel);

  clang::ASTContext &Ctx;
  UniformityAnalysis &Uniformity;
  BlockSizeAnalysis &Blocks;
  WarpWidthAnalysis &Widths;
  IndexRangeAnalysis &Ranges;
  WriteAnalysis &Writes;
  llvm::DenseMap<const clang::LambdaExpr *, std::unique_ptr<KernelModel>> Models;
};

} // namespace kernel_tidy::dsl

#endif // KERNEL_TIDY_SRC_DSL_SHAREDACCESSES_H
