// The SIMT executor as a LuisaCompute device, so that a program written against
// Device/Stream/Buffer/Shader runs its kernels on the CPU:
//
//   luisa::compute::Context Context{Path};
//   auto Simt = luisa::make_shared<kernel_tidy::simt::SimtDevice>(std::move(Context), Options);
//   luisa::compute::Device Device{Simt};
//
// Buffers live in host memory; a stream runs each command list when it is dispatched,
// in order (uploads, downloads, copies, shader dispatches), then its callbacks.
#pragma once

#include <simt/Simt.h>

#include <luisa/runtime/context.h>
#include <luisa/runtime/rhi/device_interface.h>

#include <memory>
#include <unordered_map>

namespace kernel_tidy::simt {

/// A LuisaCompute DeviceInterface whose shaders run on the SIMT executor.
class SimtDevice final : public luisa::compute::DeviceInterface {
public:
  /// `Options` gives every dispatch its warp width, seed and schedule (the dispatch
  /// size comes from the command); each dispatch advances the seed by one.
  SimtDevice(luisa::compute::Context &&Context, const LaunchOptions &Options);
  ~SimtDevice() noexcept override;

  /// The options of the dispatches from now on (another width, schedule or collective
  /// model for the shaders already created).
  void setOptions(const LaunchOptions &Next) { Options = Next; }
  const LaunchOptions &options() const { return Options; }
  /// The events of every dispatch so far, counted and the first ones kept.
  const RunResult &observed() const { return Observed; }
  /// What the latest shader dispatch executed (simt/Costs.h); observed().Cost sums them all.
  const Costs &lastDispatchCosts() const { return LastCost; }
  /// Command lists dispatched to the device's streams so far.
  size_t submissions() const { return Submissions; }
  /// Shader dispatches so far.
  size_t dispatches() const { return Dispatches; }
  /// A buffer's memory, to ask which elements hold undefined values.
  BufferView view(uint64_t BufferHandle);

  void *native_handle() const noexcept override;
  luisa::uint compute_warp_size() const noexcept override;
  uint64_t memory_granularity() const noexcept override;
  luisa::compute::BufferCreationInfo create_buffer(const luisa::compute::Type *Element,
                                                   size_t Count,
                                                   void *ExternalMemory) noexcept override;
  luisa::compute::BufferCreationInfo
  create_buffer(const luisa::compute::ir::CArc<luisa::compute::ir::Type> *Element, size_t Count,
                void *ExternalMemory) noexcept override;
  void destroy_buffer(uint64_t Handle) noexcept override;
  luisa::compute::ResourceCreationInfo create_texture(luisa::compute::PixelFormat, luisa::uint,
                                                      luisa::uint, luisa::uint, luisa::uint,
                                                      luisa::uint, void *, bool,
                                                      bool) noexcept override;
  void destroy_texture(uint64_t) noexcept override;
  luisa::compute::ResourceCreationInfo
  create_bindless_array(size_t, luisa::compute::BindlessSlotType) noexcept override;
  void destroy_bindless_array(uint64_t) noexcept override;
  luisa::compute::ResourceCreationInfo
  create_stream(luisa::compute::StreamTag Tag) noexcept override;
  void destroy_stream(uint64_t Handle) noexcept override;
  void synchronize_stream(uint64_t Handle) noexcept override;
  void dispatch(uint64_t Stream, luisa::compute::CommandList &&List) noexcept override;
  luisa::compute::SwapchainCreationInfo create_swapchain(const luisa::compute::SwapchainOption &,
                                                         uint64_t) noexcept override;
  void destroy_swapchain(uint64_t) noexcept override;
  void present_display_in_stream(uint64_t, uint64_t, uint64_t) noexcept override;
  luisa::compute::ShaderCreationInfo
  create_shader(const luisa::compute::ShaderOption &Option,
                luisa::compute::Function Kernel) noexcept override;
  luisa::compute::ShaderCreationInfo
  create_shader(const luisa::compute::ShaderOption &,
                const luisa::compute::ir::KernelModule *) noexcept override;
  luisa::compute::ShaderCreationInfo
      load_shader(luisa::string_view,
                  luisa::span<const luisa::compute::Type *const>) noexcept override;
  luisa::compute::Usage shader_argument_usage(uint64_t Handle, size_t Index) noexcept override;
  void destroy_shader(uint64_t Handle) noexcept override;
  luisa::compute::ResourceCreationInfo create_event() noexcept override;
  void destroy_event(uint64_t Handle) noexcept override;
  void signal_event(uint64_t, uint64_t, uint64_t) noexcept override;
  void wait_event(uint64_t, uint64_t, uint64_t) noexcept override;
  bool is_event_completed(uint64_t, uint64_t) const noexcept override;
  void synchronize_event(uint64_t, uint64_t) noexcept override;
  luisa::compute::ResourceCreationInfo
  create_mesh(const luisa::compute::AccelOption &) noexcept override;
  void destroy_mesh(uint64_t) noexcept override;
  luisa::compute::ResourceCreationInfo
  create_procedural_primitive(const luisa::compute::AccelOption &) noexcept override;
  void destroy_procedural_primitive(uint64_t) noexcept override;
  luisa::compute::ResourceCreationInfo
  create_accel(const luisa::compute::AccelOption &) noexcept override;
  void destroy_accel(uint64_t) noexcept override;
  void set_name(luisa::compute::Resource::Tag, uint64_t, luisa::string_view) noexcept override;

private:
  struct Memory;
  void runCommands(luisa::compute::CommandList &List);
  /// Adds one dispatch's events and costs to what the device observed.
  void observe(RunResult R);
  uint64_t nextHandle() { return ++LastHandle; }

  LaunchOptions Options;
  RunResult Observed;
  Costs LastCost;
  size_t Submissions = 0, Dispatches = 0;
  uint64_t LastHandle = 0;
  std::unordered_map<uint64_t, std::unique_ptr<Memory>> Buffers;
  std::unordered_map<uint64_t, luisa::shared_ptr<const luisa::compute::detail::FunctionBuilder>>
      Shaders;
};

} // namespace kernel_tidy::simt
