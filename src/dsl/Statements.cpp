//===--- Statements.cpp - The shapes of DSL statements --------------------===//

#include "src/dsl/Statements.h"

#include "src/dsl/Ast.h"
#include "src/dsl/HostEval.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace kernel_tidy::dsl {

namespace {

const CXXOperatorCallExpr *asOperator(const Expr *E, OverloadedOperatorKind Kind) {
  const auto *Op = E ? dyn_cast<CXXOperatorCallExpr>(E->IgnoreImplicit()->IgnoreParens()) : nullptr;
  return Op && Op->getOperator() == Kind && Op->getNumArgs() == 2 ? Op : nullptr;
}

/// The builder class a `Builder::create...(...)` call or a `Builder{}`
/// temporary makes ("IfStmtBuilder", "LoopStmtBuilder", ...), or "".
StringRef builderName(const Expr *E, const CallExpr **Create = nullptr) {
  E = E->IgnoreImplicit()->IgnoreParens();
  const CXXRecordDecl *Record = nullptr;
  if (isa<CXXOperatorCallExpr>(E))
    return ""; // A chain of builders, not a builder.
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
    if (Method && Method->isStatic())
      Record = Method->getParent();
    if (Create)
      *Create = Call;
  } else {
    // `Builder{}`: a construction or an aggregate initialisation.
    Record = E->getType()->getAsCXXRecordDecl();
  }
  // The builders live in luisa::compute::detail.
  if (!Record || !Record->getIdentifier() || !isInLuisaComputeLibrary(Record))
    return "";
  return Record->getName();
}

/// The value a `[&] { return X; }` lambda returns (the `$elif` condition).
const Expr *returnedValue(const Expr *E) {
  const LambdaExpr *Lambda = asLambda(E);
  const auto *Body = Lambda ? dyn_cast<CompoundStmt>(Lambda->getBody()) : nullptr;
  if (!Body || Body->size() != 1)
    return nullptr;
  const auto *Return = dyn_cast<ReturnStmt>(Body->body_front());
  return Return ? Return->getRetValue() : nullptr;
}

/// The conditions of an if-chain `create(a) % L1 * [&]{ return b; } % L2 ...`.
bool chainConditions(const Expr *E, std::vector<const Expr *> &Out) {
  const CallExpr *Create = nullptr;
  if (builderName(E, &Create) == "IfStmtBuilder") {
    if (!Create || Create->getNumArgs() == 0)
      return false;
    Out.push_back(Create->getArg(Create->getNumArgs() - 1));
    return true;
  }
  if (const auto *Then = asOperator(E, OO_Percent))
    return chainConditions(Then->getArg(0), Out);
  if (const auto *Elif = asOperator(E, OO_Star)) {
    if (!chainConditions(Elif->getArg(0), Out))
      return false;
    const Expr *Cond = returnedValue(Elif->getArg(1));
    if (!Cond)
      return false;
    Out.push_back(Cond);
    return true;
  }
  return false;
}

/// The condition `c` of `$while (c)`: its guard lambda is
/// `[&] { $if (!(c)) { $break; }; }`.
const Expr *whileCondition(const Expr *Guard) {
  const LambdaExpr *Lambda = asLambda(Guard);
  const auto *Body = Lambda ? dyn_cast<CompoundStmt>(Lambda->getBody()) : nullptr;
  if (!Body || Body->size() != 1)
    return nullptr;
  auto If = matchDslIf(Body->body_front());
  if (!If)
    return nullptr;
  const Expr *Negated = stripDslWrappers(If->Cond);
  if (const auto *Not = dyn_cast<CXXOperatorCallExpr>(Negated))
    if (Not->getOperator() == OO_Exclaim && Not->getNumArgs() == 1)
      return Not->getArg(0);
  if (const auto *Not = dyn_cast<UnaryOperator>(Negated))
    if (Not->getOpcode() == UO_LNot)
      return Not->getSubExpr();
  return nullptr;
}

