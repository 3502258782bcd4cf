//===--- IndexRange.cpp - The values an index takes over a block ----------===//

#include "src/dsl/IndexRange.h"

#include "src/dsl/HostEval.h"
#include "src/dsl/IntExpr.h"
#include "src/dsl/Names.h"
#include "src/dsl/Statements.h"
#include "clang/AST/ExprCXX.h"
#include <algorithm>

using namespace clang;

namespace kernel_tidy::dsl {

namespace {

constexpr int64_t Limit = int64_t(1) << 40; ///< Keeps products far from overflow.

std::optional<ValueRange> checked(int64_t Min, int64_t Max) {
  if (Min < -Limit || Max > Limit || Min > Max)
    return std::nullopt;
  return ValueRange{Min, Max};
}

/// The smallest 2^k - 1 at or above \p V (for | and ^ of non-negative values).
int64_t allOnesAbove(int64_t V) {
  int64_t Mask = 0;
  while (Mask < V)
    Mask = Mask * 2 + 1;
  return Mask;
}

std::optional<ValueRange> combine(BinaryOperatorKind Op, ValueRange A, ValueRange B) {
  switch (Op) {
  case BO_Add:
    return checked(A.Min + B.Min, A.Max + B.Max);
  case BO_Sub:
    return checked(A.Min - B.Max, A.Max - B.Min);
  case BO_Mul: {
    int64_t Corners[] = {A.Min * B.Min, A.Min * B.Max, A.Max * B.Min, A.Max * B.Max};
    return checked(*std::min_element(std::begin(Corners), std::end(Corners)),
                   *std::max_element(std::begin(Corners), std::end(Corners)));
  }
  case BO_Div:
    if (B.Min != B.Max || B.Min <= 0 || A.Min < 0)
      return std::nullopt;
    return checked(A.Min / B.Min, A.Max / B.Min);
  case BO_Rem:
    if (B.Min != B.Max || B.Min <= 0 || A.Min < 0)
      return std::nullopt;
    return A.Max < B.Min ? checked(A.Min, A.Max) : checked(0, B.Min - 1);
  case BO_And:
    if (A.Min < 0 || B.Min < 0)
      return std::nullopt;
    return checked(0, std::min(A.Max, B.Max));
  case BO_Or:
  case BO_Xor:
    if (A.Min < 0 || B.Min < 0)
      return std::nullopt;
    return checked(0, allOnesAbove(std::max(A.Max, B.Max)));
  case BO_Shr:
    if (B.Min != B.Max || B.Min < 0 || B.Min > 40 || A.Min < 0)
      return std::nullopt;
    return checked(A.Min >> B.Min, A.Max >> B.Min);
  case BO_Shl:
    if (B.Min != B.Max || B.Min < 0 || B.Min > 20 || A.Min < 0)
      return std::nullopt;
    return checked(A.Min << B.Min, A.Max << B.Min);
  default:
    return std::nullopt;
  }
}

} // namespace

std::optional<ValueRange> IndexRangeAnalysis::rangeOf(const Expr *E) {
  return rangeIn(Views.of(E), E, 0);
}

std::optional<ValueRange> IndexRangeAnalysis::rangeIn(const IntExpr *V, const Stmt *At,
                                                      unsigned Depth) {
  if (!V || Depth > 16)
    return std::nullopt;
  auto Operands = [&]() -> std::optional<ValueRange> {
    auto A = rangeIn(V->Operands[0], At, Depth + 1);
    auto B = A ? rangeIn(V->Operands[1], At, Depth + 1) : std::nullopt;
    return A && B ? combine(V->BinaryOp, *A, *B) : std::nullopt;
  };
  if (!V->Dsl) {
    // A host value: a constant, or arithmetic on constants that C++ would
    // not evaluate (that overflows the type) but an interval bounds.
    const IntExpr *Value = withoutImplicitConversions(V);
    if (auto Constant = evaluateHost(Value, Ctx))
      return checked(*Constant, *Constant);
    while (Value->K == IntExpr::Convert)
      Value = Value->Operands[0];
    return Value->K == IntExpr::Binary ? Operands() : std::nullopt;
  }
  auto Block = [&](unsigned Axis) -> std::optional<ValueRange> {
    auto Shape = Blocks.sizeAt(At).known();
    return Shape ? checked(0, int64_t((*Shape)[Axis]) - 1) : std::nullopt;
  };
  switch (V->K) {
  case IntExpr::Convert: // The interval holds the value before it wraps.
    return rangeIn(V->Operands[0], At, Depth);
  case IntExpr::Binary:
    return Operands();
  case IntExpr::Builtin:
    if (V->Which == IntExpr::ThreadId)
      return Block(V->Axis);
    if (V->Which == IntExpr::BlockSize)
      if (auto Shape = Blocks.sizeAt(At).known())
        return checked((*Shape)[V->Axis], (*Shape)[V->Axis]);
    if (V->Which == IntExpr::LaneId) {
      std::optional<unsigned> Lanes = Widths.widthAt(At).known();
      if (!Lanes)
        return std::nullopt;
      // A block smaller than a warp fills only its first lanes (a block's
      // threads form its warps in order).
      int64_t Last = int64_t(*Lanes) - 1;
      if (auto Shape = Blocks.sizeAt(At).known())
        Last = std::min(Last, int64_t((*Shape)[0]) * (*Shape)[1] * (*Shape)[2] - 1);
      return checked(0, Last);
    }
    return std::nullopt;
  case IntExpr::Variable: {
    const VarDecl *Var = V->Var;
    if (!Var->isLocalVarDecl() || !isDslValueType(Var->getType()))
      return std::nullopt;
    if (const CXXForRangeStmt *Loop = deviceLoopOf(Var, Ctx)) {
      std::vector<const Expr *> Args = *deviceRangeArguments(Loop);
      if (Args.empty() || Args.size() > 3)
        return std::nullopt;
      auto Begin = Args.size() == 1 ? std::optional(ValueRange{0, 0})
                                    : rangeIn(Views.of(Args[0]), At, Depth + 1);
      auto End = rangeIn(Views.of(Args.size() == 1 ? Args[0] : Args[1]), At, Depth + 1);
      if (Args.size() == 3) {
        auto Step = rangeIn(Views.of(Args[2]), At, Depth + 1);
        if (!Step || Step->Min <= 0)
          return std::nullopt; // Counting down or by a run-time step.
      }
      return Begin && End ? checked(Begin->Min, End->Max - 1) : std::nullopt;
    }
    if (Writes.isWritten(Var) || !Var->getInit())
      return std::nullopt;
    return rangeIn(Views.of(Var->getInit()), At, Depth + 1);
  }
  default:
    return std::nullopt;
  }
}

const VarDecl *IndexRangeAnalysis::sharedVariable(const Expr *Object) {
  const Expr *E = Object->IgnoreParenImpCasts();
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || Var->getType()->isPointerType() || Var->getType()->isReferenceType() ||
      sharedElementType(Var->getType()).isNull())
    return nullptr;
  return Var;
}

std::optional<int64_t> IndexRangeAnalysis::sharedSize(const Expr *Object) {
  return sharedSizeOf(sharedVariable(Object));
}

std::optional<int64_t> IndexRangeAnalysis::sharedSizeOf(const VarDecl *Var) {
  const Expr *Init = Var ? Var->getInit() : nullptr;
  if (!Init)
    return std::nullopt;
  Init = Init->IgnoreImplicit();
  const Expr *Count = nullptr;
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Init))
    Count = Construct->getNumArgs() == 1 ? Construct->getArg(0) : nullptr;
  else if (const auto *List = dyn_cast<InitListExpr>(Init))
    Count = List->getNumInits() == 1 ? List->getInit(0) : nullptr;
  else if (const auto *Paren = dyn_cast<ParenListExpr>(Init))
    Count = Paren->getNumExprs() == 1 ? Paren->getExpr(0) : nullptr;
  if (!Count)
    return std::nullopt;
  auto Size = evaluateHostInt(Count->IgnoreParenImpCasts(), Ctx);
  if (!Size || *Size <= 0)
    return std::nullopt;
  return Size;
}

} // namespace kernel_tidy::dsl
