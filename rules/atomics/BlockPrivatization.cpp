//===--- BlockPrivatization.cpp - Where a block-privatized atomic goes ---===//

#include "rules/atomics/BlockPrivatization.h"

#include "rules/atomics/AtomicRewrite.h"
#include "src/dsl/Naming.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace kernel_tidy::dsl;

namespace kernel_tidy::rules {

namespace {

/// The source range of \p S in the file, as locations the rewrite can compare.
SourceRange fileRange(const Stmt *S, const SourceManager &SM) {
  return {SM.getExpansionLoc(S->getBeginLoc()), SM.getExpansionRange(S->getEndLoc()).getEnd()};
}

bool contains(SourceRange Outer, SourceLocation Loc, const SourceManager &SM) {
  Loc = SM.getExpansionLoc(Loc);
  return !SM.isBeforeInTranslationUnit(Loc, Outer.getBegin()) &&
         !SM.isBeforeInTranslationUnit(Outer.getEnd(), Loc);
}

/// The member that is called or read on the object \p Use names (through
/// `*p`, `p->`), or nullptr.
const MemberExpr *memberOn(const Expr *Use, ParentMapContext &Parents) {
  DynTypedNodeList Above = Parents.getParents(*Use);
  auto PassesThrough = [](const DynTypedNode &N) {
    if (N.get<ImplicitCastExpr>() || N.get<ParenExpr>())
      return true;
    if (const auto *Deref = N.get<UnaryOperator>())
      return Deref->getOpcode() == UO_Deref;
    const auto *Arrow = N.get<CXXOperatorCallExpr>();
    return Arrow && Arrow->getOperator() == OO_Arrow;
  };
  while (!Above.empty() && PassesThrough(Above[0]))
    Above = Parents.getParents(Above[0]);
  return Above.empty() ? nullptr : Above[0].get<MemberExpr>();
}

/// Facts about the DSL code of one kernel body that the rewrite depends on.
class KernelFacts : public RecursiveASTVisitor<KernelFacts> {
public:
  KernelFacts(const Stmt *Body) { TraverseStmt(const_cast<Stmt *>(Body)); }
  bool shouldVisitLambdaBody() const { return true; }
  bool shouldVisitImplicitCode() const { return false; }

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    Uses[E->getDecl()].push_back(E);
    if (E->getDecl()->getIdentifier())
      Names[E->getDecl()->getName()].insert(E->getDecl());
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    Uses[E->getMemberDecl()].push_back(E);
    return true;
  }
  bool VisitNamedDecl(NamedDecl *D) {
    if (D->getIdentifier())
      Names[D->getName()].insert(D);
    return true;
  }
  /// True if code in \p Region uses the object \p D other than by
  /// `D.read(...)` (a write, an atomic, `D[...]`, a call that takes it).
  bool isChangedIn(const ValueDecl *D, SourceRange Region, const SourceManager &SM,
                   ParentMapContext &Parents) {
    for (const Expr *Use : Uses.lookup(D)) {
      if (!contains(Region, Use->getBeginLoc(), SM))
        continue;
      const MemberExpr *Member = memberOn(Use, Parents);
      if (!Member || Member->getMemberDecl()->getName() != "read")
        return true;
    }
    return false;
  }

  llvm::DenseMap<const ValueDecl *, std::vector<const Expr *>> Uses;
  llvm::StringMap<llvm::SmallPtrSet<const NamedDecl *, 2>> Names;
};

/// True if \p E has the same value right after \p Region as where it is
/// spelled inside it: no memory writes, no user calls, no variable declared
/// inside the region or assigned in it, no object read that the region writes.
bool isInvariantIn(const Expr *E, SourceRange Region, KernelFacts &Facts, WriteAnalysis &Writes,
                   ASTContext &Ctx) {
  if (!E)
    return true;
  const SourceManager &SM = Ctx.getSourceManager();
  if (hasDeviceSideEffects(E))
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    // Builtins and operators of the DSL; reads of memory the region does
    // not change.
    const FunctionDecl *Callee = Call->getDirectCallee();
    const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
    const Expr *ReadObject = nullptr;
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call);
        Member && Callee && Callee->getIdentifier() && Callee->getName() == "read")
      ReadObject = Member->getImplicitObjectArgument();
    else if (Op && Op->getOperator() == OO_Subscript)
      ReadObject = Op->getArg(0);
    else if (Op ? Op->getOperator() == OO_Call : !Callee || !isInLuisaComputeLibrary(Callee))
      return false;
    if (ReadObject) {
      const ValueDecl *Object = atomicObjectDecl(ReadObject);
      if (!Object || Facts.isChangedIn(Object, Region, SM, Ctx.getParentMapContext()))
        return false;
    }
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl())) {
      if (contains(Region, Var->getLocation(), SM))
        return false;
      for (const VariableWrite &Write : Writes.writesOf(Var))
        if (contains(Region, Write.Write->getBeginLoc(), SM))
          return false;
    }
  for (const Stmt *Child : E->children())
    if (const auto *ChildExpr = dyn_cast_or_null<Expr>(Child);
        ChildExpr && !isInvariantIn(ChildExpr, Region, Facts, Writes, Ctx))
      return false;
  return true;
}