/// The control statement of a body lambda passed as the right operand of
/// \p Op (`BUILDER % lambda` or `CHAIN / lambda`).
std::optional<DslControl> controlOfOperator(const CXXOperatorCallExpr *Op, ASTContext &Ctx) {
  const Expr *Left = Op->getArg(0);
  DslControl Control{DslControl::If, {}, nullptr, Op};
  if (Op->getOperator() == OO_Slash) {
    // `$else`: every condition of the chain decides.
    Control.K = DslControl::Else;
    if (!chainConditions(Left, Control.Conditions))
      return std::nullopt;
    return Control;
  }
  const CallExpr *Create = nullptr;
  StringRef Builder = builderName(Left, &Create);
  if (Builder == "IfStmtBuilder") {
    if (!chainConditions(Left, Control.Conditions))
      return std::nullopt;
    return Control;
  }
  if (asOperator(Left, OO_Star)) {
    Control.K = DslControl::Elif;
    if (!chainConditions(Left, Control.Conditions))
      return std::nullopt;
    return Control;
  }
  if (Builder == "LoopStmtBuilder") {
    Control.K = DslControl::Loop;
    return Control;
  }
  if (const auto *Guarded = asOperator(Left, OO_Slash))
    if (builderName(Guarded->getArg(0)) == "LoopStmtBuilder") {
      Control.K = DslControl::While;
      if (const Expr *Cond = whileCondition(Guarded->getArg(1)))
        Control.Conditions.push_back(Cond);
      else
        return std::nullopt;
      return Control;
    }
  if (Builder == "SwitchStmtBuilder" || Builder == "SwitchCaseStmtBuilder") {
    Control.K = Builder == "SwitchStmtBuilder" ? DslControl::Switch : DslControl::Case;
    if (Create && Create->getNumArgs() > 0)
      Control.Conditions.push_back(Create->getArg(Create->getNumArgs() - 1));
    return Control;
  }
  if (Builder == "SwitchDefaultStmtBuilder") {
    Control.K = DslControl::Default;
    return Control;
  }
  if (Builder == "StmtBodyInvoke") {
    // `$for`: the body lambda of a device range loop.
    const Stmt *Holder = parentStmt(Op, Ctx);
    while (Holder && isa<Expr>(Holder))
      Holder = parentStmt(Holder, Ctx);
    const auto *Loop = dyn_cast_or_null<CXXForRangeStmt>(Holder);
    auto Args = Loop ? deviceRangeArguments(Loop) : std::nullopt;
    if (!Args)
      return std::nullopt;
    Control.K = DslControl::For;
    Control.Conditions = std::move(*Args);
    Control.Statement = Loop;
    return Control;
  }
  return std::nullopt;
}

} // namespace

const CompoundStmt *dslBlockBody(const Stmt *S) {
  const auto *Op = dyn_cast_or_null<Expr>(S) ? asOperator(cast<Expr>(S), OO_Percent) : nullptr;
  const LambdaExpr *Lambda = Op ? asLambda(Op->getArg(1)) : nullptr;
  return Lambda ? dyn_cast<CompoundStmt>(Lambda->getBody()) : nullptr;
}

std::optional<DslIf> matchDslIf(const Stmt *S) {
  const CompoundStmt *Then = dslBlockBody(S);
  if (!Then)
    return std::nullopt;
  const auto *Op = asOperator(cast<Expr>(S), OO_Percent);
  const CallExpr *Create = nullptr;
  if (builderName(Op->getArg(0), &Create) != "IfStmtBuilder" || !Create ||
      Create->getNumArgs() == 0)
    return std::nullopt;
  return DslIf{Create->getArg(Create->getNumArgs() - 1), Then};
}

std::optional<std::vector<const Expr *>> deviceRangeArguments(const CXXForRangeStmt *Loop) {
  const Expr *Range = stripDslWrappers(Loop->getRangeInit());
  StringRef Name = dslCallName(Range);
  if (Name != "dynamic_range" && Name != "dynamic_range_with_comment")
    return std::nullopt;
  const auto *Call = cast<CallExpr>(Range->IgnoreParenImpCasts());
  std::vector<const Expr *> Args(Call->arg_begin(), Call->arg_end());
  if (Name == "dynamic_range_with_comment" && !Args.empty())
    Args.erase(Args.begin()); // The source-location comment.
  return Args;
}

std::optional<DslControl> controlOfBody(const Stmt *Body, ASTContext &Ctx) {
  // A device `for` with a block body (`$for`'s body is a lambda, below).
  if (const auto *Loop = dyn_cast_or_null<CXXForRangeStmt>(parentStmt(Body, Ctx)))
    if (Loop->getBody() == Body && isa<CompoundStmt>(Body))
      if (auto Args = deviceRangeArguments(Loop))
        return DslControl{DslControl::For, std::move(*Args), Body, Loop};
  const LambdaExpr *Lambda = lambdaOfBody(Body, Ctx);
  if (!Lambda)
    return std::nullopt;
  // The lambda is the right operand of the builder's operator.
  const Stmt *Node = Lambda;
  for (const Stmt *Parent = parentStmt(Node, Ctx); Parent;
       Node = Parent, Parent = parentStmt(Node, Ctx)) {
    const auto *Op = dyn_cast<CXXOperatorCallExpr>(Parent);
    if (!Op) {
      if (isa<Expr>(Parent))
        continue; // Temporaries and conversions around the lambda.
      return std::nullopt;
    }
    if (Op->getNumArgs() != 2 || asLambda(Op->getArg(1)) != Lambda ||
        (Op->getOperator() != OO_Percent && Op->getOperator() != OO_Slash))
      return std::nullopt;
    auto Control = controlOfOperator(Op, Ctx);
    if (Control)
      Control->Body = Body;
    return Control;
  }
  return std::nullopt;
}

std::optional<DslExit> matchDslExit(const Expr *E) {
  StringRef Name = dslCallName(E);
  return llvm::StringSwitch<std::optional<DslExit>>(Name)
      .Case("return_", DslExit::Return)
      .Case("break_", DslExit::Break)
      .Case("continue_", DslExit::Continue)
      .Default(std::nullopt);
}

