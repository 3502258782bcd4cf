//===--- TreeReduction.cpp - Block-wide tree reductions in Shared memory --===//

#include "rules/block/TreeReduction.h"

#include "src/dsl/Ast.h"
#include "src/dsl/HostEval.h"
#include "src/dsl/Statements.h"
#include "src/dsl/Calls.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/MathExtras.h"

using namespace clang;

namespace kernel_tidy::dsl {

namespace {

bool isBarrier(const Stmt *S) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  return E && isDslCall(E->IgnoreImplicit(), "sync_block");
}

/// `Thread < V` or `V > Thread`, with Thread the thread index; returns Thread.
const Expr *strideGuardThread(const Expr *Guard, const VarDecl *V, WriteAnalysis &Writes) {
  const auto *Cmp = binaryDslOperator(Guard);
  if (!Cmp)
    return nullptr;
  const Expr *L = Cmp->getArg(0), *R = Cmp->getArg(1);
  if (Cmp->getOperator() == OO_Greater)
    std::swap(L, R);
  else if (Cmp->getOperator() != OO_Less)
    return nullptr;
  return isThreadX(L, Writes) && isVariable(R, V) ? L : nullptr;
}

/// `A + B` in either order with one side matching \p First and the other \p Second.
template <typename F, typename G> bool isSumOf(const Expr *E, F First, G Second) {
  const auto *Op = binaryDslOperator(E);
  if (!Op || Op->getOperator() != OO_Plus)
    return false;
  const Expr *A = Op->getArg(0), *B = Op->getArg(1);
  return (First(A) && Second(B)) || (First(B) && Second(A));
}

/// `T * 2`, `2 * T`, `T << 1`, `T + T` for the thread index T.
bool isTwiceThread(const Expr *E, WriteAnalysis &Writes, const ASTContext &Ctx) {
  return isDoubled(E, [&](const Expr *T) { return isThreadX(T, Writes); }, Ctx);
}

/// The pair a step combines: `(s[T], s[T + V])` (in place, or into a
/// register) or `(s[2T], s[2T + 1])` (Interleaved); in either order.
struct Pair {
  const ValueDecl *Array = nullptr;
  bool Interleaved = false;
};
std::optional<Pair> matchPair(const Expr *A, const Expr *B, const VarDecl *V, WriteAnalysis &Writes,
                              const ASTContext &Ctx) {
  auto EA = matchSharedElement(A), EB = matchSharedElement(B);
  if (!EA || !EB || EA->Array != EB->Array || EA->Stored || EB->Stored)
    return std::nullopt;
  auto IsThread = [&](const Expr *E) { return isThreadX(E, Writes); };
  auto IsStride = [&](const Expr *E) { return isVariable(E, V); };
  auto IsTwice = [&](const Expr *E) { return isTwiceThread(E, Writes, Ctx); };
  auto IsOne = [&](const Expr *E) { return isHostValue(E, 1, Ctx); };
  for (int Swap = 0; Swap < 2; ++Swap) {
    const Expr *Low = Swap ? EB->Index : EA->Index, *High = Swap ? EA->Index : EB->Index;
    if (IsThread(Low) && isSumOf(High, IsThread, IsStride))
      return Pair{EA->Array, false};
    if (IsTwice(Low) && isSumOf(High, IsTwice, IsOne))
      return Pair{EA->Array, true};
  }
  return std::nullopt;
}

/// A store `X OP= Y`, `X = OP(Y, Z)` (through reduce_op helpers) or
/// `s.write(i, OP(Y, Z))`: the target and the two operands.
struct Store {
  const Expr *Target = nullptr; ///< The element or variable written.
  CombineOp Op = CombineOp::Sum;
  const Expr *A = nullptr, *B = nullptr;
  const FunctionDecl *Helper = nullptr; ///< OP's helper, if seen through one.
};
std::optional<Store> matchCombiningStore(const Stmt *S, ASTContext &Ctx) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  if (!E)
    return std::nullopt;
  E = E->IgnoreImplicit();
  if (auto Element = matchSharedElement(E); Element && Element->Stored) {
    auto C = matchCombinationThroughHelpers(Element->Stored, Ctx);
    if (!C)
      return std::nullopt;
    return Store{Element->Access, C->Op, C->LHS, C->RHS, C->Helper};
  }
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
  if (!Op || Op->getNumArgs() != 2 || !Op->isAssignmentOp())
    return std::nullopt;
  if (Op->getOperator() == OO_Equal) {
    auto C = matchCombinationThroughHelpers(Op->getArg(1), Ctx);
    if (!C)
      return std::nullopt;
    return Store{Op->getArg(0), C->Op, C->LHS, C->RHS, C->Helper};
  }
  auto Step = matchAccumulateStep(E);
  if (!Step)
    return std::nullopt;
  return Store{Op->getArg(0), Step->Op, Op->getArg(0), Op->getArg(1)};
}

