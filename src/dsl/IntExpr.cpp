//===--- IntExpr.cpp - Integer expressions of kernel code as arithmetic ---===//

#include "src/dsl/IntExpr.h"

#include "src/dsl/Names.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace clang;

namespace kernel_tidy::dsl {

namespace {

/// The value of a constant that Clang's evaluator knows (constexpr
/// variables, enumerators, sizeof, literals).
std::optional<int64_t> clangConstant(const Expr *E, const ASTContext &Ctx) {
  if (E->isValueDependent() || E->isTypeDependent() || !E->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  Expr::EvalResult Result;
  if (!E->EvaluateAsInt(Result, Ctx))
    return std::nullopt;
  const llvm::APSInt &V = Result.Val.getInt();
  if (V.isUnsigned() ? V.getActiveBits() > 63 : !V.isSignedIntN(64))
    return std::nullopt;
  return V.getExtValue();
}

std::optional<unsigned> axisOf(StringRef Member) {
  return llvm::StringSwitch<std::optional<unsigned>>(Member)
      .Case("x", 0u)
      .Case("y", 1u)
      .Case("z", 2u)
      .Default(std::nullopt);
}

std::optional<UnaryOperatorKind> unaryOf(OverloadedOperatorKind Op) {
  switch (Op) {
  case OO_Minus:
    return UO_Minus;
  case OO_Plus:
    return UO_Plus;
  case OO_Tilde:
    return UO_Not;
  case OO_Exclaim:
    return UO_LNot;
  default:
    return std::nullopt;
  }
}

std::optional<BinaryOperatorKind> binaryOf(OverloadedOperatorKind Op) {
  switch (Op) {
  case OO_Plus:
    return BO_Add;
  case OO_Minus:
    return BO_Sub;
  case OO_Star:
    return BO_Mul;
  case OO_Slash:
    return BO_Div;
  case OO_Percent:
    return BO_Rem;
  case OO_Amp:
    return BO_And;
  case OO_Pipe:
    return BO_Or;
  case OO_Caret:
    return BO_Xor;
  case OO_LessLess:
    return BO_Shl;
  case OO_GreaterGreater:
    return BO_Shr;
  case OO_Less:
    return BO_LT;
  case OO_Greater:
    return BO_GT;
  case OO_LessEqual:
    return BO_LE;
  case OO_GreaterEqual:
    return BO_GE;
  case OO_EqualEqual:
    return BO_EQ;
  case OO_ExclaimEqual:
    return BO_NE;
  case OO_AmpAmp:
    return BO_LAnd;
  case OO_PipePipe:
    return BO_LOr;
  default:
    return std::nullopt;
  }
}

} // namespace

IntExpr *IntExprViews::add(IntExpr::Kind K, const Expr *Source, bool Dsl) {
  auto *N = new (Nodes.Allocate()) IntExpr();
  N->K = K;
  N->Source = Source;
  N->Dsl = Dsl;
  return N;
}

namespace {

/// The view in \p Memo for \p E, built by \p Build the first time.
template <typename Builder>
const IntExpr *memoized(llvm::DenseMap<const Expr *, const IntExpr *> &Memo, const Expr *E,
                        Builder Build) {
  if (!E)
    return nullptr;
  if (auto It = Memo.find(E); It != Memo.end())
    return It->second;
  const IntExpr *V = Build();
  Memo[E] = V;
  return V;
}

} // namespace

const IntExpr *IntExprViews::of(const Expr *E) {
  return memoized(Views, E, [&]() -> const IntExpr * {
    if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(E))
      return of(Default->getExpr());
    return isDslValueType(E->getType()) ? dsl(E) : host(E);
  });
}

const IntExpr *IntExprViews::ofHost(const Expr *E) {
  return memoized(HostViews, E, [&] { return host(E); });
}

const IntExpr *IntExprViews::builtin(const Expr *Source, StringRef Name,
                                     std::optional<unsigned> Axis) {
  auto Which = llvm::StringSwitch<std::optional<IntExpr::Index>>(Name)
                   .Case("thread_id", IntExpr::ThreadId)
                   .Case("block_id", IntExpr::BlockId)
                   .Case("dispatch_id", IntExpr::DispatchId)
                   .Case("block_size", IntExpr::BlockSize)
                   .Case("dispatch_size", IntExpr::DispatchSize)
                   .Case("warp_lane_id", IntExpr::LaneId)
                   .Case("warp_lane_count", IntExpr::LaneCount)
                   .Default(std::nullopt);
  if (!Which || !Axis)
    return add(IntExpr::Unknown, Source, true);
  IntExpr *N = add(IntExpr::Builtin, Source, true);
  N->Which = *Which;
  N->Axis = *Axis;
  return N;
}

// DSL arithmetic: the value a kernel computes on the device. Variables,
// helper results, min/max and host values inside are converted to the DSL
// value type of the expression around them; operators to their own type.
const IntExpr *IntExprViews::dsl(const Expr *E) {
  auto Converted = [&](const IntExpr *Inner) {
    IntExpr *N = add(IntExpr::Convert, E, true);
    N->Type = E->getType();
    N->Operands = {Inner};
    return N;
  };
  const Expr *Inner = stripDslWrappers(E);
  if (!Inner)
    return add(IntExpr::Unknown, E, true);
  if (!isDslValueType(Inner->getType()))
    return Converted(host(Inner));
  StringRef Name = dslCallName(Inner);
  if (const auto *Call = dyn_cast<CallExpr>(Inner); Call && Name.empty()) {
    const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
    if (!Op || Op->getOperator() == OO_Call) {
      IntExpr *N = add(IntExpr::Call, Inner, true);
      N->CallSite = Call;
      return Converted(N);
    }
  }
  if (!Name.empty()) {
    const auto *Call = cast<CallExpr>(Inner->IgnoreParenImpCasts());
    // thread_x() is thread_id().x; block_size_x() is block_size().x.
    if (Name.size() >= 3 &&
        (Name.ends_with("_x") || Name.ends_with("_y") || Name.ends_with("_z"))) {
      StringRef Vector = Name.drop_back(2);
      Vector = llvm::StringSwitch<StringRef>(Vector)
                   .Case("thread", "thread_id")
                   .Case("block", "block_id")
                   .Case("dispatch", "dispatch_id")
                   .Default(Vector);
      return builtin(Inner, Vector, axisOf(Name.take_back(1)));
    }
    if (Name == "warp_lane_id" || Name == "warp_lane_count")
      return builtin(Inner, Name, 0u);
    if ((Name == "min" || Name == "max") && Call->getNumArgs() == 2) {
      IntExpr *N = add(Name == "min" ? IntExpr::Min : IntExpr::Max, Inner, true);
      N->Operands = {of(Call->getArg(0)), of(Call->getArg(1))};
      return Converted(N);
    }
    return add(IntExpr::Unknown, Inner, true);
  }
  if (const auto *Member = dyn_cast<MemberExpr>(Inner)) {
    StringRef Of = dslCallName(stripDslWrappers(Member->getBase()));
    if (Of.empty() || !Member->getMemberDecl()->getIdentifier())
      return add(IntExpr::Unknown, Inner, true);
    return builtin(Inner, Of, axisOf(Member->getMemberDecl()->getName()));
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Inner)) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    if (!Var)
      return add(IntExpr::Unknown, Inner, true);
    IntExpr *N = add(IntExpr::Variable, Inner, true);
    N->Var = Var;
    N->Ref = Ref;
    return Converted(N);
  }
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Inner)) {
    if (Op->getNumArgs() == 1)
      if (auto Unary = unaryOf(Op->getOperator())) {
        IntExpr *N = add(IntExpr::Unary, Inner, true);
        N->UnaryOp = *Unary;
        N->Type = Op->getType();
        N->Operands = {of(Op->getArg(0))};
        return N;
      }
    if (Op->getNumArgs() == 2)
      if (auto Binary = binaryOf(Op->getOperator())) {
        IntExpr *N = add(IntExpr::Binary, Inner, true);
        N->BinaryOp = *Binary;
        N->Type = Op->getType();
        N->Operands = {of(Op->getArg(0)), of(Op->getArg(1))};
        return N;
      }
  }
  return add(IntExpr::Unknown, Inner, true);
}

