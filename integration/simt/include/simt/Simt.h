// The SIMT executor: runs a kernel that LuisaCompute recorded (a luisa::compute::Function)
// on the CPU, with lockstep warps, active-lane masks and seeded schedules, so that the
// results of a kernel and of kernel-tidy's rewrite of it can be compared without a GPU.
//
// Shaped to become a LuisaCompute DeviceInterface later (buffers are host memory, a
// launch is one shader dispatch); for now the direct API below.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include <simt/Costs.h>

#include <luisa/ast/function.h>
#include <luisa/ast/type.h>

namespace kernel_tidy::simt {

/// Thrown for anything the executor does not implement, never a silent pass.
class Unsupported : public std::runtime_error {
public:
  explicit Unsupported(const std::string &What)
      : std::runtime_error("unsupported by the simt backend: " + What) {}
};

/// The memory of a buffer as a kernel sees it: `Count` elements of `Element` at `Data`,
/// and `Shadow`, one byte per data byte, nonzero where the value stored is undefined.
struct BufferView {
  const luisa::compute::Type *Element = nullptr;
  std::byte *Data = nullptr;
  std::uint8_t *Shadow = nullptr;
  size_t Count = 0;
};

/// Host memory standing in for a device buffer of `Count` elements of `Element`.
class Buffer {
public:
  Buffer(const luisa::compute::Type *Element, size_t Count)
      : Element(Element), Count(Count), Bytes(Element->size() * Count), Shadow(Bytes.size()) {}

  template <typename T> static Buffer of(const std::vector<T> &Values) {
    Buffer B(luisa::compute::Type::of<T>(), Values.size());
    std::memcpy(B.Bytes.data(), Values.data(), B.Bytes.size());
    return B;
  }
  template <typename T> std::vector<T> read() const {
    std::vector<T> Values(Bytes.size() / sizeof(T));
    std::memcpy(Values.data(), Bytes.data(), Values.size() * sizeof(T));
    return Values;
  }

  const luisa::compute::Type *element() const { return Element; }
  size_t count() const { return Count; }
  std::byte *data() { return Bytes.data(); }
  const std::byte *data() const { return Bytes.data(); }

