//===--- UniformityTest.cpp - Uniformity, divergence, lane ids ------------===//

#include "src/dsl/Analyses.h"
#include "test/unit/DslSnippet.h"
#include <gtest/gtest.h>

namespace kernel_tidy::test {
namespace {

using dsl::Variance;

/// The analyses of one snippet.
struct Analysed {
  explicit Analysed(const std::string &Body, const std::string &Prelude = "") : S(Body, Prelude) {
    EXPECT_TRUE(S.parsed()) << Body;
    A = std::make_unique<dsl::Analyses>(S.context(), dsl::DefaultWarpWidth);
  }
  Variance of(unsigned Probe) { return A->Uniformity.varianceOf(S.probe(Probe)); }
  Variance controlOf(unsigned Probe) { return A->Uniformity.controlOf(S.probeStatement(Probe)); }
  Snippet S;
  std::unique_ptr<dsl::Analyses> A;
};

TEST(Uniformity, Sources) {
  Analysed U(R"(
    constexpr uint kSlot = 3u;
    auto block = block_id().x * 2u;
    auto mine = thread_x();
    Shared<uint> s{64};
    probe(kSlot);
    probe(n);
    probe(buffer.read(n));
    probe(block_id().x);
    probe(block);
    probe(s[0u]);
    probe(warp_active_sum(mine));
    probe(warp_read_first_active_lane(mine));
    probe(thread_x());
    probe(mine + 1u);
    probe(dispatch_id().x);
    probe(buffer.read(mine));
    probe(s.atomic(0u).fetch_add(1u));
    probe(warp_lane_id());
    probe(warp_read_lane(mine, 3u));
    probe(warp_read_lane(mine, warp_lane_id()));
  )");
  EXPECT_EQ(Variance::Grid, U.of(0));
  EXPECT_EQ(Variance::Grid, U.of(1));
  EXPECT_EQ(Variance::Grid, U.of(2));
  EXPECT_EQ(Variance::Block, U.of(3));
  EXPECT_EQ(Variance::Block, U.of(4));
  EXPECT_EQ(Variance::Block, U.of(5));
  EXPECT_EQ(Variance::Warp, U.of(6));
  EXPECT_EQ(Variance::Warp, U.of(7));
  for (unsigned I = 8; I <= 13; ++I)
    EXPECT_EQ(Variance::Thread, U.of(I)) << I;
  EXPECT_EQ(Variance::Warp, U.of(14));
  EXPECT_EQ(Variance::Thread, U.of(15));
}

TEST(Uniformity, VariablesJoinEveryStoreAndItsControl) {
  Analysed U(R"(
    UInt a = n;
    a = a + 1u;
    UInt b = n;
    $if (thread_x() < 4u) { b = 1u; };
    UInt c = n;
    $if (block_id().x == 0u) { c = 2u; };
    UInt d = 0u;
    d = thread_x();
    UInt e;
    $if (thread_x() < 4u) { UInt local = 1u; local = 2u; probe(local); };
    probe(a); probe(b); probe(c); probe(d); probe(e);
  )");
  EXPECT_EQ(Variance::Grid, U.of(0)); // Declared and written under the same control.
  EXPECT_EQ(Variance::Grid, U.of(1));
  EXPECT_EQ(Variance::Thread, U.of(2));
  EXPECT_EQ(Variance::Block, U.of(3));
  EXPECT_EQ(Variance::Thread, U.of(4));
  EXPECT_EQ(Variance::Grid, U.of(5)); // Zero-initialised.
}

TEST(Uniformity, LibraryCallsDoNotWriteTheirArguments) {
  // Shared::atomic is declared in luisa::compute::detail and takes I &&.
  Analysed U("    Shared<uint> bins{8u};\n    bins.atomic(n).fetch_or(1u);\n    probe(n);");
  EXPECT_EQ(Variance::Grid, U.of(0));
}

TEST(Uniformity, CallableAndHelperParametersVary) {
  Analysed U("    probe(n);",
             "Callable<uint(uint)> helper = [](UInt slot) noexcept { probe(slot); return slot; };\n"
             "void emit(Expr<uint> v) { probe(v); }");
  EXPECT_EQ(Variance::Thread, U.of(0));
  EXPECT_EQ(Variance::Thread, U.of(1));
  EXPECT_EQ(Variance::Grid, U.of(2));
}

TEST(Uniformity, Divergence) {
  Analysed U(R"(
    probe(0u);
    $if (n > 2u) { probe(1u); };
    $if (thread_x() < 16u) { probe(2u); } $else { probe(3u); };
    $if (n > 2u) { probe(4u); } $elif (thread_x() == 1u) { probe(5u); };
    $while (block_id().x < n) { probe(6u); };
    $for (i, thread_x()) { probe(7u); };
    $loop { $if (thread_x() == 3u) { $break; }; probe(8u); };
    $if (thread_x() == 7u) { $return(); };
    probe(9u);
  )");
  EXPECT_EQ(Variance::Grid, U.controlOf(0));
  EXPECT_EQ(Variance::Grid, U.controlOf(1));
  EXPECT_EQ(Variance::Thread, U.controlOf(2));
  EXPECT_EQ(Variance::Thread, U.controlOf(3)); // $else: decided by the $if.
  EXPECT_EQ(Variance::Grid, U.controlOf(4));
  EXPECT_EQ(Variance::Thread, U.controlOf(5));
  EXPECT_EQ(Variance::Block, U.controlOf(6));
  EXPECT_FALSE(U.A->Uniformity.isDivergent(U.S.probeStatement(6)));
  EXPECT_EQ(Variance::Thread, U.controlOf(7)); // Trip count.
  EXPECT_EQ(Variance::Thread, U.controlOf(8)); // A divergent $break.
  EXPECT_EQ(Variance::Thread, U.controlOf(9)); // After a divergent $return.
  EXPECT_NE(nullptr, U.A->Uniformity.divergentCause(U.S.probeStatement(2), Variance::Block));
  EXPECT_EQ(nullptr, U.A->Uniformity.divergentCause(U.S.probeStatement(1), Variance::Block));
}

TEST(Uniformity, HelpersRunUnderTheControlOfTheirCalls) {
  // Found by the property test on the SIMT executor (integration/simt/fuzz/
  // uniformity.py): a helper's or Callable's statements run with the threads
  // that call it, so a call under divergent control makes them divergent.
  Analysed U(R"(
    $if (thread_x() < 4u) { store_twice(buffer, n); record(n); };
    uniform_only();
    $if (block_id().x == 0u) { uniform_only(); };
  )",
             R"(
void store_twice(BufferUInt &b, Expr<uint> v) { probe(0u); $if (v > 1u) { probe(1u); }; }
Callable<void(uint)> record = [](UInt v) noexcept { probe(2u); };
void uniform_only() { probe(3u); }
void never_called() { probe(4u); }
)");
  EXPECT_EQ(Variance::Thread, U.controlOf(0));
  EXPECT_EQ(Variance::Thread, U.controlOf(1));
  EXPECT_EQ(Variance::Thread, U.controlOf(2));
  EXPECT_EQ(Variance::Block, U.controlOf(3)); // The join of its two calls.
  EXPECT_EQ(Variance::Grid, U.controlOf(4));  // No call in sight: its own control.
}

TEST(Uniformity, UniformEarlyReturnDoesNotDiverge) {
  Analysed U(R"(
    $if (n == 0u) { $return(); };
    probe(0u);
  )");
  EXPECT_EQ(Variance::Grid, U.controlOf(0));
}

TEST(Uniformity, ReturnInAnEarlierTripOfAHostLoop) {
  // Found by integration/simt/fuzz/uniformity.py (seed 5): a C++ loop is
  // unrolled as the kernel is recorded, so a `$return` later in its body was
  // taken, in an earlier trip, before this trip's statements.
  Analysed Varying(R"(
    for (uint h = 0u; h < 2u; ++h) {
      probe(0u);
      $if (thread_x() % 3u == h) { $return(); };
    }
  )");
  EXPECT_EQ(Variance::Thread, Varying.controlOf(0));
  EXPECT_TRUE(Varying.A->Divergence.witnessFor(Varying.S.probeStatement(0)).has_value());
  // In a DSL loop inside the C++ loop; a block-uniform condition.
  Analysed PerBlock(R"(
    for (uint h = 0u; h < 2u; ++h) {
      $if (n > 0u) { probe(0u); };
      $for (i, 2u) { $if (block_id().x == h) { $return(); }; };
    }
  )");
  EXPECT_EQ(Variance::Block, PerBlock.controlOf(0));
  // Every thread or none returns: still grid-uniform.
  Analysed Uniform(R"(
    for (uint h = 0u; h < 2u; ++h) {
      probe(0u);
      $if (n == h) { $return(); };
    }
  )");
  EXPECT_EQ(Variance::Grid, Uniform.controlOf(0));
  EXPECT_FALSE(Uniform.A->Divergence.witnessFor(Uniform.S.probeStatement(0)).has_value());
}

TEST(Uniformity, LaneIds) {
  Analysed U(R"(
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
  dsl::UniformityAnalysis &Uni = U.A->Uniformity;
  EXPECT_TRUE(Uni.isLaneId(U.S.probe(0)));
  EXPECT_TRUE(Uni.isLaneId(U.S.probe(1)));
  EXPECT_TRUE(Uni.isLaneId(U.S.probe(2)));
  EXPECT_FALSE(Uni.isLaneId(U.S.probe(3)));
  EXPECT_FALSE(Uni.isLaneId(U.S.probe(4)));
  EXPECT_FALSE(Uni.isLaneId(U.S.probe(5)));
}

TEST(Uniformity, LaneIdMembers) {
  Analysed U(R"(
    Held held;
    Rewritten rewritten;
    rewritten.narrow();
    TwoConstructors two{3u};
    Defaulted defaulted;
    Sub<32u> whole;
    Sub<8u> eighth;
    OnlyWhole<32u> only_whole;
    probe(held.lane);
    probe(rewritten.lane);
    probe(two.lane);
    probe(defaulted.lane);
    probe(whole.lane);
    probe(only_whole.lane);
    probe(eighth.lane);
  )",
             R"(
    struct Held { UInt lane; Held() noexcept : lane(warp_lane_id()) {} };
    struct Rewritten {
      UInt lane;
      Rewritten() noexcept : lane(warp_lane_id()) {}
      void narrow() noexcept { lane = lane % 8u; }
    };
    struct TwoConstructors {
      UInt lane;
      TwoConstructors() noexcept : lane(warp_lane_id()) {}
      explicit TwoConstructors(UInt l) noexcept : lane(l) {}
    };
    struct Defaulted { UInt lane; };
    template<uint W> struct Sub {
      UInt lane;
      Sub() noexcept : lane(warp_lane_id()) {
        if constexpr (W != 32u) { lane = lane % W; }
      }
    };
    template<uint W> struct OnlyWhole {
      UInt lane;
      OnlyWhole() noexcept : lane(warp_lane_id()) {
        if constexpr (W != 32u) { lane = lane % W; }
      }
    };
  )");
  dsl::UniformityAnalysis &Uni = U.A->Uniformity;
  auto FieldOf = [&](unsigned Probe) {
    return llvm::cast<clang::FieldDecl>(
        llvm::cast<clang::MemberExpr>(U.S.probe(Probe)->IgnoreImplicit())->getMemberDecl());
  };
  EXPECT_TRUE(Uni.isLaneId(U.S.probe(0)));
  EXPECT_FALSE(Uni.isLaneId(U.S.probe(1))); // Written by a method.
  EXPECT_FALSE(Uni.isLaneId(U.S.probe(2))); // A constructor stores another value.
  EXPECT_FALSE(Uni.isLaneId(U.S.probe(3))); // Never initialised from the lane id.
  // Sub<8u> writes it: no specialization holds it, even in this translation unit.
  EXPECT_FALSE(Uni.isLaneIdField(FieldOf(4), /*InThisTranslationUnit=*/true));
  EXPECT_FALSE(Uni.isLaneIdField(FieldOf(6), /*InThisTranslationUnit=*/true));
  // Only OnlyWhole<32u> is made here: the lane id here, not in the template.
  EXPECT_TRUE(Uni.isLaneIdField(FieldOf(5), /*InThisTranslationUnit=*/true));
  EXPECT_FALSE(Uni.isLaneId(U.S.probe(5)));
  EXPECT_TRUE(Uni.isLaneIdField(FieldOf(0)));
}

TEST(Uniformity, OneLanePerWarp) {
  Analysed U(R"(
    auto lane_idx = warp_lane_id();
    auto last = warp_active_count_bits(true) - 1u;
    $if (lane_idx == 0u) { probe(0u); };
    $if (lane_idx == last) { probe(1u); };
    $if (warp_is_first_active_lane()) { probe(2u); };
    $if (n > 0u & lane_idx == n) { probe(3u); };
    $if (lane_idx == thread_x()) { probe(4u); };
    $if (lane_idx < 1u) { probe(5u); };
    $if (thread_x() == 0u) { probe(6u); };
  )");
  dsl::UniformityAnalysis &Uni = U.A->Uniformity;
  for (unsigned I = 0; I < 4; ++I)
    EXPECT_TRUE(Uni.runsOnOneLanePerWarp(U.S.probeStatement(I))) << I;
  for (unsigned I = 4; I < 6; ++I)
    EXPECT_FALSE(Uni.runsOnOneLanePerWarp(U.S.probeStatement(I))) << I;
  // A block of one row (256 threads): each warp holds consecutive x-indices.
  EXPECT_TRUE(Uni.runsOnOneLanePerWarp(U.S.probeStatement(6)));
}

TEST(Uniformity, OneLanePerWarpByArithmetic) {
  // The lanes of a warp in one row of the block hold consecutive x-indices,
  // so their residues modulo a power of two at least the warp width differ.
  // (Probes are numbered in source order: the prelude's first.)
  Analysed U(R"(
    auto idx = dispatch_x() + n;
    $if (idx % 256u == 0u) { probe(3u); };
    auto pair_idx = dispatch_x() * 2u;
    $if (pair_idx % 256u == 0u & n > 1u) { probe(4u); };
    auto t = thread_id();
    $if (t.x == 0u & t.y == 0u) { probe(5u); };
    $if (32u == (n - thread_id().x) % 32u) { probe(6u); };
    $if (idx % 16u == 0u) { probe(7u); };
    $if ((dispatch_x() + thread_x()) % 256u == 0u) { probe(8u); };
    $if ((dispatch_x() + buffer.read(thread_x())) % 256u == 0u) { probe(9u); };
    $if (dispatch_x() * 16u % 256u == 0u) { probe(10u); };
    $if (idx % 96u == 0u) { probe(11u); };
    $if (t.y == 0u) { probe(12u); };
    UInt moved = dispatch_x(); moved = moved + thread_x();
    $if (moved % 256u == 0u) { probe(13u); };
  )",
             R"(
void build_2d(Device &device) {
  Kernel2D tile = [&](BufferUInt b) noexcept {
    auto t = thread_id();
    $if (t.x == 0u & t.y == 0u) { probe(0u); };
    $if (t.x == 0u) { probe(1u); };
    $if (dispatch_x() % 256u == 0u) { probe(2u); };
  };
}
)");
  dsl::UniformityAnalysis &Uni = U.A->Uniformity;
  for (unsigned I : {0u, 3u, 4u, 5u, 6u})
    EXPECT_TRUE(Uni.runsOnOneLanePerWarp(U.S.probeStatement(I))) << I;
  // Near misses: in 16x16 blocks a warp spans two rows, so an x-index
  // repeats; a modulus below the warp width, an offset that varies per lane,
  // a stride that repeats a residue within a warp, a modulus that is not a
  // power of two (wrap-around), a y-index alone, a variable written again.
  for (unsigned I : {1u, 2u, 7u, 8u, 9u, 10u, 11u, 12u, 13u})
    EXPECT_FALSE(Uni.runsOnOneLanePerWarp(U.S.probeStatement(I))) << I;
}