// Host arithmetic as C++ evaluates it: each operation in the type of its
// expression, implicit and explicit conversions included.
const IntExpr *IntExprViews::host(const Expr *E) {
  if (!E)
    return nullptr;
  // Temporaries and full-expression wrappers do not change the value.
  while (true) {
    if (const auto *Temporary = dyn_cast<MaterializeTemporaryExpr>(E))
      E = Temporary->getSubExpr();
    else if (const auto *Full = dyn_cast<FullExpr>(E))
      E = Full->getSubExpr();
    else if (const auto *Paren = dyn_cast<ParenExpr>(E))
      E = Paren->getSubExpr();
    else
      break;
  }
  auto Converted = [&](const CastExpr *Cast) {
    IntExpr *N = add(IntExpr::Convert, E, false);
    N->Implicit = isa<ImplicitCastExpr>(Cast);
    N->Type = E->getType();
    N->Operands = {host(Cast->getSubExpr())};
    return N;
  };
  // An implicit conversion changes the value as C++ does, even one to or
  // from a DSL type (which then has no value).
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E))
    return Converted(Cast);
  if (isDslValueType(E->getType()))
    return add(IntExpr::Unknown, E, false);
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl())) {
      IntExpr *N = add(IntExpr::Variable, E, false);
      N->Var = Var;
      N->Ref = Ref;
      N->Value = clangConstant(E, Ctx);
      return N;
    }
  if (const auto *Bin = dyn_cast<BinaryOperator>(E)) {
    IntExpr *N = add(IntExpr::Binary, E, false);
    N->BinaryOp = Bin->getOpcode();
    N->UnsignedOperands = Bin->getLHS()->getType()->isUnsignedIntegerOrEnumerationType();
    N->Type = E->getType();
    N->Operands = {host(Bin->getLHS()), host(Bin->getRHS())};
    return N;
  }
  if (const auto *Un = dyn_cast<UnaryOperator>(E)) {
    IntExpr *N = add(IntExpr::Unary, E, false);
    N->UnaryOp = Un->getOpcode();
    N->Type = E->getType();
    N->Operands = {host(Un->getSubExpr())};
    return N;
  }
  if (const auto *Cond = dyn_cast<ConditionalOperator>(E)) {
    IntExpr *N = add(IntExpr::Select, E, false);
    N->Operands = {host(Cond->getCond()), host(Cond->getTrueExpr()), host(Cond->getFalseExpr())};
    return N;
  }
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E))
    return Converted(Cast);
  std::optional<int64_t> Value = clangConstant(E, Ctx);
  IntExpr *N = add(Value ? IntExpr::Constant : IntExpr::Unknown, E, false);
  N->Value = Value;
  return N;
}

