//===--- DslModelTest.cpp - The DSL semantic layer ------------------------===//

#include "src/dsl/DslModel.h"
#include "src/dsl/Profitability.h"
#include "test/unit/TestSupport.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include <gtest/gtest.h>

using namespace clang;
using namespace clang::ast_matchers;

namespace kernel_tidy::test {
namespace {

/// A DSL snippet parsed with the bundled model; `probe(E)` marks the
/// expressions under test, in source order.
class Snippet {
public:
  explicit Snippet(const std::string &KernelBody,
                   const std::string &Prelude = "") {
    std::string Code = "#include <luisa/luisa-compute.h>\n"
                       "#include <luisa/dsl/sugar.h>\n"
                       "using namespace luisa;\nusing namespace luisa::compute;\n"
                       "template<typename T> void probe(T &&) {}\n" +
                       Prelude +
                       "\nvoid build(Device &device) {\n"
                       "  Kernel1D kernel = [&](BufferUInt buffer, UInt n) noexcept {\n" +
                       KernelBody + "\n  };\n}\n";
    Unit = tooling::buildASTFromCodeWithArgs(
        Code,
        {"-std=c++20", "-isystem", modelDir(),
         "-resource-dir=" KERNEL_TIDY_CLANG_RESOURCE_DIR},
        "snippet.cpp");
  }

  bool parsed() const {
    return Unit && !Unit->getDiagnostics().hasErrorOccurred();
  }

  ASTContext &context() { return Unit->getASTContext(); }

  /// The argument of the \p Index-th `probe(...)` call.
  const Expr *probe(unsigned Index) {
    auto Calls = match(
        findAll(callExpr(callee(functionDecl(hasName("probe")))).bind("call")),
        context());
    std::vector<const CallExpr *> Sorted;
    for (const auto &Node : Calls)
      Sorted.push_back(Node.getNodeAs<CallExpr>("call"));
    // Lambda bodies are reachable twice (expression and closure class).
    std::sort(Sorted.begin(), Sorted.end(), [](const CallExpr *A, const CallExpr *B) {
      return A->getBeginLoc() < B->getBeginLoc();
    });
    Sorted.erase(std::unique(Sorted.begin(), Sorted.end()), Sorted.end());
    return Index < Sorted.size() ? Sorted[Index]->getArg(0) : nullptr;
  }

  const ForStmt *firstHostFor() {
    auto Loops = match(findAll(forStmt(isExpansionInMainFile()).bind("for")), context());
    return Loops.empty() ? nullptr : Loops[0].getNodeAs<ForStmt>("for");
  }

private:
  std::unique_ptr<ASTUnit> Unit;
};

TEST(DslModel, LaneIdIsRecognisedThroughVariables) {
  Snippet S(R"(
    auto lane = warp_lane_id();
    UInt typed = warp_lane_id();
    UInt reassigned = warp_lane_id();
    reassigned = 3u;
    auto group = warp_lane_id() % 8u;
    probe(warp_lane_id());
    probe(lane);
    probe(typed);
    probe(reassigned);
    probe(group);
    probe(thread_x());
  )");
  ASSERT_TRUE(S.parsed());
  EXPECT_TRUE(dsl::isWarpLaneId(S.probe(0), S.context()));
  EXPECT_TRUE(dsl::isWarpLaneId(S.probe(1), S.context()));
  EXPECT_TRUE(dsl::isWarpLaneId(S.probe(2), S.context()));
  EXPECT_FALSE(dsl::isWarpLaneId(S.probe(3), S.context()));
  EXPECT_FALSE(dsl::isWarpLaneId(S.probe(4), S.context()));
  EXPECT_FALSE(dsl::isWarpLaneId(S.probe(5), S.context()));
}

TEST(DslModel, WarpSizeComesFromTheEnclosingKernel) {
  Snippet WithSize("    set_warp_size(64u);\n    probe(warp_lane_id());");
  ASSERT_TRUE(WithSize.parsed());
  EXPECT_EQ(64u, dsl::inferWarpSize(WithSize.probe(0), WithSize.context()));

  Snippet Without("    probe(warp_lane_id());");
  ASSERT_TRUE(Without.parsed());
  EXPECT_FALSE(dsl::inferWarpSize(Without.probe(0), Without.context()));

  Snippet HostValue("    set_warp_size(static_cast<uint8_t>(device.compute_warp_size()));\n"
                    "    probe(warp_lane_id());");
  ASSERT_TRUE(HostValue.parsed());
  EXPECT_FALSE(dsl::inferWarpSize(HostValue.probe(0), HostValue.context()));
}

TEST(DslModel, HostLoopsAreEvaluated) {
  Snippet Halving("    for (uint d = 16u; d > 0u; d >>= 1u) { probe(d); }");
  ASSERT_TRUE(Halving.parsed());
  auto Loop = dsl::evaluateHostLoop(Halving.firstHostFor(), Halving.context());
  ASSERT_TRUE(Loop);
  EXPECT_EQ((std::vector<int64_t>{16, 8, 4, 2, 1}), Loop->Values);

  Snippet Doubling("    for (auto d = 1u; d < 32u; d *= 2u) { probe(d); }");
  ASSERT_TRUE(Doubling.parsed());
  Loop = dsl::evaluateHostLoop(Doubling.firstHostFor(), Doubling.context());
  ASSERT_TRUE(Loop);
  EXPECT_EQ((std::vector<int64_t>{1, 2, 4, 8, 16}), Loop->Values);

  Snippet Counting("    constexpr uint kLanes = 4u;\n"
                   "    for (uint i = 0; i < kLanes * 2u; i++) { probe(i); }");
  ASSERT_TRUE(Counting.parsed());
  Loop = dsl::evaluateHostLoop(Counting.firstHostFor(), Counting.context());
  ASSERT_TRUE(Loop);
  EXPECT_EQ((std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7}), Loop->Values);