/// The element of \p Array at the thread's own index that \p Target names.
bool isOwnElement(const Expr *Target, const ValueDecl *Array, WriteAnalysis &Writes) {
  auto Element = matchSharedElement(Target);
  return Element && Element->Array == Array && isThreadX(Element->Index, Writes);
}

/// The only statement of a `$if (Thread < V) { ... };` and its thread index.
std::optional<std::pair<const Stmt *, const Expr *>>
guardedStatement(const Stmt *S, const VarDecl *V, WriteAnalysis &Writes) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  auto If = E ? matchDslIf(E->IgnoreImplicit()) : std::nullopt;
  if (!If || If->Then->size() != 1)
    return std::nullopt;
  const Expr *Thread = strideGuardThread(If->Cond, V, Writes);
  if (!Thread)
    return std::nullopt;
  return std::make_pair(If->Then->body_front(), Thread);
}

} // namespace

std::optional<TreeReduction> matchTreeReduction(const CompoundStmt *Body, ASTContext &Ctx,
                                                WriteAnalysis &Writes) {
  auto Loop = matchHalvingLoop(Body, Ctx, Writes);
  if (!Loop)
    return std::nullopt;
  TreeReduction Tree;
  Tree.Loop = *Loop;
  const DeclStmt *RegisterDecl = nullptr;
  // The body as barriers ('B') and guarded steps ('I').
  std::string Shape;
  std::vector<const Stmt *> Steps;
  for (const Stmt *S : blockStatements(Body)) {
    if (S == Loop->Update || S == Loop->Exit)
      continue;
    if (isBarrier(S)) {
      Shape += 'B';
      continue;
    }
    if (const auto *Decl = dyn_cast<DeclStmt>(S)) {
      const auto *Var = Decl->isSingleDecl() ? dyn_cast<VarDecl>(Decl->getSingleDecl()) : nullptr;
      const auto *Init = Var && Var->hasInit()
                             ? dyn_cast<CXXConstructExpr>(Var->getInit()->IgnoreImplicit())
                             : nullptr;
      if (RegisterDecl || !Var || !isDslValueType(Var->getType()) ||
          (Var->hasInit() && (!Init || Init->getNumArgs() != 0)))
        return std::nullopt;
      RegisterDecl = Decl;
      continue;
    }
    auto Guarded = guardedStatement(S, Loop->Var, Writes);
    if (!Guarded)
      return std::nullopt;
    Shape += 'I';
    Steps.push_back(Guarded->first);
    if (!Tree.Thread)
      Tree.Thread = Guarded->second;
  }
  size_t First = Shape.find('I'), Last = Shape.rfind('I');
  if (First == std::string::npos)
    return std::nullopt;
  size_t Outer = First + (Shape.size() - 1 - Last);
  Tree.BarriersPerStep = static_cast<unsigned>(llvm::count(Shape, 'B'));
  auto Read = matchCombiningStore(Steps.front(), Ctx);
  if (!Read)
    return std::nullopt;
  Tree.Op = Read->Op;
  Tree.CombineHelper = Read->Helper;
  auto Operands = matchPair(Read->A, Read->B, Loop->Var, Writes, Ctx);
  if (!Operands)
    return std::nullopt;
  Tree.Array = Operands->Array;
  Tree.Interleaved = Operands->Interleaved;
  if (Steps.size() == 1) {
    // In place: `s[T] = s[T] OP s[T + V]` and a barrier around it.
    if (Shape.size() < 2 || Tree.Interleaved || RegisterDecl ||
        !isOwnElement(Read->Target, Tree.Array, Writes))
      return std::nullopt;
    return Tree;
  }
  // Register-then-write: R = pair; barrier; s[T] = R; with a barrier before
  // the read or after the write-back.
  if (Steps.size() != 2 || Outer == 0 ||
      Shape.substr(First, Last - First + 1).find('B') == std::string::npos)
    return std::nullopt;
  const VarDecl *Register = variableOf(Read->Target);
  if (!Register || !isDslValueType(Register->getType()) ||
      (RegisterDecl && RegisterDecl->getSingleDecl() != Register))
    return std::nullopt;
  const auto *Back = dyn_cast<Expr>(Steps.back());
  Back = Back ? Back->IgnoreImplicit() : nullptr;
  const Expr *Written = nullptr, *Value = nullptr;
  if (auto Element = Back ? matchSharedElement(Back) : std::nullopt; Element && Element->Stored)
    Written = Element->Access, Value = Element->Stored;
  else if (const auto *Assign = dyn_cast_or_null<CXXOperatorCallExpr>(Back);
           Assign && Assign->getOperator() == OO_Equal && Assign->getNumArgs() == 2)
    Written = Assign->getArg(0), Value = Assign->getArg(1);
  if (!Written || !isOwnElement(Written, Tree.Array, Writes) || !isVariable(Value, Register))
    return std::nullopt;
  Tree.Register = Register;
  Tree.RegisterDeclaredInBody = RegisterDecl != nullptr;
  return Tree;
}

