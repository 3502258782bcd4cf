//===--- SharedAccessesTest.cpp - Shared accesses, intervals and races ----===//

#include "src/dsl/Analyses.h"
#include "src/dsl/Ast.h"
#include "test/unit/DslSnippet.h"
#include <gtest/gtest.h>

namespace kernel_tidy::test {
namespace {

/// The snippet's kernel and its shared-access analysis.
struct Kernel {
  explicit Kernel(const std::string &Body, const std::string &Prelude = "",
                  std::optional<unsigned> WarpSize = dsl::DefaultWarpWidth)
      : S(Body, Prelude) {
    EXPECT_TRUE(S.parsed()) << Body;
    A = std::make_unique<dsl::Analyses>(S.context(), WarpSize);
    for (const auto &Match : match(findAll(lambdaExpr().bind("l")), S.context())) {
      const auto *L = Match.getNodeAs<LambdaExpr>("l");
      if (dsl::lambdaRole(L, S.context()) == dsl::LambdaRole::Kernel)
        Lambda = L;
    }
    EXPECT_NE(nullptr, Lambda);
  }
  const std::vector<dsl::SharedAccess> &accesses() { return A->SharedAccesses.accessesIn(Lambda); }
  bool meet(unsigned X, unsigned Y) { return A->SharedAccesses.mayShareInterval(Lambda, X, Y); }
  const std::vector<dsl::SharedRace> &races() { return A->SharedAccesses.racesIn(Lambda); }
  Snippet S;
  std::unique_ptr<dsl::Analyses> A;
  const LambdaExpr *Lambda = nullptr;
};

TEST(SharedAccesses, ListsReadsAndWritesThroughHelpers) {
  Kernel K(R"(
    Shared<uint> s{256u};
    auto tid = thread_x();
    stage(s, tid);
    stage(s, tid + 1u);
    UInt x = s.read(tid);
    s[tid] += x;
    s.atomic(0u).fetch_add(1u);
    buffer.write(tid, s[0u] + x);
  )",
           "void stage(luisa::compute::Shared<uint> &t, luisa::compute::Expr<uint> i) noexcept { "
           "t[i] = 1u; }");
  const auto &Accesses = K.accesses();
  ASSERT_EQ(5u, Accesses.size()); // Two writes in the helper, read, read-write, read.
  EXPECT_TRUE(Accesses[0].Writes && !Accesses[0].Reads);
  EXPECT_EQ(1u, Accesses[0].Calls.size());
  EXPECT_EQ("s", Accesses[0].Array->getName());
  EXPECT_EQ(Accesses[0].Instance, Accesses[4].Instance);
  EXPECT_TRUE(Accesses[1].Writes);
  EXPECT_TRUE(Accesses[2].Reads && !Accesses[2].Writes);
  EXPECT_TRUE(Accesses[3].Reads && Accesses[3].Writes);
  EXPECT_TRUE(Accesses[4].Reads && Accesses[4].Calls.empty());
}

TEST(SharedAccesses, BarriersUniformBranchesAndBackEdgesDecideIntervals) {
  Kernel K(R"(
    Shared<uint> s{256u};
    auto tid = thread_x();
    s[tid] = 1u;                                         // 0
    sync_block();
    $if (n > 2u) { s[tid] = 2u; } $else { probe(s[0u]); };  // 1, 2
    $if (tid > 2u) { s[tid] = 3u; } $else { probe(s[1u]); };  // 3, 4
    sync_block();
    $for (i, 0u, n) {
      probe(s[tid]);                                     // 5
      sync_block();
      s[tid] = 4u;                                       // 6
    };
    sync_block();
    $for (i, 0u, n) {
      probe(s[tid]);                                     // 7
      sync_block();
      s[tid] = 5u;                                       // 8
      sync_block();
    };
  )");
  ASSERT_EQ(9u, K.accesses().size());
  EXPECT_FALSE(K.meet(0, 2)); // A barrier between.
  EXPECT_FALSE(K.meet(1, 2)); // Arms of a uniform branch.
  EXPECT_TRUE(K.meet(3, 4));  // Arms of a thread-dependent branch.
  EXPECT_TRUE(K.meet(2, 3));  // One after the other, no barrier.
  EXPECT_TRUE(K.meet(6, 5));  // Late write, early read of the next iteration.
  EXPECT_FALSE(K.meet(8, 7)); // A barrier at the end of the body.
  EXPECT_FALSE(K.meet(6, 7)); // A barrier between the loops.
}

TEST(SharedAccesses, RacesComeWithAWitness) {
  Kernel K(R"(
    set_block_size(64u, 1u, 1u);
    Shared<uint> s{64u};
    auto tid = thread_x();
    s[tid] = buffer.read(tid);
    buffer.write(tid, s[(tid + 1u) % 64u]);
  )");
  const auto &Races = K.races();
  ASSERT_EQ(1u, Races.size());
  EXPECT_EQ(dsl::SharedRace::WriteThenRead, Races[0].Sequence);
  EXPECT_EQ(nullptr, Races[0].AcrossLoop);
  // The witness is real: the reader's index is the writer's slot.
  EXPECT_NE(Races[0].Writer[0], Races[0].Reader[0]);
  EXPECT_EQ(int64_t(Races[0].Writer[0]), Races[0].Element);
  EXPECT_EQ((Races[0].Reader[0] + 1) % 64, Races[0].Writer[0]);
}

TEST(SharedAccesses, NoRaceWithoutACollisionBetweenDistinctThreads) {
  Kernel K(R"(
    set_block_size(64u, 1u, 1u);
    Shared<uint> s{128u};
    auto tid = thread_x();
    s[tid] = 1u;
    buffer.write(tid, s[tid]);               // its own slot
    sync_block();
    s[2u * tid] = 2u;
    buffer.write(tid, s[2u * tid + 1u]);     // the other parity
    sync_block();
    s[tid] = 3u;
    buffer.write(tid, s[tid + 64u]);         // the other half
    buffer.write(tid, s[buffer.read(tid)]);  // an index out of sight
  )");
  EXPECT_TRUE(K.races().empty());
}

TEST(SharedAccesses, LaneIdsFollowTheWarpSizeOption) {
  // Lane l reads its partner's slot l ^ 32: in a 64-lane warp that is
  // another thread's write, in 32-lane warps the upper half nobody writes.
  const char *Exchange = R"(
    set_block_size(64u, 1u, 1u);
    Shared<uint> s{64u};
    auto lane = warp_lane_id();
    s[lane] = buffer.read(thread_x());
    buffer.write(thread_x(), s[lane ^ 32u]);
  )";
  Kernel Wide(Exchange, "", 64u);
  ASSERT_EQ(1u, Wide.races().size());
  const dsl::SharedRace &Race = Wide.races()[0];
  EXPECT_EQ(Race.Reader[0] ^ 32u, Race.Writer[0]);
  EXPECT_EQ(int64_t(Race.Writer[0]), Race.Element);
  EXPECT_TRUE(Kernel(Exchange, "", 32u).races().empty());
  // The kernel's own set_warp_size outranks the option.
  EXPECT_TRUE(Kernel(std::string("    set_warp_size(32u);\n") + Exchange, "", 64u).races().empty());
  // Without a width the lane ids are unknown, and unknown values give no race.
  EXPECT_TRUE(Kernel(Exchange, "", std::nullopt).races().empty());
}

