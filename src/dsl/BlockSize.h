//===--- BlockSize.h - The block size a kernel runs with ------------------===//

#ifndef KERNEL_TIDY_SRC_DSL_BLOCKSIZE_H
#define KERNEL_TIDY_SRC_DSL_BLOCKSIZE_H

#include "src/dsl/Writes.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"
#include <array>
#include <optional>
#include <string>

namespace kernel_tidy::dsl {

/// The dimension (1, 2 or 3) of the kernel that \p Lambda defines: from the
/// Kernel1D/2D/3D it initialises or the `compile<N>` it is passed to.
std::optional<unsigned> kernelDimension(const clang::LambdaExpr *Lambda, clang::ASTContext &Ctx);

/// The thread-block shape that kernel code runs with, and where it comes from.
struct BlockSize {
  enum Origin {
    Default, ///< No set_block_size: LuisaCompute's default for the dimension
             ///< (256, 16x16, 8x8x8).
    Set,     ///< One constant set_block_size in the kernel.
    Unknown, ///< Not a kernel, a run-time or conditional size, or conflicting calls.
  };
  Origin From = Unknown;
  std::array<unsigned, 3> Shape{0, 0, 0}; ///< For Default and Set.
  const clang::CallExpr *SetBy = nullptr; ///< The set_block_size call, if any.
  std::string Why;                        ///< For Unknown: a clause for messages.

  /// The shape, unless Unknown.
  std::optional<std::array<unsigned, 3>> known() const {
    return From == Unknown ? std::nullopt : std::optional(Shape);
  }
  /// The threads in a block (x * y * z), unless Unknown.
  std::optional<unsigned> threads() const {
    return From == Unknown ? std::nullopt : std::optional(Shape[0] * Shape[1] * Shape[2]);
  }
};

/// Finds the block size of the kernel around a statement: its constant
/// set_block_size, or the default for its dimension. Memoized per kernel.
class BlockSizeAnalysis {
public:
  /// With \p Writes, set_block_size arguments may also name host locals
  /// that are initialised with constants and never written.
  explicit BlockSizeAnalysis(clang::ASTContext &Ctx, WriteAnalysis *Writes = nullptr)
      : Ctx(Ctx), Writes(Writes) {}

  /// The block size at \p S (Unknown outside a kernel lambda, e.g. in a
  /// Callable or a helper function, which any kernel may call).
  BlockSize sizeAt(const clang::Stmt *S);

  /// The block size of the kernel that \p Kernel defines.
  BlockSize sizeOf(const clang::LambdaExpr *Kernel);

private:
  clang::ASTContext &Ctx;
  WriteAnalysis *Writes;
  llvm::DenseMap<const clang::LambdaExpr *, BlockSize> Kernels;
};

} // namespace kernel_tidy::dsl

#endif // KERNEL_TIDY_SRC_DSL_BLOCKSIZE_H
