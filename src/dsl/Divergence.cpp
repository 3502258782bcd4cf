//===--- Divergence.cpp - Why only some threads reach a statement ---------===//

#include "src/dsl/Divergence.h"

#include "src/dsl/Ast.h"
#include "src/dsl/Names.h"
#include "src/dsl/Statements.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"

using namespace clang;

namespace kernel_tidy::dsl {

namespace {

/// Builtins whose result differs between threads whatever their arguments.
bool isVaryingBuiltin(StringRef Name) {
  return Name.starts_with("thread_") || Name.starts_with("dispatch_id") || Name == "dispatch_x" ||
         Name == "dispatch_y" || Name == "dispatch_z" || Name.starts_with("warp_") ||
         Name.starts_with("block_id") || Name == "block_x" || Name == "block_y" ||
         Name == "block_z";
}

bool isAtomicOperation(StringRef Method) {
  return Method.starts_with("fetch_") || Method == "exchange" || Method == "compare_exchange";
}

/// The better explanation: a definite source over a possible one.
void keepBetter(std::optional<VaryingSource> &Best, std::optional<VaryingSource> Candidate) {
  if (Candidate && (!Best || (!Best->isDefinite() && Candidate->isDefinite())))
    Best = Candidate;
}

const DeclStmt *declarationOf(const VarDecl *Var, ASTContext &Ctx) {
  for (const DynTypedNode &Parent : Ctx.getParents(*Var))
    if (const auto *Decl = Parent.get<DeclStmt>())
      return Decl;
  return nullptr;
}

/// The function that owns \p Body (a lambda's call operator for lambdas).
const FunctionDecl *ownerOf(const Stmt *Body, ASTContext &Ctx) {
  if (const LambdaExpr *Lambda = lambdaOfBody(Body, Ctx))
    return Lambda->getCallOperator();
  for (const DynTypedNode &Parent : Ctx.getParents(*Body))
    if (const auto *Function = Parent.get<FunctionDecl>())
      return Function;
  return nullptr;
}

/// The argument \p Call passes for \p Parm, or nullptr.
const Expr *argumentFor(const CallExpr *Call, const ParmVarDecl *Parm) {
  unsigned Index = Parm->getFunctionScopeIndex();
  // An operator call lists the object first.
  if (isa<CXXOperatorCallExpr>(Call) && isa_and_nonnull<CXXMethodDecl>(Call->getDirectCallee()))
    ++Index;
  return Index < Call->getNumArgs() ? Call->getArg(Index) : nullptr;
}

} // namespace

std::optional<VaryingSource> DivergenceAnalysis::sourceOf(const Expr *E, Variance Bound) {
  llvm::SmallPtrSet<const VarDecl *, 8> Seen;
  return sourceIn(E, Bound, Seen);
}

std::optional<VaryingSource>
DivergenceAnalysis::sourceIn(const Expr *E, Variance Bound,
                             llvm::SmallPtrSetImpl<const VarDecl *> &Seen) {
  if (!E || Uniformity.varianceOf(E) <= Bound)
    return std::nullopt;
  const Expr *S = stripDslWrappers(E);
  if (!S)
    return VaryingSource{VaryingSource::Unknown, E, nullptr};
  auto Of = [&](VaryingSource::Kind K) { return VaryingSource{K, S, nullptr}; };
  auto BestOf = [&](auto Exprs) {
    std::optional<VaryingSource> Best;
    for (const Expr *Child : Exprs)
      if (!Best || !Best->isDefinite())
        keepBetter(Best, sourceIn(Child, Bound, Seen));
    return Best ? Best : std::optional<VaryingSource>(Of(VaryingSource::Unknown));
  };
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    if (Var && isa<ParmVarDecl>(Var))
      return Of(VaryingSource::Parameter);
    if (!Var || !Var->isLocalVarDecl())
      return Of(VaryingSource::Unknown);
    if (!Seen.insert(Var->getCanonicalDecl()).second)
      return std::nullopt;
    std::vector<const Expr *> Values;
    if (const CXXForRangeStmt *Loop = deviceLoopOf(Var, Ctx))
      Values = *deviceRangeArguments(Loop);
    else if (Var->getInit())
      Values.push_back(Var->getInit());
    const Stmt *Declaration = declarationOf(Var, Ctx);
    bool UnknownStore = false;
    for (const VariableWrite &Write : Writes.writesOf(Var->getCanonicalDecl())) {
      if (Write.Value)
        Values.push_back(Write.Value);
      else
        UnknownStore = true;
      // A store under a condition makes the threads that stored differ
      // from those that did not.
      for (const DslControl &Control :
           Flow.controlsBetween(Write.Write, Declaration ? Declaration : Write.Write))
        Values.insert(Values.end(), Control.Conditions.begin(), Control.Conditions.end());
    }
    std::optional<VaryingSource> Found = BestOf(Values);
    if (Found->K == VaryingSource::Unknown && Found->Leaf == S && UnknownStore)
      Found = Of(VaryingSource::Unknown);
    Found->Through = Var;
    return Found;
  }
  if (const auto *Member = dyn_cast<MemberExpr>(S))
    return isa<FieldDecl>(Member->getMemberDecl())
               ? BestOf(std::vector<const Expr *>{Member->getBase()})
               : Of(VaryingSource::UserCall);
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    std::vector<const Expr *> Operands(Call->arg_begin(), Call->arg_end());
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call)) {
      // The DSL's operators are global templates; a call operator runs a
      // Callable or a lambda.
      if (Op->getOperator() == OO_Call ||
          (!isInLuisaComputeLibrary(Op->getDirectCallee()) && !isDslValueType(Op->getType())))
        return Of(VaryingSource::UserCall);
      return BestOf(Operands);
    }
    if (const auto *MemberCall = dyn_cast<CXXMemberCallExpr>(Call)) {
      const CXXMethodDecl *Method = MemberCall->getMethodDecl();
      if (!Method || !isInLuisaComputeLibrary(Method) || !Method->getIdentifier())
        return Of(VaryingSource::UserCall);
      if (isAtomicOperation(Method->getName()))
        return Of(VaryingSource::Atomic);
      Operands.push_back(MemberCall->getImplicitObjectArgument());
      return BestOf(Operands);
    }
    StringRef Name = dslCallName(Call);
    if (Name.empty())
      return Of(VaryingSource::UserCall);
    if (isVaryingBuiltin(Name))
      return Of(VaryingSource::Builtin);
    return BestOf(Operands);
  }
  std::vector<const Expr *> Children;
  for (const Stmt *Child : S->children())
    if (const auto *ChildExpr = dyn_cast_or_null<Expr>(Child))
      Children.push_back(ChildExpr);
  return BestOf(Children);
}

