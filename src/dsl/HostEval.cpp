//===--- HostEval.cpp - Constant evaluation of host (C++) code ------------===//

#include "src/dsl/HostEval.h"

#include "src/dsl/Names.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace clang;

namespace kernel_tidy::dsl {

namespace {

/// \p Value converted to the integer type \p T as C++ converts: unsigned
/// types wrap; a signed type that cannot hold it means overflow (undefined).
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

std::optional<int64_t> evaluateBinary(BinaryOperatorKind Op, int64_t L, int64_t R,
                                      bool Unsigned) {
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

std::optional<int64_t> evaluateUnary(UnaryOperatorKind Op, int64_t V) {
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

/// The value of a constant that Clang's evaluator knows (constexpr
/// variables, enumerators, sizeof, literals).
std::optional<int64_t> clangConstant(const Expr *E, const ASTContext &Ctx) {
  if (E->isValueDependent() || E->isTypeDependent() ||
      !E->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  Expr::EvalResult Result;
  if (!E->EvaluateAsInt(Result, Ctx))
    return std::nullopt;
  const llvm::APSInt &V = Result.Val.getInt();
  if (V.isUnsigned() ? V.getActiveBits() > 63 : !V.isSignedIntN(64))
    return std::nullopt;
  return V.getExtValue();
}

} // namespace

std::optional<int64_t> evaluateHostInt(const Expr *E, const ASTContext &Ctx,
                                       const HostBindings &Bindings) {
  if (!E)
    return std::nullopt;
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
  const Expr *Outer = E;
  // Implicit conversions between integer types change the value as C++ does.
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E)) {
    auto V = evaluateHostInt(Cast->getSubExpr(), Ctx, Bindings);
    return V ? fitToType(*V, Outer->getType(), Ctx) : std::nullopt;
  }
  if (isDslValueType(E->getType()))
    return std::nullopt;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl())) {
      auto Bound = Bindings.find(Var);
      if (Bound != Bindings.end())
        return Bound->second;
    }
  if (const auto *Bin = dyn_cast<BinaryOperator>(E)) {
    auto L = evaluateHostInt(Bin->getLHS(), Ctx, Bindings);
    auto R = evaluateHostInt(Bin->getRHS(), Ctx, Bindings);
    if (!L || !R)
      return std::nullopt;
    QualType Operands = Bin->getLHS()->getType();
    auto V = evaluateBinary(Bin->getOpcode(), *L, *R,
                            Operands->isUnsignedIntegerOrEnumerationType());
    return V ? fitToType(*V, E->getType(), Ctx) : std::nullopt;
  }
  if (const auto *Un = dyn_cast<UnaryOperator>(E)) {
    auto V = evaluateHostInt(Un->getSubExpr(), Ctx, Bindings);
    if (!V)
      return std::nullopt;
    auto R = evaluateUnary(Un->getOpcode(), *V);
    return R ? fitToType(*R, E->getType(), Ctx) : std::nullopt;
  }
  if (const auto *Cond = dyn_cast<ConditionalOperator>(E)) {
    auto C = evaluateHostInt(Cond->getCond(), Ctx, Bindings);
    if (!C)
      return std::nullopt;
    return evaluateHostInt(*C ? Cond->getTrueExpr() : Cond->getFalseExpr(), Ctx,
                           Bindings);
  }
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E)) {
    auto V = evaluateHostInt(Cast->getSubExpr(), Ctx, Bindings);
    return V ? fitToType(*V, E->getType(), Ctx) : std::nullopt;
  }
  return clangConstant(E, Ctx);
}

namespace {

void bindConstantLocals(const Stmt *S, const ASTContext &Ctx, WriteAnalysis &Writes,
                        HostBindings &Bindings, unsigned Depth) {
  if (!S || Depth > 8)
    return;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
        Var && Var->isLocalVarDecl() && Var->hasInit() && !Bindings.count(Var) &&
        !isDslValueType(Var->getType()) && Var->getType()->isIntegerType() &&
        !Var->getType()->isReferenceType() && !Writes.isWritten(Var)) {
      HostBindings Inner;
      bindConstantLocals(Var->getInit(), Ctx, Writes, Inner, Depth + 1);
      if (auto Value = evaluateHostInt(Var->getInit(), Ctx, Inner))
        Bindings[Var] = *Value;
    }
  for (const Stmt *Child : S->children())
    bindConstantLocals(Child, Ctx, Writes, Bindings, Depth);
}

} // namespace

HostBindings constantLocals(const Expr *E, const ASTContext &Ctx, WriteAnalysis &Writes) {
  HostBindings Bindings;
  bindConstantLocals(E, Ctx, Writes, Bindings, 0);
  return Bindings;
}

