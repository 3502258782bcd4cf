// The uniformity property test's runner (uniformity.py writes the kernels and what
// kernel-tidy's analyses claim about each probe): runs every kernel on the SIMT executor
// at warp widths 8 to 128, on whole and partial blocks, under both schedules, and checks
// each claim against the values and reach the probes recorded:
//   - a value called warp-uniform is equal over the lanes of a warp that evaluate it
//     together (same context and active mask), block-uniform over the threads of a block
//     at the same context, grid-uniform over the launch;
//   - a probe whose control is called warp-, block- or grid-uniform is reached, at each
//     context, by every live lane of the warp, block or launch, or by none.
// A broken claim prints "VIOLATION <kernel> <probe> ..." with the launch; exit 1.
//
//   kernel-tidy-simt-uniformity --claims FILE [--seed S] [--runs N] [--only NAME]
#include "UniformityCase.h"

#include <simt/Simt.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

using namespace kernel_tidy::simt;
using namespace kernel_tidy::simt::uniformity;

namespace {

/// How widely kernel-tidy says a value or a decision is shared (Variance).
enum class Claim { Grid, Block, Warp, Thread };

Claim parseClaim(const std::string &S) {
  if (S == "grid-uniform")
    return Claim::Grid;
  if (S == "block-uniform")
    return Claim::Block;
  if (S == "warp-uniform")
    return Claim::Warp;
  return Claim::Thread;
}

const char *claimName(Claim C) {
  switch (C) {
  case Claim::Grid:
    return "grid-uniform";
  case Claim::Block:
    return "block-uniform";
  case Claim::Warp:
    return "warp-uniform";
  case Claim::Thread:
    return "thread-varying";
  }
  return "?";
}

struct Claims {
  Claim Value, Control;
};

struct Launch {
  uint32_t Threads, BlockSize, WarpSize, N;
  uint64_t Seed;
  Schedule Scheduling;
  std::string describe() const {
    std::ostringstream S;
    S << "threads=" << Threads << " block=" << BlockSize << " warp=" << WarpSize << " n=" << N
      << " seed=" << Seed
      << " schedule=" << (Scheduling == Schedule::Lockstep ? "lockstep" : "independent");
    return S.str();
  }
};

struct Record {
  uint32_t Thread, Id, Context, Value;
  bool Defined;
  std::array<uint32_t, 4> Mask;
};

struct Checker {
  const std::map<uint32_t, Claims> &ClaimOf;
  const Case &Kernel;
  const Launch &L;
  std::set<std::string> &Seen; ///< One report per probe and kind, over all launches.
  int Violations = 0;
  uint64_t Values = 0, Reaches = 0;

  void report(uint32_t Id, const std::string &What) {
    if (!Seen.insert(std::to_string(Id) + What.substr(0, What.find(':'))).second)
      return;
    ++Violations;
    std::printf("VIOLATION %s probe %u %s [%s]\n", Kernel.Name, Id, What.c_str(),
                L.describe().c_str());
  }

  uint32_t blockOf(uint32_t T) const { return T / L.BlockSize; }
  uint32_t warpOf(uint32_t T) const { return T % L.BlockSize / L.WarpSize; }
  uint32_t liveInBlock(uint32_t B) const {
    return std::min(L.BlockSize, L.Threads - B * L.BlockSize);
  }
  uint32_t liveInWarp(uint32_t B, uint32_t W) const {
    uint32_t Begin = B * L.BlockSize + W * L.WarpSize;
    uint32_t End = std::min({Begin + L.WarpSize, (B + 1) * L.BlockSize, L.Threads});
    return End - Begin;
  }