/// One value whose variance the analysis must get right: Body (and the
/// Prelude before the kernel) has exactly one probe.
struct VarianceCase {
  const char *Name;
  const char *Prelude;
  const char *Body;
  Variance Expected;
};

/// Per-thread values that real code passes through reassignments, host
/// objects, templates, aliases and helpers, each of which a fix once took
/// for a warp-uniform atomic slot; then uniform values that must stay so.
const VarianceCase VarianceCases[] = {
    {"ReassignedPerThread", "", "auto next = def(0u); next = thread_x() & 7u; probe(next);",
     Variance::Thread},
    {"MemberOfAHostObject", "struct Frame { UInt token; };",
     "Frame frame; frame.token = thread_x(); auto next = def(0u);\n"
     "next = frame.token & 7u; probe(next);",
     Variance::Thread},
    {"MemberOfAHelperClass",
     "struct Ranker { UInt lane = warp_lane_id(); UInt bin = thread_x() % 16u;\n"
     "  void rank() { probe(bin * 4u + lane % 4u); } };",
     "Ranker r; r.rank();", Variance::Thread},
    {"HelperMemberBehindAPointer", "struct Bins { UInt *bin; void rank() { probe(*bin); } };",
     "UInt b = thread_x(); Bins s{&b}; s.rank();", Variance::Thread},
    {"DependentInitialiserInATemplate",
     "template<typename K> struct Digits {\n"
     "  UInt digit(Var<K> key) { return key & 15u; }\n"
     "  void rank(Var<K> key) { UInt bin = digit(key); probe(bin); } };",
     "", Variance::Thread},
    {"WrittenThroughAPointer", "", "UInt x = n; UInt *p = &x; *p = thread_x(); probe(x);",
     Variance::Thread},
    {"WrittenThroughAReference", "", "UInt x = n; UInt &r = x; r = thread_x(); probe(x);",
     Variance::Thread},
    {"WrittenByAHelper", "void set(UInt &v) { v = thread_x(); }", "UInt x = n; set(x); probe(x);",
     Variance::Thread},
    {"WrittenByACallable",
     "Callable<void(uint &)> store = [](UInt &v) noexcept { v = thread_x(); };",
     "UInt x = n; store(x); probe(x);", Variance::Thread},
    {"WrittenByAFunctor",
     "struct Add { void operator()(UInt &a, Expr<uint> b) const { a = a + b; } };",
     "UInt x = n; Add op; op(x, thread_x()); probe(x);", Variance::Thread},
    {"WrittenThroughAHelperObject",
     "struct Writer { UInt &v; explicit Writer(UInt &v) : v(v) {}\n"
     "  void put() { v = thread_x(); } };",
     "UInt x = n; Writer w{x}; w.put(); probe(x);", Variance::Thread},
    {"RadixDigitOfTheThreadsKey", "",
     "auto thread_bit = (buffer.read(thread_x()) >> 4u) & 0xFFu; probe(thread_bit);",
     Variance::Thread},
    {"StdArrayOfVars", "", "std::array<UInt, 2> v; v[0] = thread_x(); probe(v[0]);",
     Variance::Thread},
    // Uniform values stay uniform.
    {"KernelArgument", "", "auto slot = n * 2u; probe(slot);", Variance::Grid},
    {"HostConstant", "", "constexpr uint kSlot = 3u; probe(kSlot + 1u);", Variance::Grid},
    {"HostStructField", "struct Config { uint size; };", "Config config{4u}; probe(config.size);",
     Variance::Grid},
    {"HostVector", "", "float3 origin{1.f, 2.f, 3.f}; probe(origin);", Variance::Grid},
    {"ReadThroughAConstReference", "", "UInt x = n; const UInt &r = x; probe(x + r);",
     Variance::Grid},
    {"PassedByValueToACallable",
     "Callable<uint(uint)> twice = [](UInt v) noexcept { return v * 2u; };",
     "UInt x = n; auto y = twice(x); probe(x);", Variance::Grid},
    {"SharedHandleBehindAPointer", "",
     "Shared<uint> s{64u}; Shared<uint> *p = &s; probe(p->read(3u));", Variance::Block},
    {"WarpReduction", "", "auto total = warp_active_sum(thread_x()); probe(total);",
     Variance::Warp},
};

