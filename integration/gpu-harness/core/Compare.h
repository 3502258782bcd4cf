//===--- Compare.h - Comparing device results with the reference ----------===//

#ifndef KERNEL_TIDY_GPU_HARNESS_COMPARE_H
#define KERNEL_TIDY_GPU_HARNESS_COMPARE_H

#include "Costs.h"
#include "Reference.h"
#include <cstddef>
#include <string>
#include <vector>

namespace kernel_tidy::harness {

/// Distance in units in the last place of \p Type between two values of
/// that type (0 when equal, +0 and -0 equal; infinite when one is NaN and the
/// other not, or the signs of infinities differ). Integers: |a - b|.
/// Floats are placed on a line of their bit patterns where neighbours are one
/// apart across zero (the smallest denormals of either sign are 2 apart) and
/// the largest finite value is 1 from infinity.
double ulpDistance(ValueType Type, double A, double B);

/// \p Value with enough significant digits to tell two values of \p Type apart.
std::string formatValue(ValueType Type, double Value);

struct Comparison {
  std::size_t Checked = 0;
  std::size_t Mismatches = 0;
  double MaxUlp = 0;             // largest distance seen, within bound or not
  std::size_t FirstMismatch = 0; // element index, valid when Mismatches > 0
  std::string Detail;            // "element 37: got 1.5, expected 2 (bound 0, 4194304 ulp)"
  bool ok() const { return Mismatches == 0; }
};

/// Undefined behaviour that a version showed (counted on the SIMT executor; a
/// GPU backend reports none). A rewrite must not add any.
enum class Hazard { DivergentBarrier, OutOfBounds, UndefinedUse, Race };
inline constexpr int HazardCount = 4;
const char *hazardName(Hazard H); // "divergent barrier", ...

/// What one version of a case left in its output: the values, which of them
/// are undefined (computed from an undefined read: of an inactive lane, or of
/// Shared memory before any write; SIMT only) and its hazards.
struct RunOutput {
  std::vector<double> Value;
  std::vector<bool> Undefined; // shorter than Value: the rest are defined
  std::size_t Hazards[HazardCount] = {};
  /// The SIMT executor's cost counters of the run, per warp (empty on a GPU).
  CostCounts Costs;

  bool undefined(std::size_t Element) const {
    return Element >= Value.size() || (Element < Undefined.size() && Undefined[Element]);
  }
};

/// Compares the defined elements of \p Actual with \p Want: equal (NaN
/// matches NaN, +0 matches -0), within the element's bound, or a result of an
/// order that overflows (acceptable()); a defined element past the end of
/// \p Actual, or one that \p Actual holds as undefined, is a mismatch.
Comparison compare(ValueType Type, const Expected &Want, const RunOutput &Actual);
Comparison compare(ValueType Type, const Expected &Want, const std::vector<double> &Actual);

/// Whether two outputs hold the same values with the same multiplicities,
/// ignoring their order (appends whose order a rewrite may change).
bool sameMultiset(std::vector<double> A, std::vector<double> B);

} // namespace kernel_tidy::harness

#endif
