//===--- IntExprTest.cpp - The arithmetic view of kernel expressions ------===//

#include "src/dsl/Ast.h"
#include "src/dsl/HostEval.h"
#include "src/dsl/IntExpr.h"
#include "test/unit/DslSnippet.h"
#include <gtest/gtest.h>

namespace kernel_tidy::test {
namespace {

using dsl::IntExpr;

/// \p V without the DSL conversion around a variable, call or min/max.
const IntExpr *unconverted(const IntExpr *V) {
  return V && V->K == IntExpr::Convert && V->Dsl ? V->Operands[0] : V;
}

TEST(IntExpr, DslIndicesVariablesCallsAndOperators) {
  Snippet S(R"(
    Callable twice = [](UInt x) noexcept { return x * 2u; };
    UInt tid = thread_x();
    probe(thread_x());
    probe(thread_id().y);
    probe(warp_lane_id());
    probe(block_size_x());
    probe(dispatch_z());
    probe(tid * 4u + 1u);
    probe(max(tid, n));
    probe(twice(tid));
    probe(-tid);
  )");
  ASSERT_TRUE(S.parsed());
  dsl::IntExprViews Views(S.context());
  auto View = [&](unsigned I) { return Views.of(S.probe(I)); };
  auto ExpectBuiltin = [&](unsigned I, IntExpr::Index Which, unsigned Axis) {
    const IntExpr *V = View(I);
    ASSERT_NE(nullptr, V) << I;
    ASSERT_EQ(IntExpr::Builtin, V->K) << I;
    EXPECT_EQ(Which, V->Which) << I;
    EXPECT_EQ(Axis, V->Axis) << I;
    EXPECT_TRUE(V->Dsl) << I;
  };
  // A call of the component and the member of the vector are one leaf.
  ExpectBuiltin(0, IntExpr::ThreadId, 0);
  ExpectBuiltin(1, IntExpr::ThreadId, 1);
  ExpectBuiltin(2, IntExpr::LaneId, 0);
  ExpectBuiltin(3, IntExpr::BlockSize, 0);
  ExpectBuiltin(4, IntExpr::DispatchId, 2);
  // `tid * 4u + 1u`: operators over the variable and host constants.
  const IntExpr *Sum = View(5);
  ASSERT_EQ(IntExpr::Binary, Sum->K);
  EXPECT_EQ(BO_Add, Sum->BinaryOp);
  const IntExpr *Product = Sum->Operands[0];
  ASSERT_EQ(IntExpr::Binary, Product->K);
  EXPECT_EQ(BO_Mul, Product->BinaryOp);
  const IntExpr *Tid = unconverted(Product->Operands[0]);
  ASSERT_EQ(IntExpr::Variable, Tid->K);
  EXPECT_EQ("tid", Tid->Var->getName());
  EXPECT_EQ(4, dsl::evaluateHost(dsl::withoutImplicitConversions(unconverted(Product->Operands[1])),
                                 S.context()));
  const IntExpr *Max = unconverted(View(6));
  ASSERT_EQ(IntExpr::Max, Max->K);
  EXPECT_EQ(IntExpr::Variable, unconverted(Max->Operands[1])->K); // The kernel argument n.
  const IntExpr *Call = unconverted(View(7));
  ASSERT_EQ(IntExpr::Call, Call->K);
  EXPECT_EQ("twice", dsl::calleeName(Call->CallSite));
  ASSERT_EQ(IntExpr::Unary, View(8)->K);
  EXPECT_EQ(UO_Minus, View(8)->UnaryOp);
  // Each expression is walked once.
  EXPECT_EQ(View(5), Views.of(S.probe(5)));
  // Host evaluation gives DSL values none.
  EXPECT_FALSE(dsl::evaluateHost(View(5), S.context()));
}

TEST(IntExpr, HostArithmeticKeepsTheTypesOfCxx) {
  Snippet S(R"(
    for (int i = 0; i < 2; i++) {
      probe(i * 4 + 1);
      probe(i > 0 ? 7u : 9u);
      probe(static_cast<unsigned char>(i + 255));
      probe(0u - 1u);
    }
  )");
  ASSERT_TRUE(S.parsed());
  dsl::IntExprViews Views(S.context());
  const auto *Loop = S.firstHostFor();
  ASSERT_NE(nullptr, Loop);
  const auto *I = cast<VarDecl>(cast<DeclStmt>(Loop->getInit())->getSingleDecl());
  auto Value = [&](unsigned Probe, int64_t Bound) {
    return dsl::evaluateHost(Views.ofHost(S.probe(Probe)), S.context(), {{I, Bound}});
  };
  const IntExpr *Linear = dsl::withoutImplicitConversions(Views.ofHost(S.probe(0)));
  ASSERT_EQ(IntExpr::Binary, Linear->K);
  EXPECT_FALSE(Linear->Dsl);
  EXPECT_EQ(5, Value(0, 1));
  EXPECT_FALSE(dsl::evaluateHost(Views.ofHost(S.probe(0)), S.context())); // i is unbound.
  EXPECT_EQ(IntExpr::Select, dsl::withoutImplicitConversions(Views.ofHost(S.probe(1)))->K);
  EXPECT_EQ(9, Value(1, 0));
  EXPECT_EQ(7, Value(1, 1));
  EXPECT_EQ(0, Value(2, 1)); // 256 wraps in an unsigned char.
  EXPECT_EQ(4294967295, Value(3, 0));
  // INT64_MAX + 1 and the like have no value; neither does a signed overflow.
  EXPECT_FALSE(dsl::applyBinary(BO_Add, INT64_MAX, 1, false));
  EXPECT_FALSE(dsl::fitToType(int64_t(1) << 31, S.context().IntTy, S.context()));
  EXPECT_EQ(255, dsl::fitToType(-1, S.context().UnsignedCharTy, S.context()));
}

} // namespace
} // namespace kernel_tidy::test