/// True if \p S holds a buffer atomic other than \p Fetch at a block-uniform
/// slot: each would place its own barriers around the same statement.
bool holdsOtherBlockAtomic(const Stmt *S, const CXXMemberCallExpr *Fetch, UniformityAnalysis &U) {
  if (const auto *Call = dyn_cast<CXXMemberCallExpr>(S); Call && Call != Fetch)
    if (const auto *Atomic = dyn_cast<CXXMemberCallExpr>(
            Call->getImplicitObjectArgument() ? Call->getImplicitObjectArgument()->IgnoreImplicit()
                                              : nullptr);
        Atomic && Atomic->getMethodDecl() && Atomic->getMethodDecl()->getIdentifier() &&
        Atomic->getMethodDecl()->getName() == "atomic" && Atomic->getNumArgs() == 1 &&
        isBufferType(Atomic->getImplicitObjectArgument()->IgnoreParenImpCasts()->getType()) &&
        Call->getMethodDecl() && Call->getMethodDecl()->getIdentifier() &&
        Call->getMethodDecl()->getName().starts_with("fetch_") &&
        U.varianceOf(Atomic->getArg(0)) <= Variance::Block)
      return true;
  if (const auto *Lambda = dyn_cast<LambdaExpr>(S))
    return holdsOtherBlockAtomic(Lambda->getBody(), Fetch, U);
  for (const Stmt *Child : S->children())
    if (Child && holdsOtherBlockAtomic(Child, Fetch, U))
      return true;
  return false;
}

/// True if \p S mentions a variable from \p Vars.
bool mentions(const Stmt *S, const llvm::SmallPtrSetImpl<const VarDecl *> &Vars) {
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()); Var && Vars.contains(Var))
      return true;
  if (const auto *Lambda = dyn_cast<LambdaExpr>(S))
    return mentions(Lambda->getBody(), Vars);
  for (const Stmt *Child : S->children())
    if (Child && mentions(Child, Vars))
      return true;
  return false;
}

/// True if \p Var can be declared before the `$if` and assigned where it was
/// declared: a non-const `Var<T>` initialised with `=`, whose name no other
/// declaration in the kernel uses.
bool isHoistable(const VarDecl *Var, KernelFacts &Facts) {
  QualType T = Var->getType();
  const auto *Record = T->getAsCXXRecordDecl();
  if (T->isReferenceType() || T.isConstQualified() || !Record || Record->getName() != "Var" ||
      !Var->hasInit() || Var->getInitStyle() != VarDecl::CInit || !Var->getIdentifier())
    return false;
  auto It = Facts.Names.find(Var->getName());
  return It == Facts.Names.end() || (It->second.size() == 1 && It->second.contains(Var));
}

/// The statement of \p Body's block that holds \p S, or nullptr.
const Stmt *topStatementOf(const Stmt *S, const Stmt *Body, ASTContext &Ctx) {
  for (const Stmt *Parent = parentStmt(S, Ctx); Parent; S = Parent, Parent = parentStmt(S, Ctx))
    if (Parent == Body)
      return S;
  return nullptr;
}

} // namespace

