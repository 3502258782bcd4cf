// The interpreter of recorded kernels: a warp evaluates each statement and expression for
// all its active lanes at once, so that warp collectives see exactly the lanes a GPU would
// have active, and control flow narrows and restores the active mask as a GPU's
// reconvergence does. Each warp runs on its own fiber (ucontext), so that a warp can stop at
// sync_block() in the middle of nested control flow and the block's warps can run one at a
// time, in a seeded order, between barriers.
#include "CostCounter.h"
#include "Values.h"

#include <simt/Simt.h>

#include <luisa/ast/function_builder.h>
#include <luisa/ast/statement.h>
#include <luisa/core/magic_enum.h>

#include <algorithm>
#include <bitset>
#include <exception>
#include <memory>
#include <optional>
#include <unordered_map>

#include <ucontext.h>

namespace kernel_tidy::simt {

const char *eventKindName(EventKind Kind) {
  switch (Kind) {
  case EventKind::UndefinedRead:
    return "undefined read";
  case EventKind::DivergentBarrier:
    return "divergent barrier";
  case EventKind::OutOfBounds:
    return "out of bounds";
  case EventKind::UndefinedUse:
    return "undefined use";
  case EventKind::Race:
    return "race";
  }
  return "?";
}

const char *collectivesName(Collectives C) {
  switch (C) {
  case Collectives::Documented:
    return "documented";
  case Collectives::CudaSm80:
    return "cuda-sm80";
  case Collectives::CudaSm70:
    return "cuda-sm70";
  }
  return "?";
}

namespace {

using namespace luisa::compute;

constexpr unsigned MaxLanes = 128;
using Mask = std::bitset<MaxLanes>;
constexpr size_t FiberStackBytes = 256 * 1024;
// A loop that runs this often in one warp is taken for one that never ends.
constexpr uint64_t MaxLoopIterations = uint64_t(1) << 24;

/// Vectors whose storage the next LaneValues or LaneRefs reuses: every expression of
/// every warp makes some, and the heap was a tenth of the executor's time.
template <typename T> class SpareVectors {
public:
  /// \p Count value-initialised elements, in a spare vector's storage where there is one.
  static std::vector<T> take(size_t Count) {
    std::vector<T> Items;
    if (!spare().empty()) {
      Items = std::move(spare().back());
      spare().pop_back();
    }
    Items.assign(Count, T{});
    return Items;
  }
  static void giveBack(std::vector<T> &Items) {
    if (Items.capacity() != 0 && spare().size() < 64)
      spare().push_back(std::move(Items));
  }

private:
  static std::vector<std::vector<T>> &spare() {
    thread_local std::vector<std::vector<T>> Spare;
    return Spare;
  }
};

/// One value per lane of a warp (only the active lanes' are meaningful), and which of
/// them depend on an undefined read.
struct LaneValues {
  const Type *T = nullptr;
  size_t Stride = 0;
  std::vector<std::byte> Bytes;
  Mask Undefined;

  LaneValues() = default;
  LaneValues(const Type *T, unsigned Width)
      : T(T), Stride(T ? T->size() : 0), Bytes(SpareVectors<std::byte>::take(Stride * Width)) {}
  LaneValues(const LaneValues &) = default;
  LaneValues(LaneValues &&) noexcept = default;
  LaneValues &operator=(const LaneValues &) = default;
  LaneValues &operator=(LaneValues &&) noexcept = default;
  ~LaneValues() { SpareVectors<std::byte>::giveBack(Bytes); }
  std::byte *lane(unsigned L) { return Bytes.data() + L * Stride; }
  const std::byte *lane(unsigned L) const { return Bytes.data() + L * Stride; }
};

/// Shadow bytes: what a byte of storage holds.
enum : uint8_t {
  Defined = 0,
  /// A value computed from an undefined read.
  Tainted = 1,
  /// Nothing yet: `Shared` memory before the block writes it (a GPU leaves it as it was).
  Unwritten = 2,
};

/// std::memcpy and std::memset for the sizes a lane's value has: inline for the common
/// ones, where a call for a size the compiler cannot see cost a tenth of the time.
inline void copyValue(std::byte *To, const std::byte *From, size_t Size) {
  switch (Size) {
  case 4:
    std::memcpy(To, From, 4);
    return;
  case 2:
    std::memcpy(To, From, 2);
    return;
  case 8:
    std::memcpy(To, From, 8);
    return;
  case 16:
    std::memcpy(To, From, 16);
    return;
  default:
    std::memcpy(To, From, Size);
  }
}
inline void fillShadow(uint8_t *To, uint8_t Value, size_t Size) {
  if (Size == 4)
    To[0] = To[1] = To[2] = To[3] = Value;
  else
    std::memset(To, Value, Size);
}

/// Storage: its bytes and their shadow (nonzero where the value stored there is
/// undefined; null for constants, which always are defined).
struct Place {
  std::byte *Data = nullptr;
  uint8_t *Shadow = nullptr;

  explicit operator bool() const { return Data != nullptr; }
  Place at(size_t Offset) const { return {Data + Offset, Shadow ? Shadow + Offset : nullptr}; }
  bool undefined(size_t Size) const {
    if (Shadow && Size == 4) {
      uint32_t Word;
      std::memcpy(&Word, Shadow, 4);
      return Word != 0;
    }
    if (Shadow)
      for (size_t B = 0; B < Size; ++B)
        if (Shadow[B])
          return true;
    return false;
  }
  bool unwritten(size_t Size) const {
    if (Shadow)
      for (size_t B = 0; B < Size; ++B)
        if (Shadow[B] == Unwritten)
          return true;
    return false;
  }
  void store(const std::byte *Bytes, size_t Size, bool Undefined) const {
    copyValue(Data, Bytes, Size);
    if (Shadow)
      fillShadow(Shadow, Undefined ? Tainted : Defined, Size);
  }
};

/// The storage each lane's expression designates; empty where its index was out of bounds.
struct LaneRefs {
  const Type *T = nullptr;
  std::vector<Place> Address;

  LaneRefs(const Type *T, unsigned Width) : T(T), Address(SpareVectors<Place>::take(Width)) {}
  LaneRefs(const LaneRefs &) = default;
  LaneRefs(LaneRefs &&) noexcept = default;
  LaneRefs &operator=(const LaneRefs &) = default;
  LaneRefs &operator=(LaneRefs &&) noexcept = default;
  ~LaneRefs() { SpareVectors<Place>::giveBack(Address); }
};

/// splitmix64: small, seedable, the same on every platform.
class Random {
public:
  explicit Random(uint64_t Seed) : State(Seed) {}
  uint64_t next() {
    uint64_t Z = (State += 0x9e3779b97f4a7c15ull);
    Z = (Z ^ (Z >> 30)) * 0xbf58476d1ce4e5b9ull;
    Z = (Z ^ (Z >> 27)) * 0x94d049bb133111ebull;
    return Z ^ (Z >> 31);
  }
  template <typename T> void shuffle(std::vector<T> &Items) {
    for (size_t I = Items.size(); I > 1; --I)
      std::swap(Items[I - 1], Items[next() % I]);
  }

private:
  uint64_t State;
};

/// The accesses to one memory element since the last sync_block() (Shared) or in this
/// dispatch (buffers), for the race detector: compute-sanitizer's racecheck.
struct AccessHistory {
  static constexpr uint32_t Nobody = ~0u;
  /// A thread that wrote it with a plain store.
  uint32_t Writer = Nobody;
  /// A thread that accessed it (read, plain or atomic write); Several once another did.
  uint32_t Accessor = Nobody;
  bool Several = false;
};

/// How a thread touches memory, for the race detector.
enum class Access { Read, Write, Atomic };

/// Where each local variable and by-value parameter of a function lives in a lane's frame.
struct FrameLayout {
  std::unordered_map<uint32_t, size_t> Offsets;
  size_t Size = 0;
};

/// The variables of one function invocation, for every lane of a warp.
struct Frame {
  const FrameLayout *Layout;
  std::vector<std::byte> Data;
  std::vector<uint8_t> Shadow;
  std::unordered_map<uint32_t, std::vector<Place>> References;
  std::unordered_map<uint32_t, BufferView> Buffers;

