//===--- Analyses.h - The shared analyses of one translation unit ---------===//

#ifndef KERNEL_TIDY_SRC_DSL_ANALYSES_H
#define KERNEL_TIDY_SRC_DSL_ANALYSES_H

#include "src/dsl/BlockSize.h"
#include "src/dsl/ControlFlow.h"
#include "src/dsl/Divergence.h"
#include "src/dsl/IndexRange.h"
#include "src/dsl/SharedAccesses.h"
#include "src/dsl/Uniformity.h"
#include "src/dsl/WarpWidth.h"
#include "src/dsl/Writes.h"

namespace kernel_tidy::dsl {

/// Every memoized analysis of one translation unit, so that a rule asks
/// them instead of re-walking the AST (rules get one from RuleBase).
class Analyses {
public:
  /// \p Defaults: the warp widths of kernels that do not set one (the
  /// checking rule's WarpSize option and target).
  Analyses(clang::ASTContext &Ctx, DefaultWarpWidths Defaults)
      : Ctx(Ctx), Writes(Ctx), Widths(Ctx, std::move(Defaults)), Blocks(Ctx, &Writes), Flow(Ctx),
        Uniformity(Ctx, Writes, Flow, &Blocks, &Widths), Divergence(Ctx, Uniformity, Flow, Writes),
        Ranges(Ctx, Blocks, Widths, Writes),
        SharedAccesses(Ctx, Uniformity, Blocks, Widths, Ranges, Writes) {}
  /// Kernels that do not set a width run with exactly \p WarpSize lanes
  /// (std::nullopt: an invalid WarpSize, no width).
  Analyses(clang::ASTContext &Ctx, std::optional<unsigned> WarpSize)
      : Analyses(Ctx, defaultWarpWidths(true, WarpSize, Target::Any)) {}
  Analyses(const Analyses &) = delete;
  Analyses &operator=(const Analyses &) = delete;

  clang::ASTContext &Ctx;
  WriteAnalysis Writes;
  WarpWidthAnalysis Widths;
  BlockSizeAnalysis Blocks;
  ControlFlowAnalysis Flow;
  UniformityAnalysis Uniformity;
  DivergenceAnalysis Divergence;
  IndexRangeAnalysis Ranges;
  SharedAccessAnalysis SharedAccesses;
};

} // namespace kernel_tidy::dsl

#endif // KERNEL_TIDY_SRC_DSL_ANALYSES_H