const IntExpr *withoutImplicitConversions(const IntExpr *V) {
  while (V && V->K == IntExpr::Convert && V->Implicit)
    V = V->Operands[0];
  return V;
}

std::optional<int64_t> fitToType(int64_t Value, QualType T, const ASTContext &Ctx) {
  if (T.isNull() || !T->isIntegralOrEnumerationType())
    return Value;
  unsigned Width = Ctx.getIntWidth(T);
  if (Width == 0 || Width > 64)
    return std::nullopt;
  llvm::APSInt V(llvm::APInt(64, static_cast<uint64_t>(Value), /*isSigned=*/true),
                 /*isUnsigned=*/false);
  if (T->isUnsignedIntegerOrEnumerationType() || T->isBooleanType()) {
    if (T->isBooleanType())
      return Value != 0;
    llvm::APInt Wrapped = V.trunc(Width).zext(64);
    if (Wrapped.isNegative()) // A uint64 above INT64_MAX: not representable here.
      return std::nullopt;
    return static_cast<int64_t>(Wrapped.getZExtValue());
  }
  if (Width < 64 && !V.isSignedIntN(Width))
    return std::nullopt;
  return Value;
}

std::optional<int64_t> applyBinary(BinaryOperatorKind Op, int64_t L, int64_t R, bool Unsigned) {
  switch (Op) {
  case BO_Add:
    return llvm::checkedAdd(L, R);
  case BO_Sub:
    return llvm::checkedSub(L, R);
  case BO_Mul:
    return llvm::checkedMul(L, R);
  case BO_Div:
  case BO_Rem:
    if (R == 0 || (L == INT64_MIN && R == -1))
      return std::nullopt;
    return Op == BO_Div ? L / R : L % R;
  case BO_Shl:
    if (R < 0 || R > 62 || (L < 0 && !Unsigned))
      return std::nullopt;
    return llvm::checkedMul(L, int64_t(1) << R);
  case BO_Shr:
    if (R < 0 || R > 63)
      return std::nullopt;
    return L >> R;
  case BO_And:
    return L & R;
  case BO_Or:
    return L | R;
  case BO_Xor:
    return L ^ R;
  case BO_LT:
    return L < R;
  case BO_GT:
    return L > R;
  case BO_LE:
    return L <= R;
  case BO_GE:
    return L >= R;
  case BO_EQ:
    return L == R;
  case BO_NE:
    return L != R;
  case BO_LAnd:
    return L && R;
  case BO_LOr:
    return L || R;
  case BO_Comma:
    return R;
  default:
    return std::nullopt;
  }
}

std::optional<int64_t> applyUnary(UnaryOperatorKind Op, int64_t V) {
  switch (Op) {
  case UO_Minus:
    return llvm::checkedSub(int64_t(0), V);
  case UO_Plus:
    return V;
  case UO_Not:
    return ~V;
  case UO_LNot:
    return !V;
  default:
    return std::nullopt;
  }
}

} // namespace kernel_tidy::dsl