  Frame(const FrameLayout *Layout, unsigned Width)
      : Layout(Layout), Data(Layout->Size * Width), Shadow(Data.size()) {}
  /// Where variable \p Uid lives in each lane's part of the frame.
  size_t offsetOf(uint32_t Uid) const {
    auto It = Layout->Offsets.find(Uid);
    if (It == Layout->Offsets.end())
      throw Unsupported("variable #" + std::to_string(Uid) + " without storage");
    return It->second;
  }
  Place at(size_t Offset, unsigned Lane) {
    size_t At = Lane * Layout->Size + Offset;
    return {Data.data() + At, Shadow.data() + At};
  }
  Place local(uint32_t Uid, unsigned Lane) { return at(offsetOf(Uid), Lane); }
};

/// A loop or switch being executed: the lanes that left it by break (or, for a
/// loop, are waiting at continue for the next iteration).
struct Construct {
  bool IsLoop;
  Mask Broken;
  Mask Continued;
};

/// One function running in a warp: its frame, its open loops and switches, its result.
struct Invocation {
  Frame *Vars;
  bool IsKernel;
  std::vector<Construct> Constructs;
  LaneValues *Result = nullptr;
};

/// A warp of a block and its fiber.
struct Warp {
  unsigned Index = 0;
  uint32_t FirstThread = 0;
  /// Threads inside the dispatch that have not returned.
  Mask Live;
  enum class State { Ready, AtBarrier, Done } Now = State::Ready;
  Mask AtBarrierLanes;
  const CallExpr *Barrier = nullptr;
  ucontext_t Context{};
  std::exception_ptr Error;
};

class Machine {
public:
  Machine(Function Kernel, std::span<const Argument> Arguments, const LaunchOptions &Options,
          RunResult &Result)
      : Kernel(Kernel), Options(Options), Result(Result), Rng(Options.Seed),
        Garbage(Options.Seed ^ 0x9a5b6e0d3c2f1e47ull),
        Switches(Options.Seed ^ 0x3c6ef372fe94f82bull) {
    auto Size = Kernel.block_size();
    BlockSize[0] = Size.x, BlockSize[1] = Size.y, BlockSize[2] = Size.z;
    Width = Kernel.allowed_warp_size() ? *Kernel.allowed_warp_size() : Options.WarpSize;
    if (Width != 8 && Width != 16 && Width != 32 && Width != 64 && Width != 128)
      throw Unsupported("warp size " + std::to_string(Width) + " (8, 16, 32, 64 or 128)");
    if (Options.Collective != Collectives::Documented && Width != 32)
      throw std::invalid_argument(std::string("the ") + collectivesName(Options.Collective) +
                                  " collectives need 32-lane warps, not " + std::to_string(Width));
    if (Kernel.tag() != Function::Tag::KERNEL)
      throw std::invalid_argument("simt::run needs a kernel");
    bindArguments(Arguments);
    layoutShared();
  }

  void run() {
    uint32_t Blocks[3];
    for (int D = 0; D < 3; ++D)
      Blocks[D] = (Options.DispatchSize[D] + BlockSize[D] - 1) / BlockSize[D];
    std::vector<uint64_t> Order(uint64_t(Blocks[0]) * Blocks[1] * Blocks[2]);
    for (uint64_t I = 0; I < Order.size(); ++I)
      Order[I] = I;
    Rng.shuffle(Order);
    Counter = CostCounter(Order.size() * warpsPerBlock());
    for (uint64_t Linear : Order) {
      BlockLinear = Linear;
      BlockId[0] = Linear % Blocks[0];
      BlockId[1] = Linear / Blocks[0] % Blocks[1];
      BlockId[2] = Linear / (uint64_t(Blocks[0]) * Blocks[1]);
      runBlock();
    }
    Result.Cost = Counter.finish(Result.WarpCosts);
  }

  void runCurrentWarp();

private:
  Function Kernel;
  const LaunchOptions &Options;
  RunResult &Result;
  Random Rng;
  /// The bytes of unwritten `Shared` memory (separate from Rng, so that the schedule of a
  /// seed does not depend on how much shared memory a kernel declares).
  Random Garbage;
  unsigned Width = 32;
  uint32_t BlockSize[3];
  uint32_t BlockId[3] = {0, 0, 0};
  std::unordered_map<uint32_t, BufferView> KernelBuffers;
  std::unordered_map<uint32_t, std::vector<std::byte>> KernelUniforms;
  std::unordered_map<const void *, std::unique_ptr<FrameLayout>> Layouts;
  std::unordered_map<uint32_t, size_t> SharedOffsets;
  size_t SharedSize = 0;
  std::vector<std::byte> SharedMemory;
  std::vector<uint8_t> SharedShadow;
  std::vector<Warp> Warps;
  std::vector<std::unique_ptr<char[]>> Stacks;
  Warp *Current = nullptr;
  std::unordered_map<const Statement *, bool> ReachesBarrier;
  /// Decides where warps switch at memory operations (its own stream, so that the
  /// other schedule decisions of a seed stay as they were).
  Random Switches;
  std::unordered_map<const std::byte *, AccessHistory> SharedAccesses, BufferAccesses;
  ucontext_t Scheduler{};
  /// The running block's linear index, which numbers its warps' costs.
  uint64_t BlockLinear = 0;
  CostCounter Counter;

  // --- set-up -----------------------------------------------------------------------

  void bindArguments(std::span<const Argument> Arguments) {
    // Captured resources are the first parameters (Function::bound_arguments());
    // their arguments come first too, bound by the caller (SimtDevice resolves
    // the bindings' handles).
    auto Parameters = Kernel.arguments();
    size_t Captured = Kernel.bound_arguments().size();
    if (Captured != 0 && Arguments.size() + Captured == Parameters.size())
      throw std::invalid_argument("the kernel captures " + std::to_string(Captured) +
                                  " resources: run it through SimtDevice, which binds them");
    if (Parameters.size() != Arguments.size())
      throw std::invalid_argument("the kernel takes " + std::to_string(Parameters.size()) +
                                  " arguments, " + std::to_string(Arguments.size()) + " given");
    for (size_t I = 0; I < Parameters.size(); ++I) {
      Variable P = Parameters[I];
      if (P.tag() == Variable::Tag::BUFFER) {
        BufferView View;
        if (auto *B = std::get_if<Buffer *>(&Arguments[I]); B && *B)
          View = (*B)->view();
        else if (auto *V = std::get_if<BufferView>(&Arguments[I]))
          View = *V;
        if (!View.Element || View.Element != P.type()->element())
          throw std::invalid_argument("argument " + std::to_string(I) + " must be a buffer of " +
                                      typeName(P.type()->element()));
        KernelBuffers[P.uid()] = View;
      } else if (P.tag() == Variable::Tag::LOCAL) {
        auto *U = std::get_if<Uniform>(&Arguments[I]);
        if (!U || U->Bytes.size() != P.type()->size())
          throw std::invalid_argument("argument " + std::to_string(I) + " must be a value of " +
                                      typeName(P.type()));
        KernelUniforms[P.uid()] = U->Bytes;
      } else {
        throw Unsupported("kernel parameter of type " + typeName(P.type()));
      }
    }
  }

  void layoutShared() {
    for (Variable V : Kernel.shared_variables()) {
      size_t Align = V.type()->alignment();
      SharedSize = (SharedSize + Align - 1) / Align * Align;
      SharedOffsets[V.uid()] = SharedSize;
      SharedSize += V.type()->size();
    }
  }

  const FrameLayout *layoutOf(Function F) {
    auto &Slot = Layouts[F.builder()];
    if (Slot)
      return Slot.get();
    Slot = std::make_unique<FrameLayout>();
    auto Add = [&](Variable V) {
      if (Slot->Offsets.count(V.uid()))
        return;
      size_t Align = std::max<size_t>(V.type()->alignment(), 1);
      Slot->Size = (Slot->Size + Align - 1) / Align * Align;
      Slot->Offsets[V.uid()] = Slot->Size;
      Slot->Size += V.type()->size();
    };
    for (Variable V : F.arguments())
      if (V.tag() == Variable::Tag::LOCAL)
        Add(V);
    for (Variable V : F.local_variables())
      Add(V);
    Slot->Size = (Slot->Size + 15) / 16 * 16;
    return Slot.get();
  }

  // --- scheduling -------------------------------------------------------------------

  uint32_t threadsPerBlock() const { return BlockSize[0] * BlockSize[1] * BlockSize[2]; }
  unsigned warpsPerBlock() const { return (threadsPerBlock() + Width - 1) / Width; }
  /// The costs of the running warp.
  uint64_t warpSlot() const { return BlockLinear * warpsPerBlock() + Current->Index; }
  Costs &cost() { return Counter.warp(warpSlot()); }

  void threadIndex(unsigned Lane, uint32_t Out[3]) const {
    uint32_t Linear = Current->FirstThread + Lane;
    Out[0] = Linear % BlockSize[0];
    Out[1] = Linear / BlockSize[0] % BlockSize[1];
    Out[2] = Linear / (BlockSize[0] * BlockSize[1]);
  }

  void runBlock() {
    // Shared memory holds what an earlier block left there: seeded garbage, undefined.
    SharedMemory.resize(SharedSize);
    for (std::byte &B : SharedMemory)
      B = std::byte(Garbage.next() & 0xffu);
    SharedShadow.assign(SharedSize, Unwritten);
    unsigned Count = warpsPerBlock();
    Warps.assign(Count, Warp{});
    while (Stacks.size() < Count)
      // Not zeroed: a fiber touches a few pages of its stack, and clearing every page
      // (8 MiB for a block of 256 threads at 8 lanes) was 4 of the 7 s of system time that
      // the harness's three widths took.
      Stacks.push_back(std::unique_ptr<char[]>(new char[FiberStackBytes]));
    for (unsigned W = 0; W < Count; ++W) {
      Warp &Wp = Warps[W];
      Wp.Index = W;
      Wp.FirstThread = W * Width;
      Current = &Wp;
      for (unsigned L = 0; L < Width && Wp.FirstThread + L < threadsPerBlock(); ++L) {
        uint32_t T[3];
        threadIndex(L, T);
        bool Inside = true;
        for (int D = 0; D < 3; ++D)
          Inside = Inside && uint64_t(BlockId[D]) * BlockSize[D] + T[D] < Options.DispatchSize[D];
        Wp.Live.set(L, Inside);
      }
      if (Wp.Live.none()) {
        Wp.Now = Warp::State::Done;
        continue;
      }
      cost().Warps = 1;
      getcontext(&Wp.Context);
      Wp.Context.uc_stack.ss_sp = Stacks[W].get();
      Wp.Context.uc_stack.ss_size = FiberStackBytes;
      Wp.Context.uc_link = &Scheduler;
      auto Self = reinterpret_cast<uintptr_t>(this);
      makecontext(&Wp.Context, reinterpret_cast<void (*)()>(&fiberEntry), 2, unsigned(Self >> 32),
                  unsigned(Self & 0xffffffffu));
    }
    // Between two barriers every warp runs alone, in a seeded order, until it reaches
    // the next barrier or ends: a missing barrier then shows as different results.
    // With Options.Interleave a warp may also stop at a memory operation and let the
    // others run (seeded), so that unsynchronised updates from several warps interleave.
    SharedAccesses.clear();
    for (;;) {
      std::vector<Warp *> Ready;
      bool Waiting = false;
      for (Warp &W : Warps) {
        if (W.Now == Warp::State::Ready)
          Ready.push_back(&W);
        Waiting = Waiting || W.Now == Warp::State::AtBarrier;
      }
      if (Ready.empty()) {
        if (!Waiting)
          break;
        releaseBarrier();
        SharedAccesses.clear();
        continue;
      }
      Rng.shuffle(Ready);
      for (Warp *W : Ready) {
        Current = W;
        swapcontext(&Scheduler, &W->Context);
        if (W->Error)
          std::rethrow_exception(W->Error);
      }
    }
    Counter.endBlock();
  }

