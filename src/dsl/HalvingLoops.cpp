//===--- HalvingLoops.cpp - Loops whose variable halves ------------------===//

#include "src/dsl/HalvingLoops.h"

#include "src/dsl/Ast.h"
#include "src/dsl/HostEval.h"
#include "clang/AST/ParentMapContext.h"

using namespace clang;

namespace kernel_tidy::dsl {

namespace {

/// `V >>= 1`, `V /= 2`, `V = V >> 1`, `V = V / 2`.
bool isHalving(const Stmt *S, const VarDecl *Var, const ASTContext &Ctx) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  const auto *Op = E ? dyn_cast<CXXOperatorCallExpr>(E->IgnoreImplicit()) : nullptr;
  if (!Op || Op->getNumArgs() != 2 || !isVariable(Op->getArg(0), Var))
    return false;
  const Expr *R = Op->getArg(1);
  switch (Op->getOperator()) {
  case OO_GreaterGreaterEqual:
    return isHostValue(R, 1, Ctx);
  case OO_SlashEqual:
    return isHostValue(R, 2, Ctx);
  case OO_Equal:
    break;
  default:
    return false;
  }
  const auto *Rhs = binaryDslOperator(R);
  if (!Rhs || !isVariable(Rhs->getArg(0), Var))
    return false;
  return (Rhs->getOperator() == OO_GreaterGreater && isHostValue(Rhs->getArg(1), 1, Ctx)) ||
         (Rhs->getOperator() == OO_Slash && isHostValue(Rhs->getArg(1), 2, Ctx));
}

/// The variable V and the constant K of `$if (V == K) { $break; };` (the
/// exit of a `$loop` or `$while (true)` halving loop).
struct BreakAt {
  const VarDecl *Var = nullptr;
  int64_t Value = 0;
};
std::optional<BreakAt> breakWhenEqual(const Stmt *S, const ASTContext &Ctx) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  auto If = E ? matchDslIf(E->IgnoreImplicit()) : std::nullopt;
  if (!If || If->Then->size() != 1)
    return std::nullopt;
  const auto *Exit = dyn_cast<Expr>(If->Then->body_front());
  if (!Exit || matchDslExit(Exit->IgnoreImplicit()) != DslExit::Break)
    return std::nullopt;
  const auto *Cmp = binaryDslOperator(If->Cond);
  if (!Cmp || Cmp->getOperator() != OO_EqualEqual)
    return std::nullopt;
  const Expr *L = Cmp->getArg(0), *R = Cmp->getArg(1);
  auto Value = evaluateHostInt(stripDslWrappers(R), Ctx);
  if (!Value)
    std::swap(L, R), Value = evaluateHostInt(stripDslWrappers(R), Ctx);
  const VarDecl *Var = variableOf(L);
  if (!Value || !Var)
    return std::nullopt;
  return BreakAt{Var, *Value};
}

/// The exit of an endless `$loop`/`$while (true)` whose body is \p Body when
/// it leaves only through `$if (V == K) { $break; };` as the body's first or
/// last statement: that statement, or nullptr.
const Stmt *endlessLoopExit(const DslControl &Control, const CompoundStmt *Body,
                            const ASTContext &Ctx) {
  bool Endless = Control.K == DslControl::Loop ||
                 (Control.K == DslControl::While && Control.Conditions.size() == 1 &&
                  isHostValue(Control.Conditions.front(), 1, Ctx) &&
                  Control.Conditions.front()->IgnoreParenImpCasts()->getType()->isBooleanType());
  auto Statements = blockStatements(Body);
  if (!Endless || Statements.size() < 2)
    return nullptr;
  for (const Stmt *Exit : {Statements.front(), Statements.back()})
    if (breakWhenEqual(Exit, Ctx) &&
        llvm::none_of(Statements, [&](const Stmt *S) { return S != Exit && containsDslExit(S); }))
      return Exit;
  return nullptr;
}

