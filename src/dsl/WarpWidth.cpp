//===--- WarpWidth.cpp - The warp width a kernel runs with ----------------===//

#include "src/dsl/WarpWidth.h"

#include "src/dsl/Ast.h"
#include "src/dsl/HostEval.h"
#include "src/dsl/Names.h"
#include "llvm/Support/MathExtras.h"

using namespace clang;

namespace kernel_tidy::dsl {

namespace {

bool isWarpWidth(int64_t Lanes) {
  return Lanes >= MinWarpWidth && Lanes <= MaxWarpWidth && llvm::isPowerOf2_64(Lanes);
}

} // namespace

std::optional<unsigned> parseWarpWidth(llvm::StringRef Text) {
  // Parsed as unsigned: a value that does not fit (4294967360) is an error,
  // not the width it wraps to.
  unsigned Lanes = 0;
  if (Text.trim().getAsInteger(10, Lanes) || !isWarpWidth(Lanes))
    return std::nullopt;
  return Lanes;
}

std::string warpWidthChoices() {
  return "a power of two from " + std::to_string(MinWarpWidth) + " to " +
         std::to_string(MaxWarpWidth);
}

DefaultWarpWidths defaultWarpWidths(bool IsSet, std::optional<unsigned> Configured,
                                    Target Backend) {
  DefaultWarpWidths Widths;
  if (IsSet) {
    Widths.Lanes = Configured;
    Widths.Narrowest = Widths.Widest = Configured.value_or(0);
    return Widths;
  }
  switch (Backend) {
  case Target::Cuda:
  case Target::Metal:
    return Widths;
  case Target::DirectX:
  case Target::Vulkan:
    Widths.Widest = 64;
    break;
  case Target::Any:
    Widths.Narrowest = 8;
    Widths.Widest = MaxWarpWidth;
    break;
  }
  Widths.Why = "the kernel does not call set_warp_size and WarpSize is not set, so with "
               "--target=" +
               targetName(Backend).str() + " it runs with its backend's warp of " +
               std::to_string(Widths.Narrowest) + " to " + std::to_string(Widths.Widest) +
               " lanes (set_warp_size, WarpSize or --target=cuda states the width)";
  return Widths;
}

std::string WarpWidth::assumption() const {
  return "the fix assumes " + std::to_string(Lanes) + "-lane warps, but " + RangeWhy;
}

std::string WarpWidth::whyUnknown() const {
  if (!SetBy)
    return "the WarpSize option is not a warp width";
  if (Conflicting)
    return "the kernel calls set_warp_size with different widths";
  if (Requested)
    return "set_warp_size(" + std::to_string(*Requested) +
           ") is not a warp width (a power of two in [" + std::to_string(MinWarpWidth) + ", " +
           std::to_string(MaxWarpWidth) + "])";
  return "the kernel's warp width is not a constant (set_warp_size with a value known "
         "only at run time)";
}

WarpWidth WarpWidthAnalysis::setIn(const Stmt *Body) {
  auto [It, Inserted] = Bodies.try_emplace(Body);
  if (!Inserted)
    return It->second;
  WarpWidth Width;
  for (const CallExpr *Call : dslCallsIn(Body, "set_warp_size", Ctx)) {
    // The argument as written: a value that would wrap on conversion to the
    // parameter (4294967296ull) is not a width.
    auto Lanes = Call->getNumArgs() == 1 ? evaluateHostInt(Call->getArg(0)->IgnoreImpCasts(), Ctx)
                                         : std::nullopt;
    Width.SetBy = Call;
    if (!Lanes || !isWarpWidth(*Lanes) || (Width.From == WarpWidth::Set && Width.Lanes != *Lanes)) {
      Width.Conflicting = Lanes && isWarpWidth(*Lanes);
      Width.Requested = Lanes;
      Width.From = WarpWidth::Unknown;
      break;
    }
    Width.From = WarpWidth::Set;
    Width.Lanes = Width.Narrowest = Width.Widest = static_cast<unsigned>(*Lanes);
  }
  return Bodies[Body] = Width;
}

WarpWidth WarpWidthAnalysis::widthAt(const Stmt *S) {
  for (const Stmt *Body = enclosingFunctionBody(S, Ctx); Body;
       Body = enclosingFunctionBody(Body, Ctx)) {
    WarpWidth Width = setIn(Body);
    if (Width.From != WarpWidth::Default)
      return Width;
    // A kernel without set_warp_size runs with the default width, whatever
    // the function that builds it sets for other kernels.
    const LambdaExpr *Lambda = lambdaOfBody(Body, Ctx);
    if (Lambda && lambdaRole(Lambda, Ctx) == LambdaRole::Kernel)
      break;
  }
  return optionWidth();
}

WarpWidth WarpWidthAnalysis::widthOf(const LambdaExpr *Kernel) {
  WarpWidth Width = setIn(Kernel->getBody());
  return Width.From != WarpWidth::Default ? Width : optionWidth();
}

WarpWidth WarpWidthAnalysis::optionWidth() const {
  WarpWidth Width;
  if (!Defaults.Lanes) {
    Width.From = WarpWidth::Unknown;
    return Width;
  }
  Width.Lanes = *Defaults.Lanes;
  Width.Narrowest = Defaults.Narrowest;
  Width.Widest = Defaults.Widest;
  Width.RangeWhy = Defaults.Why;
  return Width;
}

std::optional<unsigned> coveredLanes(llvm::ArrayRef<int64_t> Offsets) {
  uint64_t Seen = 0;
  for (int64_t D : Offsets) {
    if (D <= 0 || D > 64 || !llvm::isPowerOf2_64(D) || (Seen & D))
      return std::nullopt;
    Seen |= D;
  }
  if (Offsets.empty() || !llvm::isPowerOf2_64(Seen + 1))
    return std::nullopt;
  return static_cast<unsigned>(Seen + 1);
}

} // namespace kernel_tidy::dsl