std::optional<TreeSpan> treeSpan(llvm::ArrayRef<int64_t> Values) {
  if (Values.empty() || Values.front() <= 0 || Values.front() > (int64_t(1) << 40) ||
      Values.back() < 1 || Values.back() > 8)
    return std::nullopt;
  // A tree down to 1 may halve inexactly (96, ..., 3, 1: the caller rejects
  // its block); one that leaves several partials must pair every slot.
  bool Exact = Values.back() > 1;
  for (size_t I = 1; I < Values.size(); ++I)
    if (Values[I] != Values[I - 1] / 2 || (Exact && Values[I - 1] != 2 * Values[I]))
      return std::nullopt;
  return TreeSpan{2 * Values.front(), Values.back()};
}

namespace {

/// The references to one variable in a block, with the nodes of one
/// statement (the tree loop) left out.
class References : public RecursiveASTVisitor<References> {
public:
  References(const VarDecl *Var, const Stmt *Skip) : Var(Var), Skip(Skip) {}
  bool shouldVisitLambdaBody() const { return true; }
  bool TraverseStmt(Stmt *S) {
    return S == Skip ? true : RecursiveASTVisitor<References>::TraverseStmt(S);
  }
  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    if (Ref->getDecl()->getCanonicalDecl() == Var->getCanonicalDecl())
      Found.push_back(Ref);
    return true;
  }
  std::vector<const DeclRefExpr *> Found;

private:
  const VarDecl *Var;
  const Stmt *Skip;
};

/// The Shared element access whose array \p Ref names, or std::nullopt.
std::optional<SharedElement> accessOfReference(const DeclRefExpr *Ref, ASTContext &Ctx) {
  const Stmt *Node = Ref;
  for (unsigned Depth = 0; Depth < 4; ++Depth) {
    const Stmt *Parent = parentStmt(Node, Ctx);
    if (!Parent)
      return std::nullopt;
    if (const auto *E = dyn_cast<Expr>(Parent))
      if (auto Element = matchSharedElement(E))
        return Element;
    if (!isa<ImplicitCastExpr, MemberExpr, ParenExpr>(Parent))
      return std::nullopt;
    Node = Parent;
  }
  return std::nullopt;
}

