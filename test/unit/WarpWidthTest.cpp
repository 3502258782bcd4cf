//===--- WarpWidthTest.cpp - The warp width a kernel runs with ------------===//

#include "src/dsl/WarpWidth.h"
#include "test/unit/DslSnippet.h"
#include <gtest/gtest.h>

namespace kernel_tidy::test {
namespace {

dsl::WarpWidth widthOfFirstProbe(Snippet &S, std::optional<unsigned> Default = 32u) {
  dsl::WarpWidthAnalysis Widths(S.context());
  return Widths.widthAt(S.probeStatement(0), Default);
}

TEST(WarpWidth, ComesFromTheEnclosingKernel) {
  Snippet WithSize("    set_warp_size(64u);\n    $if (n > 0u) { probe(warp_lane_id()); };");
  ASSERT_TRUE(WithSize.parsed());
  dsl::WarpWidth Width = widthOfFirstProbe(WithSize);
  EXPECT_EQ(dsl::WarpWidth::Set, Width.From);
  EXPECT_EQ(64u, Width.known());

  Snippet Without("    probe(warp_lane_id());");
  ASSERT_TRUE(Without.parsed());
  EXPECT_EQ(dsl::WarpWidth::Default, widthOfFirstProbe(Without).From);
  EXPECT_EQ(32u, widthOfFirstProbe(Without).known());
  EXPECT_FALSE(widthOfFirstProbe(Without, std::nullopt).known());
}

TEST(WarpWidth, IsScopedToTheKernelThatSetsIt) {
  // Two kernels built by one function: the first one's width is its own.
  Snippet S("    probe(0u);", R"(
void siblings(Device &device) {
  Kernel1D wide = [&]() noexcept { set_warp_size(8u); };
  Kernel1D plain = [&]() noexcept { probe(warp_lane_id()); };
}
void builder(Device &device) {
  set_warp_size(16u);
  Kernel1D inner = [&]() noexcept { probe(warp_lane_id()); };
})");
  ASSERT_TRUE(S.parsed());
  EXPECT_EQ(dsl::WarpWidth::Default, widthOfFirstProbe(S).From);
  dsl::WarpWidthAnalysis Widths(S.context());
  // A kernel inside a function that sets no width for it: still the default.
  EXPECT_EQ(dsl::WarpWidth::Default, Widths.widthAt(S.probeStatement(1), 32u).From);
}

TEST(WarpWidth, NonConstantOrInvalidWidthsAreUnknown) {
  for (const char *Call :
       {"set_warp_size(static_cast<uint8_t>(device.compute_warp_size()));",
        "set_warp_size(4294967296ull);", "set_warp_size(48u);",
        "set_warp_size(32u); set_warp_size(64u);"}) {
    Snippet S(std::string("    ") + Call + "\n    probe(warp_lane_id());");
    ASSERT_TRUE(S.parsed()) << Call;
    dsl::WarpWidth Width = widthOfFirstProbe(S);
    EXPECT_EQ(dsl::WarpWidth::Unknown, Width.From) << Call;
    EXPECT_FALSE(Width.known()) << Call;
    EXPECT_NE(nullptr, Width.SetBy) << Call;
  }
}

TEST(WarpWidth, ValidWidths) {
  for (int64_t Lanes : {4, 8, 16, 32, 64, 128})
    EXPECT_TRUE(dsl::isValidWarpWidth(Lanes)) << Lanes;
  for (int64_t Lanes : {0, 1, 2, 3, 12, 48, 256, -32})
    EXPECT_FALSE(dsl::isValidWarpWidth(Lanes)) << Lanes;
}

} // namespace
} // namespace kernel_tidy::test
