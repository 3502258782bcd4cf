// How a warp access is priced: bank passes of `Shared` memory, 128-byte segments of a
// buffer, and how many atomics meet at one address.
#include "CostCounter.h"

#include <algorithm>

namespace kernel_tidy::simt {

namespace {

constexpr uint64_t BankBytes = 4, Banks = 32, SegmentBytes = 128;

/// The distinct \p Unit-sized pieces that \p Offsets (\p Size bytes each) touch, sorted.
std::vector<uint64_t> piecesOf(std::span<const uint64_t> Offsets, size_t Size, uint64_t Unit) {
  std::vector<uint64_t> Pieces;
  Pieces.reserve(Offsets.size() * 2);
  for (uint64_t Offset : Offsets)
    for (uint64_t P = Offset / Unit; P <= (Offset + Size - 1) / Unit; ++P)
      Pieces.push_back(P);
  std::sort(Pieces.begin(), Pieces.end());
  Pieces.erase(std::unique(Pieces.begin(), Pieces.end()), Pieces.end());
  return Pieces;
}

} // namespace

Costs &Costs::operator+=(const Costs &Other) {
  Warps += Other.Warps;
  Shuffles += Other.Shuffles;
  Reductions += Other.Reductions;
  Votes += Other.Votes;
  Barriers += Other.Barriers;
  SharedAccesses += Other.SharedAccesses;
  SharedWavefronts += Other.SharedWavefronts;
  BufferAccesses += Other.BufferAccesses;
  BufferTransactions += Other.BufferTransactions;
  GlobalAtomics += Other.GlobalAtomics;
  GlobalAtomicLanes += Other.GlobalAtomicLanes;
  SharedAtomics += Other.SharedAtomics;
  SharedAtomicLanes += Other.SharedAtomicLanes;
  AtomicDepth = std::max(AtomicDepth, Other.AtomicDepth);
  AtomicAddressOps = std::max(AtomicAddressOps, Other.AtomicAddressOps);
  AtomicAddressWarps = std::max(AtomicAddressWarps, Other.AtomicAddressWarps);
  return *this;
}

void CostCounter::sharedAccess(Costs &Warp, std::span<const uint64_t> Offsets, size_t Size) {
  if (Offsets.empty())
    return;
  uint64_t PerBank[Banks] = {};
  for (uint64_t Word : piecesOf(Offsets, Size, BankBytes))
    ++PerBank[Word % Banks];
  ++Warp.SharedAccesses;
  Warp.SharedWavefronts += *std::max_element(PerBank, PerBank + Banks);
}

void CostCounter::bufferAccess(Costs &Warp, std::span<const uint64_t> Offsets, size_t Size) {
  if (Offsets.empty())
    return;
  ++Warp.BufferAccesses;
  Warp.BufferTransactions += piecesOf(Offsets, Size, SegmentBytes).size();
}

void CostCounter::atomic(uint64_t Index, bool Shared, std::span<const std::byte *const> Addresses) {
  if (Addresses.empty())
    return;
  Costs &Warp = PerWarp[Index];
  ++(Shared ? Warp.SharedAtomics : Warp.GlobalAtomics);
  (Shared ? Warp.SharedAtomicLanes : Warp.GlobalAtomicLanes) += Addresses.size();
  std::vector<const std::byte *> Sorted(Addresses.begin(), Addresses.end());
  std::sort(Sorted.begin(), Sorted.end());
  AddressUses &Uses = Shared ? SharedAddresses : GlobalAddresses;
  for (size_t First = 0; First < Sorted.size();) {
    size_t End = First;
    while (End < Sorted.size() && Sorted[End] == Sorted[First])
      ++End;
    Warp.AtomicDepth = std::max<uint64_t>(Warp.AtomicDepth, End - First);
    AddressUse &Use = Uses[Sorted[First]];
    Use.Ops += End - First;
    // Most addresses see one warp, a contended one each warp once in a row: the last
    // warp is checked first.
    if (Use.Warps.empty() ||
        (Use.Warps.back() != Index &&
         std::find(Use.Warps.begin(), Use.Warps.end(), Index) == Use.Warps.end()))
      Use.Warps.push_back(Index);
    First = End;
  }
}

void CostCounter::fold(AddressUses &Uses) {
  for (auto &[Address, Use] : Uses) {
    MostOps = std::max(MostOps, Use.Ops);
    MostWarps = std::max<uint64_t>(MostWarps, Use.Warps.size());
  }
  Uses.clear();
}

Costs CostCounter::finish(std::vector<Costs> &Warps) {
  fold(GlobalAddresses);
  fold(SharedAddresses);
  Costs Total;
  Warps.clear();
  for (const Costs &W : PerWarp)
    if (W.Warps != 0) {
      Total += W;
      Warps.push_back(W);
    }
  Total.AtomicAddressOps = MostOps;
  Total.AtomicAddressWarps = MostWarps;
  return Total;
}

} // namespace kernel_tidy::simt