TEST(Uniformity, ValuesFromRealCodeShapes) {
  for (const VarianceCase &Case : VarianceCases) {
    SCOPED_TRACE(Case.Name);
    Analysed U(std::string(Case.Body), std::string(Case.Prelude) + "\n#include <array>\n");
    ASSERT_NE(nullptr, U.S.probe(0));
    EXPECT_EQ(nullptr, U.S.probe(1)) << "one probe per case";
    EXPECT_EQ(dsl::varianceName(Case.Expected).str(), dsl::varianceName(U.of(0)).str());
  }
}

TEST(Uniformity, LaneEqualityAdmitsOneLaneOnlyForAWarpUniformValue) {
  Analysed U(R"(
    auto lane = warp_lane_id();
    UInt bin = buffer.read(thread_x()) & 15u;
    UInt bin_mask = buffer.read(bin);
    UInt leader = 31u - clz(bin_mask);
    UInt warp_leader = 31u - clz(warp_active_bit_or(bin_mask));
    UInt aliased = warp_lane_id();
    UInt &alias = aliased;
    alias = 0u;
    $if (lane == leader) { probe(0u); };
    $if (aliased == 0u) { probe(1u); };
    $if (lane == warp_leader) { probe(2u); };
  )");
  dsl::UniformityAnalysis &Uni = U.A->Uniformity;
  EXPECT_FALSE(Uni.runsOnOneLanePerWarp(U.S.probeStatement(0)));
  EXPECT_FALSE(Uni.runsOnOneLanePerWarp(U.S.probeStatement(1)));
  EXPECT_TRUE(Uni.runsOnOneLanePerWarp(U.S.probeStatement(2)));
}

} // namespace
} // namespace kernel_tidy::test