/// True if \p Access only stores into its element: `s.write(i, v)` or the
/// left side of `s[i] = v`.
bool isPureStore(const SharedElement &Access, ASTContext &Ctx) {
  if (Access.Stored)
    return true;
  const Stmt *Node = Access.Access;
  for (const Stmt *Parent = parentStmt(Node, Ctx); Parent; Parent = parentStmt(Node, Ctx)) {
    if (const auto *Assign = dyn_cast<CXXOperatorCallExpr>(Parent))
      return Assign->getOperator() == OO_Equal && Assign->getNumArgs() == 2 &&
             Assign->getArg(0)->IgnoreImplicit() == Node;
    if (!isa<ImplicitCastExpr, MaterializeTemporaryExpr, ParenExpr>(Parent))
      return false;
    Node = Parent;
  }
  return false;
}

bool isAfter(const Stmt *S, const Stmt *Loop, const SourceManager &SM) {
  return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Loop->getEndLoc()),
                                      SM.getExpansionLoc(S->getBeginLoc()));
}

/// True if \p Inner is \p Outer or one of its descendants.
bool isWithin(const Stmt *Inner, const Stmt *Outer, ASTContext &Ctx) {
  for (const Stmt *S = Inner; S; S = parentStmt(S, Ctx))
    if (S == Outer)
      return true;
  return false;
}

/// The operands of \p E's nested combinations with \p Op (`(a + b) + c`
/// gives a, b, c), also through helpers; the helper seen goes to \p Helper.
void combinedOperands(const Expr *E, CombineOp Op, ASTContext &Ctx,
                      llvm::SmallVectorImpl<const Expr *> &Operands, const FunctionDecl *&Helper) {
  auto C = matchCombinationThroughHelpers(E, Ctx);
  if (!C || C->Op != Op || Operands.size() > 8) {
    Operands.push_back(E);
    return;
  }
  if (C->Helper)
    Helper = C->Helper;
  combinedOperands(C->LHS, Op, Ctx, Operands, Helper);
  combinedOperands(C->RHS, Op, Ctx, Operands, Helper);
}

/// \p E when it combines exactly `Array[0]` .. `Array[Partials - 1]` with
/// \p Op, each once; else the first such expression inside it.
std::optional<PartialsCombine> findCombine(const Stmt *S, const ValueDecl *Array, CombineOp Op,
                                           int64_t Partials, ASTContext &Ctx) {
  if (!S)
    return std::nullopt;
  llvm::SmallVector<const Expr *, 8> Operands;
  const FunctionDecl *Helper = nullptr;
  // The call itself (or its parentheses), not a conversion around it, whose
  // range may hold more than the call (`Var<T> total{...}`).
  if (isa<CallExpr, ParenExpr>(S))
    combinedOperands(cast<Expr>(S), Op, Ctx, Operands, Helper);
  if (Operands.size() == size_t(Partials)) {
    uint64_t Seen = 0;
    for (const Expr *Operand : Operands) {
      auto Element = matchSharedElement(Operand);
      auto Index = Element && Element->Array == Array && !Element->Stored
                       ? evaluateHostInt(stripDslWrappers(Element->Index), Ctx)
                       : std::nullopt;
      if (!Index || *Index < 0 || *Index >= Partials || (Seen & (uint64_t(1) << *Index)))
        break;
      Seen |= uint64_t(1) << *Index;
    }
    if (Seen + 1 == uint64_t(1) << Partials)
      return PartialsCombine{cast<Expr>(S), Helper};
  }
  for (const Stmt *Child : S->children())
    if (auto Found = findCombine(Child, Array, Op, Partials, Ctx))
      return Found;
  return std::nullopt;
}

} // namespace

