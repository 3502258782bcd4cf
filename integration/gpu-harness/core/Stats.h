//===--- Stats.h - Timing statistics and the stopping rule ----------------===//
//
// Modelled on NVIDIA's NVBench: at least MinSamples samples; stop when the
// relative standard deviation is below MaxRelStdDev, or when the noise
// estimate has stopped changing, or at the time cap; samples taken while the
// GPU clock was throttled (below ThrottleRatio of its maximum) are discarded.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_GPU_HARNESS_STATS_H
#define KERNEL_TIDY_GPU_HARNESS_STATS_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kernel_tidy::harness {

struct StoppingRule {
  std::size_t MinSamples = 10;
  std::size_t MaxSamples = 10000;
  double MaxRelStdDev = 0.005;
  /// The noise is stable when, over the last StableWindow samples, the
  /// relative standard deviation moved by less than StableTolerance (relative).
  std::size_t StableWindow = 20;
  double StableTolerance = 0.05;
  double MaxSeconds = 15.0;
  double ThrottleRatio = 0.75;
};

struct Summary {
  std::size_t Samples = 0;
  std::size_t Discarded = 0;
  double Median = 0, Mean = 0, Min = 0, Max = 0;
  double RelStdDev = 0;   // sample standard deviation / mean
  std::string StopReason; // "noise below 0.5%", "noise stable", "time cap", "sample cap",
                          // "time cap (below min samples)"; empty while sampling
};

/// Collects samples (seconds each) until the stopping rule says enough.
class Sampler {
public:
  explicit Sampler(StoppingRule Rule = {}) : Rule(Rule) {}
  /// \p ClockRatio: SM clock / max SM clock while the sample ran (1 when
  /// unknown); a throttled sample is counted as discarded.
  void add(double Seconds, double ClockRatio = 1.0);
  /// Whether to stop, \p ElapsedSeconds after sampling began. In this order:
  /// "sample cap" at MaxSamples kept; "time cap" at MaxSeconds, even below
  /// MinSamples (then "time cap (below min samples)"); never below
  /// MinSamples otherwise; "noise below 0.5%" (the rule's MaxRelStdDev); "noise
  /// stable" when the last StableWindow entries of the noise history span
  /// (max - min) / mean < StableTolerance.
  bool done(double ElapsedSeconds);
  Summary summary() const;
  const std::vector<double> &samples() const { return Kept; }

private:
  StoppingRule Rule;
  std::vector<double> Kept;
  std::vector<double> NoiseHistory; // relative std dev after each kept sample
  std::size_t Discarded = 0;
  std::string Reason;
  // Welford's running mean and sum of squared deviations of Kept, so that
  // each add() updates the noise estimate in constant time.
  double RunningMean = 0, RunningM2 = 0;
};

/// Median (mean of the middle two for an even count), mean, min, max and
/// sample standard deviation / mean of \p Samples; Discarded and StopReason
/// are left empty.
Summary summarize(const std::vector<double> &Samples);

/// Speed-up of After over Before (median(Before) / median(After)) with a
/// percentile bootstrap confidence interval (seeded, reproducible).
struct SpeedUp {
  double Estimate = 0, Low = 0, High = 0;
  double Confidence = 0.95;
};
SpeedUp speedUp(const std::vector<double> &Before, const std::vector<double> &After,
                std::uint64_t Seed = 1, double Confidence = 0.95, std::size_t Resamples = 2000);

/// How a measured speed-up classifies a rewrite on a target: faster when the
/// whole interval is above 1 + Margin, slower when below 1 - Margin, else
/// parity.
enum class Gain { Faster, Parity, Slower };
Gain classify(const SpeedUp &S, double Margin = 0.02);
const char *gainName(Gain G); // "faster", "parity", "slower"

} // namespace kernel_tidy::harness

#endif
