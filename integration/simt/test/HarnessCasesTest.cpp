// Every case of the GPU harness (its "before" kernel, for uint) runs on the executor on
// the harness's launch shapes: what the harness relies on is implemented, and full blocks
// meet their barriers. (Their results against the references are the harness's business.)
#include <simt/Simt.h>

#include "CaseKernel.h"
#include "CaseTable.h"

#include <gtest/gtest.h>

using namespace luisa;
using namespace luisa::compute;
namespace simt = kernel_tidy::simt;

namespace {

struct HarnessCase {
  const char *Name;
  kernel_tidy::harness::CaseKernel<uint> (*Make)(uint, uint);
};

} // namespace

#include "HarnessCasesU32.inc"

namespace {

struct Shape {
  const char *Name;
  uint Width, Height, BlockX, BlockY;
  bool OddLanes;
};

TEST(HarnessCases, EveryBeforeKernelRunsOnTheHarnessShapes) {
  for (const HarnessCase &Case : HarnessCases) {
    const kernel_tidy::harness::CaseSpec *Spec = kernel_tidy::harness::findCase(Case.Name);
    ASSERT_NE(Spec, nullptr) << Case.Name;
    // The harness's shapes (core/Launch.cpp) with two blocks instead of 16 or 4: the same
    // warps, edges and masks, an eighth of the time.
    std::vector<Shape> Shapes;
    if (Spec->Block) {
      // Cases that set their block size run on full blocks only.
      Shapes = {{"full-blocks", 2 * Spec->Block, 1, Spec->Block, 1, false},
                {"odd-lanes", 2 * Spec->Block, 1, Spec->Block, 1, true}};
    } else {
      Shapes = {{"full-warps", 512, 1, 256, 1, false},
                {"partial-warp", 512 + 45, 1, 256, 1, false},
                {"2d", 20, 19, 16, 16, false},
                {"odd-lanes", 512, 1, 256, 1, true}};
    }
    for (const Shape &S : Shapes) {
      SCOPED_TRACE(std::string(Case.Name) + " on " + S.Name);
      auto Kernel = Case.Make(S.BlockX, S.BlockY);
      uint N = S.Width * S.Height;
      std::vector<uint> In(N), Active(N, 1u);
      for (uint I = 0; I < N; ++I) {
        In[I] = I % 7u;
        if (S.OddLanes) Active[I] = I % 2u;
      }
      // Room for the append cases' slots past the counter.
      simt::Buffer InB = simt::Buffer::of(In), OutB = simt::Buffer::of(std::vector<uint>(4 * N + 64)),
                   ActiveB = simt::Buffer::of(Active);
      std::vector<simt::Argument> Args{&InB, &OutB, &ActiveB, simt::Uniform::of(1u)};
      simt::LaunchOptions O;
      O.DispatchSize[0] = S.Width;
      O.DispatchSize[1] = S.Height;
      simt::RunResult R;
      ASSERT_NO_THROW(R = simt::run(Kernel.function()->function(), Args, O));
      EXPECT_EQ(R.count(simt::EventKind::DivergentBarrier), 0u);
      EXPECT_EQ(R.count(simt::EventKind::OutOfBounds), 0u);
      EXPECT_EQ(R.count(simt::EventKind::UndefinedUse), 0u);
    }
  }
}

} // namespace
