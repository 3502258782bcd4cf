//===--- TreeReduction.h - Block-wide tree reductions in Shared memory ----===//
//
// A block reduces a Shared<T> array pairwise with a halving loop: a host
// `for` over strides N/2, N/4, ..., 1, or a device `$while (stride > 0u)`
// that halves its stride at the end of the body. Each step is either in
// place (`$if (tid < stride) { s[tid] += s[tid + stride]; };` and a
// barrier) or register-then-write (`value = s[2 * tid] + s[2 * tid + 1];`,
// a barrier, `s[tid] = value;`, a barrier), as in sections 3.2 and 4.4 of the
// optimization guide. These recognise such loops and where else the array
// is used, so that a rule can decide whether the loop can be replaced.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_RULES_BLOCK_TREEREDUCTION_H
#define KERNEL_TIDY_RULES_BLOCK_TREEREDUCTION_H

#include "src/dsl/HalvingLoops.h"
#include "src/dsl/Statements.h"
#include "src/dsl/Writes.h"
#include "clang/AST/ASTContext.h"
#include <optional>
#include <vector>

namespace kernel_tidy::dsl {

/// A tree reduction step loop over a Shared array.
struct TreeReduction {
  HalvingLoop Loop;
  const clang::ValueDecl *Array = nullptr;
  const clang::Expr *Thread = nullptr; ///< The thread index of the guard `Thread < stride`.
  CombineOp Op = CombineOp::Sum;
  /// The helper the operation was seen through (`reduce_op(a, b)`), if any.
  const clang::FunctionDecl *CombineHelper = nullptr;
  /// Register-then-write: the variable that holds a step's result between
  /// the read and the write-back (nullptr for the in-place form).
  const clang::VarDecl *Register = nullptr;
  bool RegisterDeclaredInBody = false;
  bool Interleaved = false; ///< Pairs `(2 * tid, 2 * tid + 1)` instead of `(tid, tid + stride)`.
  unsigned BarriersPerStep = 0;
};

/// The tree reduction whose loop body is \p Body: a HalvingLoop whose body
/// is exactly one in-place or register-then-write step (plus the halving of
/// a device loop) with at least the barriers that make it race-free: in
/// place one `sync_block()` before or after the step; register-then-write
/// one between the read and the write-back and one before the read or after
/// the write-back. Whether the strides cover the block is the caller's.
std::optional<TreeReduction> matchTreeReduction(const clang::CompoundStmt *Body,
                                                clang::ASTContext &Ctx, WriteAnalysis &Writes);

/// What a halving tree with strides P, P / 2, ..., K combines: the 2 * P
/// elements, into the K partials it leaves in slots 0 .. K - 1.
struct TreeSpan {
  int64_t Extent = 0;
  int64_t Partials = 1;
};

/// The span of the strides \p Values when they are P, P / 2, ..., 1 in that
/// order (integer halving: all of the elements when 2 * P is a power of two),
/// or P, P / 2, ..., K for K from 2 to 8 with every halving exact (a tree that
/// stops at K partials); std::nullopt for other strides.
std::optional<TreeSpan> treeSpan(llvm::ArrayRef<int64_t> Values);

/// The expression after a tree that stops at K partials which combines
/// them: the tree's operation over exactly `s[0]` .. `s[K - 1]`, each once
/// (`s[0] + s[1]`, `max(s[1], s[0])`, `(s[0] + s[1]) + (s[2] + s[3])`, also
/// through reduce_op helpers), the first use of the array after the loop, in
/// a later statement of the loop's block with a sync_block() between them
/// (the loop's last or one in the block).
struct PartialsCombine {
  const clang::Expr *Combine = nullptr;
  const clang::FunctionDecl *Helper = nullptr; ///< A helper it was seen through, if any.
};
std::optional<PartialsCombine> matchPartialsCombine(const TreeReduction &Tree, int64_t Partials,
                                                    clang::ASTContext &Ctx);

/// What code outside a tree loop does with the values the loop leaves behind.
struct TreeLeftovers {
  /// The array is reached through a pointer, a reference, a parameter or a
  /// member, so its other uses are out of sight.
  bool ArrayEscapes = false;
  /// A read of the array outside the loop at an index other than the
  /// constant 0 (or a use of the array other than an element access), where
  /// it can see what the loop wrote; nullptr if none.
  const clang::Expr *OtherRead = nullptr;
  /// A use of the register or (device) the stride variable where it can see
  /// the value the loop left in it; nullptr if none.
  const clang::Expr *VariableUse = nullptr;
};

/// Finds the uses that would observe the difference between \p Tree and a
/// rewrite that leaves only slot 0 (and neither the register nor the
/// stride) as the loop would: uses after the loop in the function, and,
/// when a loop around the tree repeats it within a variable's scope, uses
/// anywhere outside the tree. With \p Combine (the PartialsCombine of a
/// tree that stops at several partials, which the rewrite replaces by slot
/// 0), its own reads are the rewrite's, and any other read of the array, at
/// index 0 too, or a store between the loop and it, is a leftover.
TreeLeftovers leftoversOf(const TreeReduction &Tree, clang::ASTContext &Ctx,
                          const clang::Expr *Combine = nullptr);

} // namespace kernel_tidy::dsl

#endif // KERNEL_TIDY_RULES_BLOCK_TREEREDUCTION_H
