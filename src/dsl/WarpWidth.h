//===--- WarpWidth.h - The warp width a kernel runs with ------------------===//

#ifndef KERNEL_TIDY_SRC_DSL_WARPWIDTH_H
#define KERNEL_TIDY_SRC_DSL_WARPWIDTH_H

#include "src/dsl/Profitability.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace kernel_tidy::dsl {

/// The narrowest and widest warps that set_warp_size and the WarpSize
/// option accept (any power of two between them); a wrong width would make
/// wrong "safe" fixes, so every other value is rejected.
inline constexpr unsigned MinWarpWidth = 8, MaxWarpWidth = 128;

/// The width when neither set_warp_size nor the WarpSize option says
/// otherwise: CUDA's and Metal's.
inline constexpr unsigned DefaultWarpWidth = 32;

/// The warp width \p Text spells in decimal (the WarpSize option, the CLI's
/// --warp-size; blanks around it allowed); std::nullopt if it is not one.
/// The one validator of the option, so that the CLI, the driver and the
/// rules cannot disagree on what a width is.
std::optional<unsigned> parseWarpWidth(llvm::StringRef Text);

/// What parseWarpWidth accepts, for messages: "a power of two from 8 to 128".
std::string warpWidthChoices();

/// The widths of kernels that do not call set_warp_size: the WarpSize option
/// where it is configured (the user states the width), else the native
/// width of the backend, which the target bounds: 32 on CUDA and Metal, 32
/// or 64 on DirectX and Vulkan, 8 to 128 on any backend.
struct DefaultWarpWidths {
  /// The width rules take for such kernels (32 unless WarpSize says
  /// otherwise); std::nullopt when WarpSize is configured but not a width.
  std::optional<unsigned> Lanes = DefaultWarpWidth;
  unsigned Narrowest = DefaultWarpWidth, Widest = DefaultWarpWidth;
  /// Where the range comes from, as a clause for messages ("" when exact).
  std::string Why;
};

/// The default widths for a WarpSize option (\p Configured: the parsed
/// value when the option is set; \p IsSet whether it is) and a target.
DefaultWarpWidths defaultWarpWidths(bool IsSet, std::optional<unsigned> Configured, Target Backend);

/// The warp width that code runs with, and where it comes from.
struct WarpWidth {
  enum Origin {
    Default, ///< No set_warp_size: the WarpSize option.
    Set,     ///< A constant set_warp_size(N) in the kernel.
    Unknown, ///< set_warp_size with a non-constant or invalid width.
  };
  Origin From = Default;
  unsigned Lanes = 0;                     ///< For Default and Set.
  const clang::CallExpr *SetBy = nullptr; ///< The set_warp_size call, if any.
  /// For Unknown: the constant that set_warp_size was given, if it was one.
  std::optional<int64_t> Requested;
  bool Conflicting = false; ///< For Unknown: two calls with different widths.

  /// The narrowest and widest warps the code may run with: Lanes for Set
  /// and a configured WarpSize, the backends' range otherwise.
  unsigned Narrowest = 0, Widest = 0;
  /// For a range: where it comes from, as a clause for messages.
  std::string RangeWhy;

  /// For Unknown: why the width is not known, as a clause for messages.
  std::string whyUnknown() const;

  /// True if the code runs with exactly Lanes lanes.
  bool exact() const { return From != Unknown && Narrowest == Widest; }

  /// For a width that is not exact: "the fix assumes 32-lane warps, but
  /// REASON", a clause for the reason of an unsafe fix.
  std::string assumption() const;

  std::optional<unsigned> known() const {
    return From == Unknown ? std::nullopt : std::optional<unsigned>(Lanes);
  }
};

/// Finds the set_warp_size call that governs a statement: the one in the
/// kernel lambda around it, not one in a sibling kernel built by the same
/// function. Memoized per body for one translation unit.
class WarpWidthAnalysis {
public:
  /// \p Defaults: the widths of kernels that do not set one (the checking
  /// rule's WarpSize option and target).
  WarpWidthAnalysis(clang::ASTContext &Ctx, DefaultWarpWidths Defaults)
      : Ctx(Ctx), Defaults(std::move(Defaults)) {}

  /// The width at \p S; the option's where no set_warp_size applies
  /// (Unknown when the option is not a width either).
  WarpWidth widthAt(const clang::Stmt *S);

  /// The width of the kernel lambda \p Kernel (widthAt(Kernel->getBody())
  /// would start at the function around the lambda: a body does not
  /// enclose itself).
  WarpWidth widthOf(const clang::LambdaExpr *Kernel);

private:
  /// What the set_warp_size calls of \p Body say (nested DSL bodies
  /// included, nested kernels excluded); From == Default when there are none.
  WarpWidth setIn(const clang::Stmt *Body);
  /// The width where no set_warp_size applies: the option's.
  WarpWidth optionWidth() const;

  clang::ASTContext &Ctx;
  const DefaultWarpWidths Defaults;
  llvm::DenseMap<const clang::Stmt *, WarpWidth> Bodies;
};

/// The lanes that offsets reach together: N when \p Offsets are exactly the
/// powers of two below N, each once, in any order; std::nullopt otherwise.
std::optional<unsigned> coveredLanes(llvm::ArrayRef<int64_t> Offsets);

} // namespace kernel_tidy::dsl

#endif // KERNEL_TIDY_SRC_DSL_WARPWIDTH_H
