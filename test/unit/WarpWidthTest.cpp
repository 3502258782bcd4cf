//===--- WarpWidthTest.cpp - The warp width a kernel runs with ------------===//

#include "src/dsl/WarpWidth.h"
#include "src/dsl/Ast.h"
#include "test/unit/DslSnippet.h"
#include <gtest/gtest.h>

namespace kernel_tidy::test {
namespace {

dsl::WarpWidth widthOfFirstProbe(Snippet &S, std::optional<unsigned> Option = 32u) {
  dsl::WarpWidthAnalysis Widths(S.context(),
                                dsl::defaultWarpWidths(true, Option, dsl::Target::Any));
  return Widths.widthAt(S.probeStatement(0));
}

TEST(WarpWidth, WithoutSetWarpSizeOrWarpSizeTheTargetBoundsTheWidth) {
  struct Case {
    bool OptionSet;
    std::optional<unsigned> Option;
    dsl::Target Backend;
    unsigned Narrowest, Widest;
  } Cases[] = {
      {false, 32u, dsl::Target::Any, 8u, 128u},
      {false, 32u, dsl::Target::DirectX, 32u, 64u},
      {false, 32u, dsl::Target::Vulkan, 32u, 64u},
      {false, 32u, dsl::Target::Cuda, 32u, 32u},
      {false, 32u, dsl::Target::Metal, 32u, 32u},
      {true, 64u, dsl::Target::Any, 64u, 64u}, // WarpSize states the width.
      {true, 16u, dsl::Target::Cuda, 16u, 16u},
  };
  Snippet S("    $if (n > 0u) { probe(warp_lane_id()); };\n"
            "    Kernel1D inner = [&]() noexcept { set_warp_size(64u); probe(1u); };");
  ASSERT_TRUE(S.parsed());
  for (const Case &C : Cases) {
    SCOPED_TRACE(std::string(dsl::targetName(C.Backend)) + (C.OptionSet ? " WarpSize" : ""));
    dsl::WarpWidthAnalysis Widths(S.context(),
                                  dsl::defaultWarpWidths(C.OptionSet, C.Option, C.Backend));
    dsl::WarpWidth Default = Widths.widthAt(S.probeStatement(0));
    EXPECT_EQ(*C.Option, Default.Lanes);
    EXPECT_EQ(C.Narrowest, Default.Narrowest);
    EXPECT_EQ(C.Widest, Default.Widest);
    EXPECT_EQ(C.Narrowest == C.Widest, Default.exact());
    EXPECT_EQ(Default.exact(), Default.RangeWhy.empty());
    // set_warp_size is exact on every target.
    dsl::WarpWidth Set = Widths.widthAt(S.probeStatement(1));
    EXPECT_TRUE(Set.exact());
    EXPECT_EQ(64u, Set.Narrowest);
  }
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
  EXPECT_EQ(64u, widthOfFirstProbe(Without, 64u).known());
  EXPECT_EQ(64u, widthOfFirstProbe(WithSize, 8u).known()) << "set_warp_size outranks the option";
  EXPECT_FALSE(widthOfFirstProbe(Without, std::nullopt).known());
  EXPECT_EQ(nullptr, widthOfFirstProbe(Without, std::nullopt).SetBy);
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
  dsl::WarpWidthAnalysis Widths(S.context(), dsl::defaultWarpWidths(true, 32u, dsl::Target::Any));
  // A kernel inside a function that sets no width for it: still the default.
  EXPECT_EQ(dsl::WarpWidth::Default, Widths.widthAt(S.probeStatement(1)).From);
}

TEST(WarpWidth, OfAKernelLambdaIsItsOwnSetWarpSizeElseTheOption) {
  auto KernelWidth = [](const std::string &Body, std::optional<unsigned> Option) {
    Snippet S(Body + "\n    probe(0u);");
    EXPECT_TRUE(S.parsed()) << Body;
    const LambdaExpr *Kernel = nullptr;
    for (const auto &Match : match(findAll(lambdaExpr().bind("l")), S.context()))
      if (dsl::lambdaRole(Match.getNodeAs<LambdaExpr>("l"), S.context()) == dsl::LambdaRole::Kernel)
        Kernel = Match.getNodeAs<LambdaExpr>("l");
    EXPECT_NE(nullptr, Kernel);
    dsl::WarpWidthAnalysis Widths(S.context(),
                                  dsl::defaultWarpWidths(true, Option, dsl::Target::Any));
    return Kernel ? Widths.widthOf(Kernel) : dsl::WarpWidth();
  };
  dsl::WarpWidth Own = KernelWidth("    set_warp_size(32u);", 64u);
  EXPECT_EQ(dsl::WarpWidth::Set, Own.From);
  EXPECT_EQ(32u, Own.known());
  EXPECT_EQ(64u, KernelWidth("", 64u).known());
  EXPECT_EQ(dsl::WarpWidth::Default, KernelWidth("", 64u).From);
  EXPECT_FALSE(KernelWidth("", std::nullopt).known());
  EXPECT_FALSE(KernelWidth("    set_warp_size(48u);", 32u).known());
}

TEST(WarpWidth, NonConstantOrInvalidWidthsAreUnknown) {
  for (const char *Call : {"set_warp_size(static_cast<uint8_t>(device.compute_warp_size()));",
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

TEST(WarpWidth, ParseWarpWidthAcceptsPowersOfTwoFromEightTo128) {
  for (unsigned Lanes : {8u, 16u, 32u, 64u, 128u})
    EXPECT_EQ(Lanes, dsl::parseWarpWidth(std::to_string(Lanes))) << Lanes;
  EXPECT_EQ(64u, dsl::parseWarpWidth(" 64\n")) << "YAML and the CLI may leave blanks";
  for (const char *Text : {"0", "1", "2", "3", "4", "12", "48", "96", "256", "1024", "-32", "+32",
                           "0x20", "32.0", "32u", "3 2", "", " ", "banana",
                           // 2^32 + 64 and 2^64 + 32: no wrapping to a width.
                           "4294967360", "18446744073709551648"})
    EXPECT_EQ(std::nullopt, dsl::parseWarpWidth(Text)) << "'" << Text << "'";
  EXPECT_EQ("a power of two from 8 to 128", dsl::warpWidthChoices());
  EXPECT_EQ(dsl::DefaultWarpWidth, dsl::parseWarpWidth(std::to_string(dsl::DefaultWarpWidth)));
}

TEST(WarpWidth, SetWarpSizeAcceptsWhatTheOptionAccepts) {
  // One definition of a width for the kernel's call and the option.
  for (unsigned Lanes : {2u, 4u, 8u, 16u, 32u, 48u, 64u, 128u, 256u}) {
    Snippet S("    set_warp_size(" + std::to_string(Lanes) + "u);\n    probe(warp_lane_id());");
    ASSERT_TRUE(S.parsed()) << Lanes;
    dsl::WarpWidth Width = widthOfFirstProbe(S);
    EXPECT_EQ(dsl::parseWarpWidth(std::to_string(Lanes)), Width.known()) << Lanes;
  }
}

} // namespace
} // namespace kernel_tidy::test