/// B when \p E is `B / 2` or `B >> 1` (host or DSL arithmetic), else nullptr.
const Expr *halvedOperand(const Expr *E, const ASTContext &Ctx) {
  E = stripDslWrappers(E);
  const Expr *L = nullptr, *R = nullptr;
  bool Divides = false, Shifts = false;
  if (const auto *Bin = dyn_cast_or_null<BinaryOperator>(E)) {
    L = Bin->getLHS(), R = Bin->getRHS();
    Divides = Bin->getOpcode() == BO_Div, Shifts = Bin->getOpcode() == BO_Shr;
  } else if (const auto *Op = binaryDslOperator(E)) {
    L = Op->getArg(0), R = Op->getArg(1);
    Divides = Op->getOperator() == OO_Slash, Shifts = Op->getOperator() == OO_GreaterGreater;
  }
  if ((Divides && isHostValue(R, 2, Ctx)) || (Shifts && isHostValue(R, 1, Ctx)))
    return L;
  return nullptr;
}

} // namespace

bool isThreadX(const Expr *E, WriteAnalysis &Writes) {
  for (unsigned Depth = 0; E && Depth < 8; ++Depth) {
    E = stripDslWrappers(E);
    if (dslCallName(E) == "thread_x")
      return true;
    if (const auto *Member = dyn_cast<MemberExpr>(E))
      return Member->getMemberDecl()->getName() == "x" &&
             dslCallName(stripDslWrappers(Member->getBase())) == "thread_id";
    const VarDecl *Var = variableOf(E);
    if (!Var || !Var->isLocalVarDecl() || !Var->hasInit() || Writes.isWritten(Var))
      return false;
    E = Var->getInit();
  }
  return false;
}

std::optional<SharedElement> matchSharedElement(const Expr *E) {
  E = stripDslWrappers(E);
  if (!E)
    return std::nullopt;
  auto SharedVar = [](const Expr *Object) -> const ValueDecl * {
    Object = Object->IgnoreParenImpCasts();
    if (const auto *Deref = dyn_cast<UnaryOperator>(Object);
        Deref && Deref->getOpcode() == UO_Deref)
      Object = Deref->getSubExpr()->IgnoreParenImpCasts();
    const ValueDecl *Decl = nullptr;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Object))
      Decl = Ref->getDecl();
    else if (const auto *Member = dyn_cast<MemberExpr>(Object))
      Decl = Member->getMemberDecl();
    return Decl && !sharedElementType(Decl->getType()).isNull() ? Decl : nullptr;
  };
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
    if (Op->getOperator() != OO_Subscript || Op->getNumArgs() != 2)
      return std::nullopt;
    const ValueDecl *Var = SharedVar(Op->getArg(0));
    if (!Var)
      return std::nullopt;
    return SharedElement{Op, Var, Op->getArg(1), nullptr};
  }
  if (const auto *Call = dyn_cast<CXXMemberCallExpr>(E)) {
    StringRef Name = Call->getMethodDecl() ? Call->getMethodDecl()->getName() : "";
    const ValueDecl *Var = SharedVar(Call->getImplicitObjectArgument());
    if (!Var || Call->getNumArgs() < 1)
      return std::nullopt;
    if ((Name == "read" || Name == "atomic") && Call->getNumArgs() == 1)
      return SharedElement{Call, Var, Call->getArg(0), nullptr};
    if (Name == "write" && Call->getNumArgs() == 2)
      return SharedElement{Call, Var, Call->getArg(0), Call->getArg(1)};
  }
  return std::nullopt;
}

