//===--- LaneShiftsTest.cpp - Warp loops over shifting lane offsets -------===//

#include "rules/warp/LaneShifts.h"
#include "src/dsl/WarpWidth.h"
#include "test/unit/DslSnippet.h"
#include <gtest/gtest.h>

namespace kernel_tidy::test {
namespace {

/// The snippet last parsed by shiftLoops: the loops it returns point into it.
std::unique_ptr<Snippet> LastShiftSnippet;

/// The calls of functions named \p Name in the main file, in source order,
/// each once (lambda bodies are reachable twice).
std::vector<const CallExpr *> callsInMainFile(llvm::StringRef Name, ASTContext &Ctx) {
  auto Calls = match(
      findAll(callExpr(callee(functionDecl(hasName(Name))), isExpansionInMainFile()).bind("call")),
      Ctx);
  std::vector<const CallExpr *> Sorted;
  for (const auto &Node : Calls)
    Sorted.push_back(Node.getNodeAs<CallExpr>("call"));
  std::sort(Sorted.begin(), Sorted.end(), [](const CallExpr *A, const CallExpr *B) {
    return A->getBeginLoc() < B->getBeginLoc();
  });
  Sorted.erase(std::unique(Sorted.begin(), Sorted.end()), Sorted.end());
  return Sorted;
}

/// The lane-shift loop of each warp_read_lane in \p Body, in source order
/// (valid until the next call).
std::vector<std::optional<dsl::LaneShiftLoop>> shiftLoops(const std::string &Body) {
  LastShiftSnippet = std::make_unique<Snippet>(Body);
  Snippet &S = *LastShiftSnippet;
  EXPECT_TRUE(S.parsed()) << Body;
  dsl::WriteAnalysis Writes(S.context());
  std::vector<std::optional<dsl::LaneShiftLoop>> Result;
  for (const CallExpr *Read : callsInMainFile("warp_read_lane", S.context()))
    Result.push_back(dsl::matchLaneShiftLoop(Read, S.context(), Writes));
  return Result;
}

std::optional<dsl::LaneShiftLoop> shiftLoop(const std::string &Body) {
  auto All = shiftLoops(Body);
  return All.empty() ? std::nullopt : All.front();
}

const char *const DeviceDown =
    "    auto lane = warp_lane_id();\n"
    "    UInt v = buffer.read(0u);\n"
    "    UInt offset = 1u;\n"
    "    $while (offset < warp_lane_count()) {\n"
    "        UInt t = warp_read_lane(v, lane + offset);\n"
    "        $if (lane + offset < warp_lane_count()) { v = max(v, t); };\n"
    "        offset <<= 1u;\n"
    "    };\n";

TEST(LaneShifts, DeviceShuffleDownLoop) {
  auto Found = shiftLoop(DeviceDown);
  ASSERT_TRUE(Found);
  EXPECT_TRUE(Found->Loop.Device);
  EXPECT_TRUE(Found->Loop.UpToLaneCount);
  EXPECT_EQ(dsl::LaneShift::Down, Found->Step.Index.Shift);
  EXPECT_EQ(dsl::CombineOp::Max, Found->Step.Op);
  ASSERT_TRUE(Found->Step.Guard);
  auto Bound = dsl::matchDownBound(Found->Step.Guard, Found->Step.Index);
  ASSERT_TRUE(Bound);
  EXPECT_TRUE(Bound->WholeWarp);
}

TEST(LaneShifts, DeviceLoopDoublings) {
  // One loop per update: doublings first, then an update that does not double.
  const char *Updates[] = {"o0 *= 2u;", "o1 = o1 * 2u;", "o2 = 2u * o2;", "o3 = o3 << 1u;",
                           "o4 += o4;", "o5 += 1u;",     "o6 *= 3u;"};
  std::string Body = "    auto lane = warp_lane_id();\n    UInt v = buffer.read(0u);\n";
  for (unsigned I = 0; I < 7; ++I) {
    std::string O = "o" + std::to_string(I);
    Body += "    UInt " + O + " = 1u;\n    $while (" + O + " < warp_lane_count()) {\n" +
            "        v += warp_read_lane(v, lane + " + O + ");\n        " + Updates[I] +
            "\n    };\n";
  }
  // The width through a local: found (index 7 below).
  Body += "    UInt wave_size = warp_lane_count();\n    UInt o9 = 1u;\n"
          "    $while (o9 < wave_size) {\n"
          "        v += warp_read_lane(v, lane + o9);\n        o9 <<= 1u;\n    };\n";
  // Written before the loop too, and a start other than 1.
  Body += "    UInt o7 = 1u;\n    o7 = 2u;\n    $while (o7 < 32u) {\n"
          "        v += warp_read_lane(v, lane + o7);\n        o7 <<= 1u;\n    };\n"
          "    UInt o8 = 2u;\n    $while (o8 < 32u) {\n"
          "        v += warp_read_lane(v, lane + o8);\n        o8 <<= 1u;\n    };\n";
  auto Found = shiftLoops(Body);
  ASSERT_EQ(10u, Found.size());
  for (unsigned I = 0; I < 10; ++I)
    EXPECT_EQ(I < 5 || I == 7, Found[I].has_value()) << I;
  ASSERT_TRUE(Found[7]);
  EXPECT_TRUE(Found[7]->Loop.UpToLaneCount);
}

TEST(LaneShifts, DeviceLoopWithConstantBound) {
  std::string Body = DeviceDown;
  Body.replace(Body.find("offset < warp_lane_count()"), 26, "offset < 16u");
  auto Found = shiftLoop(Body);
  ASSERT_TRUE(Found);
  EXPECT_FALSE(Found->Loop.UpToLaneCount);
  EXPECT_EQ((std::vector<int64_t>{1, 2, 4, 8}), Found->Loop.Values);
  EXPECT_EQ(16u, dsl::coveredLanes(Found->Loop.Values));
}

TEST(LaneShifts, HostScanLoop) {
  auto Found = shiftLoop("    auto lane = warp_lane_id();\n"
                         "    Int v = 1;\n"
                         "    for (uint o = 1u; o < 32u; o <<= 1u) {\n"
                         "        Int t = warp_read_lane(v, lane - o);\n"
                         "        $if (lane >= o) { v = v + t; };\n"
                         "    }\n");
  ASSERT_TRUE(Found);
  EXPECT_FALSE(Found->Loop.Device);
  EXPECT_EQ(dsl::LaneShift::Up, Found->Step.Index.Shift);
  EXPECT_EQ(32u, dsl::coveredLanes(Found->Loop.Values));
  EXPECT_TRUE(dsl::isScanGuard(Found->Step.Guard, Found->Step.Index));
}

TEST(LaneShifts, DirectReadInsideTheGuard) {
  auto Found = shiftLoop("    auto lane = warp_lane_id();\n"
                         "    UInt v = 1u;\n"
                         "    for (uint o = 16u; o > 0u; o >>= 1u) {\n"
                         "        $if (lane + o <= n) { v += warp_read_lane(v, lane + o); };\n"
                         "    }\n");
  ASSERT_TRUE(Found);
  auto Bound = dsl::matchDownBound(Found->Step.Guard, Found->Step.Index);
  ASSERT_TRUE(Bound);
  EXPECT_FALSE(Bound->WholeWarp);
  EXPECT_FALSE(Bound->Strict);
}

TEST(LaneShifts, OtherStatementsInTheBodyAreNotASteps) {
  EXPECT_FALSE(shiftLoop("    auto lane = warp_lane_id();\n"
                         "    UInt v = 1u;\n"
                         "    UInt w = 1u;\n"
                         "    for (uint o = 1u; o < 32u; o <<= 1u) {\n"
                         "        UInt t = warp_read_lane(v, lane + o);\n"
                         "        w += t;\n"
                         "        v += t;\n"
                         "    }\n"));
  // The value read is not the value accumulated.
  EXPECT_FALSE(shiftLoop("    auto lane = warp_lane_id();\n"
                         "    UInt v = 1u;\n"
                         "    UInt w = 1u;\n"
                         "    for (uint o = 1u; o < 32u; o <<= 1u) {\n"
                         "        v += warp_read_lane(w, lane + o);\n"
                         "    }\n"));
}

TEST(LaneShifts, CombinationThroughHelpers) {
  const char *Prelude =
      "template<typename T> Var<T> reduce_op(Var<T> a, Var<T> b) noexcept { return max(b, a); }\n"
      "inline UInt twice(UInt a, UInt b) noexcept { return a + a; }\n";
  Snippet S("    Callable bit_or = [](UInt a, UInt b) noexcept { return a | b; };\n"
            "    auto plus = [](auto a, auto b) noexcept { return a + b; };\n"
            "    UInt x = 1u;\n"
            "    UInt y = 2u;\n"
            "    probe(reduce_op(x, y));\n"
            "    probe(bit_or(x, y));\n"
            "    probe(plus(x, y));\n"
            "    probe(twice(x, y));\n",
            Prelude);
  ASSERT_TRUE(S.parsed());
  auto Max = dsl::matchCombinationThroughHelpers(S.probe(0), S.context());
  ASSERT_TRUE(Max);
  EXPECT_EQ(dsl::CombineOp::Max, Max->Op);
  auto Or = dsl::matchCombinationThroughHelpers(S.probe(1), S.context());
  ASSERT_TRUE(Or);
  EXPECT_EQ(dsl::CombineOp::BitOr, Or->Op);
  auto Plus = dsl::matchCombinationThroughHelpers(S.probe(2), S.context());
  ASSERT_TRUE(Plus);
  EXPECT_EQ(dsl::CombineOp::Sum, Plus->Op);
  // `a + a` does not combine both arguments.
  EXPECT_FALSE(dsl::matchCombinationThroughHelpers(S.probe(3), S.context()));
}

TEST(LaneShifts, CoveredLanes) {
  EXPECT_EQ(32u, dsl::coveredLanes({16, 8, 4, 2, 1}));
  EXPECT_EQ(32u, dsl::coveredLanes({1, 2, 4, 8, 16}));
  EXPECT_FALSE(dsl::coveredLanes({1, 2, 8, 16}));
  EXPECT_FALSE(dsl::coveredLanes({1, 1, 2}));
  EXPECT_FALSE(dsl::coveredLanes({}));
}

TEST(LaneShifts, CallSitesOfHelpers) {
  Snippet S("    auto lane = warp_lane_id();\n"
            "    Callable reduce = [](UInt v, UInt l) noexcept { return v + l; };\n"
            "    UInt a = shuffle(1u, lane);\n"
            "    UInt b = shuffle(2u, lane % 8u);\n"
            "    UInt c = reduce(a, lane);\n"
            "    probe(a + b + c);\n",
            "inline UInt shuffle(UInt v, UInt l) noexcept { return v + l; }\n");
  ASSERT_TRUE(S.parsed());
  auto Params =
      match(findAll(parmVarDecl(hasName("l"), isExpansionInMainFile()).bind("p")), S.context());
  dsl::CallSiteIndex Index(S.context());
  std::map<std::string, size_t> ArgCounts;
  for (const auto &Node : Params) {
    const auto *P = Node.getNodeAs<ParmVarDecl>("p");
    auto Args = Index.argumentsFor(P);
    ASSERT_TRUE(Args) << Index.calleeName(P);
    ArgCounts[Index.calleeName(P)] = Args->size();
  }
  EXPECT_EQ(2u, ArgCounts["shuffle"]);
  EXPECT_EQ(1u, ArgCounts["reduce"]);
}

/// The LaneRead of each call in \p Body of a helper named `shuffle`, in
/// source order; \p Prelude declares the helpers.
std::vector<std::optional<dsl::LaneRead>> laneReads(const std::string &Prelude,
                                                    const std::string &Body) {
  LastShiftSnippet = std::make_unique<Snippet>(Body, Prelude);
  Snippet &S = *LastShiftSnippet;
  EXPECT_TRUE(S.parsed()) << Prelude << Body;
  std::vector<std::optional<dsl::LaneRead>> Result;
  for (const CallExpr *Call : callsInMainFile("shuffle", S.context()))
    Result.push_back(dsl::matchLaneRead(Call, S.context()));
  return Result;
}

TEST(LaneShifts, ShuffleHelperReadsInTheCallersTerms) {
  // Shift up with a clamp below lane FIRST, FIRST 0 by default.
  auto Up =
      laneReads("UInt shuffle(UInt &v, UInt lane, UInt offset, UInt first = 0u) noexcept {\n"
                "    UInt r = warp_read_lane(v, lane - offset);\n"
                "    $if (Int(lane - offset) < Int(first)) { r = v; };\n"
                "    return r;\n"
                "}\n",
                "    auto l = warp_lane_id();\n    UInt x = buffer.read(0u);\n    UInt d = 1u;\n"
                "    UInt a = shuffle(x, l, d);\n"
                "    UInt b = shuffle(x, l, d, 0u);\n"
                "    UInt c = shuffle(x, l, d, 1u);\n");
  ASSERT_EQ(3u, Up.size());
  for (unsigned I = 0; I < 2; ++I) {
    ASSERT_TRUE(Up[I]) << I;
    EXPECT_EQ(dsl::LaneShift::Up, Up[I]->Index.Shift);
    EXPECT_EQ("x", dsl::variableOf(Up[I]->Value)->getName());
    EXPECT_EQ("l", dsl::variableOf(Up[I]->Index.Lane)->getName());
    EXPECT_EQ("d", Up[I]->Index.Offset->getName());
    EXPECT_EQ("shuffle", Up[I]->HelperName);
    EXPECT_FALSE(Up[I]->LastPartner);
  }
  // A first lane above 0 clamps lanes a scan's guard lets through.
  EXPECT_FALSE(Up[2]);
}

TEST(LaneShifts, ShuffleDownHelperStatesItsLastPartner) {
  auto Down =
      laneReads("UInt shuffle(UInt &v, UInt lane, UInt offset, UInt last = 32u) noexcept {\n"
                "    UInt src = lane + offset;\n"
                "    UInt r = warp_read_lane(v, src);\n"
                "    $if (src > last) { r = v; };\n"
                "    $if (last <= src) { r = v; };\n"
                "    return r;\n"
                "}\n",
                "    auto l = warp_lane_id();\n    UInt x = buffer.read(0u);\n    UInt d = 1u;\n"
                "    UInt a = shuffle(x, l, d);\n"
                "    UInt b = shuffle(x, l, d, 64u);\n"
                "    UInt c = shuffle(x, l, d, n);\n");
  ASSERT_EQ(3u, Down.size());
  ASSERT_TRUE(Down[0]);
  EXPECT_EQ(dsl::LaneShift::Down, Down[0]->Index.Shift);
  // `src > 32` and `32 <= src`: partners up to lane 31.
  EXPECT_EQ(31, Down[0]->LastPartner);
  ASSERT_TRUE(Down[1]);
  EXPECT_EQ(63, Down[1]->LastPartner);
  // A bound that is no host constant at the call: not a known shuffle.
  EXPECT_FALSE(Down[2]);
}

TEST(LaneShifts, HelpersThatAreNotShuffles) {
  const char *Body = "    auto l = warp_lane_id();\n    UInt x = buffer.read(0u);\n"
                     "    UInt d = 1u;\n    UInt a = shuffle(x, l, d);\n";
  const char *NotShuffles[] = {
      // Returns something else than the partner's value where it clamps.
      "UInt shuffle(UInt &v, UInt lane, UInt offset) noexcept {\n"
      "    UInt r = warp_read_lane(v, lane + offset);\n"
      "    $if (lane + offset > 31u) { r = 1u; };\n    return r;\n}\n",
      // Changes the value it read.
      "UInt shuffle(UInt &v, UInt lane, UInt offset) noexcept {\n"
      "    UInt r = warp_read_lane(v, lane + offset);\n    r += 1u;\n    return r;\n}\n",
      // Reads another value than its parameter.
      "UInt shuffle(UInt &v, UInt lane, UInt offset) noexcept {\n"
      "    return warp_read_lane(v + 1u, lane ^ offset);\n}\n",
      // A shift-up clamp on a shift down.
      "UInt shuffle(UInt &v, UInt lane, UInt offset) noexcept {\n"
      "    UInt r = warp_read_lane(v, lane + offset);\n"
      "    $if (lane + offset < 0u) { r = v; };\n    return r;\n}\n",
      // The lane and the offset are the same parameter.
      "UInt shuffle(UInt &v, UInt lane, UInt offset) noexcept {\n"
      "    return warp_read_lane(v, lane + lane);\n}\n",
  };
  for (const char *Helper : NotShuffles) {
    auto Reads = laneReads(Helper, Body);
    ASSERT_EQ(1u, Reads.size()) << Helper;
    EXPECT_FALSE(Reads[0]) << Helper;
  }
  // The one-line butterfly helper is one.
  auto Xor = laneReads("UInt shuffle(UInt &v, UInt lane, UInt offset) noexcept {\n"
                       "    return warp_read_lane(v, lane ^ offset);\n}\n",
                       Body);
  ASSERT_EQ(1u, Xor.size());
  ASSERT_TRUE(Xor[0]);
  EXPECT_EQ(dsl::LaneShift::Xor, Xor[0]->Index.Shift);
}

} // namespace
} // namespace kernel_tidy::test