  void check(const std::vector<Record> &All) {
    using WarpKey = std::tuple<uint32_t, uint32_t, uint32_t, uint32_t, std::array<uint32_t, 4>>;
    std::map<WarpKey, std::pair<uint32_t, uint32_t>> WarpValue; // first thread, value
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, std::pair<uint32_t, uint32_t>> BlockValue;
    std::map<std::pair<uint32_t, uint32_t>, std::pair<uint32_t, uint32_t>> GridValue;
    std::map<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>, uint32_t> WarpReach;
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, uint32_t> BlockReach;
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> GridReach;
    for (const Record &R : All) {
      auto It = ClaimOf.find(R.Id);
      if (It == ClaimOf.end())
        continue;
      Claim V = It->second.Value;
      uint32_t B = blockOf(R.Thread), W = warpOf(R.Thread);
      ++WarpReach[{B, W, R.Id, R.Context}];
      ++BlockReach[{B, R.Id, R.Context}];
      ++GridReach[{R.Id, R.Context}];
      if (!R.Defined || V == Claim::Thread)
        continue;
      ++Values;
      auto Compare = [&](auto &Map, const auto &Key, const char *Over) {
        auto [Slot, New] = Map.try_emplace(Key, R.Thread, R.Value);
        if (!New && Slot->second.second != R.Value) {
          std::ostringstream S;
          S << "value: called " << claimName(V) << ", differs over the " << Over << " at context "
            << R.Context << ": thread " << Slot->second.first << " has " << Slot->second.second
            << ", thread " << R.Thread << " has " << R.Value;
          report(R.Id, S.str());
        }
      };
      Compare(WarpValue, WarpKey{B, W, R.Id, R.Context, R.Mask}, "warp's active lanes");
      if (V <= Claim::Block)
        Compare(BlockValue, std::make_tuple(B, R.Id, R.Context), "block");
      if (V == Claim::Grid)
        Compare(GridValue, std::make_pair(R.Id, R.Context), "launch");
    }
    auto Reached = [&](uint32_t Id, uint32_t Context, uint32_t Count, uint32_t Live,
                       const char *Over, Claim Needed) {
      ++Reaches;
      Claim C = ClaimOf.at(Id).Control;
      if (C > Needed || Count == Live)
        return;
      std::ostringstream S;
      S << "control: called " << claimName(C) << ", but " << Count << " of the " << Live
        << " live threads of the " << Over << " reach it at context " << Context;
      report(Id, S.str());
    };
    for (const auto &[Key, Count] : WarpReach)
      Reached(std::get<2>(Key), std::get<3>(Key), Count,
              liveInWarp(std::get<0>(Key), std::get<1>(Key)), "warp", Claim::Warp);
    for (const auto &[Key, Count] : BlockReach)
      Reached(std::get<1>(Key), std::get<2>(Key), Count, liveInBlock(std::get<0>(Key)), "block",
              Claim::Block);
    for (const auto &[Key, Count] : GridReach)
      Reached(Key.first, Key.second, Count, L.Threads, "launch", Claim::Grid);
  }
};

} // namespace

