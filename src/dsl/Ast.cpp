//===--- Ast.cpp - Navigating the AST of DSL code -------------------------===//

#include "src/dsl/Ast.h"

#include "src/dsl/Names.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ParentMapContext.h"

using namespace clang;

namespace kernel_tidy::dsl {

const LambdaExpr *lambdaOfBody(const Stmt *Body, ASTContext &Ctx) {
  DynTypedNodeList Parents = Ctx.getParents(*Body);
  if (Parents.empty())
    return nullptr;
  // A lambda body hangs off the closure's call operator, not the LambdaExpr.
  const auto *Method = Parents[0].get<CXXMethodDecl>();
  if (!Method || !Method->getParent()->isLambda() || Method->getBody() != Body)
    return nullptr;
  for (DynTypedNodeList Up = Ctx.getParents(*Method->getParent()); !Up.empty();
       Up = Ctx.getParents(Up[0]))
    if (const auto *Lambda = Up[0].get<LambdaExpr>())
      return Lambda;
  return nullptr;
}

const Stmt *parentStmt(const Stmt *S, ASTContext &Ctx) {
  DynTypedNodeList Parents = Ctx.getParents(*S);
  if (Parents.empty())
    return nullptr;
  if (const auto *Parent = Parents[0].get<Stmt>())
    return Parent;
  // A variable's initialiser: the statement is the DeclStmt that declares it.
  if (const auto *Var = Parents[0].get<VarDecl>()) {
    DynTypedNodeList Above = Ctx.getParents(*Var);
    if (!Above.empty())
      if (const auto *Decl = Above[0].get<DeclStmt>())
        return Decl;
  }
  return lambdaOfBody(S, Ctx);
}

bool isInTemplateInstantiation(const Stmt *S, ASTContext &Ctx) {
  for (DynTypedNodeList Parents = Ctx.getParents(*S); !Parents.empty();
       Parents = Ctx.getParents(Parents[0])) {
    const auto *Function = Parents[0].get<FunctionDecl>();
    if (!Function)
      continue;
    for (const DeclContext *DC = Function; DC; DC = DC->getParent())
      if ((isa<FunctionDecl>(DC) && cast<FunctionDecl>(DC)->isTemplateInstantiation()) ||
          isa<ClassTemplateSpecializationDecl>(DC))
        return true;
    return false;
  }
  return false;
}

const Stmt *enclosingFunctionBody(const Stmt *S, ASTContext &Ctx) {
  DynTypedNodeList Parents = Ctx.getParents(*S);
  while (!Parents.empty()) {
    const DynTypedNode &Node = Parents[0];
    // A body is not enclosed by itself: keep climbing past its own function.
    if (const auto *Lambda = Node.get<LambdaExpr>()) {
      if (Lambda->getBody() != S)
        return Lambda->getBody();
    } else if (const auto *FD = Node.get<FunctionDecl>()) {
      const auto *Method = dyn_cast<CXXMethodDecl>(FD);
      bool IsLambdaCall = Method && Method->getParent()->isLambda();
      if (FD->getBody() != S && !IsLambdaCall)
        return FD->getBody();
    }
    Parents = Ctx.getParents(Node);
  }
  return nullptr;
}

EnclosingStatement enclosingStatement(const Stmt *S, ASTContext &Ctx) {
  const Stmt *Node = S;
  for (const Stmt *Parent = parentStmt(Node, Ctx); Parent;
       Node = Parent, Parent = parentStmt(Node, Ctx))
    if (!isa<Expr>(Parent))
      return {Node, Parent};
  return {};
}

/// \p E with the temporaries, implicit casts and parentheses around it, and
/// the node that holds them (nullptr at the top).
static std::pair<const Stmt *, const Stmt *> withoutWrappers(const Expr *E, ASTContext &Ctx) {
  const Stmt *Node = E;
  const Stmt *Parent = parentStmt(Node, Ctx);
  while (isa_and_nonnull<ExprWithCleanups, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
                         ImplicitCastExpr, ParenExpr>(Parent)) {
    Node = Parent;
    Parent = parentStmt(Node, Ctx);
  }
  return {Node, Parent};
}

bool isDiscardedResult(const Expr *E, ASTContext &Ctx) {
  auto [Node, Parent] = withoutWrappers(E, Ctx);
  if (const auto *Cast = dyn_cast_or_null<ExplicitCastExpr>(Parent))
    return Cast->getType()->isVoidType();
  return isa_and_nonnull<CompoundStmt>(Parent);
}

const Stmt *unbracedBodyOwner(const Expr *E, ASTContext &Ctx) {
  auto [Node, Parent] = withoutWrappers(E, Ctx);
  const Stmt *Body = nullptr, *Else = nullptr;
  if (const auto *For = dyn_cast_or_null<ForStmt>(Parent))
    Body = For->getBody();
  else if (const auto *Range = dyn_cast_or_null<CXXForRangeStmt>(Parent))
    Body = Range->getBody();
  else if (const auto *While = dyn_cast_or_null<WhileStmt>(Parent))
    Body = While->getBody();
  else if (const auto *Do = dyn_cast_or_null<DoStmt>(Parent))
    Body = Do->getBody();
  else if (const auto *If = dyn_cast_or_null<IfStmt>(Parent)) {
    Body = If->getThen();
    Else = If->getElse();
  }
  return Node == Body || Node == Else ? Parent : nullptr;
}

AtomicPath atomicPathOf(const Expr *Reference) {
  AtomicPath Path;
  const Expr *E = Reference;
  // Each step goes down one access or one variable; the bound stops a
  // variable whose initialiser names itself.
  for (unsigned Steps = 0; E && Steps < 64; ++Steps) {
    E = E->IgnoreParenImpCasts()->IgnoreImplicit();
    if (const auto *Member = dyn_cast<MemberExpr>(E);
        Member && isa<FieldDecl>(Member->getMemberDecl())) {
      E = Member->getBase();
    } else if (const auto *Subscript = dyn_cast<CXXOperatorCallExpr>(E);
               Subscript && Subscript->getOperator() == OO_Subscript &&
               Subscript->getNumArgs() == 2) {
      Path.Subscripts.push_back(Subscript->getArg(1));
      E = Subscript->getArg(0);
    } else if (const auto *Construct = dyn_cast<CXXConstructExpr>(E);
               Construct && Construct->getNumArgs() == 1 &&
               Construct->getConstructor()->isCopyOrMoveConstructor()) {
      E = Construct->getArg(0);
    } else if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
      const CXXRecordDecl *Type = Var ? Var->getType()->getAsCXXRecordDecl() : nullptr;
      // A reference variable has no record type: only variables that own one.
      if (!Type || Type->getName() != "AtomicRef" || !Var->hasLocalStorage() ||
          isa<ParmVarDecl>(Var) || !Var->getInit())
        break;
      E = Var->getInit();
    } else {
      break;
    }
  }
  Path.Root = E;
  return Path;
}

