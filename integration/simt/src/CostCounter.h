// The executor's cost counters (simt/Costs.h), kept apart from the interpreter so that
// what is counted, and how a warp access is priced, is one small class.
#pragma once

#include <simt/Costs.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

namespace kernel_tidy::simt {

/// Prices the warp-wide operations of one dispatch, per warp, as the executor runs them.
class CostCounter {
public:
  /// Makes room for \p Warps warps, numbered block by block.
  explicit CostCounter(uint64_t Warps = 0) : PerWarp(Warps) {}

  /// The counts of warp \p Index (its block's linear index times warps per block, plus
  /// its index in the block).
  Costs &warp(uint64_t Index) { return PerWarp[Index]; }

  /// One `Shared` load or store of a warp: its lanes' byte offsets into shared memory,
  /// \p Size bytes each.
  static void sharedAccess(Costs &Warp, std::span<const uint64_t> Offsets, size_t Size);
  /// One buffer read or write of a warp: its lanes' byte offsets into the buffer.
  static void bufferAccess(Costs &Warp, std::span<const uint64_t> Offsets, size_t Size);
  /// One atomic instruction of warp \p Index: the addresses its lanes updated.
  void atomic(uint64_t Index, bool Shared, std::span<const std::byte *const> Addresses);
  /// At the end of a block: its `Shared` addresses are another block's next.
  void endBlock() { fold(SharedAddresses); }

  /// The dispatch's totals; \p Warps receives the counts of each warp that ran.
  Costs finish(std::vector<Costs> &Warps);

private:
  /// The atomic operations on one address and the warps that did them.
  struct AddressUse {
    uint64_t Ops = 0;
    std::vector<uint64_t> Warps;
  };
  using AddressUses = std::unordered_map<const std::byte *, AddressUse>;
  void fold(AddressUses &Uses);

  std::vector<Costs> PerWarp;
  AddressUses GlobalAddresses, SharedAddresses;
  uint64_t MostOps = 0, MostWarps = 0;
};

} // namespace kernel_tidy::simt
