//===--- Values.h - Value types and host-side values of the GPU harness ---===//
//
// Every element is held on the host as a double, which represents u32, i32,
// f32 and f16 values exactly; conversion to and from the bytes a device buffer
// holds is explicit.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_GPU_HARNESS_VALUES_H
#define KERNEL_TIDY_GPU_HARNESS_VALUES_H

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace kernel_tidy::harness {

enum class ValueType { U32, I32, F32, F16 };

/// "u32", "i32", "f32", "f16".
std::string_view typeName(ValueType Type);
bool isFloat(ValueType Type);
/// Bytes per element in a device buffer (4, or 2 for f16).
std::size_t byteSize(ValueType Type);
/// The unit roundoff of a float type (2^-24 for f32, 2^-11 for f16); 0 for
/// integers.
double unitRoundoff(ValueType Type);

/// IEEE binary16 conversions, round to nearest even (NaN stays NaN).
std::uint16_t floatToHalfBits(float Value);
float halfBitsToFloat(std::uint16_t Bits);

/// Rounds \p Value to the nearest value of \p Type: floats round to nearest
/// even, integers wrap around modulo 2^32 as on the GPU.
double roundTo(ValueType Type, double Value);

/// The bit pattern of \p Value rounded to \p Type (f16 in the low 16 bits).
std::uint32_t bitsOf(ValueType Type, double Value);
/// The value whose bit pattern as \p Type is \p Bits (the inverse of bitsOf).
double fromBits(ValueType Type, std::uint32_t Bits);
/// The largest finite value of a float type (FLT_MAX, 65504); 0 for integers.
double maxFinite(ValueType Type);

/// The bytes of a device buffer holding \p Values as \p Type.
std::vector<std::byte> toDeviceBytes(ValueType Type, const std::vector<double> &Values);
/// The values of a device buffer of \p Count elements of \p Type.
std::vector<double> fromDeviceBytes(ValueType Type, const std::byte *Data, std::size_t Count);

} // namespace kernel_tidy::harness

#endif