  /// Whether element `Index` holds a value that depends on an undefined read (its
  /// bytes are then meaningless, whatever they are).
  bool undefined(size_t Index) const {
    size_t Size = Element->size();
    for (size_t B = Index * Size; B < (Index + 1) * Size; ++B)
      if (Shadow[B])
        return true;
    return false;
  }
  BufferView view() { return {Element, Bytes.data(), Shadow.data(), Count}; }

private:
  const luisa::compute::Type *Element;
  size_t Count;
  std::vector<std::byte> Bytes;
  std::vector<std::uint8_t> Shadow;
};

/// A kernel argument passed by value (`uint n`, `float scale`): its bytes.
struct Uniform {
  std::vector<std::byte> Bytes;
  template <typename T> static Uniform of(const T &Value) {
    Uniform U;
    U.Bytes.resize(sizeof(T));
    std::memcpy(U.Bytes.data(), &Value, sizeof(T));
    return U;
  }
};

/// One kernel argument, in the order of the kernel's parameters.
using Argument = std::variant<Buffer *, Uniform, BufferView>;

/// How the lanes of a warp are scheduled.
enum class Schedule {
  /// The warp runs in lockstep: after an `if`, a `switch` or a loop its lanes reconverge.
  Lockstep,
  /// As Volta and later may: after a divergent `if` the two sides may stay apart (seeded)
  /// for the rest of the enclosing scope, so warp collectives there see only one side.
  Independent,
};

/// How the warp collectives compute their results.
enum class Collectives {
  /// As the DSL documents them (and DirectX's wave operations compute them): over the
  /// active lanes exactly, folded in lane order.
  Documented,
  /// As LuisaCompute's CUDA backend computes them on sm_80 and newer
  /// (cuda_device_resource.h): `redux.sync` for 32-bit integer sums, min, max and bit
  /// operations (exact); every other reduction a guarded `__shfl_xor_sync` butterfly and
  /// every prefix a guarded `__shfl_up_sync` scan, which are exact on few partial masks.
  CudaSm80,
  /// The same below sm_80 (Volta, Turing): every reduction the guarded butterfly.
  CudaSm70,
};

/// The name of `C`, as the harness and fuzzer options spell it ("documented", "cuda-sm80",
/// "cuda-sm70").
const char *collectivesName(Collectives C);

/// How a launch runs.
struct LaunchOptions {
  /// Threads in x, y, z; threads past it never run.
  uint32_t DispatchSize[3] = {1, 1, 1};
  /// Lanes per warp (8, 16, 32, 64 or 128) unless the kernel calls set_warp_size.
  uint32_t WarpSize = 32;
  /// Orders the blocks, the warps of a block between barriers, and the lanes of
  /// an atomic instruction; the same seed gives the same run.
  uint64_t Seed = 0;
  Schedule Scheduling = Schedule::Lockstep;
  /// Whether a warp may stop at a memory operation (`Shared`, buffer or atomic; seeded,
  /// one in four) and let the other warps of its block run before it goes on, so that a
  /// plain read-modify-write from several warps loses updates under some seeds.
  bool Interleave = true;
  /// The collective model; the CUDA ones need 32-lane warps (CUDA has no other width).
  Collectives Collective = Collectives::Documented;
};

/// What a kernel did that a GPU leaves undefined.
enum class EventKind {
  /// warp_read_lane of a lane that is inactive or outside the warp. Its result, and
  /// whatever is computed and stored from it, is tracked as undefined (Buffer::undefined).
  UndefinedRead,
  /// sync_block() not reached by every live thread of the block (or not the same one).
  DivergentBarrier,
  /// A buffer or shared-memory index past its end (the read gives zero, the write is dropped).
  OutOfBounds,
  /// A value that depends on an undefined read decided a branch, an index or a loop.
  UndefinedUse,
  /// Two threads accessed one `Shared` element (with no sync_block() between) or one buffer
  /// element (in one dispatch), at least one with a plain write: compute-sanitizer's racecheck.
  Race,
};
/// How many kinds EventKind has.
inline constexpr int EventKindCount = 5;

const char *eventKindName(EventKind Kind);

/// One undefined behaviour, where it happened.
struct Event {
  EventKind Kind;
  uint32_t Block[3];
  /// The thread's index in its block (x fastest), or ~0u for the whole block.
  uint32_t Thread;
  std::string Detail;
};

/// What a launch observed; the buffers hold the results.
struct RunResult {
  /// The first events (at most MaxKeptEvents), in the order they happened.
  std::vector<Event> Events;
  /// How many of each kind happened, kept or not.
  size_t Counts[EventKindCount] = {};
  static constexpr size_t MaxKeptEvents = 256;
  /// Reductions and prefixes evaluated (warp_active_sum ... bit_xor, warp_prefix_sum and
  /// product): where there were none, the collective model cannot change the results.
  size_t ModelCollectives = 0;
  /// What the dispatch executed (simt/Costs.h), and each warp that ran, block by block.
  Costs Cost;
  std::vector<Costs> WarpCosts;

  size_t count(EventKind Kind) const { return Counts[static_cast<int>(Kind)]; }
};

/// Runs `Kernel` over LaunchOptions::DispatchSize threads in blocks of the kernel's
/// block size. `Arguments` has one entry per `Kernel.arguments()`, the resources the
/// kernel captured (its first parameters) included. Throws Unsupported for what the
/// executor does not implement and std::invalid_argument for arguments that do not fit
/// the kernel.
RunResult run(luisa::compute::Function Kernel, std::span<const Argument> Arguments,
              const LaunchOptions &Options);

} // namespace kernel_tidy::simt
