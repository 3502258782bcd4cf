//===--- Values.cpp - Value types and host-side values of the GPU harness -===//

#include "Values.h"
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>

namespace kernel_tidy::harness {

namespace {

constexpr double TwoTo32 = 4294967296.0;
constexpr double TwoTo31 = 2147483648.0;
// Float values at or above 2^128 - 2^103 (FLT_MAX plus half an ulp) round
// to infinity.
constexpr double FloatOverflow = 0x1.ffffffp127;
constexpr double HalfMax = 65504.0;
// Half values at or above this magnitude round to infinity (65504 plus half
// an ulp of 32; the tie goes to the even neighbour, which is infinity).
constexpr double HalfOverflow = 65520.0;
constexpr int HalfMinExponent = -14; // of the smallest normal, 2^-14
constexpr int HalfMantissaBits = 10;

/// Rounds a finite double to the nearest half value, ties to even, in one
/// step: going through float first could round twice and miss a tie.
double roundToHalf(double Value) {
  if (std::isnan(Value) || std::isinf(Value) || Value == 0)
    return Value;
  if (std::fabs(Value) >= HalfOverflow)
    return std::copysign(INFINITY, Value);
  int Exponent = 0;
  std::frexp(Value, &Exponent); // Value = m * 2^Exponent, 0.5 <= |m| < 1
  // The spacing of half values near Value; denormals share the smallest.
  int QuantumExponent = std::max(Exponent - 1, HalfMinExponent) - HalfMantissaBits;
  // Scaling by a power of two is exact; nearbyint rounds ties to even in the
  // default rounding mode.
  return std::ldexp(std::nearbyint(std::ldexp(Value, -QuantumExponent)), QuantumExponent);
}

/// Rounds to float, ties to even. Beyond the float range the conversion is
/// undefined in C++, so overflow to infinity (as on the GPU) is explicit.
double roundToFloat(double Value) {
  if (std::fabs(Value) >= FloatOverflow)
    return std::copysign(INFINITY, Value);
  if (std::fabs(Value) > FLT_MAX)
    return std::copysign(FLT_MAX, Value);
  return static_cast<double>(static_cast<float>(Value));
}

/// Two's complement wrap of an integer-valued double into [0, 2^32); the
/// fraction is dropped first, as a C conversion does.
double wrapU32(double Value) {
  if (!std::isfinite(Value))
    return 0; // undefined in C; never produced by the harness
  double Wrapped = std::fmod(std::trunc(Value), TwoTo32);
  if (Wrapped == 0)
    return 0; // not -0, which an integer cannot hold
  return Wrapped < 0 ? Wrapped + TwoTo32 : Wrapped;
}

std::uint16_t halfBitsOfRounded(double Rounded) {
  std::uint16_t Sign = std::signbit(Rounded) ? 0x8000 : 0;
  if (std::isnan(Rounded))
    return Sign | 0x7e00; // quiet NaN
  if (std::isinf(Rounded))
    return Sign | 0x7c00;
  double Magnitude = std::fabs(Rounded);
  if (Magnitude < std::ldexp(1.0, HalfMinExponent)) // denormal or zero
    return Sign | static_cast<std::uint16_t>(std::ldexp(Magnitude, 24));
  int Exponent = 0;
  std::frexp(Magnitude, &Exponent);
  int Biased = Exponent - 1 + 15;
  double Mantissa = std::ldexp(Magnitude, HalfMantissaBits - (Exponent - 1)) - 1024;
  return Sign | static_cast<std::uint16_t>(Biased << HalfMantissaBits) |
         static_cast<std::uint16_t>(Mantissa);
}

} // namespace

std::string_view typeName(ValueType Type) {
  switch (Type) {
  case ValueType::U32:
    return "u32";
  case ValueType::I32:
    return "i32";
  case ValueType::F32:
    return "f32";
  case ValueType::F16:
    return "f16";
  }
  return "?";
}

bool isFloat(ValueType Type) { return Type == ValueType::F32 || Type == ValueType::F16; }

std::size_t byteSize(ValueType Type) { return Type == ValueType::F16 ? 2 : 4; }

double unitRoundoff(ValueType Type) {
  switch (Type) {
  case ValueType::F32:
    return std::ldexp(1.0, -24);
  case ValueType::F16:
    return std::ldexp(1.0, -11);
  default:
    return 0;
  }
}

double maxFinite(ValueType Type) {
  switch (Type) {
  case ValueType::F32:
    return FLT_MAX;
  case ValueType::F16:
    return HalfMax;
  default:
    return 0;
  }
}

std::uint16_t floatToHalfBits(float Value) {
  return halfBitsOfRounded(roundToHalf(static_cast<double>(Value)));
}

float halfBitsToFloat(std::uint16_t Bits) {
  float Sign = (Bits & 0x8000) ? -1.0f : 1.0f;
  int Exponent = (Bits >> HalfMantissaBits) & 0x1f;
  int Mantissa = Bits & 0x3ff;
  if (Exponent == 0x1f)
    return Mantissa ? std::copysign(NAN, Sign) : Sign * INFINITY;
  if (Exponent == 0)
    return Sign * std::ldexp(static_cast<float>(Mantissa), -24);
  return Sign * std::ldexp(static_cast<float>(Mantissa + 1024), Exponent - 25);
}

double roundTo(ValueType Type, double Value) {
  switch (Type) {
  case ValueType::U32:
    return wrapU32(Value);
  case ValueType::I32: {
    double Wrapped = wrapU32(Value);
    return Wrapped >= TwoTo31 ? Wrapped - TwoTo32 : Wrapped;
  }
  case ValueType::F32:
    return roundToFloat(Value);
  case ValueType::F16:
    return roundToHalf(Value);
  }
  return Value;
}

std::uint32_t bitsOf(ValueType Type, double Value) {
  double Rounded = roundTo(Type, Value);
  switch (Type) {
  case ValueType::U32:
  case ValueType::I32:
    return static_cast<std::uint32_t>(wrapU32(Rounded));
  case ValueType::F32: {
    float AsFloat = static_cast<float>(Rounded);
    std::uint32_t Bits = 0;
    std::memcpy(&Bits, &AsFloat, sizeof Bits);
    return Bits;
  }
  case ValueType::F16:
    return halfBitsOfRounded(Rounded);
  }
  return 0;
}

double fromBits(ValueType Type, std::uint32_t Bits) {
  switch (Type) {
  case ValueType::U32:
    return Bits;
  case ValueType::I32:
    return static_cast<double>(static_cast<std::int32_t>(Bits));
  case ValueType::F32: {
    float AsFloat = 0;
    std::memcpy(&AsFloat, &Bits, sizeof AsFloat);
    return AsFloat;
  }
  case ValueType::F16:
    return halfBitsToFloat(static_cast<std::uint16_t>(Bits));
  }
  return 0;
}

// Device buffers hold the host's byte order: every backend the harness runs
// on is little-endian, like the host.
std::vector<std::byte> toDeviceBytes(ValueType Type, const std::vector<double> &Values) {
  std::size_t Size = byteSize(Type);
  std::vector<std::byte> Bytes(Values.size() * Size);
  for (std::size_t I = 0; I < Values.size(); ++I) {
    std::uint32_t Bits = bitsOf(Type, Values[I]);
    if (Size == 2) {
      std::uint16_t Half = static_cast<std::uint16_t>(Bits);
      std::memcpy(&Bytes[I * Size], &Half, Size);
    } else {
      std::memcpy(&Bytes[I * Size], &Bits, Size);
    }
  }
  return Bytes;
}

std::vector<double> fromDeviceBytes(ValueType Type, const std::byte *Data, std::size_t Count) {
  std::size_t Size = byteSize(Type);
  std::vector<double> Values(Count);
  for (std::size_t I = 0; I < Count; ++I) {
    std::uint32_t Bits = 0;
    if (Size == 2) {
      std::uint16_t Half = 0;
      std::memcpy(&Half, Data + I * Size, Size);
      Bits = Half;
    } else {
      std::memcpy(&Bits, Data + I * Size, Size);
    }
    Values[I] = fromBits(Type, Bits);
  }
  return Values;
}

} // namespace kernel_tidy::harness
