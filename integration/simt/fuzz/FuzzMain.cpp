// The differential fuzzer's runner (fuzz.py writes the instances, kernel-tidy rewrites
// them): runs every instance before and after its rewrite on the SIMT executor over
// random inputs, launch sizes, block sizes and both schedules, and compares the results
// with exactly the differences the fix allows (FuzzInstance.h, Allowed). A difference
// prints "FAIL <instance> ..." with the launch that shows it; exit 1 if there was one.
//
//   kernel-tidy-simt-fuzz [--only NAME] [--seed S] [--runs N]
#include "FuzzInstance.h"

#include <simt/Simt.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace kernel_tidy::simt;
using namespace kernel_tidy::simt::fuzz;

namespace {

struct Launch {
  uint32_t Threads, BlockSize, WarpSize;
  uint64_t Seed;
  Schedule Scheduling;
  bool AllActive;
  std::string describe() const {
    std::ostringstream S;
    S << "threads=" << Threads << " block=" << BlockSize << " warp=" << WarpSize << " seed=" << Seed
      << " schedule=" << (Scheduling == Schedule::Lockstep ? "lockstep" : "independent")
      << " guards=" << (AllActive ? "all" : "random");
    return S.str();
  }
};

/// `in`, `out` (initial) and `aux` (guard flags, then 4 counters) of one launch.
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

Inputs makeInputs(ValueType Type, const Launch &L) {
  std::mt19937_64 R(L.Seed * 7919 + L.Threads);
  Inputs I;
  auto Value = [&](double &Abs) {
    if (Type != ValueType::Float)
      return static_cast<uint32_t>(R());
    float F = randomFloat(R);
    Abs = std::fabs(F);
    uint32_t Bits;
    std::memcpy(&Bits, &F, 4);
    return Bits;
  };
  for (uint32_t T = 0; T < L.Threads; ++T) {
    double A = 0;
    I.In.push_back(Value(A));
    I.SumAbs += A;
    I.Out.push_back(Value(A));
    I.MaxAbsOut = std::max(I.MaxAbsOut, A);
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

Outcome runOnce(const Recorded &Kernel, ValueType Type, const Inputs &I, const Launch &L) {
  auto Typed = [&](const std::vector<uint32_t> &Bits) {
    if (Type == ValueType::Float) {
      std::vector<float> F(Bits.size());
      std::memcpy(F.data(), Bits.data(), Bits.size() * 4);
      return Buffer::of(F);
    }
    if (Type == ValueType::Int)
      return Buffer::of(std::vector<int32_t>(Bits.begin(), Bits.end()));
    return Buffer::of(Bits);
  };
  Outcome O{Typed(I.Out), Buffer::of(I.Aux), {}};
  Buffer In = Typed(I.In);
  std::vector<Argument> Args{&In, &O.Out, &O.Aux};
  LaunchOptions Options;
  Options.DispatchSize[0] = L.Threads;
  Options.WarpSize = L.WarpSize;
  Options.Seed = L.Seed;
  Options.Scheduling = L.Scheduling;
  O.Result = run(Kernel->function(), Args, Options);
  return O;
}

float asFloat(const std::byte *P) {
  float F;
  std::memcpy(&F, P, 4);
  return F;
}

/// The first difference the fix does not allow, or "".
/// Whether element `E` of `Buf` came out the same under the lockstep schedule (`Lock`):
/// where an original's result depends on the schedule, a GPU with independent thread
/// scheduling leaves it undefined, and the rewrite may give any value there.
bool scheduleDependent(const Buffer &Buf, const Buffer *Lock, size_t E) {
  if (!Lock)
    return false;
  return Buf.undefined(E) != Lock->undefined(E) ||
         std::memcmp(Buf.data() + 4 * E, Lock->data() + 4 * E, 4) != 0;
}

std::string compare(const Instance &Inst, const Launch &L, const Inputs &I, const Outcome &B,
                    const Outcome &A, const Outcome *Lock) {
  uint32_t Width = Inst.Warp ? Inst.Warp : L.WarpSize;
  std::ostringstream Why;
  for (EventKind K : {EventKind::DivergentBarrier, EventKind::OutOfBounds, EventKind::UndefinedUse})
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
  auto Show = [&](const std::byte *P) {
    std::ostringstream S;
    uint32_t Bits;
    std::memcpy(&Bits, P, 4);
    if (Inst.Type == ValueType::Float)
      S << asFloat(P);
    else if (Inst.Type == ValueType::Int)
      S << static_cast<int32_t>(Bits);
    else
      S << Bits;
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
  double Unit = std::ldexp(1.0, -24);
  double Bound = 2.0 * static_cast<double>(I.In.size()) * Unit * (I.SumAbs + I.MaxAbsOut);
  for (size_t E = 0; E < N; ++E) {
    if (B.Out.undefined(E) || scheduleDependent(B.Out, Lock ? &Lock->Out : nullptr, E))
      continue;
    if (Inst.Differences == Allowed::LaneZeroOnly && E % L.BlockSize % Width != 0)
      continue;
    if (A.Out.undefined(E))
      return "out[" + std::to_string(E) + "]: undefined after the rewrite only";
    const std::byte *X = B.Out.data() + 4 * E, *Y = A.Out.data() + 4 * E;
    if (std::memcmp(X, Y, 4) == 0)
      continue;
    if (Inst.Differences == Allowed::Reassociation && Inst.Type == ValueType::Float) {
      double D = std::fabs(static_cast<double>(asFloat(X)) - asFloat(Y));
      if (D <= Bound + Unit * std::fabs(asFloat(X)))
        continue;
      Why << "out[" << E << "]: " << Show(X) << " before, " << Show(Y) << " after (|difference| "
          << D << " > bound " << Bound << ")";
      return Why.str();
    }
    Why << "out[" << E << "]: " << Show(X) << " before, " << Show(Y) << " after";
    return Why.str();
  }
  return "";
}

} // namespace

int main(int Argc, char **Argv) {
  std::string Only;
  uint64_t BaseSeed = 1;
  int Runs = 3;
  for (int A = 1; A + 1 < Argc; A += 2) {
    std::string Opt = Argv[A];
    if (Opt == "--only")
      Only = Argv[A + 1];
    else if (Opt == "--seed")
      BaseSeed = std::stoull(Argv[A + 1]);
    else if (Opt == "--runs")
      Runs = std::stoi(Argv[A + 1]);
    else {
      std::fprintf(stderr, "usage: %s [--only NAME] [--seed S] [--runs N]\n", Argv[0]);
      return 2;
    }
  }
  int Failures = 0, Ran = 0, Launches = 0;
  for (const Instance &Inst : instances()) {
    if (!Only.empty() && Only != Inst.Name)
      continue;
    ++Ran;
    std::mt19937_64 R(BaseSeed * 1000003 + std::hash<std::string>{}(Inst.Name));
    std::vector<uint32_t> Widths;
    if (Inst.Warp)
      Widths = {Inst.Warp};
    else
      Widths = {Inst.AssumedWarp};
    std::string Failure;
    for (int Run = 0; Run < Runs && Failure.empty(); ++Run)
      for (uint32_t Width : Widths)
        for (Schedule S : {Schedule::Lockstep, Schedule::Independent}) {
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
          L.AllActive = Run % 2 == 0;
          Inputs I = makeInputs(Inst.Type, L);
          ++Launches;
          try {
            Outcome B = runOnce(Inst.Before(L.BlockSize), Inst.Type, I, L);
            Outcome A = runOnce(Inst.After(L.BlockSize), Inst.Type, I, L);
            std::optional<Outcome> Lock;
            if (S == Schedule::Independent) {
              Launch Lockstep = L;
              Lockstep.Scheduling = Schedule::Lockstep;
              Lock = runOnce(Inst.Before(L.BlockSize), Inst.Type, I, Lockstep);
            }
            std::string Why = compare(Inst, L, I, B, A, Lock ? &*Lock : nullptr);
            if (!Why.empty()) {
              Failure = Why + " [" + L.describe() + "]";
              break;
            }
          } catch (const std::exception &E) {
            Failure = std::string("error: ") + E.what() + " [" + L.describe() + "]";
            break;
          }
        }
    if (!Failure.empty()) {
      ++Failures;
      std::printf("FAIL %s %s\n", Inst.Name, Failure.c_str());
    }
  }
  std::printf("instances %d, launches %d (each before and after), failures %d\n", Ran, Launches,
              Failures);
  return Failures ? 1 : 0;
}