  /// At a memory operation: with Options.Interleave, sometimes (seeded) lets the block's
  /// other warps run first, as a GPU's warp scheduler may.
  void maybeSwitchWarp() {
    if (!Options.Interleave || Switches.next() % 4 != 0)
      return;
    bool Others = false;
    for (Warp &W : Warps)
      Others = Others || (&W != Current && W.Now == Warp::State::Ready);
    if (!Others)
      return;
    Warp *W = Current;
    swapcontext(&W->Context, &Scheduler);
    Current = W;
  }

  /// Whether the first active lane's storage in \p R is `Shared` memory (the others
  /// designate the same variable).
  bool touchesShared(const LaneRefs &R, const Mask &Active) const {
    return Active.any() && R.Address[Active._Find_first()] &&
           isShared(R.Address[Active._Find_first()].Data);
  }

  bool isShared(const std::byte *Data) const {
    return !SharedMemory.empty() && Data >= SharedMemory.data() &&
           Data < SharedMemory.data() + SharedMemory.size();
  }

  /// Prices a warp's access to `Shared` memory through \p R (\p Size bytes a lane).
  void countSharedAccess(const LaneRefs &R, const Mask &Active, size_t Size) {
    uint64_t Offsets[MaxLanes];
    unsigned Count = 0;
    forLanes(Active, [&](unsigned L) {
      if (R.Address[L] && isShared(R.Address[L].Data))
        Offsets[Count++] = uint64_t(R.Address[L].Data - SharedMemory.data());
    });
    CostCounter::sharedAccess(cost(), {Offsets, Count}, Size);
  }

  /// Records lane \p Lane's access to the element at \p P (\p Size bytes; \p Stored: the
  /// bytes a write stores) and reports a race with an earlier access of another thread:
  /// a plain write against any access, any access against a plain write. A write that
  /// leaves the bytes as they were cannot be observed and is not one.
  void noteAccess(Place P, size_t Size, unsigned Lane, Access Kind,
                  const std::byte *Stored = nullptr) {
    bool Shared = isShared(P.Data);
    uint32_t Thread = Current->FirstThread + Lane;
    if (!Shared) {
      uint64_t BlocksX = (Options.DispatchSize[0] + BlockSize[0] - 1) / BlockSize[0];
      uint64_t BlocksY = (Options.DispatchSize[1] + BlockSize[1] - 1) / BlockSize[1];
      uint64_t Block = BlockId[0] + BlocksX * (BlockId[1] + BlocksY * BlockId[2]);
      Thread = uint32_t(Block * threadsPerBlock() + Thread);
    }
    AccessHistory &H = (Shared ? SharedAccesses : BufferAccesses)[P.Data];
    bool Changes = Kind != Access::Write || !Stored || std::memcmp(P.Data, Stored, Size) != 0;
    bool Race = false;
    if (H.Writer != AccessHistory::Nobody && H.Writer != Thread)
      Race = Kind != Access::Write || Changes;
    if (Kind == Access::Write && Changes && H.Accessor != AccessHistory::Nobody &&
        (H.Several || H.Accessor != Thread))
      Race = true;
    if (Race)
      event(EventKind::Race, Lane,
            std::string(Shared ? "shared memory" : "a buffer element") + " accessed by thread " +
                std::to_string(Thread) + " and by another thread (" +
                (Shared ? "no sync_block() between" : "in the same dispatch") +
                "), at least one a plain write");
    if (Kind == Access::Write)
      H.Writer = Thread;
    if (H.Accessor == AccessHistory::Nobody)
      H.Accessor = Thread;
    else if (H.Accessor != Thread)
      H.Several = true;
  }

  void releaseBarrier() {
    const CallExpr *First = nullptr;
    for (Warp &W : Warps) {
      if (W.Now != Warp::State::AtBarrier)
        continue;
      Current = &W;
      if (!First)
        First = W.Barrier;
      if (W.Barrier != First)
        blockEvent(EventKind::DivergentBarrier,
                   "warp " + std::to_string(W.Index) + " waits at another sync_block()");
      Mask Missing = W.Live & ~W.AtBarrierLanes;
      for (unsigned L = 0; L < Width; ++L)
        if (Missing.test(L))
          event(EventKind::DivergentBarrier, L, "live thread does not reach sync_block()");
      W.Now = Warp::State::Ready;
    }
    // A warp that ended without returning skipped the barrier the others wait at.
    if (First)
      for (Warp &W : Warps)
        if (W.Now == Warp::State::Done && W.Live.any()) {
          Current = &W;
          blockEvent(EventKind::DivergentBarrier,
                     "warp " + std::to_string(W.Index) + " ends without reaching sync_block()");
        }
  }

  static void fiberEntry(unsigned High, unsigned Low) {
    reinterpret_cast<Machine *>((uintptr_t(High) << 32) | Low)->runCurrentWarp();
  }

  void synchronizeBlock(const CallExpr *Call, const Mask &Active) {
    ++cost().Barriers;
    Warp *W = Current;
    W->Now = Warp::State::AtBarrier;
    W->AtBarrierLanes = Active;
    W->Barrier = Call;
    swapcontext(&W->Context, &Scheduler);
    Current = W;
  }

  // --- events -----------------------------------------------------------------------

  void record(EventKind Kind, uint32_t Thread, std::string Detail) {
    ++Result.Counts[static_cast<int>(Kind)];
    if (Result.Events.size() < RunResult::MaxKeptEvents)
      Result.Events.push_back(
          {Kind, {BlockId[0], BlockId[1], BlockId[2]}, Thread, std::move(Detail)});
  }
  void event(EventKind Kind, unsigned Lane, std::string Detail) {
    record(Kind, Current->FirstThread + Lane, std::move(Detail));
  }
  void blockEvent(EventKind Kind, std::string Detail) { record(Kind, ~0u, std::move(Detail)); }

  // --- statements -------------------------------------------------------------------

