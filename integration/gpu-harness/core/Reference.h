//===--- Reference.h - CPU references of the warp and block patterns ------===//
//
// What each pattern must compute, on the host, in exact or higher precision.
// The reference is the intended meaning: a reduction or scan over the active
// lanes only. An original kernel that reads inactive lanes may disagree with
// it; that is reported as a fault of the original, not of the rewrite.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_GPU_HARNESS_REFERENCE_H
#define KERNEL_TIDY_GPU_HARNESS_REFERENCE_H

#include "Launch.h"
#include "Values.h"
#include <cstdint>
#include <string_view>
#include <vector>

namespace kernel_tidy::harness {

enum class Op { Sum, Product, Min, Max, BitAnd, BitOr, BitXor };
std::string_view opName(Op O); // "sum", "product", "min", ...

/// Expected output, element by element. Elements that are not Defined (no
/// active thread wrote them) are not compared. Bound is the allowed absolute
/// error (0: exact), derived from the operation: for a float sum of n terms
/// (n - 1) * u * sum|x_i| (u: unit roundoff), for a product (n - 1) * u * |p|
/// (plus one unit roundoff of the result in both cases), where the values are
/// finite; NaN and infinities must match exactly.
///
/// In detail (n counts every term, Init included; u: unitRoundoff(Type)):
/// - sum: (n - 1) * u * sum|x_i| + u * |s|, s the exact sum; the last term
///   covers the rounding of the reference itself to the type.
/// - product: (n - 1) * u * |p| + u * |p| + n * eta * max(1, P), p the exact
///   product, eta half the smallest denormal, P the product of the factors
///   above 1 in magnitude: the last term allows for partial products that
///   fall into the denormal range (all f16 products of many inputs in
///   [-1, 1) do).
/// - NaN or infinite terms: the IEEE result (NaN for inf - inf or 0 * inf),
///   bound 0.
/// - The bound is never infinite. Where some order of combination overflows
///   (a sum whose positive or negative terms add up to more than the type's
///   maximum, a product whose factors above 1 do), Overflow lists the
///   results that such an order gives besides the finite one (an infinity of
///   either sign, or NaN where an infinity meets the other one or a zero);
///   where every order overflows (the exact result is beyond the maximum by
///   more than the bound) no finite value is accepted: both versions must
///   overflow.
/// - min/max and every integer or bit op: exact, bound 0.
/// Value is the exact result rounded to the type (roundTo); where it rounds to
/// an infinity but some order stays finite, the largest finite value of its
/// sign, the bound widened by the distance to the exact result.
struct Expected {
  std::vector<double> Value;
  std::vector<bool> Defined;
  std::vector<double> Bound;
  /// Per element, OverflowFlags: results some order of combination gives
  /// besides Value +- Bound (empty or 0: none).
  std::vector<std::uint8_t> Overflow;
};

/// The bits of Expected::Overflow.
enum OverflowFlags : std::uint8_t {
  MayPositiveInfinity = 1,
  MayNegativeInfinity = 2,
  MayNaN = 4,
  NoFiniteResult = 8, // every order overflows
};

/// Whether \p Got is a result the reference accepts for \p Element of
/// \p Want: equal (NaN matches NaN, +0 matches -0), within the bound, or a
/// result that an overflowing order gives (Expected::Overflow).
bool acceptable(const Expected &Want, std::size_t Element, double Got);

/// Every active lane gets OP over the inputs of the active lanes of its warp
/// (warp_active_OP; the butterfly's intent). Integer ops wrap modulo 2^32;
/// float min/max ignore a NaN operand unless both are NaN (fminf/fmaxf).
Expected referenceWarpReduce(ValueType Type, Op O, const std::vector<double> &In,
                             const std::vector<Warp> &Warps);

/// Every active lane gets Init OP (OP over the inputs of the active lanes
/// below it, and its own when Inclusive): the sequential lane-read loop and
/// warp_prefix_sum/product. O is Sum or Product.
Expected referenceWarpScan(ValueType Type, Op O, const std::vector<double> &In,
                           const std::vector<Warp> &Warps, bool Inclusive, double Init);

/// One element per block: Init OP the inputs of every active thread of the
/// block (a shared counter updated with atomics, then written out).
Expected referenceBlockAtomic(ValueType Type, Op O, const std::vector<double> &In,
                              const std::vector<Warp> &Warps, std::uint32_t Blocks, double Init);

/// The layout of an append output: the order of appends is free, so each
/// region is compared as a multiset (sorted; see sortAppendRegions).
/// PerBlock: block b appends to out[b * RegionSize ...] through a shared slot
/// counter. Otherwise out[0] is a global slot counter and the items fill
/// out[1 ...] (RegionSize slots). Slots that nobody took keep Init.
struct AppendLayout {
  bool PerBlock = true;
  std::uint32_t RegionSize = 0;
  bool Weighted = false; ///< Each thread appends its value (x & 3) + 1 times.
};

/// Every active thread appends its input (Weighted: (x & 3) + 1 times), each
/// region sorted; out[0] of a global layout is the number of items.
Expected referenceAppend(const std::vector<double> &In, const std::vector<Warp> &Warps,
                         std::uint32_t Blocks, const AppendLayout &Layout, double Init);

/// Sorts every region of an append output, as referenceAppend lays it out.
void sortAppendRegions(std::vector<double> &Out, std::uint32_t Blocks, const AppendLayout &Layout);
/// Marks every element of an append region undefined where one of them is
/// (sorting a region loses which slot it was); out[0] of a global layout
/// keeps its own flag.
void widenToRegions(std::vector<bool> &Undefined, std::uint32_t Blocks, const AppendLayout &Layout);

/// The host-side submission cases (luisa-stream-batching): \p Steps
/// dispatches of `out = out * 3 + k` for k = 0 .. Steps - 1, in that order,
/// on u32 values (wrapping modulo 2^32): a reordered or lost dispatch shows.
Expected referenceSubmissionSteps(const std::vector<double> &Init, std::uint32_t Steps);

} // namespace kernel_tidy::harness

#endif
