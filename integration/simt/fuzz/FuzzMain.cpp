// The differential fuzzer's runner (fuzz.py writes the instances, kernel-tidy rewrites
// them): runs every instance before and after its rewrite on the SIMT executor over
// random inputs, launch sizes, block sizes and both schedules, and compares the results
// with exactly the differences the fix allows (FuzzInstance.h, Allowed). A difference
// prints "FAIL <instance> ..." with the launch that shows it; exit 1 if there was one.
// Host instances (luisa-stream-batching) run on the executor as a LuisaCompute device:
// the buffers and host vectors must end the same, and the rewrite must submit fewer
// command lists (the device counts them) where kernel-tidy changed the function.
//
//   kernel-tidy-simt-fuzz [--only NAME] [--seed S] [--runs N]
#include "FuzzInstance.h"

#include <simt/Device.h>
#include <simt/Simt.h>

#include <luisa/dsl/builtin.h>
#include <luisa/runtime/device.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

using namespace kernel_tidy::simt;
using namespace kernel_tidy::simt::fuzz;

namespace {

struct Launch {
  uint32_t Threads, BlockSize, WarpSize;
  uint64_t Seed;
  Schedule Scheduling;
  bool AllActive;
  Collectives Collective = Collectives::Documented;
  std::string describe() const {
    std::ostringstream S;
    S << "threads=" << Threads << " block=" << BlockSize << " warp=" << WarpSize << " seed=" << Seed
      << " schedule=" << (Scheduling == Schedule::Lockstep ? "lockstep" : "independent")
      << " guards=" << (AllActive ? "all" : "random")
      << " collectives=" << collectivesName(Collective);
    return S.str();
  }
};

/// `in`, `out` (initial) and `aux` (guard flags, then 4 counters) of one launch; `in`
/// and `out` hold the bits of each component (a half's in the low 16 bits).
struct Inputs {
  std::vector<uint32_t> In, Out, Aux;
  double SumAbs = 0, MaxAbsOut = 0;
};

float randomFloat(std::mt19937_64 &R) {
  // Values with few significant bits, of both signs and mixed magnitudes.
  int Mantissa = static_cast<int>(R() % 2001) - 1000;
  int Exponent = static_cast<int>(R() % 9) - 6;
  return std::ldexp(static_cast<float>(Mantissa), Exponent);
}

uint32_t componentSize(ValueType Type) { return Type == ValueType::Half ? 2 : 4; }

const luisa::compute::Type *elementType(ValueType Type, uint32_t Dim) {
  using luisa::compute::Type;
  switch (Type) {
  case ValueType::UInt:
    return std::array{Type::of<luisa::uint>(), Type::of<luisa::uint2>(), Type::of<luisa::uint3>(),
                      Type::of<luisa::uint4>()}[Dim - 1];
  case ValueType::Int:
    return std::array{Type::of<int>(), Type::of<luisa::int2>(), Type::of<luisa::int3>(),
                      Type::of<luisa::int4>()}[Dim - 1];
  case ValueType::Float:
    return std::array{Type::of<float>(), Type::of<luisa::float2>(), Type::of<luisa::float3>(),
                      Type::of<luisa::float4>()}[Dim - 1];
  case ValueType::Half:
    return std::array{Type::of<luisa::half>(), Type::of<luisa::half2>(), Type::of<luisa::half3>(),
                      Type::of<luisa::half4>()}[Dim - 1];
  }
  return nullptr;
}

/// Component `C` of element `E` of a buffer of `Inst`'s values.
const std::byte *component(const Instance &Inst, const Buffer &Buf, size_t E, uint32_t C) {
  return Buf.data() + E * Buf.element()->size() + C * componentSize(Inst.Type);
}

double valueOf(ValueType Type, const std::byte *P) {
  uint32_t Bits = 0;
  std::memcpy(&Bits, P, componentSize(Type));
  float F;
  _Float16 H;
  switch (Type) {
  case ValueType::UInt:
    return Bits;
  case ValueType::Int:
    return static_cast<int32_t>(Bits);
  case ValueType::Float:
    return (std::memcpy(&F, &Bits, 4), F);
  case ValueType::Half:
    return (std::memcpy(&H, P, 2), static_cast<double>(H));
  }
  return 0;
}

/// What a launch's inputs look like: mixed signs and small magnitudes, every value
/// negative (a max or min whose identity is 0 instead of the lowest value shows), or
/// huge magnitudes (floats near 2^100, whose block sums still stay finite; integers near
/// the type's ends).
enum class InputMix { Mixed, AllNegative, Huge };

Inputs makeInputs(const Instance &Inst, const Launch &L) {
  std::mt19937_64 R(L.Seed * 7919 + L.Threads);
  Inputs I;
  auto Mix = static_cast<InputMix>(R() % 3);
  auto Value = [&](double &Abs) {
    bool Negative = Mix == InputMix::AllNegative;
    if (Inst.Type == ValueType::Half) {
      // Few significant bits and a small range: sums of a block stay finite.
      int Mantissa = static_cast<int>(R() % 61) - 30;
      int Exponent = static_cast<int>(R() % 7) - 6;
      if (Negative)
        Mantissa = -1 - std::abs(Mantissa);
      auto H = static_cast<_Float16>(std::ldexp(static_cast<float>(Mantissa), Exponent));
      Abs = std::fabs(static_cast<double>(H));
      uint16_t Bits;
      std::memcpy(&Bits, &H, 2);
      return static_cast<uint32_t>(Bits);
    }
    if (Inst.Type != ValueType::Float) {
      auto Bits = static_cast<uint32_t>(R());
      if (Mix == InputMix::Huge) // within 2^16 of an end of the type's range
        Bits = (Bits & 1u ? 0x7fffffffu - (Bits >> 16) : 0x80000000u + (Bits >> 16)) ^
               (Inst.Type == ValueType::UInt ? 0x80000000u : 0u);
      return Negative ? Bits | 0x80000000u : Bits;
    }
    float F = randomFloat(R);
    if (Mix == InputMix::Huge)
      F = std::ldexp(F, 90);
    if (Negative)
      F = -std::fabs(F) - 1.0f;
    Abs = std::fabs(F);
    uint32_t Bits;
    std::memcpy(&Bits, &F, 4);
    return Bits;
  };
  for (uint32_t T = 0; T < L.Threads; ++T) {
    double A = 0;
    for (uint32_t C = 0; C < Inst.Dim; ++C) {
      I.In.push_back(Value(A));
      I.SumAbs += A;
    }
    for (uint32_t C = 0; C < Inst.Dim; ++C) {
      I.Out.push_back(Value(A));
      I.MaxAbsOut = std::max(I.MaxAbsOut, A);
    }
    I.Aux.push_back(L.AllActive || R() % 4 != 0 ? 1u : 0u);
  }
  for (int C = 0; C < 4; ++C)
    I.Aux.push_back(0u);
  return I;
}

struct Outcome {
  Buffer Out, Aux;
  RunResult Result;
};

Outcome runOnce(const Recorded &Kernel, const Instance &Inst, const Inputs &I, const Launch &L) {
  auto Typed = [&](const std::vector<uint32_t> &Bits) {
    Buffer B(elementType(Inst.Type, Inst.Dim), Bits.size() / Inst.Dim);
    for (size_t E = 0; E < B.count(); ++E)
      for (uint32_t C = 0; C < Inst.Dim; ++C)
        std::memcpy(const_cast<std::byte *>(component(Inst, B, E, C)), &Bits[E * Inst.Dim + C],
                    componentSize(Inst.Type));
    return B;
  };
  Outcome O{Typed(I.Out), Buffer::of(I.Aux), {}};
  Buffer In = Typed(I.In);
  std::vector<Argument> Args{&In, &O.Out, &O.Aux};
  LaunchOptions Options;
  Options.DispatchSize[0] = L.Threads;
  Options.WarpSize = L.WarpSize;
  Options.Seed = L.Seed;
  Options.Scheduling = L.Scheduling;
  Options.Collective = L.Collective;
  O.Result = run(Kernel->function(), Args, Options);
  return O;
}

/// Whether element `E` of `Buf` came out the same under the lockstep schedule (`Lock`):
/// where an original's result depends on the schedule, a GPU with independent thread
/// scheduling leaves it undefined, and the rewrite may give any value there.
bool scheduleDependent(const Buffer &Buf, const Buffer *Lock, size_t E) {
  if (!Lock)
    return false;
  size_t Size = Buf.element()->size();
  return Buf.undefined(E) != Lock->undefined(E) ||
         std::memcmp(Buf.data() + Size * E, Lock->data() + Size * E, Size) != 0;
}

/// The first difference the fix does not allow, or "".
std::string compare(const Instance &Inst, const Launch &L, const Inputs &I, const Outcome &B,
                    const Outcome &A, const Outcome *Lock) {
  uint32_t Width = Inst.Warp ? Inst.Warp : L.WarpSize;
  std::ostringstream Why;
  for (EventKind K : {EventKind::DivergentBarrier, EventKind::OutOfBounds, EventKind::UndefinedUse,
                      EventKind::Race})
    if (A.Result.count(K) > B.Result.count(K)) {
      Why << "the rewrite has " << A.Result.count(K) << " " << eventKindName(K)
          << " events, the original " << B.Result.count(K);
      for (const Event &E : A.Result.Events)
        if (E.Kind == K) {
          Why << " (first: block " << E.Block[0] << " thread " << E.Thread << ": " << E.Detail
              << ")";
          break;
        }
      return Why.str();
    }
  if (Inst.Differences == Allowed::EventsOnly)
    return "";
  size_t N = B.Out.count();
  for (size_t E = 0; E < B.Aux.count(); ++E) {
    if (B.Aux.undefined(E) || scheduleDependent(B.Aux, Lock ? &Lock->Aux : nullptr, E))
      continue;
    if (A.Aux.undefined(E))
      return "aux[" + std::to_string(E) + "]: undefined after the rewrite only";
    uint32_t X, Y;
    std::memcpy(&X, B.Aux.data() + 4 * E, 4);
    std::memcpy(&Y, A.Aux.data() + 4 * E, 4);
    if (X != Y) {
      Why << "aux[" << E << "]: " << X << " before, " << Y << " after";
      return Why.str();
    }
  }
  auto Show = [&](const Buffer &Buf, size_t E) {
    std::ostringstream S;
    for (uint32_t C = 0; C < Inst.Dim; ++C)
      S << (C ? ", " : Inst.Dim > 1 ? "(" : "") << valueOf(Inst.Type, component(Inst, Buf, E, C));
    S << (Inst.Dim > 1 ? ")" : "");
    return S.str();
  };
  if (Inst.Differences == Allowed::AppendOrder) {
    std::vector<uint32_t> Before, After;
    for (size_t E = 0; E < N; ++E) {
      uint32_t X;
      if (!B.Out.undefined(E))
        Before.push_back((std::memcpy(&X, B.Out.data() + 4 * E, 4), X));
      if (!A.Out.undefined(E))
        After.push_back((std::memcpy(&X, A.Out.data() + 4 * E, 4), X));
    }
    std::sort(Before.begin(), Before.end());
    std::sort(After.begin(), After.end());
    if (Before != After) {
      auto [X, Y] = std::mismatch(Before.begin(), Before.end(), After.begin(), After.end());
      Why << "out differs as a multiset (" << Before.size() << " defined before, " << After.size()
          << " after; first difference in sorted order: " << (X == Before.end() ? 0 : *X)
          << " before, " << (Y == After.end() ? 0 : *Y) << " after)";
      return Why.str();
    }
    return "";
  }
  double Unit = std::ldexp(1.0, Inst.Type == ValueType::Half ? -11 : -24);
  bool Float = Inst.Type == ValueType::Float || Inst.Type == ValueType::Half;
  double Terms = static_cast<double>(I.In.size() / Inst.Dim);
  double Bound = 2.0 * Terms * Unit * (I.SumAbs + I.MaxAbsOut);
  bool LaneZero = Inst.Differences == Allowed::LaneZeroOnly ||
                  Inst.Differences == Allowed::LaneZeroReassociation;
  bool Rounding = Float && (Inst.Differences == Allowed::Reassociation ||
                            Inst.Differences == Allowed::LaneZeroReassociation);
  for (size_t E = 0; E < N; ++E) {
    if (B.Out.undefined(E) || scheduleDependent(B.Out, Lock ? &Lock->Out : nullptr, E))
      continue;
    if (LaneZero && E % L.BlockSize % Width != 0)
      continue;
    if (A.Out.undefined(E))
      return "out[" + std::to_string(E) + "]: undefined after the rewrite only";
    for (uint32_t C = 0; C < Inst.Dim; ++C) {
      const std::byte *X = component(Inst, B.Out, E, C), *Y = component(Inst, A.Out, E, C);
      if (std::memcmp(X, Y, componentSize(Inst.Type)) == 0)
        continue;
      if (Rounding) {
        double D = std::fabs(valueOf(Inst.Type, X) - valueOf(Inst.Type, Y));
        if (D <= Bound + Unit * std::fabs(valueOf(Inst.Type, X)))
          continue;
        Why << "out[" << E << "]: " << Show(B.Out, E) << " before, " << Show(A.Out, E)
            << " after (component " << C << ": |difference| " << D << " > bound " << Bound << ")";
        return Why.str();
      }
      Why << "out[" << E << "]: " << Show(B.Out, E) << " before, " << Show(A.Out, E) << " after";
      return Why.str();
    }
  }
  return "";
}

/// The state a host instance starts from and ends with.
struct HostState {
  std::vector<uint32_t> HA, HB, A, B;
  size_t Submissions = 0;
};

HostState runHost(void (*Function)(HostArgs &), const luisa::compute::Context &Ctx,
                  const HostState &Start, uint64_t Seed) {
  namespace lc = luisa::compute;
  static lc::Kernel1D StepKernel = [](lc::BufferUInt X, lc::UInt K) noexcept {
    lc::UInt I = lc::dispatch_x();
    X.write(I, X.read(I) * 3u + K);
  };
  static lc::Kernel1D MixKernel = [](lc::BufferUInt X, lc::BufferUInt Y) noexcept {
    lc::UInt I = lc::dispatch_x();
    X.write(I, X.read(I) * 2u + Y.read(I));
  };
  LaunchOptions Options;
  Options.Seed = Seed;
  auto Simt = luisa::make_shared<SimtDevice>(lc::Context{Ctx}, Options);
  lc::Device D{Simt};
  auto Step = D.compile(StepKernel);
  auto Mix = D.compile(MixKernel);
  lc::Stream S = D.create_stream(), Other = D.create_stream();
  auto N = static_cast<luisa::uint>(Start.A.size());
  lc::Buffer<luisa::uint> A = D.create_buffer<luisa::uint>(N);
  lc::Buffer<luisa::uint> B = D.create_buffer<luisa::uint>(N);
  S << A.copy_from(Start.A.data()) << B.copy_from(Start.B.data()) << lc::synchronize();
  luisa::vector<luisa::uint> HA(Start.HA.begin(), Start.HA.end());
  luisa::vector<luisa::uint> HB(Start.HB.begin(), Start.HB.end());
  size_t Submitted = Simt->submissions();
  HostArgs Args{S, Other, A, B, HA, HB, Step, Mix, N};
  Function(Args);
  HostState End;
  End.Submissions = Simt->submissions() - Submitted;
  End.A.resize(N);
  End.B.resize(N);
  S << A.copy_to(End.A.data()) << B.copy_to(End.B.data()) << lc::synchronize();
  End.HA.assign(HA.begin(), HA.end());
  End.HB.assign(HB.begin(), HB.end());
  return End;
}

/// The first difference between a host instance's two versions, or "".
std::string compareHost(const HostInstance &Inst, const HostState &B, const HostState &A) {
  std::ostringstream Why;
  for (auto [Name, X, Y] : {std::tuple{"ha", &B.HA, &A.HA}, std::tuple{"hb", &B.HB, &A.HB},
                            std::tuple{"a", &B.A, &A.A}, std::tuple{"b", &B.B, &A.B}}) {
    auto [P, Q] = std::mismatch(X->begin(), X->end(), Y->begin());
    if (P != X->end()) {
      Why << Name << "[" << (P - X->begin()) << "]: " << *P << " before, " << *Q << " after";
      return Why.str();
    }
  }
  if (A.Submissions > B.Submissions || (Inst.Rewritten && A.Submissions == B.Submissions)) {
    Why << "the rewrite submits " << A.Submissions << " command lists, the original "
        << B.Submissions;
    return Why.str();
  }
  return "";
}

/// Runs every host instance `Runs` times on random sizes and contents.
int runHostInstances(const std::string &Only, uint64_t BaseSeed, int Runs, const char *Argv0,
                     int &Ran, int &Launches, int &Unchanged) {
  luisa::compute::Context Ctx{Argv0};
  int Failures = 0;
  for (const HostInstance &Inst : hostInstances()) {
    if (!Only.empty() && Only != Inst.Name)
      continue;
    if (Inst.Before == Inst.After) {
      ++Unchanged;
      continue;
    }
    ++Ran;
    std::mt19937_64 R(BaseSeed * 1000003 + std::hash<std::string>{}(Inst.Name));
    std::string Failure;
    size_t Submitted[2] = {0, 0};
    for (int Run = 0; Run < Runs && Failure.empty(); ++Run) {
      HostState Start;
      auto N = 1 + static_cast<uint32_t>(R() % 40);
      for (auto *V : {&Start.HA, &Start.HB, &Start.A, &Start.B})
        for (uint32_t I = 0; I < N; ++I)
          V->push_back(static_cast<uint32_t>(R() % 1000));
      uint64_t Seed = R() % 100000;
      ++Launches;
      HostState Before = runHost(Inst.Before, Ctx, Start, Seed);
      HostState After = runHost(Inst.After, Ctx, Start, Seed);
      Submitted[0] += Before.Submissions, Submitted[1] += After.Submissions;
      std::string Why = compareHost(Inst, Before, After);
      if (!Why.empty())
        Failure = Why + " [n=" + std::to_string(N) + " seed=" + std::to_string(Seed) + "]";
    }
    if (!Failure.empty()) {
      ++Failures;
      std::printf("FAIL %s %s\n", Inst.Name, Failure.c_str());
    } else {
      std::printf("submissions %s %zu before, %zu after\n", Inst.Name, Submitted[0], Submitted[1]);
    }
  }
  return Failures;
}

/// The collective models named in `List` ("documented,cuda-sm80,cuda-sm70"); empty when
/// one is unknown.
std::vector<Collectives> collectivesOf(const std::string &List) {
  std::vector<Collectives> Models;
  std::istringstream In(List);
  for (std::string Name; std::getline(In, Name, ',');) {
    bool Known = false;
    for (Collectives C : {Collectives::Documented, Collectives::CudaSm80, Collectives::CudaSm70})
      if (Name == collectivesName(C)) {
        Models.push_back(C);
        Known = true;
      }
    if (!Known)
      return {};
  }
  return Models;
}

/// A kernel recorded once per block size, for every launch of the instance.
class Recordings {
public:
  explicit Recordings(Recorded (*Record)(uint32_t)) : Record(Record) {}
  const Recorded &at(uint32_t BlockSize) {
    for (auto &[Size, Kernel] : Made)
      if (Size == BlockSize)
        return Kernel;
    return Made.emplace_back(BlockSize, Record(BlockSize)).second;
  }

private:
  Recorded (*Record)(uint32_t);
  std::vector<std::pair<uint32_t, Recorded>> Made;
};

} // namespace

