//===--- Nvml.cpp - GPU name, driver and clocks through NVML, if present --===//

#include "Nvml.h"
#include <dlfcn.h>

namespace kernel_tidy::harness {
namespace {

// The few NVML entry points used, declared as NVML's header does (nvml.h is
// not needed: these signatures are part of NVML's stable ABI).
using NvmlReturn = int;
constexpr NvmlReturn NvmlSuccess = 0;
constexpr int NvmlClockSm = 1;
using InitFn = NvmlReturn (*)();
using GetHandleFn = NvmlReturn (*)(unsigned, void **);
using GetNameFn = NvmlReturn (*)(void *, char *, unsigned);
using GetDriverFn = NvmlReturn (*)(char *, unsigned);
using GetClockFn = NvmlReturn (*)(void *, int, unsigned *);
using ShutdownFn = NvmlReturn (*)();

template <typename Fn> Fn symbol(void *Library, const char *Name) {
  return Library ? reinterpret_cast<Fn>(dlsym(Library, Name)) : nullptr;
}

} // namespace

Nvml::Nvml() {
  Library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  auto Init = symbol<InitFn>(Library, "nvmlInit_v2");
  auto GetHandle = symbol<GetHandleFn>(Library, "nvmlDeviceGetHandleByIndex_v2");
  if (!Init || !GetHandle || Init() != NvmlSuccess)
    return;
  void *Handle = nullptr;
  if (GetHandle(0, &Handle) == NvmlSuccess)
    Device = Handle;
}

Nvml::~Nvml() {
  if (auto Shutdown = symbol<ShutdownFn>(Library, "nvmlShutdown"); Shutdown && Device)
    Shutdown();
  if (Library)
    dlclose(Library);
}

std::string Nvml::gpuName() const {
  auto GetName = symbol<GetNameFn>(Library, "nvmlDeviceGetName");
  char Name[96] = {};
  if (!Device || !GetName || GetName(Device, Name, sizeof(Name)) != NvmlSuccess)
    return "unknown";
  return Name;
}

std::string Nvml::driverVersion() const {
  auto GetDriver = symbol<GetDriverFn>(Library, "nvmlSystemGetDriverVersion");
  char Version[96] = {};
  if (!Device || !GetDriver || GetDriver(Version, sizeof(Version)) != NvmlSuccess)
    return "unknown";
  return Version;
}

double Nvml::clockRatio() const {
  auto Current = symbol<GetClockFn>(Library, "nvmlDeviceGetClockInfo");
  auto Maximum = symbol<GetClockFn>(Library, "nvmlDeviceGetMaxClockInfo");
  unsigned Now = 0, Max = 0;
  if (!Device || !Current || !Maximum || Current(Device, NvmlClockSm, &Now) != NvmlSuccess ||
      Maximum(Device, NvmlClockSm, &Max) != NvmlSuccess || Max == 0)
    return 1.0;
  return static_cast<double>(Now) / Max;
}

} // namespace kernel_tidy::harness
