//===--- Launch.cpp - Launch shapes and how their threads form warps ------===//

#include "Launch.h"
#include "Inputs.h"
#include <utility>

namespace kernel_tidy::harness {

namespace {

std::uint32_t ceilDiv(std::uint32_t A, std::uint32_t B) { return B == 0 ? 0 : (A + B - 1) / B; }

LaunchShape shape(std::string Name, std::uint32_t Width, std::uint32_t Height, std::uint32_t BlockX,
                  std::uint32_t BlockY, LaneMask Mask) {
  LaunchShape S;
  S.Name = std::move(Name);
  S.Width = Width;
  S.Height = Height;
  S.BlockX = BlockX;
  S.BlockY = BlockY;
  S.Mask = Mask;
  return S;
}

} // namespace

std::vector<LaunchShape> standardShapes() {
  return {
      shape("full-warps", 4096, 1, 256, 1, LaneMask::All),
      // 45 threads past 16 full blocks: one full warp, then a warp of 13.
      shape("partial-tail", 4096 + 45, 1, 256, 1, LaneMask::All),
      // 100 x 37 in 16 x 16 blocks: the last block column holds 4 columns,
      // the last block row 5 rows.
      shape("2d-edge", 100, 37, 16, 16, LaneMask::All),
      shape("odd-lanes", 4096, 1, 256, 1, LaneMask::OddLanes),
      shape("random-mask", 4096, 1, 256, 1, LaneMask::Random),
  };
}

std::vector<LaunchShape> blockShapes(std::uint32_t BlockX) {
  // 4096 threads: 16 blocks of 256, 4 of 1024; a multiple of any block size
  // LuisaCompute accepts (at most 1024 threads).
  return {
      shape("full-warps", 4096, 1, BlockX, 1, LaneMask::All),
      shape("odd-lanes", 4096, 1, BlockX, 1, LaneMask::OddLanes),
      shape("random-mask", 4096, 1, BlockX, 1, LaneMask::Random),
  };
}

std::vector<LaunchShape> contentionShapes(const std::vector<std::uint32_t> &Blocks) {
  std::vector<LaunchShape> Shapes;
  for (std::uint32_t Block : Blocks)
    for (auto [Mask, MaskName] :
         {std::pair{LaneMask::All, "all"}, std::pair{LaneMask::Random, "random-half"},
          std::pair{LaneMask::OddLanes, "odd-lanes"}, std::pair{LaneMask::OneIn32, "one-in-32"}})
      Shapes.push_back(
          shape("contention-b" + std::to_string(Block) + "-" + MaskName, 8192, 1, Block, 1, Mask));
  return Shapes;
}

std::uint32_t blockCount(const LaunchShape &Shape) {
  return ceilDiv(Shape.Width, Shape.BlockX) * ceilDiv(Shape.Height, Shape.BlockY);
}

// OddLanes uses the parity of the thread's index within its block, which is
// the parity of its lane for any even warp size.
std::vector<std::uint32_t> activeFlags(const LaunchShape &Shape, std::uint64_t Seed) {
  std::size_t Count = static_cast<std::size_t>(Shape.Width) * Shape.Height;
  std::vector<std::uint32_t> Flags(Count, 1);
  if (Shape.Mask == LaneMask::All)
    return Flags;
  Random R(Seed);
  for (std::size_t Element = 0; Element < Count; ++Element) {
    if (Shape.Mask == LaneMask::Random) {
      Flags[Element] = static_cast<std::uint32_t>(R.next() >> 63);
      continue;
    }
    std::uint32_t X = static_cast<std::uint32_t>(Element % Shape.Width);
    std::uint32_t Y = static_cast<std::uint32_t>(Element / Shape.Width);
    std::uint32_t ThreadInBlock = (Y % Shape.BlockY) * Shape.BlockX + X % Shape.BlockX;
    // OneIn32: the first thread of every 32, one lane per 32-lane warp.
    Flags[Element] = Shape.Mask == LaneMask::OneIn32 ? ThreadInBlock % 32 == 0 : ThreadInBlock % 2;
  }
  return Flags;
}

std::vector<Warp> warpsOf(const LaunchShape &Shape, std::uint32_t WarpSize,
                          const std::vector<std::uint32_t> &Flags) {
  std::vector<Warp> Warps;
  if (WarpSize == 0)
    return Warps;
  std::uint32_t BlocksX = ceilDiv(Shape.Width, Shape.BlockX);
  std::uint32_t BlocksY = ceilDiv(Shape.Height, Shape.BlockY);
  std::uint32_t Threads = Shape.BlockX * Shape.BlockY;
  std::uint32_t WarpsPerBlock = ceilDiv(Threads, WarpSize);
  for (std::uint32_t BY = 0; BY < BlocksY; ++BY) {
    for (std::uint32_t BX = 0; BX < BlocksX; ++BX) {
      for (std::uint32_t W = 0; W < WarpsPerBlock; ++W) {
        Warp Current;
        Current.Block = BY * BlocksX + BX;
        Current.Lanes.resize(WarpSize);
        for (std::uint32_t L = 0; L < WarpSize; ++L) {
          Lane &Out = Current.Lanes[L];
          Out.Index = L;
          std::uint32_t Thread = W * WarpSize + L;
          if (Thread >= Threads)
            continue; // padding of a block that is not a multiple of WarpSize
          std::uint32_t X = BX * Shape.BlockX + Thread % Shape.BlockX;
          std::uint32_t Y = BY * Shape.BlockY + Thread / Shape.BlockX;
          Out.InBounds = X < Shape.Width && Y < Shape.Height;
          if (!Out.InBounds)
            continue;
          Out.Element = static_cast<std::size_t>(Y) * Shape.Width + X;
          Out.Active = Out.Element < Flags.size() && Flags[Out.Element] != 0;
        }
        Warps.push_back(std::move(Current));
      }
    }
  }
  return Warps;
}

} // namespace kernel_tidy::harness
