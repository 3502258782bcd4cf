//===--- Inputs.cpp - Seeded, reproducible input sets ---------------------===//

#include "Inputs.h"
#include <algorithm>
#include <cfloat>
#include <cmath>

namespace kernel_tidy::harness {

namespace {

/// Significant bits of a float type (24, 11).
int precisionOf(ValueType Type) { return Type == ValueType::F16 ? 11 : 24; }

/// A Uniform value of \p Type. Floats are drawn from the grid k * 2^-p,
/// |k| <= 2^p (p: the type's precision), whose points in [-1, 1) are all
/// representable: rounding a real draw could give 1 itself.
double uniformValue(ValueType Type, Random &R) {
  switch (Type) {
  case ValueType::U32:
    return static_cast<double>(R.next() % 1000);
  case ValueType::I32:
    return static_cast<double>(R.next() % 2000) - 1000;
  case ValueType::F32:
  case ValueType::F16: {
    int P = precisionOf(Type);
    double K = static_cast<double>(R.next() >> (64 - (P + 1))) - std::ldexp(1.0, P);
    return std::ldexp(K, -P);
  }
  }
  return 0;
}

std::vector<double> specialValues(ValueType Type) {
  // A typical denormal and the smallest one.
  double Denormal = Type == ValueType::F16 ? std::ldexp(3.0, -24) : roundTo(Type, 1e-40);
  double Smallest = Type == ValueType::F16 ? std::ldexp(1.0, -24) : std::ldexp(1.0, -149);
  return {NAN, INFINITY, -INFINITY, -0.0, 0.0, Denormal, -Denormal, Smallest};
}

std::vector<double> extremeValues(ValueType Type) {
  switch (Type) {
  case ValueType::U32:
    return {0, 1, 4294967295.0, 4294967294.0, 2147483648.0, 2147483647.0};
  case ValueType::I32:
    return {-2147483648.0, 2147483647.0, -2147483647.0, 0, 1, -1};
  case ValueType::F32:
    return {FLT_MAX, -FLT_MAX, roundTo(Type, 3e38), roundTo(Type, -3e38), 0.0, -0.0, 1.0, FLT_MIN};
  case ValueType::F16:
    return {65504.0, -65504.0, roundTo(Type, 65000), roundTo(Type, -65000), 0.0,
            -0.0,    1.0,      std::ldexp(1.0, -14)};
  }
  return {};
}

/// Four distinct Uniform values.
std::vector<double> duplicateValues(ValueType Type, Random &R) {
  std::vector<double> Set;
  while (Set.size() < 4) {
    double Value = uniformValue(Type, R);
    if (std::find(Set.begin(), Set.end(), Value) == Set.end())
      Set.push_back(Value);
  }
  return Set;
}

double pick(const std::vector<double> &From, Random &R) { return From[R.next() % From.size()]; }

} // namespace

std::uint64_t Random::next() {
  State += 0x9e3779b97f4a7c15ULL;
  std::uint64_t Z = State;
  Z = (Z ^ (Z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  Z = (Z ^ (Z >> 27)) * 0x94d049bb133111ebULL;
  return Z ^ (Z >> 31);
}

double Random::uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

std::string_view inputSetName(InputSet Set) {
  switch (Set) {
  case InputSet::Uniform:
    return "uniform";
  case InputSet::Special:
    return "special";
  case InputSet::AllEqual:
    return "all-equal";
  case InputSet::Extremes:
    return "extremes";
  case InputSet::Duplicates:
    return "duplicates";
  }
  return "?";
}

bool appliesTo(InputSet Set, ValueType Type) { return Set != InputSet::Special || isFloat(Type); }

// Every value comes from the stream of one Random whose seed mixes the
// arguments, so a shorter Count gives a prefix of a longer one. Special on an
// integer type (which appliesTo rejects) gives the Uniform values.
std::vector<double> makeInputs(ValueType Type, InputSet Set, std::size_t Count,
                               std::uint64_t Seed) {
  std::uint64_t Tag = static_cast<std::uint64_t>(Type) << 8 | static_cast<std::uint64_t>(Set);
  Random R(Random(Seed).next() ^ Tag);
  std::vector<double> Values;
  Values.reserve(Count);
  std::vector<double> Specials = specialValues(Type);
  std::vector<double> Extremes = extremeValues(Type);
  std::vector<double> Duplicates;
  if (Set == InputSet::Duplicates)
    Duplicates = duplicateValues(Type, R);
  for (std::size_t I = 0; I < Count; ++I) {
    switch (Set) {
    case InputSet::Uniform:
      Values.push_back(uniformValue(Type, R));
      break;
    case InputSet::Special: {
      // About one value in 16 is special, so that many warps hold none and
      // the ordinary path is exercised next to the special one.
      bool Special = isFloat(Type) && R.next() % 16 == 0;
      Values.push_back(Special ? pick(Specials, R) : uniformValue(Type, R));
      break;
    }
    case InputSet::AllEqual:
      Values.push_back(isFloat(Type) ? -0.75 : Type == ValueType::I32 ? -3.0 : 3.0);
      break;
    case InputSet::Extremes:
      Values.push_back(pick(Extremes, R));
      break;
    case InputSet::Duplicates:
      Values.push_back(pick(Duplicates, R));
      break;
    }
  }
  return Values;
}

} // namespace kernel_tidy::harness
