//===--- Compare.h - Comparing device results with the reference ----------===//

#ifndef KERNEL_TIDY_GPU_HARNESS_COMPARE_H
#define KERNEL_TIDY_GPU_HARNESS_COMPARE_H

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

struct Comparison {
  std::size_t Checked = 0;
  std::size_t Mismatches = 0;
  double MaxUlp = 0;             // largest distance seen, within bound or not
  std::size_t FirstMismatch = 0; // element index, valid when Mismatches > 0
  std::string Detail;            // "element 37: got 1.5, expected 2 (bound 0, 4194304 ulp)"
  bool ok() const { return Mismatches == 0; }
};

/// Compares the defined elements of \p Actual with \p Want: equal (NaN
/// matches NaN, +0 matches -0), or within the element's bound. An infinite
/// bound (an order-dependent result, see Expected) accepts any value; a
/// defined element past the end of \p Actual is a mismatch.
Comparison compare(ValueType Type, const Expected &Want, const std::vector<double> &Actual);

/// Whether two outputs hold the same values with the same multiplicities,
/// ignoring their order (appends whose order a rewrite may change).
bool sameMultiset(std::vector<double> A, std::vector<double> B);

} // namespace kernel_tidy::harness

#endif
