// The SIMT executor behind LuisaCompute's DeviceInterface. The interface's functions are
// noexcept, so what the executor cannot do stops the program with the message
// "unsupported by the simt backend: X" instead of throwing.
#include <simt/Device.h>

#include <luisa/ast/function_builder.h>
#include <luisa/core/magic_enum.h>
#include <luisa/runtime/rhi/command.h>

#include <cstdio>
#include <cstdlib>

namespace kernel_tidy::simt {

using namespace luisa::compute;

namespace {

[[noreturn]] void stop(const std::string &Message) {
  std::fprintf(stderr, "%s\n", Message.c_str());
  std::fflush(stderr);
  std::abort();
}

[[noreturn]] void unsupported(const char *What) { stop(Unsupported(What).what()); }

} // namespace

/// A buffer's bytes and their shadow (nonzero where the value is undefined).
struct SimtDevice::Memory {
  const Type *Element;
  size_t Count;
  std::vector<std::byte> Bytes;
  std::vector<uint8_t> Shadow;
};

SimtDevice::SimtDevice(Context &&Ctx, const LaunchOptions &Options)
    : DeviceInterface(std::move(Ctx)), Options(Options) {
  _backend_name = "simt";
}

SimtDevice::~SimtDevice() noexcept = default;

BufferView SimtDevice::view(uint64_t BufferHandle) {
  Memory &M = *Buffers.at(BufferHandle);
  return {M.Element, M.Bytes.data(), M.Shadow.data(), M.Count};
}

void *SimtDevice::native_handle() const noexcept { return const_cast<SimtDevice *>(this); }
luisa::uint SimtDevice::compute_warp_size() const noexcept { return Options.WarpSize; }
uint64_t SimtDevice::memory_granularity() const noexcept { return 1; }

BufferCreationInfo SimtDevice::create_buffer(const Type *Element, size_t Count,
                                             void *ExternalMemory) noexcept {
  if (ExternalMemory)
    unsupported("buffers on external memory");
  if (Element == Type::of<void>() || Element->size() == 0)
    unsupported("byte buffers");
  auto M = std::make_unique<Memory>();
  M->Element = Element;
  M->Count = Count;
  M->Bytes.resize(Element->size() * Count);
  M->Shadow.resize(M->Bytes.size());
  BufferCreationInfo Info{};
  Info.handle = nextHandle();
  Info.native_handle = M->Bytes.data();
  Info.element_stride = Element->size();
  Info.total_size_bytes = M->Bytes.size();
  Buffers[Info.handle] = std::move(M);
  return Info;
}

BufferCreationInfo SimtDevice::create_buffer(const ir::CArc<ir::Type> *, size_t, void *) noexcept {
  unsupported("buffers of IR types");
}
void SimtDevice::destroy_buffer(uint64_t Handle) noexcept { Buffers.erase(Handle); }

ResourceCreationInfo SimtDevice::create_texture(PixelFormat, luisa::uint, luisa::uint, luisa::uint,
                                                luisa::uint, luisa::uint, void *, bool,
                                                bool) noexcept {
  unsupported("textures");
}
void SimtDevice::destroy_texture(uint64_t) noexcept { unsupported("textures"); }
ResourceCreationInfo SimtDevice::create_bindless_array(size_t, BindlessSlotType) noexcept {
  unsupported("bindless arrays");
}
void SimtDevice::destroy_bindless_array(uint64_t) noexcept { unsupported("bindless arrays"); }

ResourceCreationInfo SimtDevice::create_stream(StreamTag Tag) noexcept {
  if (Tag == StreamTag::GRAPHICS)
    unsupported("graphics streams");
  return {nextHandle(), nullptr};
}
void SimtDevice::destroy_stream(uint64_t) noexcept {}
// Command lists run when they are dispatched: there is nothing to wait for.
void SimtDevice::synchronize_stream(uint64_t) noexcept {}

void SimtDevice::dispatch(uint64_t, CommandList &&List) noexcept {
  ++Submissions;
  try {
    runCommands(List);
  } catch (const std::exception &E) {
    stop(E.what());
  }
  for (auto &&Callback : List.steal_callbacks())
    Callback();
}

void SimtDevice::observe(RunResult R) {
  for (int K = 0; K < EventKindCount; ++K)
    Observed.Counts[K] += R.Counts[K];
  Observed.ModelCollectives += R.ModelCollectives;
  Observed.Cost += R.Cost;
  LastCost = R.Cost;
  for (auto &E : R.Events)
    if (Observed.Events.size() < RunResult::MaxKeptEvents)
      Observed.Events.push_back(std::move(E));
}

void SimtDevice::runCommands(CommandList &List) {
  auto memory = [&](uint64_t Handle) -> Memory & {
    auto It = Buffers.find(Handle);
    if (It == Buffers.end())
      throw std::invalid_argument("simt: a command names an unknown buffer");
    return *It->second;
  };
  auto checkRange = [](Memory &M, size_t Offset, size_t Size) {
    if (Offset + Size > M.Bytes.size())
      throw std::invalid_argument("simt: a command reaches past a buffer's end");
  };
  for (auto &&C : List.commands()) {
    switch (C->tag()) {
    case Command::Tag::EBufferUploadCommand: {
      auto *Upload = static_cast<const BufferUploadCommand *>(C.get());
      Memory &M = memory(Upload->handle());
      checkRange(M, Upload->offset(), Upload->size());
      std::memcpy(M.Bytes.data() + Upload->offset(), Upload->data(), Upload->size());
      std::memset(M.Shadow.data() + Upload->offset(), 0, Upload->size());
      break;
    }
    case Command::Tag::EBufferDownloadCommand: {
      auto *Download = static_cast<const BufferDownloadCommand *>(C.get());
      Memory &M = memory(Download->handle());
      checkRange(M, Download->offset(), Download->size());
      std::memcpy(Download->data(), M.Bytes.data() + Download->offset(), Download->size());
      break;
    }
    case Command::Tag::EBufferCopyCommand: {
      auto *Copy = static_cast<const BufferCopyCommand *>(C.get());
      Memory &From = memory(Copy->src_handle()), &To = memory(Copy->dst_handle());
      checkRange(From, Copy->src_offset(), Copy->size());
      checkRange(To, Copy->dst_offset(), Copy->size());
      std::memmove(To.Bytes.data() + Copy->dst_offset(), From.Bytes.data() + Copy->src_offset(),
                   Copy->size());
      std::memmove(To.Shadow.data() + Copy->dst_offset(), From.Shadow.data() + Copy->src_offset(),
                   Copy->size());
      break;
    }
    case Command::Tag::EShaderDispatchCommand: {
      auto *Dispatch = static_cast<const ShaderDispatchCommand *>(C.get());
      if (Dispatch->is_indirect() || Dispatch->is_multiple_dispatch())
        throw Unsupported("indirect and batched dispatches");
      auto It = Shaders.find(Dispatch->handle());
      if (It == Shaders.end())
        throw std::invalid_argument("simt: a dispatch names an unknown shader");
      Function Kernel = It->second->function();
      // As LuisaCompute's backends do: the kernel's parameters start with the
      // resources its definition captured (Function::bound_arguments(), sorted
      // first when the kernel was recorded); the dispatch passes the rest.
      auto Parameters = Kernel.arguments();
      auto Bindings = Kernel.bound_arguments();
      auto Args = Dispatch->arguments();
      if (Bindings.size() + Args.size() != Parameters.size())
        throw std::invalid_argument("simt: a dispatch's arguments do not fit its shader");
      std::vector<Argument> Bound;
      auto bindBuffer = [&](const luisa::compute::Argument::Buffer &B, const Type *Element) {
        Memory &M = memory(B.handle);
        checkRange(M, B.offset, B.size);
        Bound.emplace_back(BufferView{Element, M.Bytes.data() + B.offset,
                                      M.Shadow.data() + B.offset, B.size / Element->size()});
      };
      for (size_t I = 0; I < Bindings.size(); ++I) {
        const auto *Captured = luisa::get_if<Function::BufferBinding>(&Bindings[I]);
        if (!Captured)
          throw Unsupported("captured resources other than buffers");
        bindBuffer(*Captured, Parameters[I].type()->element());
      }
      for (size_t I = 0; I < Args.size(); ++I) {
        const auto &A = Args[I];
        const Variable &Parameter = Parameters[Bindings.size() + I];
        if (A.tag == luisa::compute::Argument::Tag::BUFFER) {
          bindBuffer(A.buffer, Parameter.type()->element());
        } else if (A.tag == luisa::compute::Argument::Tag::UNIFORM) {
          auto Bytes = Dispatch->uniform(A.uniform);
          Uniform U;
          U.Bytes.assign(Bytes.begin(), Bytes.end());
          Bound.emplace_back(std::move(U));
        } else {
          throw Unsupported("shader arguments other than buffers and values");
        }
      }
      LaunchOptions Launch = Options;
      auto Size = Dispatch->dispatch_size();
      Launch.DispatchSize[0] = Size.x, Launch.DispatchSize[1] = Size.y,
      Launch.DispatchSize[2] = Size.z;
      Launch.Seed = Options.Seed + Dispatches++;
      observe(run(Kernel, Bound, Launch));
      break;
    }
    default:
      throw Unsupported("command " + std::string(luisa::to_string(C->tag())));
    }
  }
}

SwapchainCreationInfo SimtDevice::create_swapchain(const SwapchainOption &, uint64_t) noexcept {
  unsupported("swapchains");
}
void SimtDevice::destroy_swapchain(uint64_t) noexcept { unsupported("swapchains"); }
void SimtDevice::present_display_in_stream(uint64_t, uint64_t, uint64_t) noexcept {
  unsupported("swapchains");
}

ShaderCreationInfo SimtDevice::create_shader(const ShaderOption &, Function Kernel) noexcept {
  // The shader outlives the Kernel object it was compiled from: keep its recording.
  ShaderCreationInfo Info{};
  Info.handle = nextHandle();
  Info.native_handle = nullptr;
  Info.block_size = Kernel.block_size();
  Shaders[Info.handle] = Kernel.shared_builder();
  return Info;
}
ShaderCreationInfo SimtDevice::create_shader(const ShaderOption &,
                                             const ir::KernelModule *) noexcept {
  unsupported("IR kernel modules");
}
ShaderCreationInfo SimtDevice::load_shader(luisa::string_view,
                                           luisa::span<const Type *const>) noexcept {
  unsupported("precompiled shaders");
}
Usage SimtDevice::shader_argument_usage(uint64_t Handle, size_t Index) noexcept {
  Function Kernel = Shaders.at(Handle)->function();
  return Kernel.variable_usage(Kernel.arguments()[Index].uid());
}
void SimtDevice::destroy_shader(uint64_t Handle) noexcept { Shaders.erase(Handle); }

// Every command has run by the time it was dispatched, so every event is signalled.
ResourceCreationInfo SimtDevice::create_event() noexcept { return {nextHandle(), nullptr}; }
void SimtDevice::destroy_event(uint64_t) noexcept {}
void SimtDevice::signal_event(uint64_t, uint64_t, uint64_t) noexcept {}
void SimtDevice::wait_event(uint64_t, uint64_t, uint64_t) noexcept {}
bool SimtDevice::is_event_completed(uint64_t, uint64_t) const noexcept { return true; }
void SimtDevice::synchronize_event(uint64_t, uint64_t) noexcept {}

ResourceCreationInfo SimtDevice::create_mesh(const AccelOption &) noexcept {
  unsupported("meshes");
}
void SimtDevice::destroy_mesh(uint64_t) noexcept { unsupported("meshes"); }
ResourceCreationInfo SimtDevice::create_procedural_primitive(const AccelOption &) noexcept {
  unsupported("procedural primitives");
}
void SimtDevice::destroy_procedural_primitive(uint64_t) noexcept {
  unsupported("procedural primitives");
}
ResourceCreationInfo SimtDevice::create_accel(const AccelOption &) noexcept {
  unsupported("acceleration structures");
}
void SimtDevice::destroy_accel(uint64_t) noexcept { unsupported("acceleration structures"); }
void SimtDevice::set_name(Resource::Tag, uint64_t, luisa::string_view) noexcept {}

} // namespace kernel_tidy::simt