  void exec(const Statement *S, Mask &Active, Invocation &I) {
    if (Active.none())
      return;
    switch (S->tag()) {
    case Statement::Tag::SCOPE:
      execStatements(static_cast<const ScopeStmt *>(S)->statements(), Active, I);
      return;
    case Statement::Tag::ASSIGN: {
      auto *A = static_cast<const AssignStmt *>(S);
      LaneValues V = eval(A->rhs(), Active, I);
      LaneRefs R = ref(A->lhs(), Active, I);
      storeLanes(R, V, Active);
      return;
    }
    case Statement::Tag::EXPR:
      eval(static_cast<const ExprStmt *>(S)->expression(), Active, I);
      return;
    case Statement::Tag::IF: {
      Mask Then, Else;
      execIf(static_cast<const IfStmt *>(S), Active, I, Then, Else);
      Active = Then | Else;
      return;
    }
    case Statement::Tag::LOOP: {
      auto *Loop = static_cast<const LoopStmt *>(S);
      I.Constructs.push_back({true, {}, {}});
      Mask Running = Active;
      for (uint64_t N = 0; Running.any(); ++N) {
        checkIterations(N);
        exec(Loop->body(), Running, I);
        Running |= I.Constructs.back().Continued;
        I.Constructs.back().Continued.reset();
      }
      Active = I.Constructs.back().Broken;
      I.Constructs.pop_back();
      return;
    }
    case Statement::Tag::FOR: {
      // for (; condition; variable += step) body, as LuisaCompute's backends emit it.
      auto *For = static_cast<const ForStmt *>(S);
      I.Constructs.push_back({true, {}, {}});
      Mask Running = Active, Finished;
      for (uint64_t N = 0;; ++N) {
        checkIterations(N);
        Mask Stay = Running & conditionMask(For->condition(), Running, I);
        Finished |= Running & ~Stay;
        Running = Stay;
        if (Running.none())
          break;
        exec(For->body(), Running, I);
        Running |= I.Constructs.back().Continued;
        I.Constructs.back().Continued.reset();
        if (Running.none())
          break;
        LaneValues Step = eval(For->step(), Running, I);
        LaneValues Old = eval(For->variable(), Running, I);
        LaneValues New(For->variable()->type(), Width);
        forLanes(Running, [&](unsigned L) {
          binaryOp(BinaryOp::ADD, New.T, Old.T, Old.lane(L), Step.T, Step.lane(L), New.lane(L));
        });
        storeLanes(ref(For->variable(), Running, I), New, Running);
      }
      Active = Finished | I.Constructs.back().Broken;
      I.Constructs.pop_back();
      return;
    }
    case Statement::Tag::SWITCH: {
      auto *Switch = static_cast<const SwitchStmt *>(S);
      LaneValues Value = eval(Switch->expression(), Active, I);
      auto Cases = Switch->body()->statements();
      std::vector<Mask> Selected(Cases.size());
      Mask Matched;
      for (size_t C = 0; C < Cases.size(); ++C) {
        if (Cases[C]->tag() != Statement::Tag::SWITCH_CASE)
          continue;
        auto *Case = static_cast<const SwitchCaseStmt *>(Cases[C]);
        LaneValues Label = eval(Case->expression(), Active, I);
        forLanes(Active, [&](unsigned L) {
          if (indexOf(Value, L, "switch") == loadIndex(Label.T, Label.lane(L)))
            Selected[C].set(L);
        });
        Selected[C] &= ~Matched;
        Matched |= Selected[C];
      }
      I.Constructs.push_back({false, {}, {}});
      Mask After;
      for (size_t C = 0; C < Cases.size(); ++C) {
        const ScopeStmt *Body;
        if (Cases[C]->tag() == Statement::Tag::SWITCH_CASE) {
          Body = static_cast<const SwitchCaseStmt *>(Cases[C])->body();
        } else if (Cases[C]->tag() == Statement::Tag::SWITCH_DEFAULT) {
          Body = static_cast<const SwitchDefaultStmt *>(Cases[C])->body();
          Selected[C] = Active & ~Matched;
        } else {
          continue;
        }
        // Cases do not fall through: the backends end each with a break.
        exec(Body, Selected[C], I);
        After |= Selected[C];
      }
      Active = After | I.Constructs.back().Broken;
      I.Constructs.pop_back();
      return;
    }
    case Statement::Tag::BREAK:
      if (I.Constructs.empty())
        throw Unsupported("break outside a loop or switch");
      I.Constructs.back().Broken |= Active;
      Active.reset();
      return;
    case Statement::Tag::CONTINUE:
      for (auto It = I.Constructs.rbegin(); It != I.Constructs.rend(); ++It)
        if (It->IsLoop) {
          It->Continued |= Active;
          Active.reset();
          return;
        }
      throw Unsupported("continue outside a loop");
    case Statement::Tag::RETURN: {
      auto *Return = static_cast<const ReturnStmt *>(S);
      if (Return->expression()) {
        if (!I.Result)
          throw Unsupported("a kernel returning a value");
        LaneValues V = converted(eval(Return->expression(), Active, I), I.Result->T, Active);
        forLanes(Active, [&](unsigned L) {
          std::memcpy(I.Result->lane(L), V.lane(L), V.Stride);
          I.Result->Undefined.set(L, V.Undefined.test(L));
        });
      }
      // A thread that returns from the kernel has exited: barriers no longer wait for it.
      if (I.IsKernel)
        Current->Live &= ~Active;
      Active.reset();
      return;
    }
    case Statement::Tag::COMMENT:
      return;
    default:
      throw Unsupported("statement " + std::string(luisa::to_string(S->tag())));
    }
  }

  /// Runs the statements of a scope. With independent thread scheduling, the two sides
  /// of a divergent `if` may stay apart for the rest of the scope, each running it alone
  /// (in a seeded order), and reconverge only at its end; not across a sync_block(),
  /// which this model cannot let a split warp reach twice.
  void execStatements(luisa::span<const Statement *const> Statements, Mask &Active, Invocation &I) {
    for (size_t K = 0; K < Statements.size(); ++K) {
      if (Active.none())
        return;
      if (Options.Scheduling != Schedule::Independent ||
          Statements[K]->tag() != Statement::Tag::IF) {
        exec(Statements[K], Active, I);
        continue;
      }
      Mask Then, Else;
      execIf(static_cast<const IfStmt *>(Statements[K]), Active, I, Then, Else);
      auto Rest = Statements.subspan(K + 1);
      if (Then.any() && Else.any() && !Rest.empty() && Rng.next() % 2 == 0 &&
          !reachesBarrier(Rest)) {
        bool ElseFirst = Rng.next() % 2 == 0;
        Mask &First = ElseFirst ? Else : Then, &Second = ElseFirst ? Then : Else;
        execStatements(Rest, First, I);
        execStatements(Rest, Second, I);
        Active = Then | Else;
        return;
      }
      Active = Then | Else;
    }
  }

  /// Runs the two sides of an `if`; `Then` and `Else` end as the lanes that leave each
  /// side normally. Lockstep runs the true side first; independent scheduling either.
  void execIf(const IfStmt *If, const Mask &Active, Invocation &I, Mask &Then, Mask &Else) {
    Mask Taken = conditionMask(If->condition(), Active, I);
    Then = Active & Taken;
    Else = Active & ~Taken;
    if (Options.Scheduling == Schedule::Independent && Then.any() && Else.any() &&
        Rng.next() % 2 == 0) {
      exec(If->false_branch(), Else, I);
      exec(If->true_branch(), Then, I);
    } else {
      exec(If->true_branch(), Then, I);
      exec(If->false_branch(), Else, I);
    }
  }

  bool reachesBarrier(luisa::span<const Statement *const> Statements) {
    for (const Statement *S : Statements) {
      auto [It, New] = ReachesBarrier.try_emplace(S, false);
      if (New) {
        bool Found = false;
        traverse_expressions<true>(
            S,
            [&](const Expression *E) {
              if (E->tag() != Expression::Tag::CALL)
                return;
              auto *C = static_cast<const CallExpr *>(E);
              Found = Found || C->op() == CallOp::SYNCHRONIZE_BLOCK ||
                      (C->is_custom() &&
                       C->custom().propagated_builtin_callables().test(CallOp::SYNCHRONIZE_BLOCK));
            },
            [](const Statement *) {}, [](const Statement *) {});
        It->second = Found;
      }
      if (It->second)
        return true;
    }
    return false;
  }

  static void checkIterations(uint64_t N) {
    if (N >= MaxLoopIterations)
      throw std::runtime_error("simt: a loop ran 2^24 iterations in one warp");
  }

  template <typename Fn> void forLanes(const Mask &M, Fn &&F) const {
    for (unsigned L = 0; L < Width; ++L)
      if (M.test(L))
        F(L);
  }

  Mask conditionMask(const Expression *E, const Mask &Active, Invocation &I) {
    LaneValues V = eval(E, Active, I);
    Mask M;
    forLanes(Active, [&](unsigned L) {
      if (V.Undefined.test(L))
        event(EventKind::UndefinedUse, L, "a branch on an undefined value");
      M.set(L, loadCondition(V.T, V.lane(L)));
    });
    return M;
  }

  /// The index a lane's value designates; an event when the value is undefined.
  uint64_t indexOf(const LaneValues &Index, unsigned Lane, const char *What) {
    if (Index.Undefined.test(Lane))
      event(EventKind::UndefinedUse, Lane, std::string(What) + " with an undefined value");
    return loadIndex(Index.T, Index.lane(Lane));
  }

  /// The union of the operands' undefined lanes, within `Active`.
  static Mask undefinedOf(std::initializer_list<const LaneValues *> Operands, const Mask &Active) {
    Mask M;
    for (const LaneValues *V : Operands)
      M |= V->Undefined;
    return M & Active;
  }

  /// Stores `V` through `R`, converting as C++ assignment does: the DSL records
  /// `Float f = uint_value;` as an assignment between different types.
  void storeLanes(const LaneRefs &R, const LaneValues &V, const Mask &Active) {
    if (V.T != R.T)
      return storeLanes(R, converted(V, R.T, Active), Active);
    if (touchesShared(R, Active)) {
      maybeSwitchWarp();
      countSharedAccess(R, Active, V.Stride);
    }
    forLanes(Active, [&](unsigned L) {
      if (!R.Address[L])
        return;
      if (isShared(R.Address[L].Data))
        noteAccess(R.Address[L], V.Stride, L, Access::Write, V.lane(L));
      R.Address[L].store(V.lane(L), V.Stride, V.Undefined.test(L));
    });
  }

  LaneValues converted(LaneValues V, const Type *To, const Mask &Active) {
    if (V.T == To)
      return V;
    if (!hasShape(V.T) || !hasShape(To))
      throw Unsupported("conversion of " + typeName(V.T) + " to " + typeName(To));
    LaneValues Out(To, Width);
    forLanes(Active, [&](unsigned L) { castOp(CastOp::STATIC, To, V.T, V.lane(L), Out.lane(L)); });
    Out.Undefined = V.Undefined & Active;
    return Out;
  }

  // --- expressions ------------------------------------------------------------------

  bool addressable(const Expression *E) const {
    switch (E->tag()) {
    case Expression::Tag::REF: {
      auto Tag = static_cast<const RefExpr *>(E)->variable().tag();
      return Tag == Variable::Tag::LOCAL || Tag == Variable::Tag::SHARED ||
             Tag == Variable::Tag::REFERENCE;
    }
    case Expression::Tag::CONSTANT:
      return true;
    case Expression::Tag::MEMBER: {
      auto *M = static_cast<const MemberExpr *>(E);
      return (!M->is_swizzle() || M->swizzle_size() == 1) && addressable(M->self());
    }
    case Expression::Tag::ACCESS:
      return addressable(static_cast<const AccessExpr *>(E)->range());
    default:
      return false;
    }
  }

