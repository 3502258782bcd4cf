// The executor's cost counters: what a warp (summed: a dispatch) executed that a GPU pays
// for, counted as the DSL states it (one warp_active_sum is one reduction, whatever its
// lowering; docs/compiled-counts.md counts the lowering). docs/simt.md#cost-counters says
// what they model and what they do not (latency, occupancy, caches).
#pragma once

#include <cstdint>

namespace kernel_tidy::simt {

/// Counts of the warp-wide operations a warp or a dispatch executed.
struct Costs {
  /// Warps that ran a live lane (1 in one warp's counts).
  uint64_t Warps = 0;
  /// warp_read_lane and warp_read_first_active_lane (a shfl each).
  uint64_t Shuffles = 0;
  /// Reductions and prefixes: warp_active_sum ... bit_xor, warp_prefix_sum and product.
  uint64_t Reductions = 0;
  /// Votes: warp_active_all/any/bit_mask/count_bits, warp_prefix_count_bits, the first
  /// active lane, warp_active_all_equal.
  uint64_t Votes = 0;
  /// sync_block() reached.
  uint64_t Barriers = 0;
  /// Loads and stores of `Shared` memory, one per warp instruction.
  uint64_t SharedAccesses = 0;
  /// The bank passes they took: 32 banks of 4 bytes, one pass per distinct 4-byte word of
  /// the bank its lanes touch most (lanes reading one word share a pass).
  uint64_t SharedWavefronts = 0;
  /// Buffer reads and writes, one per warp instruction.
  uint64_t BufferAccesses = 0;
  /// The 128-byte segments of the buffer they touched, counted per instruction.
  uint64_t BufferTransactions = 0;
  /// Atomic instructions on buffers and their lanes' operations.
  uint64_t GlobalAtomics = 0, GlobalAtomicLanes = 0;
  /// Atomic instructions on `Shared` memory and their lanes' operations.
  uint64_t SharedAtomics = 0, SharedAtomicLanes = 0;
  /// The most lanes of one atomic instruction on one address (a maximum).
  uint64_t AtomicDepth = 0;
  /// Dispatch only: the most atomic operations on one address, of all warps (`Shared`:
  /// of one block), and the most warps that did atomics on one address (maxima).
  uint64_t AtomicAddressOps = 0, AtomicAddressWarps = 0;

  /// Bank-conflict replays: the passes beyond one per access.
  uint64_t sharedReplays() const { return SharedWavefronts - SharedAccesses; }

  /// Adds \p Other's counts (the maxima: the larger).
  Costs &operator+=(const Costs &Other);

  /// Calls \p Visit(name, value, isMaximum) for every counter, in declaration order; the
  /// names are the report's ("shuffles", "global_atomic_lanes", ...).
  template <typename Fn> void forEach(Fn &&Visit) const {
    Visit("warps", Warps, false);
    Visit("shuffles", Shuffles, false);
    Visit("reductions", Reductions, false);
    Visit("votes", Votes, false);
    Visit("barriers", Barriers, false);
    Visit("shared_accesses", SharedAccesses, false);
    Visit("shared_wavefronts", SharedWavefronts, false);
    Visit("buffer_accesses", BufferAccesses, false);
    Visit("buffer_transactions", BufferTransactions, false);
    Visit("global_atomics", GlobalAtomics, false);
    Visit("global_atomic_lanes", GlobalAtomicLanes, false);
    Visit("shared_atomics", SharedAtomics, false);
    Visit("shared_atomic_lanes", SharedAtomicLanes, false);
    Visit("atomic_depth", AtomicDepth, true);
    Visit("atomic_address_ops", AtomicAddressOps, true);
    Visit("atomic_address_warps", AtomicAddressWarps, true);
  }
};

} // namespace kernel_tidy::simt
