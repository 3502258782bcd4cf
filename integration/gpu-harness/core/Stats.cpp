//===--- Stats.cpp - Timing statistics and the stopping rule --------------===//

#include "Stats.h"
#include "Inputs.h"
#include <algorithm>
#include <cmath>
#include <cstdio>

namespace kernel_tidy::harness {

namespace {

double medianOf(std::vector<double> Values) {
  if (Values.empty())
    return 0;
  std::size_t Mid = Values.size() / 2;
  std::nth_element(Values.begin(), Values.begin() + Mid, Values.end());
  double Upper = Values[Mid];
  if (Values.size() % 2 == 1)
    return Upper;
  double Lower = *std::max_element(Values.begin(), Values.begin() + Mid);
  return (Lower + Upper) / 2;
}

/// The Q-quantile of sorted values, interpolating linearly between ranks.
double quantileOf(const std::vector<double> &Sorted, double Q) {
  if (Sorted.empty())
    return 0;
  double Position = Q * static_cast<double>(Sorted.size() - 1);
  std::size_t Below = static_cast<std::size_t>(std::floor(Position));
  std::size_t Above = std::min(Below + 1, Sorted.size() - 1);
  double Fraction = Position - static_cast<double>(Below);
  return Sorted[Below] + Fraction * (Sorted[Above] - Sorted[Below]);
}

std::vector<double> resample(const std::vector<double> &Values, Random &R) {
  std::vector<double> Drawn(Values.size());
  for (double &Value : Drawn)
    Value = Values[R.next() % Values.size()];
  return Drawn;
}

std::string noiseBelowReason(double MaxRelStdDev) {
  char Buffer[64];
  std::snprintf(Buffer, sizeof Buffer, "noise below %g%%", MaxRelStdDev * 100);
  return Buffer;
}

/// Whether the last Window entries of History span less than Tolerance of
/// their mean.
bool isStable(const std::vector<double> &History, std::size_t Window, double Tolerance) {
  if (Window < 2 || History.size() < Window)
    return false;
  auto First = History.end() - static_cast<std::ptrdiff_t>(Window);
  auto [Low, High] = std::minmax_element(First, History.end());
  double Mean = 0;
  for (auto It = First; It != History.end(); ++It)
    Mean += *It;
  Mean /= static_cast<double>(Window);
  return Mean > 0 && (*High - *Low) / Mean < Tolerance;
}

} // namespace

void Sampler::add(double Seconds, double ClockRatio) {
  if (ClockRatio < Rule.ThrottleRatio) {
    ++Discarded;
    return;
  }
  Kept.push_back(Seconds);
  double Count = static_cast<double>(Kept.size());
  double Delta = Seconds - RunningMean;
  RunningMean += Delta / Count;
  RunningM2 += Delta * (Seconds - RunningMean);
  // One sample has no spread: the history starts at two.
  if (Kept.size() < 2 || RunningMean == 0)
    return;
  NoiseHistory.push_back(std::sqrt(RunningM2 / (Count - 1)) / RunningMean);
}

bool Sampler::done(double ElapsedSeconds) {
  if (Kept.size() >= Rule.MaxSamples) {
    Reason = "sample cap";
    return true;
  }
  // As NVBench does, the time cap wins over the minimum sample count, so a
  // kernel too slow for MinSamples still finishes.
  if (ElapsedSeconds >= Rule.MaxSeconds) {
    Reason = Kept.size() < Rule.MinSamples ? "time cap (below min samples)" : "time cap";
    return true;
  }
  // A reason given earlier no longer holds once more samples changed the
  // noise (callers may keep adding after a true).
  Reason.clear();
  if (Kept.size() < Rule.MinSamples || NoiseHistory.empty())
    return false;
  if (NoiseHistory.back() < Rule.MaxRelStdDev) {
    Reason = noiseBelowReason(Rule.MaxRelStdDev);
    return true;
  }
  if (isStable(NoiseHistory, Rule.StableWindow, Rule.StableTolerance)) {
    Reason = "noise stable";
    return true;
  }
  return false;
}

Summary Sampler::summary() const {
  Summary S = summarize(Kept);
  S.Discarded = Discarded;
  S.StopReason = Reason;
  return S;
}

Summary summarize(const std::vector<double> &Samples) {
  Summary S;
  S.Samples = Samples.size();
  if (Samples.empty())
    return S;
  auto [Low, High] = std::minmax_element(Samples.begin(), Samples.end());
  S.Min = *Low;
  S.Max = *High;
  S.Median = medianOf(Samples);
  double Sum = 0;
  for (double Value : Samples)
    Sum += Value;
  double Count = static_cast<double>(Samples.size());
  S.Mean = Sum / Count;
  if (Samples.size() < 2 || S.Mean == 0)
    return S;
  double Squares = 0;
  for (double Value : Samples)
    Squares += (Value - S.Mean) * (Value - S.Mean);
  S.RelStdDev = std::sqrt(Squares / (Count - 1)) / S.Mean;
  return S;
}

SpeedUp speedUp(const std::vector<double> &Before, const std::vector<double> &After,
                std::uint64_t Seed, double Confidence, std::size_t Resamples) {
  SpeedUp S;
  S.Confidence = Confidence;
  double AfterMedian = medianOf(After);
  if (Before.empty() || After.empty() || AfterMedian == 0)
    return S;
  S.Estimate = medianOf(Before) / AfterMedian;
  S.Low = S.High = S.Estimate;
  Random R(Seed);
  std::vector<double> Ratios;
  Ratios.reserve(Resamples);
  for (std::size_t I = 0; I < Resamples; ++I) {
    double Numerator = medianOf(resample(Before, R));
    double Denominator = medianOf(resample(After, R));
    if (Denominator > 0)
      Ratios.push_back(Numerator / Denominator);
  }
  if (Ratios.empty())
    return S;
  std::sort(Ratios.begin(), Ratios.end());
  S.Low = quantileOf(Ratios, (1 - Confidence) / 2);
  S.High = quantileOf(Ratios, (1 + Confidence) / 2);
  return S;
}

Gain classify(const SpeedUp &S, double Margin) {
  if (S.Low > 1 + Margin)
    return Gain::Faster;
  if (S.High < 1 - Margin)
    return Gain::Slower;
  return Gain::Parity;
}

const char *gainName(Gain G) {
  switch (G) {
  case Gain::Faster:
    return "faster";
  case Gain::Parity:
    return "parity";
  case Gain::Slower:
    return "slower";
  }
  return "?";
}

} // namespace kernel_tidy::harness