  LaneRefs ref(const Expression *E, const Mask &Active, Invocation &I) {
    LaneRefs R(E->type(), Width);
    switch (E->tag()) {
    case Expression::Tag::REF: {
      Variable V = static_cast<const RefExpr *>(E)->variable();
      switch (V.tag()) {
      case Variable::Tag::LOCAL: {
        size_t Offset = I.Vars->offsetOf(V.uid());
        forLanes(Active, [&](unsigned L) { R.Address[L] = I.Vars->at(Offset, L); });
        return R;
      }
      case Variable::Tag::SHARED: {
        auto It = SharedOffsets.find(V.uid());
        if (It == SharedOffsets.end())
          throw Unsupported("shared variable outside the kernel's list");
        forLanes(Active, [&](unsigned L) {
          R.Address[L] = {SharedMemory.data() + It->second, SharedShadow.data() + It->second};
        });
        return R;
      }
      case Variable::Tag::REFERENCE: {
        auto &Bound = I.Vars->References.at(V.uid());
        forLanes(Active, [&](unsigned L) { R.Address[L] = Bound[L]; });
        return R;
      }
      default:
        throw Unsupported("a reference to a " + std::string(luisa::to_string(V.tag())) +
                          " variable");
      }
    }
    case Expression::Tag::CONSTANT: {
      // Constants are never assigned: the DSL has no way to.
      auto *Data = const_cast<std::byte *>(static_cast<const ConstantExpr *>(E)->data().raw());
      forLanes(Active, [&](unsigned L) { R.Address[L] = {Data, nullptr}; });
      return R;
    }
    case Expression::Tag::MEMBER: {
      auto *M = static_cast<const MemberExpr *>(E);
      LaneRefs Base = ref(M->self(), Active, I);
      const Type *BT = M->self()->type();
      size_t Offset;
      if (M->is_swizzle()) {
        if (M->swizzle_size() != 1)
          throw Unsupported("assignment to a swizzle of several components");
        Offset = M->swizzle_index(0) * BT->element()->size();
      } else if (BT->is_structure()) {
        Offset = memberOffset(BT, M->member_index());
      } else {
        throw Unsupported("member of " + typeName(BT));
      }
      forLanes(Active, [&](unsigned L) {
        R.Address[L] = Base.Address[L] ? Base.Address[L].at(Offset) : Place{};
      });
      return R;
    }
    case Expression::Tag::ACCESS: {
      auto *A = static_cast<const AccessExpr *>(E);
      LaneRefs Base = ref(A->range(), Active, I);
      LaneValues Index = eval(A->index(), Active, I);
      forLanes(Active, [&](unsigned L) {
        if (Base.Address[L])
          R.Address[L] =
              element(A->range()->type(), Base.Address[L], indexOf(Index, L, "an index"), L);
      });
      return R;
    }
    default:
      throw Unsupported("assignment to a " + std::string(luisa::to_string(E->tag())) +
                        " expression");
    }
  }

  /// The address of element `Index` of an array, vector or matrix at `Base`; null and an
  /// event when the index is past the end.
  Place element(const Type *Range, Place Base, uint64_t Index, unsigned Lane) {
    uint64_t Count;
    size_t Stride;
    if (Range->is_array() || Range->is_vector()) {
      Count = Range->dimension();
      Stride = Range->element()->size();
    } else if (Range->is_matrix()) {
      Count = Range->dimension();
      Stride = Range->size() / Range->dimension();
    } else if (Range->is_structure()) {
      if (Index >= Range->members().size())
        throw Unsupported("member index past a structure's end");
      return Base.at(memberOffset(Range, unsigned(Index)));
    } else {
      throw Unsupported("indexing " + typeName(Range));
    }
    if (Index >= Count) {
      event(EventKind::OutOfBounds, Lane,
            "index " + std::to_string(Index) + " of " + typeName(Range) + " (" +
                std::to_string(Count) + " elements)");
      return {};
    }
    return Base.at(Index * Stride);
  }

  LaneValues load(const LaneRefs &R, const Mask &Active) {
    LaneValues V(R.T, Width);
    if (touchesShared(R, Active)) {
      maybeSwitchWarp();
      countSharedAccess(R, Active, V.Stride);
    }
    forLanes(Active, [&](unsigned L) {
      if (!R.Address[L])
        return;
      if (isShared(R.Address[L].Data))
        noteAccess(R.Address[L], V.Stride, L, Access::Read);
      copyValue(V.lane(L), R.Address[L].Data, V.Stride);
      V.Undefined.set(L, R.Address[L].undefined(V.Stride));
      if (R.Address[L].unwritten(V.Stride))
        event(EventKind::UndefinedRead, L, "a read of shared memory before any write");
    });
    return V;
  }

  LaneValues eval(const Expression *E, const Mask &Active, Invocation &I) {
    switch (E->tag()) {
    case Expression::Tag::LITERAL: {
      LaneValues V(E->type(), Width);
      luisa::visit(
          [&](auto &&X) {
            if (sizeof(X) != V.Stride)
              throw Unsupported("literal of " + typeName(E->type()));
            forLanes(Active, [&](unsigned L) { std::memcpy(V.lane(L), &X, sizeof(X)); });
          },
          static_cast<const LiteralExpr *>(E)->value().to_variant());
      return V;
    }
    case Expression::Tag::REF: {
      Variable Var = static_cast<const RefExpr *>(E)->variable();
      if (Var.is_builtin())
        return builtinVariable(Var, Active);
      return load(ref(E, Active, I), Active);
    }
    case Expression::Tag::CONSTANT:
      return load(ref(E, Active, I), Active);
    case Expression::Tag::UNARY: {
      auto *U = static_cast<const UnaryExpr *>(E);
      LaneValues X = eval(U->operand(), Active, I);
      LaneValues V(E->type(), Width);
      forLanes(Active, [&](unsigned L) { unaryOp(U->op(), V.T, X.T, X.lane(L), V.lane(L)); });
      V.Undefined = undefinedOf({&X}, Active);
      return V;
    }
    case Expression::Tag::BINARY: {
      auto *B = static_cast<const BinaryExpr *>(E);
      LaneValues X = eval(B->lhs(), Active, I);
      LaneValues Y = eval(B->rhs(), Active, I);
      LaneValues V(E->type(), Width);
      unsigned Lanes[MaxLanes], Count = 0;
      forLanes(Active, [&](unsigned L) { Lanes[Count++] = L; });
      if (Count != 0)
        binaryOpLanes(B->op(), V.T, X.T, X.lane(0), X.Stride, Y.T, Y.lane(0), Y.Stride, V.lane(0),
                      V.Stride, {Lanes, Count});
      V.Undefined = undefinedOf({&X, &Y}, Active);
      return V;
    }
    case Expression::Tag::CAST: {
      auto *C = static_cast<const CastExpr *>(E);
      LaneValues X = eval(C->expression(), Active, I);
      LaneValues V(E->type(), Width);
      forLanes(Active, [&](unsigned L) { castOp(C->op(), V.T, X.T, X.lane(L), V.lane(L)); });
      V.Undefined = undefinedOf({&X}, Active);
      return V;
    }
    case Expression::Tag::MEMBER: {
      if (addressable(E))
        return load(ref(E, Active, I), Active);
      auto *M = static_cast<const MemberExpr *>(E);
      LaneValues Self = eval(M->self(), Active, I);
      LaneValues V(E->type(), Width);
      if (M->is_swizzle()) {
        size_t Size = Self.T->element()->size();
        forLanes(Active, [&](unsigned L) {
          for (unsigned C = 0; C < M->swizzle_size(); ++C)
            std::memcpy(V.lane(L) + C * Size, Self.lane(L) + M->swizzle_index(C) * Size, Size);
        });
      } else if (Self.T->is_structure()) {
        size_t Offset = memberOffset(Self.T, M->member_index());
        forLanes(Active,
                 [&](unsigned L) { std::memcpy(V.lane(L), Self.lane(L) + Offset, V.Stride); });
      } else {
        throw Unsupported("member of " + typeName(Self.T));
      }
      V.Undefined = undefinedOf({&Self}, Active);
      return V;
    }
    case Expression::Tag::ACCESS: {
      if (addressable(E))
        return load(ref(E, Active, I), Active);
      auto *A = static_cast<const AccessExpr *>(E);
      LaneValues Range = eval(A->range(), Active, I);
      LaneValues Index = eval(A->index(), Active, I);
      LaneValues V(E->type(), Width);
      forLanes(Active, [&](unsigned L) {
        if (Place P = element(Range.T, {Range.lane(L), nullptr}, indexOf(Index, L, "an index"), L))
          std::memcpy(V.lane(L), P.Data, V.Stride);
      });
      V.Undefined = undefinedOf({&Range, &Index}, Active);
      return V;
    }
    case Expression::Tag::CALL:
      return call(static_cast<const CallExpr *>(E), Active, I);
    default:
      throw Unsupported("expression " + std::string(luisa::to_string(E->tag())));
    }
  }

