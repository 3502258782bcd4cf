//===--- Compare.cpp - Comparing device results with the reference --------===//

#include "Compare.h"
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace kernel_tidy::harness {

namespace {

/// The position of a float on a line where neighbouring values are one apart
/// and +0 and -0 coincide: the magnitude bits, negated for negative values.
std::int64_t orderedPosition(ValueType Type, double Value) {
  std::uint32_t Bits = bitsOf(Type, Value);
  std::uint32_t SignMask = Type == ValueType::F16 ? 0x8000u : 0x80000000u;
  std::int64_t Magnitude = Bits & (SignMask - 1);
  return (Bits & SignMask) ? -Magnitude : Magnitude;
}

std::string describe(ValueType Type, std::size_t Element, const std::string &Got, double Want,
                     double Bound, double Ulp) {
  char Numbers[96];
  std::snprintf(Numbers, sizeof Numbers, " (bound %g, %.0f ulp)", Bound, Ulp);
  std::string Text = "element " + std::to_string(Element) + ": got " + Got + ", expected " +
                     formatValue(Type, Want);
  // "%.0f" of an infinite distance gives "inf", which reads as intended.
  return Text + Numbers;
}

} // namespace

std::string formatValue(ValueType Type, double Value) {
  int Digits = Type == ValueType::F32 ? 9 : Type == ValueType::F16 ? 5 : 10;
  char Buffer[64];
  std::snprintf(Buffer, sizeof Buffer, "%.*g", Digits, Value);
  return Buffer;
}

double ulpDistance(ValueType Type, double A, double B) {
  if (!isFloat(Type))
    return std::fabs(A - B);
  bool NaNA = std::isnan(A), NaNB = std::isnan(B);
  if (NaNA || NaNB)
    return NaNA && NaNB ? 0 : INFINITY;
  if (std::isinf(A) && std::isinf(B) && (A > 0) != (B > 0))
    return INFINITY;
  std::int64_t Distance = orderedPosition(Type, A) - orderedPosition(Type, B);
  return static_cast<double>(Distance < 0 ? -Distance : Distance);
}

const char *hazardName(Hazard H) {
  switch (H) {
  case Hazard::DivergentBarrier:
    return "divergent barrier";
  case Hazard::OutOfBounds:
    return "out of bounds";
  case Hazard::UndefinedUse:
    return "undefined use";
  case Hazard::Race:
    return "race";
  }
  return "?";
}

Comparison compare(ValueType Type, const Expected &Want, const RunOutput &Actual) {
  Comparison Result;
  std::size_t Undefined = 0, FirstUndefined = 0;
  for (std::size_t I = 0; I < Want.Value.size(); ++I) {
    if (I >= Want.Defined.size() || !Want.Defined[I])
      continue;
    ++Result.Checked;
    bool Present = I < Actual.Value.size();
    if (Present && Actual.undefined(I)) {
      if (Undefined++ == 0)
        FirstUndefined = I;
      continue;
    }
    double Got = Present ? Actual.Value[I] : NAN;
    double Bound = I < Want.Bound.size() ? Want.Bound[I] : 0;
    double Ulp = Present ? ulpDistance(Type, Got, Want.Value[I]) : INFINITY;
    Result.MaxUlp = std::max(Result.MaxUlp, Ulp);
    // An element past the end of a short output is a mismatch at any bound.
    if (Present && acceptable(Want, I, Got))
      continue;
    if (Result.Mismatches++ == 0) {
      Result.FirstMismatch = I;
      std::string GotText = Present ? formatValue(Type, Got) : "nothing (output too short)";
      Result.Detail = describe(Type, I, GotText, Want.Value[I], Bound, Ulp);
    }
  }
  if (Undefined == 0)
    return Result;
  if (Result.Mismatches == 0) {
    Result.FirstMismatch = FirstUndefined;
    Result.Detail = "element " + std::to_string(FirstUndefined) +
                    ": undefined (computed from an undefined read), " + std::to_string(Undefined) +
                    " such elements";
  }
  Result.Mismatches += Undefined;
  return Result;
}

Comparison compare(ValueType Type, const Expected &Want, const std::vector<double> &Actual) {
  return compare(Type, Want, RunOutput{Actual, {}, {}, {}});
}

bool sameMultiset(std::vector<double> A, std::vector<double> B) {
  if (A.size() != B.size())
    return false;
  // NaNs sort last, all equivalent; +0 and -0 are equivalent and compare equal.
  auto Less = [](double X, double Y) {
    if (std::isnan(X))
      return false;
    return std::isnan(Y) || X < Y;
  };
  std::sort(A.begin(), A.end(), Less);
  std::sort(B.begin(), B.end(), Less);
  for (std::size_t I = 0; I < A.size(); ++I)
    if (!(A[I] == B[I] || (std::isnan(A[I]) && std::isnan(B[I]))))
      return false;
  return true;
}

} // namespace kernel_tidy::harness