std::optional<HalvingLoop> matchHalvingLoop(const CompoundStmt *Body, ASTContext &Ctx,
                                            WriteAnalysis &Writes) {
  if (!Body)
    return std::nullopt;
  auto Control = controlOfBody(Body, Ctx);
  if (!Control) {
    const Stmt *Loop = parentStmt(Body, Ctx);
    const auto *For = dyn_cast_or_null<ForStmt>(Loop);
    auto Host = For && For->getBody() == Body ? evaluateHostLoop(For, Ctx) : std::nullopt;
    if (!Host)
      return std::nullopt;
    HalvingLoop Result;
    Result.Loop = Loop;
    Result.Body = Body;
    Result.Var = Host->Var;
    Result.Values = Host->Values;
    return Result;
  }
  const VarDecl *Var = nullptr;
  std::optional<int64_t> Limit;
  OverloadedOperatorKind Kind = OO_None;
  // `$loop { ...; $if (V == K) { $break; }; }` runs as `$while (V != K)`
  // once V starts at a constant above K (checked below).
  const Stmt *Exit = endlessLoopExit(*Control, Body, Ctx);
  if (Exit) {
    auto At = breakWhenEqual(Exit, Ctx);
    Var = At->Var, Limit = At->Value, Kind = OO_ExclaimEqual;
  } else {
    if (Control->K != DslControl::While || Control->Conditions.size() != 1)
      return std::nullopt;
    // `V > K`, `V >= K`, `V != 0` or `K < V`.
    const auto *Cond = binaryDslOperator(Control->Conditions.front());
    if (!Cond)
      return std::nullopt;
    const Expr *L = Cond->getArg(0), *R = Cond->getArg(1);
    Kind = Cond->getOperator();
    if (Kind == OO_Less)
      std::swap(L, R), Kind = OO_Greater;
    Var = variableOf(L);
    Limit = evaluateHostInt(stripDslWrappers(R), Ctx, constantLocals(R, Ctx, Writes));
  }
  if (!Var || !Limit || (Kind != OO_Greater && Kind != OO_GreaterEqual && Kind != OO_ExclaimEqual))
    return std::nullopt;
  if (!Var->isLocalVarDecl() || !Var->hasInit() || !isDslValueType(Var->getType()))
    return std::nullopt;
  auto Start = evaluateHostInt(stripDslWrappers(Var->getInit()), Ctx,
                               constantLocals(Var->getInit(), Ctx, Writes));
  // Written only by the halving; a loop around this one would start it at
  // what the last run left.
  const auto &VarWrites = Writes.writesOf(Var);
  const Expr *HalfOf = nullptr;
  bool DownToOne = (Kind == OO_Greater && *Limit == 0) ||
                   (Kind == OO_GreaterEqual && *Limit == 1) ||
                   (Kind == OO_ExclaimEqual && *Limit == 0);
  // A run-time start may be 0, which an exit at the end of the body would
  // not stop before the first step.
  auto Statements = blockStatements(Body);
  if (!Start && DownToOne && (!Exit || Exit == Statements.front()))
    HalfOf = halvedOperand(Var->getInit(), Ctx);
  if ((!Start && !HalfOf) || (Start && Exit && (*Start <= 0 || *Start <= *Limit)) ||
      VarWrites.size() != 1 || (!Exit && containsDslExit(Body)) ||
      repeatedWithin(Control->Statement, declaringBlock(Var, Ctx), Ctx))
    return std::nullopt;
  auto Update = llvm::find_if(Statements, [&](const Stmt *S) {
    const auto *E = dyn_cast<Expr>(S);
    return E && E->IgnoreImplicit() == VarWrites.front().Write->IgnoreImplicit();
  });
  if (Update == Statements.end() || !isHalving(*Update, Var, Ctx) ||
      std::any_of(Update + 1, Statements.end(),
                  [&](const Stmt *S) { return S != Exit && mentionsVariable(S, Var); }))
    return std::nullopt;
  HalvingLoop Result;
  Result.Loop = Control->Statement;
  Result.Body = Body;
  Result.Var = Var;
  Result.Device = true;
  Result.Update = *Update;
  Result.Exit = Exit;
  if (!Start) {
    Result.HalfOf = HalfOf;
    return Result;
  }
  auto Holds = [&](int64_t V) {
    return Kind == OO_Greater ? V > *Limit : Kind == OO_GreaterEqual ? V >= *Limit : V != *Limit;
  };
  for (int64_t V = *Start; Holds(V); V /= 2) {
    // A stride that stops halving (0, or negative values) never ends the loop.
    if (V <= 0 || Result.Values.size() > 64)
      return std::nullopt;
    Result.Values.push_back(V);
  }
  return Result;
}

} // namespace kernel_tidy::dsl
