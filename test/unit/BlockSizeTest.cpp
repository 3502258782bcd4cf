//===--- BlockSizeTest.cpp - The block size a kernel runs with ------------===//

#include "src/dsl/BlockSize.h"
#include "test/unit/DslSnippet.h"
#include <gtest/gtest.h>

namespace kernel_tidy::test {
namespace {

using Shape = std::array<unsigned, 3>;

dsl::BlockSize sizeAtProbe(Snippet &S, unsigned Index = 0) {
  dsl::BlockSizeAnalysis Blocks(S.context());
  return Blocks.sizeAt(S.probeStatement(Index));
}

TEST(BlockSize, ComesFromSetBlockSize) {
  for (auto [Call, Expected] :
       {std::pair{"set_block_size(128u);", Shape{128, 1, 1}},
        std::pair{"set_block_size(16u, 8u);", Shape{16, 8, 1}},
        std::pair{"set_block_size(make_uint3(4u, 4u, 4u));", Shape{4, 4, 4}},
        std::pair{"constexpr uint block = 64u; set_block_size(block * 2u);", Shape{128, 1, 1}}}) {
    Snippet S(std::string("    ") + Call + "\n    $if (n > 0u) { probe(thread_x()); };");
    ASSERT_TRUE(S.parsed()) << Call;
    dsl::BlockSize Size = sizeAtProbe(S);
    EXPECT_EQ(dsl::BlockSize::Set, Size.From) << Call;
    EXPECT_EQ(Expected, Size.known()) << Call;
    EXPECT_NE(nullptr, Size.SetBy) << Call;
  }
}

TEST(BlockSize, HostLocalsInitialisedWithConstants) {
  // test_softmax.cpp: `auto block_size = 1024; set_block_size(block_size, 1, 1);`.
  Snippet S("    auto block_size = 1024;\n    set_block_size(block_size, 1, 1);\n"
            "    probe(thread_x());");
  ASSERT_TRUE(S.parsed());
  dsl::WriteAnalysis Writes(S.context());
  dsl::BlockSizeAnalysis Blocks(S.context(), &Writes);
  EXPECT_EQ(std::optional(Shape{1024, 1, 1}), Blocks.sizeAt(S.probeStatement(0)).known());
  // Without the write analysis, or when the local is written, it is not a constant.
  EXPECT_FALSE(sizeAtProbe(S).known());
  Snippet Written("    uint size = 64u;\n    size *= 2u;\n    set_block_size(size, 1u, 1u);\n"
                  "    probe(thread_x());");
  ASSERT_TRUE(Written.parsed());
  dsl::WriteAnalysis MoreWrites(Written.context());
  dsl::BlockSizeAnalysis MoreBlocks(Written.context(), &MoreWrites);
  EXPECT_FALSE(MoreBlocks.sizeAt(Written.probeStatement(0)).known());
}

TEST(BlockSize, DefaultsByKernelDimension) {
  Snippet S("    probe(thread_x());", R"(
void others(Device &device) {
  Kernel2D image = [&]() noexcept { probe(thread_x()); };
  Kernel3D volume = [&]() noexcept { probe(thread_x()); };
  auto shader = device.compile<2>([&]() noexcept { probe(thread_x()); });
})");
  ASSERT_TRUE(S.parsed());
  // Probes in source order: the prelude's three, then the 1D kernel's.
  EXPECT_EQ(Shape({16, 16, 1}), sizeAtProbe(S, 0).known());
  EXPECT_EQ(Shape({8, 8, 8}), sizeAtProbe(S, 1).known());
  EXPECT_EQ(Shape({16, 16, 1}), sizeAtProbe(S, 2).known());
  dsl::BlockSize Plain = sizeAtProbe(S, 3);
  EXPECT_EQ(dsl::BlockSize::Default, Plain.From);
  EXPECT_EQ(256u, Plain.threads());
}

TEST(BlockSize, RunTimeConditionalOrConflictingSizesAreUnknown) {
  for (const char *Call : {"set_block_size(device.compute_warp_size());",
                           "if (device.compute_warp_size() == 64u) { set_block_size(64u); }",
                           "set_block_size(128u); set_block_size(256u);", "set_block_size(2048u);",
                           "set_block_size(0u);"}) {
    Snippet S(std::string("    ") + Call + "\n    probe(thread_x());");
    ASSERT_TRUE(S.parsed()) << Call;
    dsl::BlockSize Size = sizeAtProbe(S);
    EXPECT_EQ(dsl::BlockSize::Unknown, Size.From) << Call;
    EXPECT_FALSE(Size.threads()) << Call;
    EXPECT_FALSE(Size.Why.empty()) << Call;
  }
}

TEST(BlockSize, UnknownOutsideKernels) {
  Snippet S("    probe(0u);", R"(
void helper(UInt v) { probe(v); }
Callable add_one = [](UInt v) noexcept { probe(v); return v + 1u; };)");
  ASSERT_TRUE(S.parsed());
  EXPECT_EQ(dsl::BlockSize::Unknown, sizeAtProbe(S, 0).From);
  EXPECT_EQ(dsl::BlockSize::Unknown, sizeAtProbe(S, 1).From);
  EXPECT_EQ(dsl::BlockSize::Default, sizeAtProbe(S, 2).From);
}

} // namespace
} // namespace kernel_tidy::test