TEST(SharedAccesses, TreeReductionNeedsBothBarriers) {
  auto Tree = [](const char *Middle, const char *End) {
    return std::string(R"(
    set_block_size(256u, 1u, 1u);
    Shared<uint> partial{256u};
    auto tid = thread_id().x;
    UInt value = 1u;
    partial[tid] = value;
    UInt half = 128u;
    sync_block();
    $while (half > 0u) {
      $if (tid < half) { value = partial[tid * 2u] + partial[tid * 2u + 1u]; };
      )") + Middle +
           R"(
      $if (tid < half) { partial[tid] = value; };
      half /= 2u;
      )" + End +
           R"(
    };
    $if (tid == 0u) { buffer.write(0u, partial[0u]); };
  )";
  };
  EXPECT_TRUE(Kernel(Tree("sync_block();", "sync_block();")).races().empty());
  Kernel NoMiddle(Tree("", "sync_block();"));
  ASSERT_FALSE(NoMiddle.races().empty());
  EXPECT_EQ(dsl::SharedRace::ReadThenWrite, NoMiddle.races()[0].Sequence);
  Kernel NoEnd(Tree("sync_block();", ""));
  ASSERT_FALSE(NoEnd.races().empty());
  EXPECT_NE(nullptr, NoEnd.races()[0].AcrossLoop);
}

} // namespace
} // namespace kernel_tidy::test