  Snippet Unknown("    uint limit = static_cast<uint>(device.compute_warp_size());\n"
                  "    for (uint i = 0; i < limit; i++) { probe(i); }");
  ASSERT_TRUE(Unknown.parsed());
  EXPECT_FALSE(dsl::evaluateHostLoop(Unknown.firstHostFor(), Unknown.context()));
}

TEST(DslModel, DistancesEvaluateWithLoopBindings) {
  Snippet S("    for (uint k = 0u; k < 5u; k++) { probe(1u << k); }");
  ASSERT_TRUE(S.parsed());
  auto Loop = dsl::evaluateHostLoop(S.firstHostFor(), S.context());
  ASSERT_TRUE(Loop);
  EXPECT_EQ(8, dsl::evaluateHostInt(S.probe(0), S.context(), {{Loop->Var, 3}}));
  EXPECT_FALSE(dsl::evaluateHostInt(S.probe(0), S.context()));
}

TEST(DslModel, ThreadUniformity) {
  Snippet S(R"(
    constexpr uint kSlot = 3u;
    auto block = block_id().x * 2u;
    auto mine = thread_x();
    probe(0u);
    probe(kSlot);
    probe(block_id().x);
    probe(block);
    probe(n);
    probe(thread_x());
    probe(mine + 1u);
    probe(dispatch_id().x);
  )");
  ASSERT_TRUE(S.parsed());
  EXPECT_TRUE(dsl::isThreadUniform(S.probe(0), S.context()));
  EXPECT_TRUE(dsl::isThreadUniform(S.probe(1), S.context()));
  EXPECT_TRUE(dsl::isThreadUniform(S.probe(2), S.context()));
  EXPECT_TRUE(dsl::isThreadUniform(S.probe(3), S.context()));
  EXPECT_TRUE(dsl::isThreadUniform(S.probe(4), S.context()));
  EXPECT_FALSE(dsl::isThreadUniform(S.probe(5), S.context()));
  EXPECT_FALSE(dsl::isThreadUniform(S.probe(6), S.context()));
  EXPECT_FALSE(dsl::isThreadUniform(S.probe(7), S.context()));
}

TEST(DslModel, CallableParametersAreNotUniform) {
  Snippet S("    probe(n);",
            "Callable<uint(uint)> helper = [](UInt slot) noexcept { probe(slot); return slot; };");
  ASSERT_TRUE(S.parsed());
  EXPECT_FALSE(dsl::isThreadUniform(S.probe(0), S.context()));
  EXPECT_TRUE(dsl::isThreadUniform(S.probe(1), S.context()));
}

TEST(DslModel, FloatingValueTypes) {
  Snippet S(R"(
    Float f; UInt u; Float3 v; Int2 i2;
    probe(f); probe(u); probe(v); probe(i2);
  )");
  ASSERT_TRUE(S.parsed());
  EXPECT_TRUE(dsl::isFloatingValue(S.probe(0)->getType()));
  EXPECT_FALSE(dsl::isFloatingValue(S.probe(1)->getType()));
  EXPECT_TRUE(dsl::isFloatingValue(S.probe(2)->getType()));
  EXPECT_FALSE(dsl::isFloatingValue(S.probe(3)->getType()));
}

TEST(DslModel, ProfitabilityValueClasses) {
  // "int": what CUDA reduces with redux.sync (per component for vectors).
  Snippet S(R"(
    Int i; UInt u; Short s; Int2 i2;
    Float f; Half h; Float3 v; SLong l; ULong ul; Float3x3 m;
    probe(i); probe(u); probe(s); probe(i2); probe(1u);
    probe(f); probe(h); probe(v); probe(l); probe(ul); probe(m); probe(1.0f);
  )");
  ASSERT_TRUE(S.parsed());
  for (unsigned I = 0; I < 5; ++I)
    EXPECT_FALSE(dsl::isFloatValueClass(S.probe(I)->getType(), S.context())) << I;
  for (unsigned I = 5; I < 12; ++I)
    EXPECT_TRUE(dsl::isFloatValueClass(S.probe(I)->getType(), S.context())) << I;
}

} // namespace
} // namespace kernel_tidy::test