std::optional<PartialsCombine> matchPartialsCombine(const TreeReduction &Tree, int64_t Partials,
                                                    ASTContext &Ctx) {
  // The block whose statement the loop is (through the full expression of
  // a device loop).
  auto [LoopStatement, Container] = enclosingStatement(Tree.Loop.Loop, Ctx);
  const auto *Block = dyn_cast_or_null<CompoundStmt>(Container);
  if (!Block || Partials < 2)
    return std::nullopt;
  // The partials are final once a barrier follows the loop's last step.
  const Stmt *Last = nullptr;
  for (const Stmt *S : blockStatements(Tree.Loop.Body))
    if (S != Tree.Loop.Update && S != Tree.Loop.Exit && !isa<DeclStmt>(S))
      Last = S;
  bool Barrier = isBarrier(Last);
  const auto *Array = dyn_cast<VarDecl>(Tree.Array);
  bool AfterLoop = false;
  for (const Stmt *S : Block->body()) {
    if (!AfterLoop) {
      AfterLoop = S == LoopStatement;
      continue;
    }
    if (const auto *E = dyn_cast<Expr>(S); E && isBarrier(E->IgnoreImplicit())) {
      Barrier = true;
      continue;
    }
    if (!Array || !mentionsVariable(S, Array))
      continue;
    auto Found = Barrier ? findCombine(S, Array, Tree.Op, Partials, Ctx) : std::nullopt;
    if (!Found)
      return std::nullopt;
    // The first use of the array after the loop is the combine's.
    References Refs(Array, nullptr);
    Refs.TraverseStmt(const_cast<Stmt *>(S));
    const SourceManager &SM = Ctx.getSourceManager();
    for (const DeclRefExpr *Ref : Refs.Found)
      if (!isWithin(Ref, Found->Combine, Ctx) &&
          SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Ref->getBeginLoc()),
                                       SM.getExpansionLoc(Found->Combine->getBeginLoc())))
        return std::nullopt;
    return Found;
  }
  return std::nullopt;
}

TreeLeftovers leftoversOf(const TreeReduction &Tree, ASTContext &Ctx, const Expr *Combine) {
  TreeLeftovers Result;
  const SourceManager &SM = Ctx.getSourceManager();
  const Stmt *Loop = Tree.Loop.Loop;
  auto UsesOf = [&](const VarDecl *Var, bool &Repeated) {
    const Stmt *Scope = declaringBlock(Var, Ctx);
    References Refs(Var, const_cast<Stmt *>(Loop));
    Repeated = Scope && repeatedWithin(Loop, Scope, Ctx);
    if (Scope)
      Refs.TraverseStmt(const_cast<Stmt *>(Scope));
    return Refs.Found;
  };
  bool Repeated = false;
  const auto *Local = dyn_cast<VarDecl>(Tree.Array);
  Result.ArrayEscapes = !Local || !Local->isLocalVarDecl() || Local->getType()->isPointerType() ||
                        Local->getType()->isReferenceType();
  for (const DeclRefExpr *Ref :
       Result.ArrayEscapes ? std::vector<const DeclRefExpr *>() : UsesOf(Local, Repeated)) {
    if ((!Repeated && !isAfter(Ref, Loop, SM)) || (Combine && isWithin(Ref, Combine, Ctx)))
      continue;
    auto Access = accessOfReference(Ref, Ctx);
    if (!Access) {
      Result.OtherRead = Ref;
      break;
    }
    // Slot 0 holds the same value after the rewrite as after the tree, but
    // not what a tree that stops at several partials leaves there; a store
    // between the loop and the combine would change what the combine reads.
    bool BeforeCombine = Combine && isAfter(Ref, Loop, SM) &&
                         SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Ref->getBeginLoc()),
                                                      SM.getExpansionLoc(Combine->getBeginLoc()));
    if ((isPureStore(*Access, Ctx) && !BeforeCombine) ||
        (!Combine && isHostValue(Access->Index, 0, Ctx)))
      continue;
    Result.OtherRead = Access->Access;
    break;
  }
  for (const VarDecl *Var : {Tree.Register, Tree.Loop.Device ? Tree.Loop.Var : nullptr}) {
    // A register declared in the loop body is gone after the loop.
    if (!Var || Result.VariableUse || declaringBlock(Var, Ctx) == Tree.Loop.Body)
      continue;
    for (const DeclRefExpr *Ref : UsesOf(Var, Repeated))
      if (Repeated || isAfter(Ref, Loop, SM)) {
        Result.VariableUse = Ref;
        break;
      }
  }
  return Result;
}

} // namespace kernel_tidy::dsl
