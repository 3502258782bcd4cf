//===--- TreeReductionTest.cpp - Shared-memory tree reductions ------------===//

#include "rules/block/TreeReduction.h"
#include "src/dsl/Ast.h"
#include "src/dsl/HostEval.h"
#include "test/unit/DslSnippet.h"
#include <gtest/gtest.h>

namespace kernel_tidy::test {
namespace {

/// The snippet last parsed by trees(): the results point into it.
std::unique_ptr<Snippet> LastTreeSnippet;

/// The tree reduction of every loop or DSL statement body in \p Body that
/// holds a sync_block(), and of every host loop, in source order (valid until the next call).
std::vector<std::optional<dsl::TreeReduction>> trees(const std::string &Body) {
  LastTreeSnippet = std::make_unique<Snippet>(Body);
  Snippet &S = *LastTreeSnippet;
  EXPECT_TRUE(S.parsed()) << Body;
  auto Barriers =
      match(findAll(callExpr(callee(functionDecl(hasName("sync_block"))), isExpansionInMainFile())
                        .bind("barrier")),
            S.context());
  std::vector<const CompoundStmt *> Bodies;
  for (const auto &Node : Barriers) {
    const auto *Call = Node.getNodeAs<CallExpr>("barrier");
    const auto *Block =
        dyn_cast_or_null<CompoundStmt>(dsl::enclosingStatement(Call, S.context()).Container);
    bool IsLoopBody = Block && (isa_and_nonnull<ForStmt>(dsl::parentStmt(Block, S.context())) ||
                                dsl::controlOfBody(Block, S.context()));
    if (IsLoopBody && std::find(Bodies.begin(), Bodies.end(), Block) == Bodies.end())
      Bodies.push_back(Block);
  }
  // Host loops without a barrier too.
  for (const auto &Node : match(findAll(forStmt(isExpansionInMainFile()).bind("for")), S.context()))
    if (const auto *Block = dyn_cast<CompoundStmt>(Node.getNodeAs<ForStmt>("for")->getBody()))
      if (std::find(Bodies.begin(), Bodies.end(), Block) == Bodies.end())
        Bodies.push_back(Block);
  std::sort(Bodies.begin(), Bodies.end(), [](const CompoundStmt *A, const CompoundStmt *B) {
    return A->getBeginLoc() < B->getBeginLoc();
  });
  dsl::WriteAnalysis Writes(S.context());
  std::vector<std::optional<dsl::TreeReduction>> Result;
  for (const CompoundStmt *Block : Bodies)
    Result.push_back(dsl::matchTreeReduction(Block, S.context(), Writes));
  return Result;
}

const char *const Prelude = "    Shared<uint> s{256u};\n"
                            "    auto tid = thread_x();\n"
                            "    s[tid] = buffer.read(tid);\n"
                            "    sync_block();\n";

TEST(TreeReduction, HostLoopInPlace) {
  auto Found =
      trees(std::string(Prelude) + "    for (uint stride = 128u; stride > 0u; stride >>= 1u) {\n"
                                   "        $if (tid < stride) { s[tid] += s[tid + stride]; };\n"
                                   "        sync_block();\n"
                                   "    }\n"
                                   "    buffer.write(0u, s[0]);\n");
  ASSERT_EQ(1u, Found.size());
  ASSERT_TRUE(Found[0]);
  EXPECT_FALSE(Found[0]->Loop.Device);
  EXPECT_EQ(dsl::CombineOp::Sum, Found[0]->Op);
  EXPECT_EQ(nullptr, Found[0]->Register);
  EXPECT_EQ(1u, Found[0]->BarriersPerStep);
  auto Span = dsl::treeSpan(Found[0]->Loop.Values);
  ASSERT_TRUE(Span);
  EXPECT_EQ(256, Span->Extent);
  EXPECT_EQ(1, Span->Partials);
  EXPECT_EQ("s", Found[0]->Array->getName());
  dsl::TreeLeftovers Left = dsl::leftoversOf(*Found[0], LastTreeSnippet->context());
  EXPECT_EQ(nullptr, Left.OtherRead);
  EXPECT_EQ(nullptr, Left.VariableUse);
}

TEST(TreeReduction, CombinationSpellings) {
  // One loop per spelling of the step; the last three are not tree steps.
  const char *Steps[] = {"s[tid] = s[tid] + s[tid + o0];",
                         "s[tid] = max(s[o1 + tid], s[tid]);",
                         "s.write(tid, s.read(tid) & s.read(tid + o2));",
                         "s[tid] = s[tid] + s[tid + 1u];",
                         "s[tid] = s[tid] - s[tid + o4];",
                         "s[tid + o5] += s[tid];"};
  std::string Body = Prelude;
  for (unsigned I = 0; I < 6; ++I) {
    std::string O = "o" + std::to_string(I);
    Body += "    for (uint " + O + " = 128u; " + O + " > 0u; " + O +
            " /= 2u) {\n        $if (tid < " + O + ") { " + Steps[I] +
            " };\n        sync_block();\n    }\n";
  }
  auto Found = trees(Body);
  ASSERT_EQ(6u, Found.size());
  ASSERT_TRUE(Found[0] && Found[1] && Found[2]);
  EXPECT_EQ(dsl::CombineOp::Sum, Found[0]->Op);
  EXPECT_EQ(dsl::CombineOp::Max, Found[1]->Op);
  EXPECT_EQ(dsl::CombineOp::BitAnd, Found[2]->Op);
  EXPECT_FALSE(Found[3]);
  EXPECT_FALSE(Found[4]);
  EXPECT_FALSE(Found[5]);
}

TEST(TreeReduction, DeviceRegisterThenWrite) {
  // The guide's section 4.4 (test_softmax.cpp's shape).
  auto Found = trees("    Shared<float> arr{256u};\n"
                     "    auto tid = thread_id().x;\n"
                     "    Float value = 1.f;\n"
                     "    arr[tid] = value;\n"
                     "    UInt half = 256u / 2u;\n"
                     "    sync_block();\n"
                     "    $while (half > 0u) {\n"
                     "        $if (tid < half) { value = arr[tid * 2u] + arr[tid * 2u + 1u]; };\n"
                     "        sync_block();\n"
                     "        $if (tid < half) { arr[tid] = value; };\n"
                     "        half /= 2u;\n"
                     "        sync_block();\n"
                     "    };\n"
                     "    buffer.write(0u, arr[0].cast<uint>());\n");
  ASSERT_EQ(1u, Found.size());
  ASSERT_TRUE(Found[0]);
  EXPECT_TRUE(Found[0]->Loop.Device);
  EXPECT_TRUE(Found[0]->Interleaved);
  ASSERT_TRUE(Found[0]->Register);
  EXPECT_EQ("value", Found[0]->Register->getName());
  EXPECT_EQ(2u, Found[0]->BarriersPerStep);
  EXPECT_EQ(std::vector<int64_t>({128, 64, 32, 16, 8, 4, 2, 1}), Found[0]->Loop.Values);
  dsl::TreeLeftovers Left = dsl::leftoversOf(*Found[0], LastTreeSnippet->context());
  EXPECT_EQ(nullptr, Left.OtherRead);
  EXPECT_EQ(nullptr, Left.VariableUse);
}

TEST(TreeReduction, RejectsRacesAndOtherLoops) {
  auto Found = trees(std::string(Prelude) +
                     // No barrier in the loop.
                     "    for (uint a = 128u; a > 0u; a >>= 1u) {\n"
                     "        $if (tid < a) { s[tid] += s[tid + a]; };\n"
                     "        buffer.write(a, 0u);\n"
                     "    }\n"
                     // Register form without the barrier between read and write-back.
                     "    UInt r = 0u;\n"
                     "    for (uint b = 128u; b > 0u; b >>= 1u) {\n"
                     "        $if (tid < b) { r = s[tid * 2u] + s[tid * 2u + 1u]; };\n"
                     "        $if (tid < b) { s[tid] = r; };\n"
                     "        sync_block();\n"
                     "    }\n"
                     // A doubling device loop.
                     "    UInt c = 1u;\n"
                     "    $while (c < 256u) {\n"
                     "        $if (tid < c) { s[tid] += s[tid + c]; };\n"
                     "        sync_block();\n"
                     "        c *= 2u;\n"
                     "    };\n"
                     // The stride halved before its last use.
                     "    UInt d = 128u;\n"
                     "    $while (d > 0u) {\n"
                     "        d /= 2u;\n"
                     "        $if (tid < d) { s[tid] += s[tid + d]; };\n"
                     "        sync_block();\n"
                     "    };\n"
                     // A guard on another index than the thread.
                     "    UInt lane = warp_lane_id();\n"
                     "    for (uint e = 16u; e > 0u; e >>= 1u) {\n"
                     "        $if (lane < e) { s[lane] += s[lane + e]; };\n"
                     "        sync_block();\n"
                     "    }\n");
  ASSERT_EQ(5u, Found.size());
  for (const auto &Tree : Found)
    EXPECT_FALSE(Tree);
}

TEST(TreeReduction, RunTimeStart) {
  // Half of a run-time value, halved down to 1: HalfOf names the value.
  auto Found =
      trees(std::string(Prelude) + "    UInt half = n / 2u;\n"
                                   "    $while (half > 0u) {\n"
                                   "        $if (tid < half) { s[tid] += s[tid + half]; };\n"
                                   "        sync_block();\n"
                                   "        half >>= 1u;\n"
                                   "    };\n"
                                   // Stops at 2: not a whole tree from an unknown start.
                                   "    UInt quarter = n >> 1u;\n"
                                   "    $while (quarter > 1u) {\n"
                                   "        $if (tid < quarter) { s[tid] += s[tid + quarter]; };\n"
                                   "        sync_block();\n"
                                   "        quarter >>= 1u;\n"
                                   "    };\n");
  ASSERT_EQ(2u, Found.size());
  ASSERT_TRUE(Found[0]);
  EXPECT_TRUE(Found[0]->Loop.Values.empty());
  ASSERT_TRUE(Found[0]->Loop.HalfOf);
  EXPECT_EQ("n",
            cast<DeclRefExpr>(dsl::stripDslWrappers(Found[0]->Loop.HalfOf))->getDecl()->getName());
  EXPECT_FALSE(Found[1]);
}

TEST(TreeReduction, Extent) {
  // A whole tree: down to one partial.
  auto Whole = [](llvm::ArrayRef<int64_t> Values) -> std::optional<int64_t> {
    auto Span = dsl::treeSpan(Values);
    if (!Span)
      return std::nullopt;
    EXPECT_EQ(1, Span->Partials);
    return Span->Extent;
  };
  EXPECT_EQ(std::optional<int64_t>(256), Whole({128, 64, 32, 16, 8, 4, 2, 1}));
  EXPECT_EQ(std::optional<int64_t>(192), Whole({96, 48, 24, 12, 6, 3, 1}));
  EXPECT_EQ(std::optional<int64_t>(2), Whole({1}));
  EXPECT_FALSE(dsl::treeSpan({128, 64, 32}));      // stops short
  EXPECT_FALSE(dsl::treeSpan({1, 2, 4, 8}));       // ascending
  EXPECT_FALSE(dsl::treeSpan({128, 32, 8, 2, 1})); // skips steps
  EXPECT_FALSE(dsl::treeSpan({}));
}

TEST(TreeReduction, SpanOfATreeThatStopsAtPartials) {
  auto Span = dsl::treeSpan({128, 64, 32, 16, 8, 4, 2});
  ASSERT_TRUE(Span);
  EXPECT_EQ(256, Span->Extent);
  EXPECT_EQ(2, Span->Partials);
  Span = dsl::treeSpan({64, 32, 16, 8, 4});
  ASSERT_TRUE(Span);
  EXPECT_EQ(128, Span->Extent);
  EXPECT_EQ(4, Span->Partials);
  EXPECT_EQ(1, dsl::treeSpan({128, 64, 32, 16, 8, 4, 2, 1})->Partials);
  // Three partials of 192 elements: a span (the rule rejects the block size).
  EXPECT_EQ(3, dsl::treeSpan({96, 48, 24, 12, 6, 3})->Partials);
  EXPECT_FALSE(dsl::treeSpan({100, 50, 25, 12, 6, 3})); // 25 / 2 leaves a slot out
  EXPECT_FALSE(dsl::treeSpan({128, 64, 32, 16}));       // 16 partials: not written out
}

/// The combination after the tree of the last trees() snippet.
std::optional<dsl::PartialsCombine> combineOf(const dsl::TreeReduction &Tree, int64_t Partials) {
  return dsl::matchPartialsCombine(Tree, Partials, LastTreeSnippet->context());
}

TEST(TreeReduction, CombinationOfTheLastPartials) {
  const char *const Loop = "    for (uint stride = 128u; stride > 1u; stride >>= 1u) {\n"
                           "        $if (tid < stride) { s[tid] += s[tid + stride]; };\n"
                           "        sync_block();\n"
                           "    }\n";
  auto Found = trees(std::string(Prelude) + Loop + "    buffer.write(0u, s[1u] + s[0u]);\n");
  ASSERT_EQ(1u, Found.size());
  ASSERT_TRUE(Found[0]);
  auto Combine = combineOf(*Found[0], 2);
  ASSERT_TRUE(Combine);
  EXPECT_EQ(nullptr, Combine->Helper);
  EXPECT_EQ(nullptr,
            dsl::leftoversOf(*Found[0], LastTreeSnippet->context(), Combine->Combine).OtherRead);
  // Without the combination, s[1u] is a read the rewrite would change.
  EXPECT_TRUE(dsl::leftoversOf(*Found[0], LastTreeSnippet->context()).OtherRead);

  // Slot 0 read again after the combination: the tree left a partial there.
  Found = trees(std::string(Prelude) + Loop +
                "    buffer.write(0u, s[0u] + s[1u]);\n"
                "    buffer.write(1u, s[0u]);\n");
  ASSERT_TRUE(Found[0]);
  Combine = combineOf(*Found[0], 2);
  ASSERT_TRUE(Combine);
  EXPECT_TRUE(dsl::leftoversOf(*Found[0], LastTreeSnippet->context(), Combine->Combine).OtherRead);
  // The near misses (another operation, other slots, no barrier, another use
  // first) are near-miss-partials.cpp.
}

TEST(TreeReduction, EndlessLoopThatLeavesAtAStride) {
  auto Found =
      trees(std::string(Prelude) + "    UInt stride = 128u;\n"
                                   "    $loop {\n"
                                   "        $if (stride == 1u) { $break; };\n"
                                   "        $if (tid < stride) { s[tid] += s[tid + stride]; };\n"
                                   "        sync_block();\n"
                                   "        stride >>= 1u;\n"
                                   "    };\n");
  ASSERT_EQ(1u, Found.size());
  ASSERT_TRUE(Found[0]);
  EXPECT_EQ((std::vector<int64_t>{128, 64, 32, 16, 8, 4, 2}), Found[0]->Loop.Values);
  // A start at the exit's value with the test last would never leave.
  Found =
      trees(std::string(Prelude) + "    UInt stride = 1u;\n"
                                   "    $loop {\n"
                                   "        $if (tid < stride) { s[tid] += s[tid + stride]; };\n"
                                   "        sync_block();\n"
                                   "        stride >>= 1u;\n"
                                   "        $if (stride == 1u) { $break; };\n"
                                   "    };\n");
  ASSERT_EQ(1u, Found.size());
  EXPECT_FALSE(Found[0]);
}

TEST(TreeReduction, Leftovers) {
  auto Found = trees(std::string(Prelude) +
                     "    for (uint stride = 128u; stride > 0u; stride >>= 1u) {\n"
                     "        $if (tid < stride) { s[tid] = min(s[tid], s[tid + stride]); };\n"
                     "        sync_block();\n"
                     "    }\n"
                     "    s[tid] = 0u;\n"
                     "    buffer.write(0u, s.read(0u) + s[1u]);\n");
  ASSERT_EQ(1u, Found.size());
  ASSERT_TRUE(Found[0]);
  dsl::TreeLeftovers Left = dsl::leftoversOf(*Found[0], LastTreeSnippet->context());
  ASSERT_TRUE(Left.OtherRead);
  // s[1u]: the write at s[tid] and the read at 0 are fine.
  auto Element = dsl::matchSharedElement(Left.OtherRead);
  ASSERT_TRUE(Element);
  EXPECT_EQ(std::optional<int64_t>(1), dsl::evaluateHostInt(dsl::stripDslWrappers(Element->Index),
                                                            LastTreeSnippet->context()));

  // A loop around the tree repeats it: a read before the loop sees the last run.
  Found = trees("    Shared<uint> s{256u};\n"
                "    auto tid = thread_x();\n"
                "    UInt value = 0u;\n"
                "    $for (r, 4u) {\n"
                "        s[tid] = value + s[(tid + 1u) % 256u];\n"
                "        sync_block();\n"
                "        $while (true) { $break; };\n"
                "        for (uint stride = 128u; stride > 0u; stride >>= 1u) {\n"
                "            $if (tid < stride) { s[tid] += s[tid + stride]; };\n"
                "            sync_block();\n"
                "        }\n"
                "        value = s[0];\n"
                "    };\n");
  ASSERT_FALSE(Found.empty());
  ASSERT_TRUE(Found.back());
  Left = dsl::leftoversOf(*Found.back(), LastTreeSnippet->context());
  EXPECT_TRUE(Left.OtherRead);

  // A register declared in the body of a repeated tree is not a leftover.
  Found = trees("    Shared<uint> s{256u};\n"
                "    auto tid = thread_x();\n"
                "    $for (r, 4u) {\n"
                "        s[tid] = tid;\n"
                "        for (uint stride = 128u; stride > 0u; stride >>= 1u) {\n"
                "            sync_block();\n"
                "            UInt value;\n"
                "            $if (tid < stride) { value = s[tid] + s[tid + stride]; };\n"
                "            sync_block();\n"
                "            $if (tid < stride) { s[tid] = value; };\n"
                "        }\n"
                "    };\n");
  ASSERT_FALSE(Found.empty());
  ASSERT_TRUE(Found.back());
  EXPECT_TRUE(Found.back()->RegisterDeclaredInBody);
  Left = dsl::leftoversOf(*Found.back(), LastTreeSnippet->context());
  EXPECT_EQ(nullptr, Left.OtherRead);
  EXPECT_EQ(nullptr, Left.VariableUse);
}

TEST(TreeReduction, VariableLeftovers) {
  auto Found = trees("    Shared<uint> s{256u};\n"
                     "    auto tid = thread_x();\n"
                     "    UInt value = buffer.read(tid);\n"
                     "    s[tid] = value;\n"
                     "    UInt half = 128u;\n"
                     "    sync_block();\n"
                     "    $while (half > 0u) {\n"
                     "        $if (tid < half) { value = s[tid] + s[tid + half]; };\n"
                     "        sync_block();\n"
                     "        $if (tid < half) { s[tid] = value; };\n"
                     "        sync_block();\n"
                     "        half = half >> 1u;\n"
                     "    };\n"
                     "    buffer.write(tid, value);\n");
  ASSERT_EQ(1u, Found.size());
  ASSERT_TRUE(Found[0]);
  EXPECT_FALSE(Found[0]->Interleaved);
  dsl::TreeLeftovers Left = dsl::leftoversOf(*Found[0], LastTreeSnippet->context());
  EXPECT_EQ(nullptr, Left.OtherRead);
  ASSERT_TRUE(Left.VariableUse);
  EXPECT_EQ("value", cast<DeclRefExpr>(Left.VariableUse)->getDecl()->getName());
}

} // namespace
} // namespace kernel_tidy::test
