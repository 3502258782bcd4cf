//===--- HostEval.cpp - Constant evaluation of host (C++) code ------------===//

#include "src/dsl/HostEval.h"

#include "src/dsl/IntExpr.h"
#include "src/dsl/Names.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace clang;

namespace kernel_tidy::dsl {

std::optional<int64_t> evaluateHost(const IntExpr *V, const ASTContext &Ctx,
                                    const HostBindings &Bindings) {
  if (!V || V->Dsl)
    return std::nullopt;
  auto Operand = [&](unsigned I) { return evaluateHost(V->Operands[I], Ctx, Bindings); };
  switch (V->K) {
  case IntExpr::Constant:
    return V->Value;
  case IntExpr::Variable:
    if (auto Bound = Bindings.find(V->Var); Bound != Bindings.end())
      return Bound->second;
    return V->Value;
  case IntExpr::Convert: {
    auto Value = Operand(0);
    return Value ? fitToType(*Value, V->Type, Ctx) : std::nullopt;
  }
  case IntExpr::Binary: {
    auto L = Operand(0);
    auto R = Operand(1);
    if (!L || !R)
      return std::nullopt;
    auto Value = applyBinary(V->BinaryOp, *L, *R, V->UnsignedOperands);
    return Value ? fitToType(*Value, V->Type, Ctx) : std::nullopt;
  }
  case IntExpr::Unary: {
    auto Value = Operand(0);
    if (Value)
      Value = applyUnary(V->UnaryOp, *Value);
    return Value ? fitToType(*Value, V->Type, Ctx) : std::nullopt;
  }
  case IntExpr::Select: {
    auto Cond = Operand(0);
    if (!Cond)
      return std::nullopt;
    return Operand(*Cond ? 1 : 2);
  }
  default:
    return std::nullopt;
  }
}

std::optional<int64_t> evaluateHostInt(const Expr *E, const ASTContext &Ctx,
                                       const HostBindings &Bindings) {
  IntExprViews Views(Ctx);
  return evaluateHost(Views.ofHost(E), Ctx, Bindings);
}

namespace {

void bindConstantLocals(const Stmt *S, const ASTContext &Ctx, WriteAnalysis &Writes,
                        IntExprViews &Views, HostBindings &Bindings, unsigned Depth) {
  if (!S || Depth > 8)
    return;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
        Var && Var->isLocalVarDecl() && Var->hasInit() && !Bindings.count(Var) &&
        !isDslValueType(Var->getType()) && Var->getType()->isIntegerType() &&
        !Var->getType()->isReferenceType() && !Writes.isWritten(Var)) {
      HostBindings Inner;
      bindConstantLocals(Var->getInit(), Ctx, Writes, Views, Inner, Depth + 1);
      if (auto Value = evaluateHost(Views.ofHost(Var->getInit()), Ctx, Inner))
        Bindings[Var] = *Value;
    }
  for (const Stmt *Child : S->children())
    bindConstantLocals(Child, Ctx, Writes, Views, Bindings, Depth);
}

} // namespace

HostBindings constantLocals(const Expr *E, const ASTContext &Ctx, WriteAnalysis &Writes,
                            IntExprViews &Views) {
  HostBindings Bindings;
  bindConstantLocals(E, Ctx, Writes, Views, Bindings, 0);
  return Bindings;
}

HostBindings constantLocals(const Expr *E, const ASTContext &Ctx, WriteAnalysis &Writes) {
  IntExprViews Views(Ctx);
  return constantLocals(E, Ctx, Writes, Views);
}

namespace {

bool refersTo(const Expr *E, const VarDecl *Var) {
  const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return Ref && Ref->getDecl() == Var;
}

/// Applies the increment of a counting loop to its variable's value.
std::optional<int64_t> stepCountingLoop(const Expr *Inc, const VarDecl *Var, int64_t Value,
                                        const ASTContext &Ctx, IntExprViews &Views) {
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
    auto R = evaluateHost(Views.ofHost(Assign->getRHS()), Ctx, Bindings);
    if (!R)
      return std::nullopt;
    Next = applyBinary(BinaryOperator::getOpForCompoundAssignment(Assign->getOpcode()), Value, *R,
                       Var->getType()->isUnsignedIntegerOrEnumerationType());
  } else if (const auto *Assign = dyn_cast<BinaryOperator>(Inc)) {
    if (Assign->getOpcode() != BO_Assign || !refersTo(Assign->getLHS(), Var))
      return std::nullopt;
    Next = evaluateHost(Views.ofHost(Assign->getRHS()), Ctx, Bindings);
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
  IntExprViews Views(Ctx); // The condition and the step, walked once.
  for (unsigned Iteration = 0;; ++Iteration) {
    auto Continue = evaluateHost(Views.ofHost(Loop->getCond()), Ctx, {{Var, *Value}});
    if (!Continue)
      return std::nullopt;
    if (!*Continue)
      return Result;
    if (Iteration == MaxIterations)
      return std::nullopt;
    Result.Values.push_back(*Value);
    Value = stepCountingLoop(Loop->getInc(), Var, *Value, Ctx, Views);
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
