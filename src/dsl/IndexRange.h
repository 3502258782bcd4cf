//===--- IndexRange.h - The values an index takes over a block ------------===//
//
// Interval arithmetic on the IntExpr view of DSL integer expressions built
// from thread ids, lane ids, device loop variables and host constants, with
// the block size (BlockSizeAnalysis) and the warp width (WarpWidthAnalysis)
// of the kernel bounding the ids. Anything else (dispatch ids, block ids, kernel arguments,
// buffer reads, variables written after their declaration) is unbounded.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_SRC_DSL_INDEXRANGE_H
#define KERNEL_TIDY_SRC_DSL_INDEXRANGE_H

#include "src/dsl/BlockSize.h"
#include "src/dsl/IntExpr.h"
#include "src/dsl/WarpWidth.h"
#include "src/dsl/Writes.h"
#include "clang/AST/ASTContext.h"
#include <cstdint>
#include <optional>

namespace kernel_tidy::dsl {

/// The closed interval [Min, Max] of the values of an integer expression.
struct ValueRange {
  int64_t Min = 0;
  int64_t Max = 0;
};

/// The range of DSL index expressions over the threads of one block.
class IndexRangeAnalysis {
public:
  IndexRangeAnalysis(clang::ASTContext &Ctx, BlockSizeAnalysis &Blocks, WarpWidthAnalysis &Widths,
                     WriteAnalysis &Writes)
      : Ctx(Ctx), Blocks(Blocks), Widths(Widths), Writes(Writes), Views(Ctx) {}

  /// The values \p E takes in any thread of a block of the kernel around
  /// \p E; std::nullopt when they are not bounded by what is known.
  std::optional<ValueRange> rangeOf(const clang::Expr *E);

  /// The constant element count of the `Shared<T>` that \p Object names (a
  /// variable declared as `Shared<T> s{N}`), or std::nullopt.
  std::optional<int64_t> sharedSize(const clang::Expr *Object);

  /// The constant element count of the `Shared<T>` variable \p Var, or std::nullopt.
  std::optional<int64_t> sharedSizeOf(const clang::VarDecl *Var);

  /// The declaration of the Shared variable \p Object names, or nullptr.
  const clang::VarDecl *sharedVariable(const clang::Expr *Object);

private:
  std::optional<ValueRange> rangeIn(const IntExpr *V, const clang::Stmt *At, unsigned Depth);

  clang::ASTContext &Ctx;
  BlockSizeAnalysis &Blocks;
  WarpWidthAnalysis &Widths;
  WriteAnalysis &Writes;
  IntExprViews Views;
};

} // namespace kernel_tidy::dsl

#endif // KERNEL_TIDY_SRC_DSL_INDEXRANGE_H
