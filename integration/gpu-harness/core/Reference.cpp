//===--- Reference.cpp - CPU references of the warp and block patterns ----===//

#include "Reference.h"
#include <algorithm>
#include <cmath>

namespace kernel_tidy::harness {

namespace {

/// The expected value of one element, its allowed absolute error and the
/// results an overflowing order gives (OverflowFlags).
struct Combined {
  double Value = 0;
  double Bound = 0;
  std::uint8_t Overflow = 0;
};

/// Half the smallest denormal: the largest absolute error of one rounding in
/// the denormal range.
double denormalError(ValueType Type) {
  return std::ldexp(1.0, Type == ValueType::F16 ? -25 : -150);
}

/// Integer ops (and bit ops of any type) on the 32-bit patterns, so that
/// sums and products wrap modulo 2^32 and i32 shares u32's arithmetic.
Combined combineBits(ValueType Type, Op O, const std::vector<double> &Terms) {
  std::uint32_t Acc = O == Op::Product ? 1u : O == Op::BitAnd ? ~0u : 0u;
  for (double Term : Terms) {
    std::uint32_t Bits = bitsOf(Type, Term);
    switch (O) {
    case Op::Sum:
      Acc += Bits;
      break;
    case Op::Product:
      Acc = static_cast<std::uint32_t>(static_cast<std::uint64_t>(Acc) * Bits);
      break;
    case Op::BitAnd:
      Acc &= Bits;
      break;
    case Op::BitOr:
      Acc |= Bits;
      break;
    default:
      Acc ^= Bits;
      break;
    }
  }
  return {fromBits(Type, Acc), 0};
}

/// fmin/fmax over the terms (a NaN only when every term is NaN); exact. For
/// integers the values compare as the type's (signed or unsigned) numbers.
Combined combineMinMax(ValueType Type, Op O, const std::vector<double> &Terms) {
  double Best = NAN;
  for (double Term : Terms) {
    double Value = roundTo(Type, Term);
    if (std::isnan(Value))
      continue;
    if (std::isnan(Best) || (O == Op::Min ? Value < Best : Value > Best))
      Best = Value;
  }
  return {Best, 0};
}

/// \p Flag when \p Condition holds, else none.
std::uint8_t flagIf(bool Condition, std::uint8_t Flag) { return Condition ? Flag : 0; }

/// An infinity of the sign of \p Positive.
std::uint8_t infinityFlag(bool Positive) {
  return Positive ? MayPositiveInfinity : MayNegativeInfinity;
}

/// A finite result \p Exact (in higher precision) with \p Bound, of which
/// some order of combination may overflow (\p Overflow): where every order
/// overflows (Exact is beyond the maximum by more than the bound), only those
/// infinities; where Exact rounds to an infinity and yet some order stays
/// finite, the largest finite value and the bound widened to Exact.
Combined finiteOrOverflow(ValueType Type, double Exact, double Bound, std::uint8_t Overflow) {
  double Max = maxFinite(Type);
  double Rounded = roundTo(Type, Exact);
  if (std::fabs(Exact) - Bound > Max)
    return {Rounded, 0,
            static_cast<std::uint8_t>(Overflow | infinityFlag(Exact > 0) | NoFiniteResult)};
  if (std::isinf(Rounded))
    return {std::copysign(Max, Exact), Bound + (std::fabs(Exact) - Max),
            static_cast<std::uint8_t>(Overflow | infinityFlag(Exact > 0))};
  return {Rounded, Bound, Overflow};
}

/// A float sum: compensated in long double, so the reference itself is
/// (nearly) exact; see Reference.h for the bound.
Combined combineSum(ValueType Type, const std::vector<double> &Terms) {
  bool HasNaN = false, PosInf = false, NegInf = false;
  long double Sum = 0, Compensation = 0, SumAbs = 0, Positive = 0, Negative = 0;
  for (double Term : Terms) {
    double X = roundTo(Type, Term);
    if (std::isnan(X)) {
      HasNaN = true;
    } else if (std::isinf(X)) {
      (X > 0 ? PosInf : NegInf) = true;
    } else {
      long double T = Sum + X;
      Compensation += std::fabs(Sum) >= std::fabs(X) ? (Sum - T) + X : (X - T) + Sum;
      Sum = T;
      SumAbs += std::fabs(X);
      (X > 0 ? Positive : Negative) += std::fabs(X);
    }
  }
  double N = static_cast<double>(Terms.size());
  double U = unitRoundoff(Type);
  // An order that adds the terms of one sign first reaches their sum (times
  // the rounding growth): beyond the maximum, it may overflow to that infinity.
  long double Growth = 1 + N * U;
  bool MayPositive = Positive * Growth > maxFinite(Type);
  bool MayNegative = Negative * Growth > maxFinite(Type);
  if (HasNaN || (PosInf && NegInf))
    return {NAN, 0};
  if (PosInf || NegInf) // an overflow of the other sign meets the infinity: NaN
    return {PosInf ? INFINITY : -INFINITY, 0, flagIf(PosInf ? MayNegative : MayPositive, MayNaN)};
  std::uint8_t Overflow = static_cast<std::uint8_t>((MayPositive ? MayPositiveInfinity : 0) |
                                                    (MayNegative ? MayNegativeInfinity : 0) |
                                                    (MayPositive && MayNegative ? MayNaN : 0));
  double Exact = static_cast<double>(Sum + Compensation);
  double Bound = (N - 1) * U * static_cast<double>(SumAbs) + U * std::fabs(Exact);
  return finiteOrOverflow(Type, Exact, Bound, Overflow);
}

/// A float product in long double (whose range holds any product of 32-bit
/// floats of a warp or block); see Reference.h for the bound.
Combined combineProduct(ValueType Type, const std::vector<double> &Terms) {
  bool HasNaN = false, HasZero = false, HasInf = false, Negative = false;
  // Big: the largest magnitude a partial product can reach; Small: the least.
  long double Product = 1, Big = 1, Small = 1;
  for (double Term : Terms) {
    double X = roundTo(Type, Term);
    if (std::isnan(X)) {
      HasNaN = true;
      continue;
    }
    Negative ^= std::signbit(X);
    long double Magnitude = std::fabs(X);
    if (Magnitude == 0) {
      HasZero = true;
    } else if (std::isinf(X)) {
      HasInf = true;
    } else {
      Product *= Magnitude;
      (Magnitude > 1 ? Big : Small) *= Magnitude;
    }
  }
  double N = static_cast<double>(Terms.size());
  double U = unitRoundoff(Type);
  double Eta = denormalError(Type);
  double Sign = Negative ? -1.0 : 1.0;
  bool MayOverflow = Big * (1 + N * U) > maxFinite(Type);
  bool MayVanish = Small < 4 * Eta; // some order may round a partial product to 0
  if (HasNaN || (HasZero && HasInf))
    return {NAN, 0};
  if (HasZero) // an overflowed partial product times 0 is NaN
    return {Sign * 0.0, 0, flagIf(MayOverflow, MayNaN)};
  if (HasInf) // a partial product rounded to 0 times an infinity is NaN
    return {Sign * INFINITY, 0, flagIf(MayVanish, MayNaN)};
  double Exact = Sign * static_cast<double>(Product);
  double Magnitude = std::fabs(Exact);
  double Bound =
      (N - 1) * U * Magnitude + U * Magnitude + N * Eta * std::max(1.0, static_cast<double>(Big));
  return finiteOrOverflow(Type, Exact, Bound, flagIf(MayOverflow, infinityFlag(!Negative)));
}

Combined combine(ValueType Type, Op O, const std::vector<double> &Terms) {
  if (O == Op::Min || O == Op::Max)
    return combineMinMax(Type, O, Terms);
  if (!isFloat(Type) || (O != Op::Sum && O != Op::Product))
    return combineBits(Type, O, Terms);
  return O == Op::Sum ? combineSum(Type, Terms) : combineProduct(Type, Terms);
}

Expected sized(std::size_t Count) {
  Expected E;
  E.Value.assign(Count, 0);
  E.Defined.assign(Count, false);
  E.Bound.assign(Count, 0);
  E.Overflow.assign(Count, 0);
  return E;
}

void set(Expected &E, std::size_t Element, const Combined &C) {
  if (Element >= E.Value.size())
    return;
  E.Value[Element] = C.Value;
  E.Defined[Element] = true;
  E.Bound[Element] = C.Bound;
  E.Overflow[Element] = C.Overflow;
}

} // namespace

bool acceptable(const Expected &Want, std::size_t Element, double Got) {
  double Value = Want.Value[Element];
  double Bound = Element < Want.Bound.size() ? Want.Bound[Element] : 0;
  std::uint8_t Overflow = Element < Want.Overflow.size() ? Want.Overflow[Element] : 0;
  if (std::isnan(Got))
    return std::isnan(Value) || (Overflow & MayNaN);
  if (Got == Value) // also +0 == -0 and equal infinities
    return !(Overflow & NoFiniteResult) || std::isinf(Got);
  if (std::isinf(Got))
    return Overflow & infinityFlag(Got > 0);
  if (Overflow & NoFiniteResult)
    return false;
  return std::isfinite(Value) && std::fabs(Got - Value) <= Bound;
}

std::string_view opName(Op O) {
  switch (O) {
  case Op::Sum:
    return "sum";
  case Op::Product:
    return "product";
  case Op::Min:
    return "min";
  case Op::Max:
    return "max";
  case Op::BitAnd:
    return "bit_and";
  case Op::BitOr:
    return "bit_or";
  case Op::BitXor:
    return "bit_xor";
  }
  return "?";
}

Expected referenceWarpReduce(ValueType Type, Op O, const std::vector<double> &In,
                             const std::vector<Warp> &Warps) {
  Expected E = sized(In.size());
  for (const Warp &W : Warps) {
    std::vector<double> Terms;
    for (const Lane &L : W.Lanes)
      if (L.Active && L.Element < In.size())
        Terms.push_back(In[L.Element]);
    if (Terms.empty())
      continue;
    Combined C = combine(Type, O, Terms);
    for (const Lane &L : W.Lanes)
      if (L.Active)
        set(E, L.Element, C);
  }
  return E;
}

// Each lane's prefix is combined afresh (n^2 per warp, n <= warp size), so
// that its bound counts exactly the terms of that prefix, Init included.
Expected referenceWarpScan(ValueType Type, Op O, const std::vector<double> &In,
                           const std::vector<Warp> &Warps, bool Inclusive, double Init) {
  Expected E = sized(In.size());
  for (const Warp &W : Warps) {
    std::vector<double> Terms{Init};
    for (const Lane &L : W.Lanes) {
      if (!L.Active || L.Element >= In.size())
        continue;
      if (Inclusive)
        Terms.push_back(In[L.Element]);
      set(E, L.Element, combine(Type, O, Terms));
      if (!Inclusive)
        Terms.push_back(In[L.Element]);
    }
  }
  return E;
}

Expected referenceBlockAtomic(ValueType Type, Op O, const std::vector<double> &In,
                              const std::vector<Warp> &Warps, std::uint32_t Blocks, double Init) {
  std::vector<std::vector<double>> Terms(Blocks, std::vector<double>{Init});
  for (const Warp &W : Warps) {
    if (W.Block >= Blocks)
      continue;
    for (const Lane &L : W.Lanes)
      if (L.Active && L.Element < In.size())
        Terms[W.Block].push_back(In[L.Element]);
  }
  Expected E = sized(Blocks);
  for (std::uint32_t Block = 0; Block < Blocks; ++Block)
    set(E, Block, combine(Type, O, Terms[Block]));
  return E;
}

Expected referenceAppend(const std::vector<double> &In, const std::vector<Warp> &Warps,
                         std::uint32_t Blocks, const AppendLayout &Layout, double Init) {
  std::uint32_t Regions = Layout.PerBlock ? Blocks : 1;
  std::vector<std::vector<double>> Items(Regions);
  for (const Warp &W : Warps) {
    if (Layout.PerBlock && W.Block >= Blocks)
      continue;
    for (const Lane &L : W.Lanes) {
      if (!L.Active || L.Element >= In.size())
        continue;
      double X = In[L.Element];
      std::uint32_t Times = Layout.Weighted ? (static_cast<std::uint32_t>(X) & 3u) + 1u : 1u;
      for (std::uint32_t T = 0; T < Times; ++T)
        Items[Layout.PerBlock ? W.Block : 0].push_back(X);
    }
  }
  std::size_t Offset = Layout.PerBlock ? 0 : 1;
  Expected E = sized(Offset + static_cast<std::size_t>(Regions) * Layout.RegionSize);
  auto Exact = [&](std::size_t Element, double Value) {
    E.Value[Element] = Value;
    E.Defined[Element] = true;
    E.Bound[Element] = 0;
  };
  if (!Layout.PerBlock)
    Exact(0, static_cast<double>(Items[0].size()));
  for (std::uint32_t R = 0; R < Regions; ++R) {
    std::vector<double> Region = Items[R];
    Region.resize(std::max<std::size_t>(Region.size(), Layout.RegionSize), Init);
    Region.resize(Layout.RegionSize); // more items than slots: the kernel is wrong
    std::sort(Region.begin(), Region.end());
    for (std::uint32_t I = 0; I < Layout.RegionSize; ++I)
      Exact(Offset + static_cast<std::size_t>(R) * Layout.RegionSize + I, Region[I]);
  }
  return E;
}

void sortAppendRegions(std::vector<double> &Out, std::uint32_t Blocks, const AppendLayout &Layout) {
  std::uint32_t Regions = Layout.PerBlock ? Blocks : 1;
  std::size_t Offset = Layout.PerBlock ? 0 : 1;
  for (std::uint32_t R = 0; R < Regions; ++R) {
    std::size_t Begin = Offset + static_cast<std::size_t>(R) * Layout.RegionSize;
    std::size_t End = std::min(Out.size(), Begin + Layout.RegionSize);
    if (Begin < End)
      std::sort(Out.begin() + Begin, Out.begin() + End);
  }
}

void widenToRegions(std::vector<bool> &Undefined, std::uint32_t Blocks,
                    const AppendLayout &Layout) {
  std::uint32_t Regions = Layout.PerBlock ? Blocks : 1;
  std::size_t Offset = Layout.PerBlock ? 0 : 1;
  for (std::uint32_t R = 0; R < Regions; ++R) {
    std::size_t Begin = Offset + static_cast<std::size_t>(R) * Layout.RegionSize;
    std::size_t End = std::min(Undefined.size(), Begin + Layout.RegionSize);
    if (Begin < End && std::find(Undefined.begin() + Begin, Undefined.begin() + End, true) !=
                           Undefined.begin() + End)
      std::fill(Undefined.begin() + Begin, Undefined.begin() + End, true);
  }
}

Expected referenceSubmissionSteps(const std::vector<double> &Init, std::uint32_t Steps) {
  Expected E = sized(Init.size());
  for (std::size_t I = 0; I < Init.size(); ++I) {
    std::uint32_t V = static_cast<std::uint32_t>(Init[I]);
    for (std::uint32_t K = 0; K < Steps; ++K)
      V = V * 3u + K;
    E.Value[I] = V;
    E.Defined[I] = true;
    E.Bound[I] = 0;
  }
  return E;
}

} // namespace kernel_tidy::harness