  LaneValues builtinVariable(Variable Var, const Mask &Active) {
    LaneValues V(Var.type(), Width);
    forLanes(Active, [&](unsigned L) {
      uint32_t T[3], Out[3];
      threadIndex(L, T);
      switch (Var.tag()) {
      case Variable::Tag::THREAD_ID:
        std::copy(T, T + 3, Out);
        break;
      case Variable::Tag::BLOCK_ID:
        std::copy(BlockId, BlockId + 3, Out);
        break;
      case Variable::Tag::DISPATCH_ID:
        for (int D = 0; D < 3; ++D)
          Out[D] = BlockId[D] * BlockSize[D] + T[D];
        break;
      case Variable::Tag::DISPATCH_SIZE:
        std::copy(Options.DispatchSize, Options.DispatchSize + 3, Out);
        break;
      case Variable::Tag::WARP_LANE_COUNT:
        Out[0] = Width;
        break;
      case Variable::Tag::WARP_LANE_ID:
        Out[0] = L;
        break;
      case Variable::Tag::KERNEL_ID:
        Out[0] = 0;
        break;
      default:
        throw Unsupported("builtin variable " + std::string(luisa::to_string(Var.tag())));
      }
      std::memcpy(V.lane(L), Out, V.Stride);
    });
    return V;
  }

  // --- calls ------------------------------------------------------------------------

  const BufferView &bufferOf(const Expression *E, Invocation &I) {
    if (E->tag() != Expression::Tag::REF)
      throw Unsupported("a buffer that is not a variable");
    Variable V = static_cast<const RefExpr *>(E)->variable();
    auto It = I.Vars->Buffers.find(V.uid());
    if (It == I.Vars->Buffers.end())
      throw Unsupported("buffer variable without a binding");
    return It->second;
  }

  Place bufferElement(const BufferView &B, uint64_t Index, unsigned Lane) {
    if (Index >= B.Count) {
      event(EventKind::OutOfBounds, Lane,
            "buffer index " + std::to_string(Index) + " of " + std::to_string(B.Count) +
                " elements");
      return {};
    }
    size_t At = Index * B.Element->size();
    return {B.Data + At, B.Shadow + At};
  }

  /// buffer.read(index) for the active lanes.
  LaneValues readBuffer(const CallExpr *C, const Mask &Active, Invocation &I) {
    auto Args = C->arguments();
    const BufferView &B = bufferOf(Args[0], I);
    LaneValues Index = eval(Args[1], Active, I);
    LaneValues V(C->type(), Width);
    maybeSwitchWarp();
    uint64_t Offsets[MaxLanes];
    unsigned Count = 0;
    forLanes(Active, [&](unsigned L) {
      if (Place P = bufferElement(B, indexOf(Index, L, "a buffer index"), L)) {
        noteAccess(P, V.Stride, L, Access::Read);
        copyValue(V.lane(L), P.Data, V.Stride);
        V.Undefined.set(L, P.undefined(V.Stride));
        Offsets[Count++] = uint64_t(P.Data - B.Data);
      }
    });
    CostCounter::bufferAccess(cost(), {Offsets, Count}, V.Stride);
    return V;
  }

  /// buffer.write(index, value) for the active lanes.
  void writeBuffer(const CallExpr *C, const Mask &Active, Invocation &I) {
    auto Args = C->arguments();
    const BufferView &B = bufferOf(Args[0], I);
    LaneValues Index = eval(Args[1], Active, I);
    LaneValues Value = eval(Args[2], Active, I);
    LaneValues Stored = converted(std::move(Value), B.Element, Active);
    maybeSwitchWarp();
    uint64_t Offsets[MaxLanes];
    unsigned Count = 0;
    forLanes(Active, [&](unsigned L) {
      if (Place P = bufferElement(B, indexOf(Index, L, "a buffer index"), L)) {
        noteAccess(P, Stored.Stride, L, Access::Write, Stored.lane(L));
        P.store(Stored.lane(L), Stored.Stride, Stored.Undefined.test(L));
        Offsets[Count++] = uint64_t(P.Data - B.Data);
      }
    });
    CostCounter::bufferAccess(cost(), {Offsets, Count}, Stored.Stride);
  }

  LaneValues call(const CallExpr *C, const Mask &Active, Invocation &I) {
    auto Args = C->arguments();
    switch (C->op()) {
    case CallOp::CUSTOM:
      return callCallable(C, Active, I);
    case CallOp::BUFFER_READ:
    case CallOp::BUFFER_VOLATILE_READ:
      return readBuffer(C, Active, I);
    case CallOp::BUFFER_WRITE:
    case CallOp::BUFFER_VOLATILE_WRITE:
      writeBuffer(C, Active, I);
      return {};
    case CallOp::BUFFER_SIZE: {
      const BufferView &B = bufferOf(Args[0], I);
      LaneValues V(C->type(), Width);
      forLanes(Active, [&](unsigned L) {
        uint64_t N = B.Count;
        std::memcpy(V.lane(L), &N, V.Stride);
      });
      return V;
    }
    case CallOp::SYNCHRONIZE_BLOCK:
      synchronizeBlock(C, Active);
      return {};
    case CallOp::ASSUME:
    case CallOp::UNREACHABLE:
      return {};
    default:
      break;
    }
    if (is_atomic_operation(C->op()))
      return atomic(C, Active, I);
    if (auto V = warpOperation(C, Active, I))
      return std::move(*V);

    std::vector<LaneValues> Values;
    std::vector<const Type *> Types;
    for (const Expression *A : Args) {
      Values.push_back(eval(A, Active, I));
      Types.push_back(A->type());
    }
    LaneValues V(C->type(), Width);
    std::vector<const std::byte *> Lane(Args.size());
    bool Known = true;
    forLanes(Active, [&](unsigned L) {
      for (size_t A = 0; A < Args.size(); ++A)
        Lane[A] = Values[A].lane(L);
      Known = Known && builtinOp(C->op(), C->type(), Types, Lane, V.lane(L));
    });
    if (!Known)
      throw Unsupported("call " + std::string(luisa::to_string(C->op())));
    if (C->op() == CallOp::SELECT) {
      // select(false_value, true_value, predicate) depends on the side it takes only.
      forLanes(Active, [&](unsigned L) {
        bool Pick = Values[2].Undefined.test(L) || loadCondition(Values[2].T, Values[2].lane(L));
        V.Undefined.set(L, Values[2].Undefined.test(L) || Values[Pick ? 1 : 0].Undefined.test(L));
      });
      if (!Values[2].T->is_vector())
        return V;
    }
    for (auto &A : Values)
      V.Undefined |= A.Undefined & Active;
    return V;
  }

  LaneValues callCallable(const CallExpr *C, const Mask &Active, Invocation &I) {
    Function Callee = C->custom();
    Frame Vars(layoutOf(Callee), Width);
    auto Parameters = Callee.arguments();
    auto Args = C->arguments();
    for (size_t P = 0; P < Parameters.size(); ++P) {
      Variable V = Parameters[P];
      switch (V.tag()) {
      case Variable::Tag::REFERENCE:
        Vars.References[V.uid()] = ref(Args[P], Active, I).Address;
        break;
      case Variable::Tag::BUFFER:
        Vars.Buffers[V.uid()] = bufferOf(Args[P], I);
        break;
      case Variable::Tag::LOCAL: {
        LaneValues Value = converted(eval(Args[P], Active, I), V.type(), Active);
        forLanes(Active, [&](unsigned L) {
          Vars.local(V.uid(), L).store(Value.lane(L), Value.Stride, Value.Undefined.test(L));
        });
        break;
      }
      case Variable::Tag::THREAD_ID:
      case Variable::Tag::BLOCK_ID:
      case Variable::Tag::DISPATCH_ID:
      case Variable::Tag::DISPATCH_SIZE:
      case Variable::Tag::WARP_LANE_COUNT:
      case Variable::Tag::WARP_LANE_ID:
      case Variable::Tag::KERNEL_ID:
        // A Callable that reads a builtin gets it as a parameter; it reads the
        // same value from its lane (builtinVariable).
        break;
      default:
        throw Unsupported("callable parameter of type " + typeName(V.type()));
      }
    }
    LaneValues Result(Callee.return_type(), Width);
    Invocation Inner{&Vars, false, {}, Callee.return_type() ? &Result : nullptr};
    Mask Running = Active;
    exec(Callee.body(), Running, Inner);
    return Result;
  }

  /// The lanes of `Active` in a seeded order: atomics of one instruction land in it.
  std::vector<unsigned> seededLanes(const Mask &Active) {
    std::vector<unsigned> Lanes;
    forLanes(Active, [&](unsigned L) { Lanes.push_back(L); });
    Rng.shuffle(Lanes);
    return Lanes;
  }