const std::vector<const CallExpr *> &DivergenceAnalysis::callersOf(const Stmt *Body) {
  return Uniformity.callersOf(Body);
}

std::optional<DivergenceWitness> DivergenceAnalysis::witnessOfCondition(const Expr *Cond,
                                                                        const Stmt *Body) {
  std::optional<VaryingSource> Source = sourceOf(Cond);
  if (!Source)
    return std::nullopt;
  if (Source->isDefinite())
    return DivergenceWitness{Cond, nullptr, DslControl::If, nullptr, *Source, {}};
  // A helper's condition on its parameter diverges where a caller passes a
  // thread-dependent value.
  const auto *Parm = Source->K == VaryingSource::Parameter
                         ? dyn_cast<ParmVarDecl>(cast<DeclRefExpr>(Source->Leaf)->getDecl())
                         : nullptr;
  const FunctionDecl *Owner = ownerOf(Body, Ctx);
  if (!Parm || !Owner || Parm->getDeclContext() != Owner)
    return std::nullopt;
  for (const CallExpr *Call : callersOf(Body))
    if (const Expr *Argument = argumentFor(Call, Parm))
      if (std::optional<VaryingSource> Passed = sourceOf(Argument); Passed && Passed->isDefinite())
        return DivergenceWitness{Cond, nullptr, DslControl::If, nullptr, *Passed, {Call}};
  return std::nullopt;
}

std::optional<DivergenceWitness> DivergenceAnalysis::witnessFor(const Stmt *S) {
  llvm::SmallPtrSet<const Stmt *, 8> Bodies;
  return witnessIn(S, 0, Bodies);
}

std::optional<DivergenceWitness>
DivergenceAnalysis::witnessIn(const Stmt *S, unsigned Depth,
                              llvm::SmallPtrSetImpl<const Stmt *> &Bodies) {
  S = anchorStatement(S, Ctx);
  ControlSummary Summary = Flow.enclosing(S);
  auto Decided = [](std::optional<DivergenceWitness> W, const DslControl &Control,
                    const CallExpr *Exit) {
    W->Control = Control.Statement;
    W->ControlKind = Control.K;
    W->Exit = Exit;
    return W;
  };
  for (const DslControl &Control : Summary.Controls) {
    for (const Expr *Cond : Control.Conditions)
      if (auto W = witnessOfCondition(Cond, Summary.Body))
        return Decided(std::move(W), Control, nullptr);
    if (!Control.isLoop())
      continue;
    // Threads that leave the loop early skip the rest of its iterations.
    for (const ControlFlowAnalysis::LoopExit &Leaving : Flow.exitsLeaving(Control))
      for (const DslControl &C : Leaving.Inside)
        for (const Expr *Cond : C.Conditions)
          if (auto W = witnessOfCondition(Cond, Summary.Body))
            return Decided(std::move(W), C, Leaving.Exit.Call);
  }
  // Threads that returned earlier do not reach S.
  for (const ControlFlowAnalysis::PriorReturn &Return : Flow.returnsBefore(S))
    for (const DslControl &C : Flow.controlsBetween(Return.Exit.Call, Return.Holder))
      for (const Expr *Cond : C.Conditions)
        if (auto W = witnessOfCondition(Cond, Summary.Body))
          return Decided(std::move(W), C, Return.Exit.Call);
  if (Depth >= 8 || !Bodies.insert(Summary.Body).second)
    return std::nullopt;
  for (const CallExpr *Call : callersOf(Summary.Body))
    if (auto W = witnessIn(Call, Depth + 1, Bodies)) {
      W->Calls.push_back(Call);
      return W;
    }
  return std::nullopt;
}

} // namespace kernel_tidy::dsl