std::vector<const Stmt *> statementsBefore(const Stmt *S, ASTContext &Ctx, const Stmt *Stop) {
  std::vector<const Stmt *> Before;
  for (const Stmt *Node = S, *Parent = parentStmt(S, Ctx); Parent && Node != Stop;
       Node = Parent, Parent = parentStmt(Node, Ctx))
    if (const auto *Block = dyn_cast<CompoundStmt>(Parent))
      for (const Stmt *Child : Block->body()) {
        if (Child == Node)
          break;
        Before.push_back(Child);
      }
  return Before;
}

std::vector<const Stmt *> blockStatements(const Stmt *Body) {
  if (const auto *Block = dyn_cast_or_null<CompoundStmt>(Body))
    return {Block->body_begin(), Block->body_end()};
  if (Body)
    return {Body};
  return {};
}

const LambdaExpr *asLambda(const Expr *E) {
  return E ? dyn_cast<LambdaExpr>(E->IgnoreImplicit()->IgnoreParens()) : nullptr;
}

/// The role the type \p T gives a lambda converted to it.
static std::optional<LambdaRole> roleOfType(QualType T) {
  if (T.isNull())
    return std::nullopt;
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD || !RD->getIdentifier() || !isInLuisaCompute(RD))
    return std::nullopt;
  if (RD->getName().starts_with("Kernel"))
    return LambdaRole::Kernel;
  if (RD->getName() == "Callable")
    return LambdaRole::Callable;
  return std::nullopt;
}