int main(int Argc, char **Argv) {
  std::string ClaimsFile, Only;
  uint64_t BaseSeed = 1;
  int Runs = 10;
  for (int A = 1; A + 1 < Argc; A += 2) {
    std::string Opt = Argv[A];
    if (Opt == "--claims")
      ClaimsFile = Argv[A + 1];
    else if (Opt == "--seed")
      BaseSeed = std::stoull(Argv[A + 1]);
    else if (Opt == "--runs")
      Runs = std::stoi(Argv[A + 1]);
    else if (Opt == "--only")
      Only = Argv[A + 1];
    else
      ClaimsFile.clear(), A = Argc;
  }
  if (ClaimsFile.empty()) {
    std::fprintf(stderr, "usage: %s --claims FILE [--seed S] [--runs N] [--only NAME]\n", Argv[0]);
    return 2;
  }
  std::map<uint32_t, Claims> ClaimOf;
  std::ifstream In(ClaimsFile);
  uint32_t Id;
  std::string Value, Control, Witness;
  while (In >> Id >> Value >> Control >> Witness)
    ClaimOf[Id] = {parseClaim(Value), parseClaim(Control)};
  const uint32_t Widths[] = {8, 16, 32, 64, 128};
  const uint32_t Blocks[] = {32, 64, 128, 256};
  int Violations = 0, Launches = 0, Ran = 0;
  uint64_t Values = 0, Reaches = 0, RecordCount = 0;
  for (const Case &K : cases()) {
    if (!Only.empty() && Only != K.Name)
      continue;
    ++Ran;
    for (uint32_t P = K.FirstProbe; P < K.EndProbe; ++P)
      if (!ClaimOf.count(P)) {
        std::printf("ERROR %s: no claim for probe %u\n", K.Name, P);
        return 2;
      }
    std::mt19937_64 R(BaseSeed * 1000003 + std::hash<std::string>{}(K.Name));
    std::set<std::string> Reported;
    for (int Run = 0; Run < Runs; ++Run) {
      Launch L;
      L.WarpSize = Widths[Run / 2 % 5];
      L.Scheduling = Run % 2 ? Schedule::Independent : Schedule::Lockstep;
      L.BlockSize = Blocks[R() % 4];
      uint32_t Count = 1 + static_cast<uint32_t>(R() % 3);
      uint32_t Shape = Run / 2 % 3;
      L.Threads = Shape == 0 ? Count * L.BlockSize
                  : Shape == 1
                      ? Count * L.BlockSize + 1 + static_cast<uint32_t>(R() % (L.BlockSize - 1))
                      : 1 + static_cast<uint32_t>(R() % L.BlockSize);
      L.Seed = R() % 100000;
      L.N = static_cast<uint32_t>(R() % 5);
      std::vector<uint32_t> Input(L.Threads + 8);
      for (uint32_t &X : Input)
        X = static_cast<uint32_t>(R() % 8);
      Buffer InBuf = Buffer::of(Input);
      Buffer Rec = Buffer::of(std::vector<uint32_t>(static_cast<size_t>(L.Threads) * Stride));
      std::vector<Argument> Args{&InBuf, &Rec, Uniform::of(L.N)};
      LaunchOptions O;
      O.DispatchSize[0] = L.Threads;
      O.WarpSize = L.WarpSize;
      O.Seed = L.Seed;
      O.Scheduling = L.Scheduling;
      ++Launches;
      try {
        run(K.Kernel(L.BlockSize)->function(), Args, O);
      } catch (const std::exception &E) {
        std::printf("ERROR %s: %s [%s]\n", K.Name, E.what(), L.describe().c_str());
        return 2;
      }
      std::vector<uint32_t> Words = Rec.read<uint32_t>();
      std::vector<Record> Seen;
      for (uint32_t T = 0; T < L.Threads; ++T) {
        const uint32_t *Base = Words.data() + static_cast<size_t>(T) * Stride;
        if (Base[0] > Records) {
          std::printf("ERROR %s: thread %u reached %u probes, more than the %u recorded [%s]\n",
                      K.Name, T, Base[0], Records, L.describe().c_str());
          return 2;
        }
        std::set<std::pair<uint32_t, uint32_t>> Once;
        for (uint32_t J = 0; J < Base[0]; ++J) {
          const uint32_t *W = Base + 1 + 8 * J;
          size_t At = static_cast<size_t>(T) * Stride + 1 + 8 * J;
          Record Rd{T, W[0], W[1], W[2], !Rec.undefined(At + 2), {W[3], W[4], W[5], W[6]}};
          if (!Once.insert({Rd.Id, Rd.Context}).second) {
            std::printf("ERROR %s: thread %u reached probe %u twice at context %u [%s]\n", K.Name,
                        T, Rd.Id, Rd.Context, L.describe().c_str());
            return 2;
          }
          Seen.push_back(Rd);
        }
      }
      RecordCount += Seen.size();
      Checker C{ClaimOf, K, L, Reported, 0, 0, 0};
      C.check(Seen);
      Violations += C.Violations;
      Values += C.Values;
      Reaches += C.Reaches;
    }
  }
  std::printf("runner: kernels %d, launches %d, records %llu, uniform values checked %llu, reach "
              "groups %llu, "
              "violations %d\n",
              Ran, Launches, static_cast<unsigned long long>(RecordCount),
              static_cast<unsigned long long>(Values), static_cast<unsigned long long>(Reaches),
              Violations);
  return Violations ? 1 : 0;
}
