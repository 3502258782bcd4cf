//===--- Calls.cpp - What a call of user code runs -----------------------===//

#include "src/dsl/Calls.h"

#include "src/dsl/Ast.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace kernel_tidy::dsl {

const FunctionDecl *calledFunction(const CallExpr *Call,
                                   llvm::SmallVectorImpl<const Expr *> &Args) {
  unsigned First = 0;
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call)) {
    if (Op->getOperator() != OO_Call || Op->getNumArgs() == 0)
      return nullptr;
    First = 1;
    // A Callable variable: its operator() is the DSL's; the code is its lambda's.
    if (const VarDecl *Var = variableOf(Op->getArg(0)); Var && Var->hasInit())
      if (const LambdaExpr *Lambda = lambdaOfInit(Var->getInit()))
        Callee = Lambda->getCallOperator();
    if (const auto *Lambda = asLambda(Op->getArg(0)))
      Callee = Lambda->getCallOperator();
  }
  // The DSL's and the system's code is opaque. Other code under namespace
  // luisa (libraries built on the DSL) is seen through where its body was
  // parsed: the shapes matched on it are exact.
  if (!Callee || isInLuisaComputeLibrary(Callee) || Callee->isInStdNamespace())
    return nullptr;
  const SourceManager &SM = Callee->getASTContext().getSourceManager();
  if (SM.isInSystemHeader(SM.getExpansionLoc(Callee->getLocation())))
    return nullptr;
  for (unsigned I = First; I < Call->getNumArgs(); ++I)
    Args.push_back(Call->getArg(I));
  return Callee;
}

namespace {

/// The value \p F returns when its body is `return R;` after copies of its
/// parameters into locals of the same type (`Var<T> a2 = a;`), as a functor
/// that swaps its operands may write it; \p Copies maps each such local to its
/// parameter.
const Expr *
returnAfterParameterCopies(const FunctionDecl *F,
                           llvm::SmallDenseMap<const VarDecl *, const ParmVarDecl *> &Copies) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(F->getBody());
  if (!Body || Body->size() == 0)
    return nullptr;
  for (const Stmt *S : llvm::make_range(Body->body_begin(), Body->body_end() - 1)) {
    const auto *Decl = dyn_cast<DeclStmt>(S);
    const auto *Local =
        Decl && Decl->isSingleDecl() ? dyn_cast<VarDecl>(Decl->getSingleDecl()) : nullptr;
    const auto *Param = Local && Local->getInit()
                            ? dyn_cast_or_null<ParmVarDecl>(variableOf(Local->getInit()))
                            : nullptr;
    // A copy of the same type: a conversion would change what is combined.
    if (!Param || Param->getDeclContext() != F ||
        !F->getASTContext().hasSameUnqualifiedType(Local->getType(),
                                                   Param->getType().getNonReferenceType()))
      return nullptr;
    Copies[Local] = Param;
  }
  const auto *Return = dyn_cast<ReturnStmt>(Body->body_back());
  return Return ? Return->getRetValue() : nullptr;
}

/// matchCombinationThroughHelpers, seeing through at most \p Depth helpers.
std::optional<Combination> combinationThroughHelpers(const Expr *E, unsigned Depth) {
  if (auto Direct = matchCombination(E))
    return Direct;
  const auto *Call = Depth ? dyn_cast_or_null<CallExpr>(stripDslWrappers(E)) : nullptr;
  llvm::SmallVector<const Expr *, 2> Args;
  const FunctionDecl *Callee = Call ? calledFunction(Call, Args) : nullptr;
  if (!Callee || Args.size() != 2 || Callee->getNumParams() != 2)
    return std::nullopt;
  llvm::SmallDenseMap<const VarDecl *, const ParmVarDecl *> Copies;
  const Expr *Returned = returnAfterParameterCopies(Callee, Copies);
  auto Inner = Returned ? combinationThroughHelpers(Returned, Depth - 1) : std::nullopt;
  if (!Inner)
    return std::nullopt;
  // Each operand is one of the helper's parameters, directly or through its copy.
  auto ArgumentFor = [&](const Expr *Operand) -> const Expr * {
    const VarDecl *Var = variableOf(Operand);
    if (auto It = Copies.find(Var); Var && It != Copies.end())
      Var = It->second;
    for (unsigned I = 0; I < 2; ++I)
      if (Var && Callee->getParamDecl(I) == Var)
        return Args[I];
    return nullptr;
  };
  const Expr *LHS = ArgumentFor(Inner->LHS), *RHS = ArgumentFor(Inner->RHS);
  if (!LHS || !RHS || LHS == RHS)
    return std::nullopt;
  return Combination{Inner->Op, LHS, RHS, Callee};
}

} // namespace

std::optional<Combination> matchCombinationThroughHelpers(const Expr *E, ASTContext &Ctx) {
  // A helper, or a functor that calls one (a scan operator that swaps its operands).
  return combinationThroughHelpers(E, /*Depth=*/2);
}