namespace {

std::optional<CombineOp> combineOpOf(OverloadedOperatorKind Kind) {
  switch (Kind) {
  case OO_Plus:
  case OO_PlusEqual:
    return CombineOp::Sum;
  case OO_Star:
  case OO_StarEqual:
    return CombineOp::Product;
  case OO_Amp:
  case OO_AmpEqual:
    return CombineOp::BitAnd;
  case OO_Pipe:
  case OO_PipeEqual:
    return CombineOp::BitOr;
  case OO_Caret:
  case OO_CaretEqual:
    return CombineOp::BitXor;
  default:
    return std::nullopt;
  }
}

} // namespace

std::optional<Combination> matchCombination(const Expr *E) {
  E = stripDslWrappers(E);
  if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(E)) {
    auto Kind = combineOpOf(Op->getOperator());
    if (!Kind || Op->getNumArgs() != 2 || Op->isAssignmentOp())
      return std::nullopt;
    return Combination{*Kind, Op->getArg(0), Op->getArg(1)};
  }
  StringRef Name = dslCallName(E);
  if (Name != "max" && Name != "min")
    return std::nullopt;
  const auto *Call = cast<CallExpr>(E->IgnoreParenImpCasts());
  if (Call->getNumArgs() != 2)
    return std::nullopt;
  return Combination{Name == "max" ? CombineOp::Max : CombineOp::Min, Call->getArg(0),
                     Call->getArg(1)};
}

std::optional<AccumulateStep> matchAccumulateStep(const Stmt *S) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  if (!E)
    return std::nullopt;
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(E->IgnoreImplicit());
  if (!Op || Op->getNumArgs() != 2)
    return std::nullopt;
  const Expr *Target = Op->getArg(0);
  if (Op->getOperator() == OO_Equal) {
    auto Combined = matchCombination(Op->getArg(1));
    return Combined ? accumulationInto(Target, *Combined) : std::nullopt;
  }
  auto Kind = combineOpOf(Op->getOperator());
  if (!Kind || !Op->isAssignmentOp())
    return std::nullopt;
  return AccumulateStep{Target, Op->getArg(1), *Kind};
}

std::optional<AccumulateStep> accumulationInto(const Expr *Target, const Combination &C) {
  if (isSameVariable(C.LHS, Target))
    return AccumulateStep{Target, C.RHS, C.Op};
  if (isSameVariable(C.RHS, Target))
    return AccumulateStep{Target, C.LHS, C.Op};
  return std::nullopt;
}

const VarDecl *variableOf(const Expr *E) {
  const auto *Ref = dyn_cast_or_null<DeclRefExpr>(stripDslWrappers(E));
  return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
}

bool isVariable(const Expr *E, const VarDecl *Var) {
  const VarDecl *Found = variableOf(E);
  return Found && Var && Found->getCanonicalDecl() == Var->getCanonicalDecl();
}

const CXXOperatorCallExpr *binaryDslOperator(const Expr *E) {
  const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(stripDslWrappers(E));
  return Op && Op->getNumArgs() == 2 ? Op : nullptr;
}

bool isHostValue(const Expr *E, int64_t Value, const ASTContext &Ctx) {
  return evaluateHostInt(stripDslWrappers(E), Ctx) == Value;
}

bool isDoubled(const Expr *E, llvm::function_ref<bool(const Expr *)> IsBase,
               const ASTContext &Ctx) {
  const auto *Op = binaryDslOperator(E);
  if (!Op)
    return false;
  const Expr *A = Op->getArg(0), *B = Op->getArg(1);
  switch (Op->getOperator()) {
  case OO_Star:
    return (IsBase(A) && isHostValue(B, 2, Ctx)) || (IsBase(B) && isHostValue(A, 2, Ctx));
  case OO_LessLess:
    return IsBase(A) && isHostValue(B, 1, Ctx);
  case OO_Plus:
    return IsBase(A) && IsBase(B);
  default:
    return false;
  }
}

bool containsDslExit(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *E = dyn_cast<Expr>(S))
    if (matchDslExit(E))
      return true;
  for (const Stmt *Child : S->children())
    if (Child && containsDslExit(Child))
      return true;
  return false;
}

const CXXForRangeStmt *deviceLoopOf(const VarDecl *Var, ASTContext &Ctx) {
  for (const DynTypedNode &Parent : Ctx.getParents(*Var))
    if (const auto *Decl = Parent.get<DeclStmt>())
      for (const DynTypedNode &Up : Ctx.getParents(*Decl))
        if (const auto *Loop = Up.get<CXXForRangeStmt>())
          if (Loop->getLoopVariable() == Var && deviceRangeArguments(Loop))
            return Loop;
  return nullptr;
}

bool repeatedWithin(const Stmt *S, const Stmt *Scope, ASTContext &Ctx) {
  for (const Stmt *Node = parentStmt(S, Ctx); Node && Node != Scope; Node = parentStmt(Node, Ctx)) {
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(Node))
      return true;
    if (isa<CompoundStmt>(Node))
      if (auto Control = controlOfBody(Node, Ctx); Control && Control->isLoop())
        return true;
  }
  return false;
}

} // namespace kernel_tidy::dsl
