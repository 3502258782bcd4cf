//===--- IndexRange.cpp - The values an index takes over a block ----------===//

#include "src/dsl/IndexRange.h"

#include "src/dsl/HostEval.h"
#include "src/dsl/Names.h"
#include "src/dsl/Statements.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
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

std::optional<unsigned> axisOf(StringRef Member) {
  if (Member == "x")
    return 0u;
  if (Member == "y")
    return 1u;
  if (Member == "z")
    return 2u;
  return std::nullopt;
}

/// The smallest 2^k - 1 at or above \p V (for | and ^ of non-negative values).
int64_t allOnesAbove(int64_t V) {
  int64_t Mask = 0;
  while (Mask < V)
    Mask = Mask * 2 + 1;
  return Mask;
}

std::optional<ValueRange> combine(OverloadedOperatorKind Op, ValueRange A, ValueRange B) {
  switch (Op) {
  case OO_Plus:
    return checked(A.Min + B.Min, A.Max + B.Max);
  case OO_Minus:
    return checked(A.Min - B.Max, A.Max - B.Min);
  case OO_Star: {
    int64_t Corners[] = {A.Min * B.Min, A.Min * B.Max, A.Max * B.Min, A.Max * B.Max};
    return checked(*std::min_element(std::begin(Corners), std::end(Corners)),
                   *std::max_element(std::begin(Corners), std::end(Corners)));
  }
  case OO_Slash:
    if (B.Min != B.Max || B.Min <= 0 || A.Min < 0)
      return std::nullopt;
    return checked(A.Min / B.Min, A.Max / B.Min);
  case OO_Percent:
    if (B.Min != B.Max || B.Min <= 0 || A.Min < 0)
      return std::nullopt;
    return A.Max < B.Min ? checked(A.Min, A.Max) : checked(0, B.Min - 1);
  case OO_Amp:
    if (A.Min < 0 || B.Min < 0)
      return std::nullopt;
    return checked(0, std::min(A.Max, B.Max));
  case OO_Pipe:
  case OO_Caret:
    if (A.Min < 0 || B.Min < 0)
      return std::nullopt;
    return checked(0, allOnesAbove(std::max(A.Max, B.Max)));
  case OO_GreaterGreater:
    if (B.Min != B.Max || B.Min < 0 || B.Min > 40 || A.Min < 0)
      return std::nullopt;
    return checked(A.Min >> B.Min, A.Max >> B.Min);
  case OO_LessLess:
    if (B.Min != B.Max || B.Min < 0 || B.Min > 20 || A.Min < 0)
      return std::nullopt;
    return checked(A.Min << B.Min, A.Max << B.Min);
  default:
    return std::nullopt;
  }
}

OverloadedOperatorKind operatorOf(BinaryOperatorKind Op) {
  switch (Op) {
  case BO_Add: return OO_Plus;
  case BO_Sub: return OO_Minus;
  case BO_Mul: return OO_Star;
  case BO_Div: return OO_Slash;
  case BO_Rem: return OO_Percent;
  case BO_And: return OO_Amp;
  case BO_Or: return OO_Pipe;
  case BO_Xor: return OO_Caret;
  case BO_Shr: return OO_GreaterGreater;
  case BO_Shl: return OO_LessLess;
  default: return OO_None;
  }
}

} // namespace

std::optional<ValueRange> IndexRangeAnalysis::rangeOf(const Expr *E) {
  return rangeIn(E, E, 0);
}

std::optional<ValueRange> IndexRangeAnalysis::rangeIn(const Expr *E, const Stmt *At,
                                                       unsigned Depth) {
  if (!E || Depth > 16)
    return std::nullopt;
  if (auto Value = evaluateHostInt(E->IgnoreParenImpCasts(), Ctx))
    return checked(*Value, *Value);
  const Expr *S = stripDslWrappers(E);
  if (!S)
    return std::nullopt;
  if (S != E)
    if (auto Value = evaluateHostInt(S->IgnoreParenImpCasts(), Ctx))
      return checked(*Value, *Value);
  auto Block = [&](unsigned Axis) -> std::optional<ValueRange> {
    auto Shape = Blocks.sizeAt(At).known();
    return Shape ? checked(0, int64_t((*Shape)[Axis]) - 1) : std::nullopt;
  };
  StringRef Name = dslCallName(S);
  if (Name == "thread_x" || Name == "thread_y" || Name == "thread_z")
    return Block(unsigned(Name.back() - 'x'));
  if (Name == "warp_lane_id") {
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
  if (const auto *Member = dyn_cast<MemberExpr>(S)) {
    std::optional<unsigned> Axis = axisOf(Member->getMemberDecl()->getName());
    StringRef Of = dslCallName(stripDslWrappers(Member->getBase()));
    if (Axis && Of == "thread_id")
      return Block(*Axis);
    if (Axis && Of == "block_size")
      if (auto Shape = Blocks.sizeAt(At).known())
        return checked((*Shape)[*Axis], (*Shape)[*Axis]);
    return std::nullopt;
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    if (!Var || !Var->isLocalVarDecl() || !isDslValueType(Var->getType()))
      return std::nullopt;
    if (const CXXForRangeStmt *Loop = deviceLoopOf(Var, Ctx)) {
      std::vector<const Expr *> Args = *deviceRangeArguments(Loop);
      if (Args.empty() || Args.size() > 3)
        return std::nullopt;
      auto Begin = Args.size() == 1 ? std::optional(ValueRange{0, 0})
                                    : rangeIn(Args[0], At, Depth + 1);
      auto End = rangeIn(Args.size() == 1 ? Args[0] : Args[1], At, Depth + 1);
      if (Args.size() == 3) {
        auto Step = rangeIn(Args[2], At, Depth + 1);
        if (!Step || Step->Min <= 0)
          return std::nullopt; // Counting down or by a run-time step.
      }
      return Begin && End ? checked(Begin->Min, End->Max - 1) : std::nullopt;
    }
    if (Writes.isWritten(Var) || !Var->getInit())
      return std::nullopt;
    return rangeIn(Var->getInit(), At, Depth + 1);
  }
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S)) {
    if (Op->getNumArgs() != 2 || !isDslValueType(Op->getType()))
      return std::nullopt;
    auto A = rangeIn(Op->getArg(0), At, Depth + 1);
    auto B = A ? rangeIn(Op->getArg(1), At, Depth + 1) : std::nullopt;
    return A && B ? combine(Op->getOperator(), *A, *B) : std::nullopt;
  }
  if (const auto *Binary = dyn_cast<BinaryOperator>(S)) {
    auto A = rangeIn(Binary->getLHS(), At, Depth + 1);
    auto B = A ? rangeIn(Binary->getRHS(), At, Depth + 1) : std::nullopt;
    return A && B ? combine(operatorOf(Binary->getOpcode()), *A, *B) : std::nullopt;
  }
  return std::nullopt;
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