std::string conditionText(const Expr *Cond, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Begin = SM.getSpellingLoc(Cond->getBeginLoc());
  SourceLocation End = SM.getSpellingLoc(Cond->getEndLoc());
  if (Begin.isInvalid() || End.isInvalid() || SM.getFileID(Begin) != SM.getFileID(End) ||
      SM.isBeforeInTranslationUnit(End, Begin) ||
      SM.getFileID(Begin) != SM.getFileID(SM.getExpansionLoc(Cond->getBeginLoc())))
    return "";
  return Lexer::getSourceText(CharSourceRange::getTokenRange(Begin, End), SM, Ctx.getLangOpts())
      .str();
}

std::optional<PrivatizationPlan> planPrivatization(const CXXMemberCallExpr *Fetch, ASTContext &Ctx,
                                                   Analyses &A, Preprocessor *PP) {
  const SourceManager &SM = Ctx.getSourceManager();
  const auto *Atomic =
      dyn_cast<CXXMemberCallExpr>(Fetch->getImplicitObjectArgument()->IgnoreImplicit());
  if (!PP || !PP->isMacroDefined("$if") || !Atomic || Atomic->getNumArgs() != 1 ||
      Fetch->getNumArgs() != 1)
    return std::nullopt;
  PrivatizationPlan P;
  P.Fetch = Fetch;
  P.Atomic = Atomic;
  P.Operand = Fetch->getArg(0);
  P.Element = dslValueType(Fetch->getType());
  P.Method = Fetch->getMethodDecl()->getName();
  P.Used = !isDiscardedResult(Fetch, Ctx);
  const Expr *Object = Atomic->getImplicitObjectArgument();
  const ValueDecl *Counter = atomicObjectDecl(Object);
  QualType E = P.Element;
  bool Integer = E->isIntegerType() && !E->isBooleanType();
  unsigned Bits = E->isScalarType() ? Ctx.getTypeSize(E) : 0;
  CombineOp Op = reductionOf(P.Method);
  // The operations whose block total one global atomic can apply: integer
  // ones (min/max/and with an identity up to 32 bits), float sums; a used old
  // value only for integer slot allocations.
  bool Supported = Integer ? (Bits == 32 || Bits == 64) &&
                                 (P.Used ? Op == CombineOp::Sum
                                         : Bits == 32 || Op == CombineOp::Sum ||
                                               Op == CombineOp::BitOr || Op == CombineOp::BitXor)
                           : !P.Used && isFloatingValue(E) && Op == CombineOp::Sum && Bits == 32;
  if (!Counter || !isBufferType(Object->IgnoreParenImpCasts()->getType()) || !Supported ||
      A.Uniformity.varianceOf(Atomic->getArg(0)) > Variance::Block ||
      A.Uniformity.runsOnOneLanePerWarp(Fetch) || runsOnOneThread(Fetch, A))
    return std::nullopt;

  // The barriers go around a statement of the kernel's own body, which every
  // thread of the block reaches (no thread-dependent `$return` before it,
  // none inside it), in a kernel that sets a constant block of more than one
  // warp (of any backend's width: a block of 32 threads or fewer gains
  // nothing over one atomic per warp).
  ControlSummary Around = A.Flow.enclosing(Fetch);
  BlockSize Block = A.Blocks.sizeAt(Fetch);
  if (!Around.Kernel || lambdaRole(Around.Kernel, Ctx) != LambdaRole::Kernel ||
      Block.From != BlockSize::Set || *Block.threads() <= 32)
    return std::nullopt;
  // A kernel built in a template: the rewrite would spell one instantiation's
  // types in code that every instantiation shares.
  for (const DeclContext *DC = Around.Kernel->getLambdaClass()->getDeclContext(); DC;
       DC = DC->getParent())
    if (const auto *Function = dyn_cast<FunctionDecl>(DC);
        Function && Function->isTemplateInstantiation())
      return std::nullopt;
  P.Shape = *Block.known();
  P.Top = topStatementOf(Fetch, Around.Body, Ctx);
  if (!P.Top || A.Uniformity.controlOf(P.Top) > Variance::Block ||
      holdsOtherBlockAtomic(P.Top, Fetch, A.Uniformity) ||
      llvm::any_of(A.Flow.exits(P.Top),
                   [](const ExitSite &Exit) { return Exit.Kind == DslExit::Return; }))
    return std::nullopt;

  // The global atomic moves behind the statement: its object and index must
  // mean the same there, and no other code of the kernel may see the counter
  // between the per-thread atomics and the block's one.
  KernelFacts Facts(Around.Body);
  SourceRange Region = fileRange(P.Top, SM);
  SourceRange ObjectRange = fileRange(Object, SM);
  // A used old value is published behind a third barrier, which orders every
  // other access of the block's threads before or after the block's atomic as
  // their own atomic was; writes elsewhere in the buffer (the items of a queue
  // whose counter is its first element) then keep their meaning. Reads and
  // other atomics would see the counter at another time: no rewrite.
  for (const Expr *Use : Facts.Uses.lookup(Counter)) {
    if (contains(ObjectRange, Use->getBeginLoc(), SM))
      continue;
    const MemberExpr *Member = memberOn(Use, Ctx.getParentMapContext());
    if (!P.Used || !Member || !Member->getMemberDecl()->getIdentifier() ||
        Member->getMemberDecl()->getName() != "write")
      return std::nullopt;
  }
  if (!isInvariantIn(Object, Region, Facts, A.Writes, Ctx) ||
      !isInvariantIn(Atomic->getArg(0), Region, Facts, A.Writes, Ctx))
    return std::nullopt;

  // The rewrite copies the operand and the atomic as the user spelled them.
  EnclosingStatement Enclosing = enclosingStatement(Fetch, Ctx);
  if (!Enclosing.Statement || Enclosing.Statement->getBeginLoc().isMacroID() ||
      atomicOperandText(P.Operand, E, Ctx).empty() ||
      withArgumentReplaced(Fetch, "total", Ctx).empty() ||
      Lexer::makeFileCharRange(CharSourceRange::getTokenRange(Fetch->getSourceRange()), SM,
                               Ctx.getLangOpts())
          .isInvalid())
    return std::nullopt;
  if (!P.Used) {
    // The statement is the atomic alone; it becomes the shared atomic in place.
    const auto *Whole = dyn_cast<Expr>(Enclosing.Statement);
    if (!isa_and_nonnull<CompoundStmt>(Enclosing.Container) || !Whole ||
        Whole->IgnoreImplicit() != Fetch)
      return std::nullopt;
    return P;
  }

  // A used old value: the statement that holds the atomic, and the rest of
  // its block, run behind the barriers (at the top level, or in a second
  // `$if (pred)`).
  P.Statement =
      isa_and_nonnull<DeclStmt>(Enclosing.Container) ? Enclosing.Container : Enclosing.Statement;
  if (const auto *Decl = dyn_cast<DeclStmt>(P.Statement); Decl && !Decl->isSingleDecl())
    return std::nullopt;
  const Stmt *Parent = parentStmt(P.Statement, Ctx);
  if (P.Statement->getBeginLoc().isMacroID() || !isa_and_nonnull<CompoundStmt>(Parent) ||
      (!isBallotCountable(P.Operand, E, A.Uniformity, Ctx) && hasDeviceSideEffects(P.Operand)))
    return std::nullopt;
  if (Parent == Around.Body)
    return Around.Controls.empty() ? std::optional(P) : std::nullopt;
  P.Guard = matchDslIf(P.Top);
  if (!P.Guard || P.Guard->Then != Parent || Around.Controls.size() != 1 ||
      !isInvariantIn(P.Guard->Cond, Region, Facts, A.Writes, Ctx) ||
      conditionText(P.Guard->Cond, Ctx).empty())
    return std::nullopt;
  // Declarations before the atomic that the moved statements use become
  // variables declared before the `$if`.
  std::vector<const Stmt *> Body = blockStatements(P.Guard->Then);
  auto At = llvm::find(Body, P.Statement);
  for (const Stmt *S : llvm::make_range(Body.begin(), At)) {
    const auto *DS = dyn_cast<DeclStmt>(S);
    if (!DS)
      continue;
    llvm::SmallPtrSet<const VarDecl *, 4> These;
    for (const Decl *D : DS->decls())
      if (const auto *Var = dyn_cast<VarDecl>(D))
        These.insert(Var);
    if (!llvm::any_of(llvm::make_range(At, Body.end()),
                      [&](const Stmt *Moved) { return mentions(Moved, These); }))
      continue;
    const auto *Var = DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl()) : nullptr;
    if (!Var || !isHoistable(Var, Facts) || DS->getBeginLoc().isMacroID())
      return std::nullopt;
    P.Hoisted.push_back(DS);
  }
  return P;
}

} // namespace kernel_tidy::rules