  LaneValues atomic(const CallExpr *C, const Mask &Active, Invocation &I) {
    auto Args = C->arguments();
    size_t ValueCount = C->op() == CallOp::ATOMIC_COMPARE_EXCHANGE ? 2 : 1;
    if (Args.size() < 2 + ValueCount)
      throw Unsupported("atomic without an index");
    // The access chain: a buffer or shared array, then its indices.
    std::vector<Place> Address(Width);
    const Type *T = Args[0]->type();
    size_t First = 1;
    if (T->is_buffer()) {
      const BufferView &B = bufferOf(Args[0], I);
      LaneValues Index = eval(Args[1], Active, I);
      forLanes(Active, [&](unsigned L) {
        Address[L] = bufferElement(B, indexOf(Index, L, "an atomic's index"), L);
      });
      T = T->element();
      First = 2;
    } else {
      Address = ref(Args[0], Active, I).Address;
    }
    for (size_t A = First; A + ValueCount < Args.size(); ++A) {
      LaneValues Index = eval(Args[A], Active, I);
      forLanes(Active, [&](unsigned L) {
        if (Address[L])
          Address[L] = element(T, Address[L], indexOf(Index, L, "an atomic's index"), L);
      });
      T = T->is_structure() ? nullptr : T->element();
      if (!T)
        throw Unsupported("atomics on structure members");
    }
    if (!hasShape(T) || T->is_vector())
      throw Unsupported("atomics on " + typeName(T));
    LaneValues Operand = eval(Args[Args.size() - ValueCount], Active, I);
    LaneValues Desired = ValueCount == 2 ? eval(Args.back(), Active, I) : LaneValues{};
    LaneValues Old(T, Width);
    size_t Size = T->size();
    std::vector<std::byte> New(Size);
    maybeSwitchWarp();
    const std::byte *Updated[MaxLanes];
    unsigned Count = 0;
    for (unsigned L : seededLanes(Active)) {
      if (!Address[L])
        continue;
      Updated[Count++] = Address[L].Data;
      noteAccess(Address[L], Size, L, Access::Atomic);
      std::byte *P = Address[L].Data;
      std::memcpy(Old.lane(L), P, Size);
      // What the memory holds afterwards depends on what it held and on the operands.
      bool WasUndefined = Address[L].undefined(Size);
      Old.Undefined.set(L, WasUndefined);
      if (Address[L].unwritten(Size))
        event(EventKind::UndefinedRead, L, "an atomic on shared memory before any write");
      // An exchange stores its operand whatever the memory held.
      bool KeepsOld = C->op() != CallOp::ATOMIC_EXCHANGE && WasUndefined;
      if (Address[L].Shadow)
        std::memset(Address[L].Shadow,
                    KeepsOld || Operand.Undefined.test(L) ||
                            (ValueCount == 2 && Desired.Undefined.test(L))
                        ? Tainted
                        : Defined,
                    Size);
      updateAtomically(C->op(), T, P, Old.lane(L), Operand.T, Operand.lane(L),
                       ValueCount == 2 ? Desired.lane(L) : nullptr, New.data());
    }
    if (Count != 0)
      Counter.atomic(warpSlot(), isShared(Updated[0]), {Updated, Count});
    return Old;
  }

  /// What atomic \p Op stores at \p P, which held \p Old (\p Scratch: T's size).
  void updateAtomically(CallOp Op, const Type *T, std::byte *P, const std::byte *Old,
                        const Type *OperandType, const std::byte *Operand, const std::byte *Desired,
                        std::byte *Scratch) {
    size_t Size = T->size();
    switch (Op) {
    case CallOp::ATOMIC_EXCHANGE:
      std::memcpy(P, Operand, Size);
      break;
    case CallOp::ATOMIC_COMPARE_EXCHANGE:
      // Compared bit for bit, as atomicCAS does (also for floats).
      if (std::memcmp(P, Operand, Size) == 0)
        std::memcpy(P, Desired, Size);
      break;
    case CallOp::ATOMIC_FETCH_MIN:
    case CallOp::ATOMIC_FETCH_MAX:
      minMaxOp(Op == CallOp::ATOMIC_FETCH_MAX, T, Old, Operand, P);
      break;
    default: {
      BinaryOp Binary = Op == CallOp::ATOMIC_FETCH_ADD   ? BinaryOp::ADD
                        : Op == CallOp::ATOMIC_FETCH_SUB ? BinaryOp::SUB
                        : Op == CallOp::ATOMIC_FETCH_AND ? BinaryOp::BIT_AND
                        : Op == CallOp::ATOMIC_FETCH_OR  ? BinaryOp::BIT_OR
                                                         : BinaryOp::BIT_XOR;
      binaryOp(Binary, T, T, Old, OperandType, Operand, Scratch);
      std::memcpy(P, Scratch, Size);
    }
    }
  }

  /// Counts a warp operation for the cost counters (and a collective computed by the
  /// documented model).
  void countWarpOperation(CallOp Op) {
    switch (Op) {
    case CallOp::WARP_ACTIVE_SUM:
    case CallOp::WARP_ACTIVE_PRODUCT:
    case CallOp::WARP_ACTIVE_MIN:
    case CallOp::WARP_ACTIVE_MAX:
    case CallOp::WARP_ACTIVE_BIT_AND:
    case CallOp::WARP_ACTIVE_BIT_OR:
    case CallOp::WARP_ACTIVE_BIT_XOR:
    case CallOp::WARP_PREFIX_SUM:
    case CallOp::WARP_PREFIX_PRODUCT:
      ++Result.ModelCollectives;
      ++cost().Reductions;
      break;
    case CallOp::WARP_READ_LANE:
    case CallOp::WARP_READ_FIRST_ACTIVE_LANE:
      ++cost().Shuffles;
      break;
    case CallOp::WARP_IS_FIRST_ACTIVE_LANE:
    case CallOp::WARP_FIRST_ACTIVE_LANE:
    case CallOp::WARP_ACTIVE_ALL_EQUAL:
    case CallOp::WARP_ACTIVE_COUNT_BITS:
    case CallOp::WARP_ACTIVE_ALL:
    case CallOp::WARP_ACTIVE_ANY:
    case CallOp::WARP_ACTIVE_BIT_MASK:
    case CallOp::WARP_PREFIX_COUNT_BITS:
      ++cost().Votes;
      break;
    default:
      break;
    }
  }

  /// The WARP_* call ops over the active lanes; nullopt for any other op.
  std::optional<LaneValues> warpOperation(const CallExpr *C, const Mask &Active, Invocation &I) {
    countWarpOperation(C->op());
    if (Options.Collective != Collectives::Documented)
      if (auto V = cudaCollective(C, Active, I))
        return V;
    auto Args = C->arguments();
    unsigned FirstLane = unsigned(Active._Find_first());
    LaneValues V(C->type(), Width);
    auto Broadcast = [&](const std::byte *Bytes) {
      forLanes(Active, [&](unsigned L) { std::memcpy(V.lane(L), Bytes, V.Stride); });
    };
    // A result over the lanes is undefined for all of them when one lane's operand is.
    auto Predicates = [&] {
      LaneValues P = eval(Args[0], Active, I);
      Mask M;
      forLanes(Active, [&](unsigned L) { M.set(L, loadCondition(P.T, P.lane(L))); });
      if ((P.Undefined & Active).any())
        V.Undefined = Active;
      return M;
    };
    auto Operand = [&] {
      LaneValues X = eval(Args[0], Active, I);
      if ((X.Undefined & Active).any())
        V.Undefined = Active;
      return X;
    };
    auto StoreUint = [&](unsigned L, uint32_t X) { std::memcpy(V.lane(L), &X, sizeof X); };
    switch (C->op()) {
    case CallOp::WARP_IS_FIRST_ACTIVE_LANE:
      forLanes(Active, [&](unsigned L) { *V.lane(L) = std::byte(L == FirstLane); });
      return V;
    case CallOp::WARP_FIRST_ACTIVE_LANE:
      forLanes(Active, [&](unsigned L) { StoreUint(L, FirstLane); });
      return V;
    case CallOp::WARP_ACTIVE_ALL_EQUAL: {
      // Component by component, bit for bit (__match_all_sync).
      LaneValues X = Operand();
      Shape S = shapeOf(X.T);
      std::vector<std::byte> Result(V.Stride);
      for (unsigned Cmp = 0; Cmp < S.Components; ++Cmp) {
        bool Equal = true;
        forLanes(Active, [&](unsigned L) {
          Equal = Equal && std::memcmp(X.lane(L) + Cmp * S.ElementSize,
                                       X.lane(FirstLane) + Cmp * S.ElementSize, S.ElementSize) == 0;
        });
        Result[Cmp] = std::byte(Equal);
      }
      Broadcast(Result.data());
      return V;
    }
    case CallOp::WARP_ACTIVE_SUM:
    case CallOp::WARP_ACTIVE_PRODUCT:
    case CallOp::WARP_ACTIVE_MIN:
    case CallOp::WARP_ACTIVE_MAX:
    case CallOp::WARP_ACTIVE_BIT_AND:
    case CallOp::WARP_ACTIVE_BIT_OR:
    case CallOp::WARP_ACTIVE_BIT_XOR: {
      // Folded in lane order; a GPU's tree order can round float sums differently.
      LaneValues X = Operand();
      std::vector<std::byte> Acc(X.lane(FirstLane), X.lane(FirstLane) + X.Stride), Next(X.Stride);
      forLanes(Active, [&](unsigned L) {
        if (L == FirstLane)
          return;
        combine(C->op(), X.T, Acc.data(), X.lane(L), Next.data());
        Acc.swap(Next);
      });
      Broadcast(Acc.data());
      return V;
    }
    case CallOp::WARP_ACTIVE_COUNT_BITS: {
      uint32_t N = uint32_t(Predicates().count());
      forLanes(Active, [&](unsigned L) { StoreUint(L, N); });
      return V;
    }
    case CallOp::WARP_ACTIVE_ALL:
    case CallOp::WARP_ACTIVE_ANY: {
      Mask P = Predicates();
      bool R = C->op() == CallOp::WARP_ACTIVE_ALL ? (P == Active) : P.any();
      forLanes(Active, [&](unsigned L) { *V.lane(L) = std::byte(R); });
      return V;
    }
    case CallOp::WARP_ACTIVE_BIT_MASK: {
      // A 128-bit ballot in a uint4: lane i is bit i % 32 of word i / 32.
      Mask P = Predicates();
      uint32_t Words[4] = {0, 0, 0, 0};
      forLanes(P, [&](unsigned L) { Words[L / 32] |= 1u << (L % 32); });
      Broadcast(reinterpret_cast<const std::byte *>(Words));
      return V;
    }
    case CallOp::WARP_PREFIX_COUNT_BITS: {
      Mask P = Predicates();
      uint32_t N = 0;
      forLanes(Active, [&](unsigned L) {
        StoreUint(L, N);
        N += P.test(L);
      });
      return V;
    }
    case CallOp::WARP_PREFIX_SUM:
    case CallOp::WARP_PREFIX_PRODUCT: {
      // Exclusive: the first active lane gets the identity.
      LaneValues X = eval(Args[0], Active, I);
      std::vector<std::byte> Acc(X.Stride), Next(X.Stride);
      if (C->op() == CallOp::WARP_PREFIX_PRODUCT)
        storeOne(X.T, Acc.data());
      BinaryOp Op = C->op() == CallOp::WARP_PREFIX_SUM ? BinaryOp::ADD : BinaryOp::MUL;
      bool Undefined = false;
      forLanes(Active, [&](unsigned L) {
        std::memcpy(V.lane(L), Acc.data(), V.Stride);
        V.Undefined.set(L, Undefined);
        binaryOp(Op, X.T, X.T, Acc.data(), X.T, X.lane(L), Next.data());
        Acc.swap(Next);
        Undefined = Undefined || X.Undefined.test(L);
      });
      return V;
    }
    case CallOp::WARP_READ_LANE: {
      LaneValues X = eval(Args[0], Active, I);
      LaneValues Index = eval(Args[1], Active, I);
      forLanes(Active, [&](unsigned L) {
        uint64_t From = indexOf(Index, L, "warp_read_lane");
        if (From < Width && Active.test(From)) {
          std::memcpy(V.lane(L), X.lane(unsigned(From)), V.Stride);
          V.Undefined.set(L, Index.Undefined.test(L) || X.Undefined.test(From));
        } else {
          V.Undefined.set(L);
          event(EventKind::UndefinedRead, L,
                "warp_read_lane of lane " + std::to_string(From) +
                    (From < Width ? ", which is inactive"
                                  : ", past the warp of " + std::to_string(Width)));
          // Meaningless bytes, tracked as undefined wherever they flow.
          std::memset(V.lane(L), 0xA5, V.Stride);
        }
      });
      return V;
    }
    case CallOp::WARP_READ_FIRST_ACTIVE_LANE: {
      LaneValues X = eval(Args[0], Active, I);
      Broadcast(X.lane(FirstLane));
      if (X.Undefined.test(FirstLane))
        V.Undefined = Active;
      return V;
    }
    default:
      return std::nullopt;
    }
  }