LambdaRole lambdaRole(const LambdaExpr *Lambda, ASTContext &Ctx) {
  DynTypedNodeList Parents = Ctx.getParents(*Lambda);
  for (unsigned Depth = 0; !Parents.empty() && Depth < 8; ++Depth) {
    const DynTypedNode &Node = Parents[0];
    std::optional<LambdaRole> Role;
    if (const auto *Var = Node.get<VarDecl>())
      Role = roleOfType(Var->getType());
    else if (const auto *E = Node.get<Expr>())
      Role = roleOfType(E->getType());
    if (Role)
      return *Role;
    if (const auto *Call = Node.get<CXXMemberCallExpr>())
      if (const auto *Method = Call->getMethodDecl())
        if (Method->getIdentifier() && Method->getName() == "compile")
          return LambdaRole::Kernel;
    if (Node.get<Stmt>() && !Node.get<Expr>())
      return LambdaRole::Other;
    Parents = Ctx.getParents(Node);
  }
  return LambdaRole::Other;
}

const LambdaExpr *enclosingKernel(const Stmt *S, ASTContext &Ctx) {
  for (const Stmt *Body = enclosingFunctionBody(S, Ctx); Body;
       Body = enclosingFunctionBody(Body, Ctx)) {
    const LambdaExpr *Lambda = lambdaOfBody(Body, Ctx);
    if (Lambda && lambdaRole(Lambda, Ctx) != LambdaRole::Other)
      return Lambda;
  }
  return nullptr;
}

const LambdaExpr *lambdaOfInit(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 8; ++Depth) {
    E = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *Lambda = dyn_cast<LambdaExpr>(E))
      return Lambda;
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(E))
      E = Construct->getNumArgs() >= 1 ? Construct->getArg(0) : nullptr;
    else if (const auto *Cast = dyn_cast<CastExpr>(E))
      E = Cast->getSubExpr();
    else
      return nullptr;
  }
  return nullptr;
}

namespace {

/// Collects the calls of one DSL builtin in one kernel's code.
class DslCallFinder : public KernelCodeVisitor<DslCallFinder> {
public:
  DslCallFinder(ASTContext &Ctx, StringRef Name) : KernelCodeVisitor(Ctx), Name(Name) {}
  std::vector<const CallExpr *> Calls;

  bool VisitCallExpr(CallExpr *Call) {
    if (dslCallName(Call) == Name)
      Calls.push_back(Call);
    return true;
  }

private:
  StringRef Name;
};

} // namespace

std::vector<const CallExpr *> dslCallsIn(const Stmt *Body, StringRef Name, ASTContext &Ctx) {
  DslCallFinder Finder(Ctx, Name);
  Finder.TraverseStmt(const_cast<Stmt *>(Body));
  return std::move(Finder.Calls);
}

std::string calleeName(const CallExpr *Call) {
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
      Op && Op->getOperator() == OO_Call && Op->getNumArgs() > 0)
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Op->getArg(0)->IgnoreParenImpCasts()))
      return Ref->getDecl()->getNameAsString();
  const FunctionDecl *Callee = Call->getDirectCallee();
  return Callee ? Callee->getNameAsString() : "the callee";
}

bool mentionsVariable(const Stmt *S, const VarDecl *Var) {
  if (const auto *Ref = dyn_cast_or_null<DeclRefExpr>(S))
    if (Ref->getDecl()->getCanonicalDecl() == Var->getCanonicalDecl())
      return true;
  if (!S)
    return false;
  for (const Stmt *Child : S->children())
    if (Child && mentionsVariable(Child, Var))
      return true;
  return false;
}

const Stmt *declaringBlock(const VarDecl *Var, ASTContext &Ctx) {
  auto Parents = Ctx.getParents(*Var);
  const auto *Decl = Parents.empty() ? nullptr : Parents[0].get<DeclStmt>();
  return Decl ? parentStmt(Decl, Ctx) : nullptr;
}

} // namespace kernel_tidy::dsl
