//===--- Launch.h - Launch shapes and how their threads form warps --------===//
//
// Threads are numbered as CUDA and LuisaCompute do: within a block x varies
// fastest, and consecutive groups of WarpSize threads of a block form a warp.
// Threads of a block outside the dispatch size exist in the warp but are
// inactive (LuisaCompute returns early for them), which makes partial warps.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_GPU_HARNESS_LAUNCH_H
#define KERNEL_TIDY_GPU_HARNESS_LAUNCH_H

#include <cstdint>
#include <string>
#include <vector>

namespace kernel_tidy::harness {

/// Which in-bounds threads run the pattern: all, odd lanes only, or a seeded
/// random half (the pattern then sits in a divergent branch).
enum class LaneMask { All, OddLanes, Random, OneIn32 };

struct LaunchShape {
  std::string Name;
  std::uint32_t Width = 0, Height = 1;    // dispatch size
  std::uint32_t BlockX = 256, BlockY = 1; // block size
  LaneMask Mask = LaneMask::All;
};

/// The shapes every case runs: full warps, a partial tail warp, 2D with edge
/// blocks, odd lanes, random mask.
std::vector<LaunchShape> standardShapes();

/// The shapes of a case whose kernel sets the 1D block size \p BlockX: full
/// blocks only (every thread of a block reaches its barriers), all threads,
/// odd lanes and a random half running the pattern, named as the standard
/// shapes (the first, "full-warps", is the timed one).
std::vector<LaunchShape> blockShapes(std::uint32_t BlockX);

/// The contention sweep of an atomic case: 8192 threads in 1D blocks of each
/// of \p Blocks, with every thread, a random half, the odd lanes and one lane
/// in 32 running the atomic, named "contention-b<block>-<mask>".
std::vector<LaunchShape> contentionShapes(const std::vector<std::uint32_t> &Blocks);

/// One lane of a warp: its lane index, its element (y * Width + x) and
/// whether it runs the pattern (in bounds and selected by the mask).
struct Lane {
  std::uint32_t Index = 0;
  std::size_t Element = 0;
  bool InBounds = false;
  bool Active = false;
};

struct Warp {
  std::uint32_t Block = 0; // linear block id
  std::vector<Lane> Lanes; // WarpSize entries, by lane index
};

/// The elements (Width * Height) of \p Shape, 1 where the thread runs the
/// pattern. The kernel reads this buffer to branch. OddLanes selects odd
/// thread indices within the block (odd lanes for any even warp size); Random
/// draws each flag from a Random seeded with \p Seed.
std::vector<std::uint32_t> activeFlags(const LaunchShape &Shape, std::uint64_t Seed);
/// The warps of a launch of \p Shape, given the flags of activeFlags: every
/// warp of every block, block by block (linear id by * blocksX + bx), in warp
/// order, including warps with no thread in bounds (all lanes inactive).
/// Lanes past the end of a block that is not a multiple of WarpSize are out
/// of bounds.
std::vector<Warp> warpsOf(const LaunchShape &Shape, std::uint32_t WarpSize,
                          const std::vector<std::uint32_t> &Flags);
/// The number of blocks of \p Shape (ceil-divided in each dimension).
std::uint32_t blockCount(const LaunchShape &Shape);

} // namespace kernel_tidy::harness

#endif
