//===--- Inputs.h - Seeded, reproducible input sets -----------------------===//

#ifndef KERNEL_TIDY_GPU_HARNESS_INPUTS_H
#define KERNEL_TIDY_GPU_HARNESS_INPUTS_H

#include "Values.h"
#include <cstdint>
#include <string_view>
#include <vector>

namespace kernel_tidy::harness {

/// The input sets every case runs on. Uniform: ints in [0, 1000) (u32) or
/// [-1000, 1000) (i32), floats in [-1, 1). Special (floats): NaN, +-inf, -0,
/// denormals mixed with ordinary values. AllEqual: one repeated value.
/// Extremes: the type's min/max, +-0 and values near overflow. Duplicates:
/// few distinct values, many repeats.
///
/// In detail: Uniform floats lie on the grid k * 2^-p (p: 24 for f32, 11 for
/// f16), so every value is representable and below 1. Special makes about one
/// value in 16 special (NaN, +-inf, +-0, +-denormal, the smallest denormal)
/// and the rest Uniform, so that many warps hold no special value; on an
/// integer type it gives the Uniform values. AllEqual repeats -0.75 (floats),
/// -3 (i32) or 3 (u32): every block of a signed type all negative, where a max
/// or min that starts from 0 instead of the lowest value shows. Extremes draws from: u32 {0, 1,
/// 2^32-1, 2^32-2, 2^31, 2^31-1}; i32 {-2^31, 2^31-1, -2^31+1, 0, 1, -1}; f32 {+-FLT_MAX, +-3e38,
/// +-0, 1, FLT_MIN}; f16 {+-65504, +-64992 (65000 rounded), +-0, 1, 2^-14}.
/// Duplicates draws from four distinct Uniform values.
enum class InputSet { Uniform, Special, AllEqual, Extremes, Duplicates };

std::string_view inputSetName(InputSet Set);
/// Whether \p Set makes sense for \p Type (Special is for floats only).
bool appliesTo(InputSet Set, ValueType Type);
/// \p Count values of \p Type; the same (Type, Set, Count, Seed) always gives
/// the same values on every platform (own PRNG, no std:: distributions), and
/// a smaller Count gives a prefix of the values of a larger one.
std::vector<double> makeInputs(ValueType Type, InputSet Set, std::size_t Count, std::uint64_t Seed);

/// A small deterministic PRNG (splitmix64), for inputs and masks.
class Random {
public:
  explicit Random(std::uint64_t Seed) : State(Seed) {}
  std::uint64_t next();
  /// Uniform in [0, 1).
  double uniform();

private:
  std::uint64_t State;
};

} // namespace kernel_tidy::harness

#endif