int main(int Argc, char **Argv) {
  std::string Only;
  uint64_t BaseSeed = 1;
  int Runs = 3;
  // The fixes claim CUDA (fuzz.py runs kernel-tidy without --target): 32-lane launches
  // run under every model of the collectives.
  std::vector<Collectives> Models = {Collectives::Documented, Collectives::CudaSm80,
                                     Collectives::CudaSm70};
  for (int A = 1; A + 1 < Argc; A += 2) {
    std::string Opt = Argv[A];
    if (Opt == "--only")
      Only = Argv[A + 1];
    else if (Opt == "--seed")
      BaseSeed = std::stoull(Argv[A + 1]);
    else if (Opt == "--runs")
      Runs = std::stoi(Argv[A + 1]);
    else if (Opt == "--collectives" && !(Models = collectivesOf(Argv[A + 1])).empty())
      continue;
    else {
      std::fprintf(stderr,
                   "usage: %s [--only NAME] [--seed S] [--runs N] [--collectives "
                   "documented,cuda-sm80,cuda-sm70]\n",
                   Argv[0]);
      return 2;
    }
  }
  int Failures = 0, Ran = 0, Launches = 0, Unchanged = 0;
  for (const Instance &Inst : instances()) {
    if (!Only.empty() && Only != Inst.Name)
      continue;
    // kernel-tidy left it alone (fuzz.py gave it its original on both sides): there
    // is nothing to compare.
    if (Inst.Before == Inst.After) {
      ++Unchanged;
      continue;
    }
    ++Ran;
    std::mt19937_64 R(BaseSeed * 1000003 + std::hash<std::string>{}(Inst.Name));
    std::vector<uint32_t> Widths;
    if (Inst.Warp)
      Widths = {Inst.Warp};
    else
      Widths = {Inst.AssumedWarp};
    // The first difference only the independent schedule shows (which fuzz.py may
    // call KNOWN) does not end the instance's launches, so that a later difference of
    // another kind still fails it; any other difference ends them.
    std::string Failure, IndependentOnly;
    Recordings Before(Inst.Before), After(Inst.After);
    for (int Run = 0; Run < Runs && Failure.empty(); ++Run)
      for (uint32_t Width : Widths)
        for (Schedule S : {Schedule::Lockstep, Schedule::Independent})
          for (Collectives Model : Models) {
            if (!Failure.empty() || (Model != Collectives::Documented && Width != 32))
              continue;
            Launch L;
            L.BlockSize = Inst.Block ? Inst.Block : std::vector<uint32_t>{32, 64, 128}[R() % 3];
            L.WarpSize = Width;
            // Whole blocks, a partial last block, a partial warp.
            uint32_t Blocks = 1 + static_cast<uint32_t>(R() % 3);
            uint32_t Shape = Inst.WholeBlocks ? 0 : Run % 3;
            L.Threads = Shape == 0   ? Blocks * L.BlockSize
                        : Shape == 1 ? Blocks * L.BlockSize + 1 +
                                           static_cast<uint32_t>(R() % (L.BlockSize - 1))
                                     : 1 + static_cast<uint32_t>(R() % L.BlockSize);
            L.Seed = R() % 100000;
            L.Scheduling = S;
            L.Collective = Model;
            L.AllActive = Run % 2 == 0;
            Inputs I = makeInputs(Inst, L);
            ++Launches;
            try {
              Outcome B = runOnce(Before.at(L.BlockSize), Inst, I, L);
              Outcome A = runOnce(After.at(L.BlockSize), Inst, I, L);
              std::optional<Outcome> Lock;
              if (S == Schedule::Independent) {
                Launch Lockstep = L;
                Lockstep.Scheduling = Schedule::Lockstep;
                Lock = runOnce(Before.at(L.BlockSize), Inst, I, Lockstep);
              }
              std::string Why = compare(Inst, L, I, B, A, Lock ? &*Lock : nullptr);
              if (!Why.empty() && Lock) {
                // A difference that the same launch shows in lockstep is not the
                // independent schedule's: report it as lockstep, so that it cannot pass
                // for the known split-warp difference (fuzz.py, known_difference).
                Launch Lockstep = L;
                Lockstep.Scheduling = Schedule::Lockstep;
                Outcome ALock = runOnce(After.at(L.BlockSize), Inst, I, Lockstep);
                if (std::string Plain = compare(Inst, Lockstep, I, *Lock, ALock, nullptr);
                    !Plain.empty()) {
                  Why = Plain;
                  L = Lockstep;
                }
              }
              if (Why.empty())
                continue;
              if (L.Scheduling != Schedule::Independent)
                Failure = Why + " [" + L.describe() + "]";
              else if (IndependentOnly.empty())
                IndependentOnly = Why + " [" + L.describe() + "]";
            } catch (const std::exception &E) {
              Failure = std::string("error: ") + E.what() + " [" + L.describe() + "]";
            }
          }
    for (const std::string *Found : {&IndependentOnly, &Failure})
      if (!Found->empty())
        std::printf("FAIL %s %s\n", Inst.Name, Found->c_str());
    Failures += !Failure.empty() || !IndependentOnly.empty();
  }
  if (!hostInstances().empty())
    Failures += runHostInstances(Only, BaseSeed, Runs, Argv[0], Ran, Launches, Unchanged);
  std::printf("instances %d, launches %d (each before and after), failures %d, left alone by "
              "kernel-tidy %d\n",
              Ran, Launches, Failures, Unchanged);
  return Failures ? 1 : 0;
}
