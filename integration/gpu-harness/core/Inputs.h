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
enum class InputSet { Uniform, Special, AllEqual, Extremes, Duplicates };

std::string_view inputSetName(InputSet Set);
/// Whether \p Set makes sense for \p Type (Special is for floats only).
bool appliesTo(InputSet Set, ValueType Type);
/// \p Count values of \p Type; the same (Type, Set, Count, Seed) always gives
/// the same values on every platform (own PRNG, no std:: distributions).
std::vector<double> makeInputs(ValueType Type, InputSet Set, std::size_t Count,
                               std::uint64_t Seed);

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