namespace {

bool refersTo(const Expr *E, const VarDecl *Var) {
  const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return Ref && Ref->getDecl() == Var;
}

/// Applies the increment of a counting loop to its variable's value.
std::optional<int64_t> stepCountingLoop(const Expr *Inc, const VarDecl *Var,
                                        int64_t Value, const ASTContext &Ctx) {
  HostBindings Bindings{{Var, Value}};
  Inc = Inc->IgnoreParenImpCasts();
  std::optional<int64_t> Next;
  if (const auto *Un = dyn_cast<UnaryOperator>(Inc)) {
    if (!refersTo(Un->getSubExpr(), Var) || !Un->isIncrementDecrementOp())
      return std::nullopt;
    Next = Un->isIncrementOp() ? llvm::checkedAdd(Value, int64_t(1))
                               : llvm::checkedSub(Value, int64_t(1));
  } else if (const auto *Assign = dyn_cast<CompoundAssignOperator>(Inc)) {
    if (!refersTo(Assign->getLHS(), Var))
      return std::nullopt;
    auto R = evaluateHostInt(Assign->getRHS(), Ctx, Bindings);
    if (!R)
      return std::nullopt;
    Next = evaluateBinary(
        BinaryOperator::getOpForCompoundAssignment(Assign->getOpcode()), Value, *R,
        Var->getType()->isUnsignedIntegerOrEnumerationType());
  } else if (const auto *Assign = dyn_cast<BinaryOperator>(Inc)) {
    if (Assign->getOpcode() != BO_Assign || !refersTo(Assign->getLHS(), Var))
      return std::nullopt;
    Next = evaluateHostInt(Assign->getRHS(), Ctx, Bindings);
  }
  return Next ? fitToType(*Next, Var->getType(), Ctx) : std::nullopt;
}

/// True if \p Body writes \p Var (then the loop is not a plain counting loop).
bool writesVariable(const Stmt *Body, const VarDecl *Var) {
  if (!Body)
    return false;
  if (const auto *Un = dyn_cast<UnaryOperator>(Body))
    if ((Un->isIncrementDecrementOp() || Un->getOpcode() == UO_AddrOf) &&
        refersTo(Un->getSubExpr(), Var))
      return true;
  if (const auto *Bin = dyn_cast<BinaryOperator>(Body))
    if (Bin->isAssignmentOp() && refersTo(Bin->getLHS(), Var))
      return true;
  for (const Stmt *Child : Body->children())
    if (writesVariable(Child, Var))
      return true;
  return false;
}

std::optional<HostLoop> countingLoop(const ForStmt *Loop, const ASTContext &Ctx,
                                     unsigned MaxIterations) {
  const auto *Init = dyn_cast_or_null<DeclStmt>(Loop->getInit());
  if (!Init || !Init->isSingleDecl() || !Loop->getCond() || !Loop->getInc())
    return std::nullopt;
  const auto *Var = dyn_cast<VarDecl>(Init->getSingleDecl());
  if (!Var || !Var->getType()->isIntegerType() || !Var->hasInit() ||
      writesVariable(Loop->getBody(), Var))
    return std::nullopt;
  auto Value = evaluateHostInt(Var->getInit(), Ctx);
  if (Value)
    Value = fitToType(*Value, Var->getType(), Ctx);
  if (!Value)
    return std::nullopt;
  HostLoop Result{Var, {}};
  for (unsigned Iteration = 0;; ++Iteration) {
    auto Continue = evaluateHostInt(Loop->getCond(), Ctx, {{Var, *Value}});
    if (!Continue)
      return std::nullopt;
    if (!*Continue)
      return Result;
    if (Iteration == MaxIterations)
      return std::nullopt;
    Result.Values.push_back(*Value);
    Value = stepCountingLoop(Loop->getInc(), Var, *Value, Ctx);
    if (!Value)
      return std::nullopt;
  }
}

/// The elements of a braced list or of a constant array variable.
const InitListExpr *rangeElements(const Expr *Range) {
  Range = Range->IgnoreImplicit()->IgnoreParens();
  if (const auto *List = dyn_cast<CXXStdInitializerListExpr>(Range))
    Range = List->getSubExpr()->IgnoreImplicit();
  if (const auto *List = dyn_cast<InitListExpr>(Range))
    return List;
  const auto *Ref = dyn_cast<DeclRefExpr>(Range);
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || !Var->getType().isConstQualified() || !Var->getInit())
    return nullptr;
  const auto *List = dyn_cast<InitListExpr>(Var->getInit()->IgnoreImplicit());
  // std::array<T, N>{...} holds its elements in a nested list.
  if (List && List->getNumInits() == 1 && !List->getType()->isArrayType())
    if (const auto *Inner = dyn_cast<InitListExpr>(List->getInit(0)->IgnoreImplicit()))
      return Inner;
  return List;
}

std::optional<HostLoop> rangeLoop(const CXXForRangeStmt *Loop, const ASTContext &Ctx) {
  const VarDecl *Var = Loop->getLoopVariable();
  QualType Type = Var ? Var->getType().getNonReferenceType() : QualType();
  if (!Var || isDslValueType(Type) || !Type->isIntegerType())
    return std::nullopt;
  const InitListExpr *List = rangeElements(Loop->getRangeInit());
  if (!List)
    return std::nullopt;
  HostLoop Result{Var, {}};
  for (const Expr *Element : List->inits()) {
    auto Value = evaluateHostInt(Element, Ctx);
    if (Value)
      Value = fitToType(*Value, Type, Ctx);
    if (!Value)
      return std::nullopt;
    Result.Values.push_back(*Value);
  }
  return Result;
}

} // namespace

std::optional<HostLoop> evaluateHostLoop(const Stmt *Loop, const ASTContext &Ctx,
                                         unsigned MaxIterations) {
  if (const auto *For = dyn_cast_or_null<ForStmt>(Loop))
    return countingLoop(For, Ctx, MaxIterations);
  if (const auto *Range = dyn_cast_or_null<CXXForRangeStmt>(Loop))
    return rangeLoop(Range, Ctx);
  return std::nullopt;
}

} // namespace kernel_tidy::dsl
