//===--- WarpWidth.h - The warp width a kernel runs with ------------------===//

#ifndef KERNEL_TIDY_SRC_DSL_WARPWIDTH_H
#define KERNEL_TIDY_SRC_DSL_WARPWIDTH_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include <optional>
#include <string>

namespace kernel_tidy::dsl {

/// True for the widths LuisaCompute's set_warp_size and kernel-tidy's
/// WarpSize option accept: powers of two in [4, 128].
bool isValidWarpWidth(int64_t Lanes);

/// The warp width that code runs with, and where it comes from.
struct WarpWidth {
  enum Origin {
    Default,  ///< No set_warp_size: the WarpSize option (default 32).
    Set,      ///< A constant set_warp_size(N) in the kernel.
    Unknown,  ///< set_warp_size with a non-constant or invalid width.
  };
  Origin From = Default;
  unsigned Lanes = 0;                      ///< For Default and Set.
  const clang::CallExpr *SetBy = nullptr;  ///< The set_warp_size call, if any.
  /// For Unknown: the constant that set_warp_size was given, if it was one.
  std::optional<int64_t> Requested;
  bool Conflicting = false; ///< For Unknown: two calls with different widths.

  /// For Unknown: why the width is not known, as a clause for messages.
  std::string whyUnknown() const;

  std::optional<unsigned> known() const {
    return From == Unknown ? std::nullopt : std::optional<unsigned>(Lanes);
  }
};

/// Finds the set_warp_size call that governs a statement: the one in the
/// kernel lambda around it, not one in a sibling kernel built by the same
/// function. Memoized per body for one translation unit.
class WarpWidthAnalysis {
public:
  explicit WarpWidthAnalysis(clang::ASTContext &Ctx) : Ctx(Ctx) {}

  /// The width at \p S; \p DefaultLanes where no set_warp_size applies
  /// (Unknown when that is std::nullopt too).
  WarpWidth widthAt(const clang::Stmt *S, std::optional<unsigned> DefaultLanes);

private:
  /// What the set_warp_size calls of \p Body say (nested DSL bodies
  /// included, nested kernels excluded); From == Default when there are none.
  WarpWidth setIn(const clang::Stmt *Body);

  clang::ASTContext &Ctx;
  llvm::DenseMap<const clang::Stmt *, WarpWidth> Bodies;
};

} // namespace kernel_tidy::dsl

#endif // KERNEL_TIDY_SRC_DSL_WARPWIDTH_H