  /// The reductions and prefixes that LuisaCompute's CUDA backend computes otherwise than
  /// documented (cuda_device_resource.h); nullopt for the others, which it computes exactly.
  std::optional<LaneValues> cudaCollective(const CallExpr *C, const Mask &Active, Invocation &I) {
    switch (C->op()) {
    case CallOp::WARP_ACTIVE_SUM:
    case CallOp::WARP_ACTIVE_MIN:
    case CallOp::WARP_ACTIVE_MAX:
    case CallOp::WARP_ACTIVE_BIT_AND:
    case CallOp::WARP_ACTIVE_BIT_OR:
    case CallOp::WARP_ACTIVE_BIT_XOR:
      if (lowersToRedux(C->type()))
        return std::nullopt;
      [[fallthrough]];
    case CallOp::WARP_ACTIVE_PRODUCT:
      return guardedButterfly(C->op(), eval(C->arguments()[0], Active, I), Active);
    case CallOp::WARP_PREFIX_SUM:
    case CallOp::WARP_PREFIX_PRODUCT:
      return guardedScan(C->op(), eval(C->arguments()[0], Active, I), Active);
    default:
      return std::nullopt;
    }
  }

  /// Whether a reduction of `T` is one `__reduce_*_sync` (PTX redux.sync) per component: on
  /// sm_80 and newer for 32-bit integers (the executor has no 16-bit ones), exact over the
  /// active lanes.
  bool lowersToRedux(const Type *T) const {
    Scalar K = shapeOf(T).Kind;
    return Options.Collective == Collectives::CudaSm80 && (K == Scalar::Int || K == Scalar::Uint);
  }

  /// lc_warp_active_reduce_impl: five `__shfl_xor_sync` steps (distances 16, 8, 4, 2, 1),
  /// each lane combining its partner's value only where the partner is active. Every lane
  /// gets the whole result on a full warp or a single lane only; elsewhere lanes whose
  /// partners are missing end with partial results (lanes 8-12 of a 13-lane tail warp).
  LaneValues guardedButterfly(CallOp Op, const LaneValues &X, const Mask &Active) {
    LaneValues Now = X;
    for (unsigned Distance : {16u, 8u, 4u, 2u, 1u}) {
      LaneValues Next = Now;
      forLanes(Active, [&](unsigned L) {
        unsigned Partner = L ^ Distance;
        if (!Active.test(Partner))
          return;
        combine(Op, X.T, Now.lane(L), Now.lane(Partner), Next.lane(L));
        Next.Undefined.set(L, Now.Undefined.test(L) || Now.Undefined.test(Partner));
      });
      Now = std::move(Next);
    }
    return Now;
  }

  /// lc_warp_prefix_reduce_impl: each lane takes the value of the previous active lane (the
  /// first the identity), then five `__shfl_up_sync` steps (distances 1, 2, 4, 8, 16), each
  /// adding the lane that far below only where that lane is active. Exact where the active
  /// lanes are one run without gaps; past a gap a lane misses some of the lanes before it.
  LaneValues guardedScan(CallOp Op, const LaneValues &X, const Mask &Active) {
    LaneValues Now(X.T, Width);
    unsigned Previous = Width;
    forLanes(Active, [&](unsigned L) {
      if (Previous == Width) {
        if (Op == CallOp::WARP_PREFIX_PRODUCT)
          storeOne(X.T, Now.lane(L));
      } else {
        std::memcpy(Now.lane(L), X.lane(Previous), X.Stride);
        Now.Undefined.set(L, X.Undefined.test(Previous));
      }
      Previous = L;
    });
    BinaryOp Combine = Op == CallOp::WARP_PREFIX_SUM ? BinaryOp::ADD : BinaryOp::MUL;
    for (unsigned Distance : {1u, 2u, 4u, 8u, 16u}) {
      LaneValues Next = Now;
      forLanes(Active, [&](unsigned L) {
        if (L < Distance || !Active.test(L - Distance))
          return;
        binaryOp(Combine, X.T, X.T, Now.lane(L), X.T, Now.lane(L - Distance), Next.lane(L));
        Next.Undefined.set(L, Now.Undefined.test(L) || Now.Undefined.test(L - Distance));
      });
      Now = std::move(Next);
    }
    return Now;
  }

  void combine(CallOp Op, const Type *T, const std::byte *A, const std::byte *B, std::byte *Out) {
    switch (Op) {
    case CallOp::WARP_ACTIVE_SUM:
      binaryOp(BinaryOp::ADD, T, T, A, T, B, Out);
      return;
    case CallOp::WARP_ACTIVE_PRODUCT:
      binaryOp(BinaryOp::MUL, T, T, A, T, B, Out);
      return;
    case CallOp::WARP_ACTIVE_BIT_AND:
      binaryOp(BinaryOp::BIT_AND, T, T, A, T, B, Out);
      return;
    case CallOp::WARP_ACTIVE_BIT_OR:
      binaryOp(BinaryOp::BIT_OR, T, T, A, T, B, Out);
      return;
    case CallOp::WARP_ACTIVE_BIT_XOR:
      binaryOp(BinaryOp::BIT_XOR, T, T, A, T, B, Out);
      return;
    case CallOp::WARP_ACTIVE_MIN:
      minMaxOp(false, T, A, B, Out);
      return;
    default:
      minMaxOp(true, T, A, B, Out);
      return;
    }
  }
};

void Machine::runCurrentWarp() {
  Warp *W = Current;
  try {
    Frame Vars(layoutOf(Kernel), Width);
    Vars.Buffers = KernelBuffers;
    for (auto &[Uid, Bytes] : KernelUniforms)
      for (unsigned L = 0; L < Width; ++L)
        Vars.local(Uid, L).store(Bytes.data(), Bytes.size(), false);
    Invocation Body{&Vars, true, {}, nullptr};
    Mask Active = W->Live;
    exec(Kernel.body(), Active, Body);
  } catch (...) {
    W->Error = std::current_exception();
  }
  W->Now = Warp::State::Done;
  // Returning switches to uc_link, the scheduler.
}

} // namespace

RunResult run(Function Kernel, std::span<const Argument> Arguments, const LaunchOptions &Options) {
  RunResult Result;
  Machine M(Kernel, Arguments, Options, Result);
  M.run();
  return Result;
}

} // namespace kernel_tidy::simt