std::optional<AccumulateStep> matchAccumulateThroughHelpers(const Stmt *S, ASTContext &Ctx) {
  if (auto Direct = matchAccumulateStep(S))
    return Direct;
  const auto *Assign = dyn_cast_or_null<CXXOperatorCallExpr>(
      dyn_cast_or_null<Expr>(S) ? cast<Expr>(S)->IgnoreImplicit() : nullptr);
  if (!Assign || Assign->getOperator() != OO_Equal || Assign->getNumArgs() != 2)
    return std::nullopt;
  auto Combined = matchCombinationThroughHelpers(Assign->getArg(1), Ctx);
  return Combined ? accumulationInto(Assign->getArg(0), *Combined) : std::nullopt;
}

//===----------------------------------------------------------------------===//
// CallSiteIndex
//===----------------------------------------------------------------------===//

namespace {

/// The declaration that calls of \p F name: its template pattern, or the
/// Callable variable that its lambda initialises.
const Decl *callKey(const FunctionDecl *F, ASTContext &Ctx) {
  if (!F)
    return nullptr;
  if (const FunctionDecl *Pattern = F->getTemplateInstantiationPattern())
    F = Pattern;
  return F->getCanonicalDecl();
}

} // namespace

const Decl *CallSiteIndex::keyOf(const ParmVarDecl *Param) {
  const auto *F = dyn_cast_or_null<FunctionDecl>(Param->getDeclContext());
  return callKey(F, Ctx);
}

std::string CallSiteIndex::calleeName(const ParmVarDecl *Param) {
  const auto *F = dyn_cast_or_null<FunctionDecl>(Param->getDeclContext());
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(F);
  if (!Method || !Method->getParent()->isLambda())
    return F ? F->getNameAsString() : "";
  // A lambda is named by the variable its callers call.
  build();
  for (const Call &C : Calls.lookup(keyOf(Param)))
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(C.E))
      if (const VarDecl *Var = variableOf(Op->getArg(0)))
        return Var->getNameAsString();
  return "";
}

void CallSiteIndex::build() {
  if (Built)
    return;
  Built = true;
  struct Visitor : RecursiveASTVisitor<Visitor> {
    CallSiteIndex &Index;
    explicit Visitor(CallSiteIndex &Index) : Index(Index) {}
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool shouldVisitLambdaBody() const { return true; }
    // Library code (a Callable invoking its lambda through std::invoke) is
    // not a caller.
    bool TraverseDecl(Decl *D) {
      if (D && isa<FunctionDecl>(D) &&
          (isInLuisaComputeLibrary(D) || D->isInStdNamespace() ||
           Index.Ctx.getSourceManager().isInSystemHeader(D->getLocation())))
        return true;
      return RecursiveASTVisitor<Visitor>::TraverseDecl(D);
    }
    bool VisitCallExpr(CallExpr *E) {
      llvm::SmallVector<const Expr *, 4> Args;
      const FunctionDecl *F = calledFunction(E, Args);
      if (const Decl *Key = callKey(F, Index.Ctx))
        Index.Calls[Key].push_back({E, E->getNumArgs() - static_cast<unsigned>(Args.size())});
      return true;
    }
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      // A function named outside a call's callee may be called where we cannot see.
      // (A lambda's operator() is named only by its class's implicit members.)
      const auto *F = dyn_cast<FunctionDecl>(E->getDecl());
      const auto *Method = dyn_cast_or_null<CXXMethodDecl>(F);
      if (!F || (Method && Method->getParent()->isLambda()))
        return true;
      for (const auto &Parent : Index.Ctx.getParents(*E)) {
        const auto *Cast = Parent.get<ImplicitCastExpr>();
        const Stmt *Up = Cast ? static_cast<const Stmt *>(Cast) : E;
        for (const auto &Outer : Index.Ctx.getParents(*Up))
          if (const auto *Call = Outer.get<CallExpr>(); Call && Call->getCallee() == Up)
            return true;
      }
      Index.Escaped.insert(callKey(F, Index.Ctx));
      return true;
    }
  } V(*this);
  V.TraverseAST(Ctx);
}

std::optional<std::vector<const Expr *>> CallSiteIndex::argumentsFor(const ParmVarDecl *Param) {
  build();
  const Decl *Key = keyOf(Param);
  if (!Key || Escaped.contains(Key))
    return std::nullopt;
  std::vector<const Expr *> Result;
  auto It = Calls.find(Key);
  if (It == Calls.end())
    return Result;
  unsigned Position = Param->getFunctionScopeIndex();
  for (const Call &C : It->second) {
    if (C.FirstArg + Position >= C.E->getNumArgs())
      return std::nullopt;
    Result.push_back(C.E->getArg(C.FirstArg + Position));
  }
  return Result;
}

} // namespace kernel_tidy::dsl
