//===--- ProfitabilityTest.cpp - The per-backend profitability table ------===//

#include "rules/RuleRegistry.h"
#include "src/dsl/Profitability.h"
#include "llvm/ADT/STLExtras.h"
#include <gtest/gtest.h>

namespace kernel_tidy::test {
namespace {

using dsl::Gain;
using dsl::GainEntry;
using dsl::Target;

const char *const Ops[] = {"sum", "product", "min", "max", "and", "or", "xor"};
const char *const Targets[] = {"cuda", "dx", "vulkan", "metal"};

TEST(Profitability, TargetNamesParseAndRoundTrip) {
  for (Target T : {Target::Any, Target::Cuda, Target::DirectX, Target::Vulkan, Target::Metal})
    EXPECT_EQ(T, dsl::parseTarget(dsl::targetName(T))) << dsl::targetName(T).str();
  EXPECT_EQ(Target::DirectX, dsl::parseTarget("directx"));
  EXPECT_EQ("dx", dsl::targetName(Target::DirectX));
  for (const char *Bad : {"", "bogus", "CUDA", "hip", "dx12"})
    EXPECT_FALSE(dsl::parseTarget(Bad)) << Bad;
}

/// A table made for the test, not the real one.
const GainEntry Table[] = {
    {"r", "sum", "int", "cuda", Gain::Faster, "specific"},
    {"r", "*", "int", "cuda", Gain::Parity, "any op of ints"},
    {"r", "sum", "*", "cuda", Gain::Slower, "sums of anything"},
    {"r", "max", "float", "dx", Gain::Parity, "dx"},
    {"s", "*", "*", "metal", Gain::Faster, "everything of s"},
};

TEST(Profitability, FirstMatchingLineWins) {
  auto E = dsl::lookupGain(Table, "r", "sum", /*IsFloat=*/false, Target::Cuda);
  ASSERT_TRUE(E);
  EXPECT_EQ("specific", E->Source);
  EXPECT_EQ(Gain::Faster, E->Outcome);
  // The op wildcard comes before the values wildcard.
  E = dsl::lookupGain(Table, "r", "min", false, Target::Cuda);
  ASSERT_TRUE(E);
  EXPECT_EQ("any op of ints", E->Source);
  E = dsl::lookupGain(Table, "r", "sum", /*IsFloat=*/true, Target::Cuda);
  ASSERT_TRUE(E);
  EXPECT_EQ("sums of anything", E->Source);
  EXPECT_EQ(Gain::Slower, E->Outcome);
}

TEST(Profitability, WildcardsMatchEveryOpAndValueClass) {
  for (const char *Op : Ops)
    for (bool IsFloat : {false, true}) {
      auto E = dsl::lookupGain(Table, "s", Op, IsFloat, Target::Metal);
      ASSERT_TRUE(E) << Op << IsFloat;
      EXPECT_EQ("everything of s", E->Source);
    }
}

TEST(Profitability, NoMatchingLineIsUnknown) {
  EXPECT_FALSE(dsl::lookupGain(Table, "r", "min", /*IsFloat=*/true, Target::Cuda));
  EXPECT_FALSE(dsl::lookupGain(Table, "r", "max", false, Target::DirectX)) << "value class";
  EXPECT_FALSE(dsl::lookupGain(Table, "r", "max", true, Target::Vulkan)) << "target";
  EXPECT_FALSE(dsl::lookupGain(Table, "t", "sum", false, Target::Cuda)) << "rule";
  EXPECT_FALSE(dsl::lookupGain(Table, "s", "sum", false, Target::Any))
      << "target any makes no claim";
  EXPECT_FALSE(dsl::lookupGain({}, "r", "sum", false, Target::Cuda));
}

TEST(Profitability, EveryLineIsWellFormed) {
  for (const GainEntry &E : dsl::gainTable()) {
    std::string Line = (E.Rule + " " + E.Op + " " + E.Values + " " + E.Target).str();
    EXPECT_TRUE(rules::findRule(E.Rule)) << Line;
    EXPECT_TRUE(E.Op == "*" || llvm::is_contained(Ops, E.Op)) << Line;
    EXPECT_TRUE(E.Values == "*" || E.Values == "int" || E.Values == "float") << Line;
    EXPECT_TRUE(llvm::is_contained(Targets, E.Target)) << Line;
    // Nothing is measured yet: a hypothesis or a compiled count says so.
    EXPECT_TRUE(E.Source.starts_with("measured") ||
                ((E.Source.starts_with("expected") || E.Source.starts_with("compiled")) &&
                 E.Source.contains("not yet measured on a GPU")))
        << Line << ": " << E.Source.str();
  }
}

TEST(Profitability, NoLineIsHiddenByAnEarlierOne) {
  auto All = dsl::gainTable();
  for (size_t I = 0; I < All.size(); ++I) {
    const GainEntry &E = All[I];
    bool Reached = false;
    for (const char *Op : Ops)
      for (bool IsFloat : {false, true}) {
        auto Found = dsl::lookupGain(All.take_front(I + 1), E.Rule, Op, IsFloat,
                                     *dsl::parseTarget(E.Target));
        Reached |= Found && Found->Op == E.Op && Found->Values == E.Values &&
                   Found->Outcome == E.Outcome && Found->Source == E.Source;
      }
    EXPECT_TRUE(Reached) << "line " << I + 1 << " never matches: " << E.Source.str();
  }
}

TEST(Profitability, TableSaysWhatTheLoweringNotesSay) {
  auto GainOf = [](const char *Rule, const char *Op, bool IsFloat, Target T) {
    auto E = dsl::lookupGain(Rule, Op, IsFloat, T);
    return E ? std::optional<Gain>(E->Outcome) : std::nullopt;
  };
  const char *Butterfly = "luisa-butterfly-reduction";
  const char *Scan = "luisa-sequential-lane-reads";
  const char *Atomic = "luisa-shared-atomic-counter";
  // redux.sync for 32-bit integers, a guarded butterfly for the rest: more instructions
  // than the original in the compiled counts (docs/compiled-counts.md).
  EXPECT_EQ(Gain::Faster, GainOf(Butterfly, "sum", false, Target::Cuda));
  EXPECT_EQ(Gain::Faster, GainOf(Butterfly, "xor", false, Target::Cuda));
  EXPECT_EQ(Gain::Slower, GainOf(Butterfly, "max", true, Target::Cuda));
  EXPECT_EQ(Gain::Slower, GainOf(Butterfly, "sum", true, Target::Cuda));
  EXPECT_FALSE(GainOf(Butterfly, "product", false, Target::Cuda)) << "the notes say nothing";
  EXPECT_FALSE(GainOf(Butterfly, "max", true, Target::DirectX));
  // ~6 shuffles instead of one per lane; one WavePrefixSum.
  EXPECT_EQ(Gain::Faster, GainOf(Scan, "sum", true, Target::Cuda));
  EXPECT_EQ(Gain::Faster, GainOf(Scan, "product", false, Target::Cuda));
  EXPECT_EQ(Gain::Faster, GainOf(Scan, "sum", false, Target::DirectX));
  EXPECT_EQ(Gain::Faster, GainOf(Scan, "sum", true, Target::Vulkan));
  EXPECT_FALSE(GainOf(Scan, "product", false, Target::DirectX));
  // Integer shared atomics are cheap already; float and CAS loops are the win.
  EXPECT_EQ(Gain::Parity, GainOf(Atomic, "sum", false, Target::Cuda));
  EXPECT_EQ(Gain::Parity, GainOf(Atomic, "and", false, Target::Cuda));
  EXPECT_EQ(Gain::Faster, GainOf(Atomic, "sum", true, Target::Cuda));
  EXPECT_EQ(Gain::Faster, GainOf(Atomic, "max", true, Target::Cuda));
  EXPECT_FALSE(GainOf(Atomic, "sum", false, Target::Metal));
  // No claim without a target.
  for (const GainEntry &E : dsl::gainTable())
    EXPECT_FALSE(dsl::lookupGain(E.Rule, "sum", false, Target::Any));
}

} // namespace
} // namespace kernel_tidy::test
