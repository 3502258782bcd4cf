//===--- Nvml.h - GPU name, driver and clocks through NVML, if present ----===//
//
// NVML is loaded at run time (libnvidia-ml.so.1, part of the NVIDIA driver),
// so the harness needs no CUDA headers and still runs where NVML is absent:
// then the GPU and driver are "unknown" and no sample counts as throttled.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_GPU_HARNESS_NVML_H
#define KERNEL_TIDY_GPU_HARNESS_NVML_H

#include <string>

namespace kernel_tidy::harness {

/// The first NVIDIA GPU as NVML sees it.
class Nvml {
public:
  Nvml();
  ~Nvml();
  Nvml(const Nvml &) = delete;
  Nvml &operator=(const Nvml &) = delete;

  bool available() const { return Device != nullptr; }
  std::string gpuName() const;
  std::string driverVersion() const;
  /// Current SM clock / maximum SM clock (1 when unknown): NVBench discards
  /// samples taken below 75% of the maximum.
  double clockRatio() const;

private:
  void *Library = nullptr;
  void *Device = nullptr;
};

} // namespace kernel_tidy::harness

#endif
