//===--- Uniformity.cpp - Which threads see the same value ----------------===//

#include "src/dsl/Uniformity.h"

#include "src/dsl/Ast.h"
#include "src/dsl/HostEval.h"
#include "src/dsl/Names.h"
#include "src/dsl/Statements.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"
#include <numeric>

using namespace clang;

namespace kernel_tidy::dsl {

StringRef varianceName(Variance V) {
  switch (V) {
  case Variance::Grid:
    return "grid-uniform";
  case Variance::Block:
    return "block-uniform";
  case Variance::Warp:
    return "warp-uniform";
  case Variance::Thread:
    return "thread-varying";
  }
  llvm_unreachable("unknown Variance");
}

namespace {

/// The variance of the DSL builtin \p Name's result, when it does not
/// depend on the arguments; std::nullopt for builtins that combine them.
std::optional<Variance> builtinVariance(StringRef Name) {
  auto Fixed =
      llvm::StringSwitch<std::optional<Variance>>(Name)
          .Cases("block_id", "block_x", "block_y", "block_z", Variance::Block)
          .Cases("dispatch_size", "dispatch_size_x", "dispatch_size_y", "dispatch_size_z",
                 Variance::Grid)
          .Cases("block_size", "block_size_x", "block_size_y", "block_size_z", Variance::Grid)
          .Cases("warp_lane_count", "kernel_id", "object_id", Variance::Grid)
          .Cases("warp_read_first_active_lane", "warp_first_active_lane", Variance::Warp)
          .Default(std::nullopt);
  if (Fixed)
    return Fixed;
  // Every lane of the warp receives the same result of a reduction.
  if (Name.starts_with("warp_active_"))
    return Variance::Warp;
  if (Name.starts_with("thread_") || Name.starts_with("dispatch_id") ||
      Name.starts_with("dispatch_x") || Name.starts_with("dispatch_y") ||
      Name.starts_with("dispatch_z") || Name.starts_with("warp_"))
    return Variance::Thread;
  return std::nullopt;
}

bool isAtomicOperation(StringRef Method) {
  return Method.starts_with("fetch_") || Method == "exchange" || Method == "compare_exchange";
}

/// True if \p FD is part of the DSL (a builtin, an operator, a method of a
/// DSL type), whose result depends only on its operands.
bool isDslFunction(const FunctionDecl *FD) {
  if (!FD)
    return false;
  return isInLuisaComputeLibrary(FD);
}

/// True for luisa's host vector, matrix and half types (`float3`,
/// `float4x4`), whose values are baked in as scalars are.
bool isHostVectorOrMatrix(const CXXRecordDecl *Record) {
  const auto *Luisa = dyn_cast<NamespaceDecl>(Record->getDeclContext());
  if (!Luisa || Luisa->getName() != "luisa" || !isa<TranslationUnitDecl>(Luisa->getDeclContext()) ||
      !Record->getIdentifier())
    return false;
  return llvm::StringSwitch<bool>(Record->getName())
      .Cases("Vector", "Matrix", "half", true)
      .Default(false);
}

/// The variance of a value of the non-DSL type \p T. Host scalars and
/// enumerators are baked into the kernel when it is recorded, and DSL handles
/// (buffers, Shared arrays, images, also behind a pointer) name the same
/// resource in every thread. Any other host object (a helper class holding
/// Var members, `this`, a std::array of Vars) or a type that a template has
/// not fixed yet may carry per-thread DSL values the analysis does not track.
Variance hostValueVariance(QualType T) {
  T = T.getNonReferenceType();
  while (T->isPointerType())
    T = T->getPointeeType();
  T = T.getCanonicalType();
  if (T->isDependentType())
    return Variance::Thread;
  if (T->isBuiltinType() || T->isEnumeralType())
    return Variance::Grid;
  const auto *Record = T->getAsCXXRecordDecl();
  if (Record && (isInLuisaComputeLibrary(Record) || isHostVectorOrMatrix(Record)))
    return Variance::Grid;
  return Variance::Thread;
}

/// The LambdaExpr whose call operator declares \p Parm, or nullptr.
const LambdaExpr *lambdaOfParameter(const ParmVarDecl *Parm, ASTContext &Ctx) {
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Parm->getDeclContext());
  if (!Method || !Method->getParent()->isLambda())
    return nullptr;
  for (DynTypedNodeList Parents = Ctx.getParents(*Method); !Parents.empty();
       Parents = Ctx.getParents(Parents[0]))
    if (const auto *Lambda = Parents[0].get<LambdaExpr>())
      return Lambda;
  return nullptr;
}

/// The declaration a call runs: a function, or the variable holding a Callable.
const Decl *calleeKey(const CallExpr *Call) {
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
      Op && Op->getOperator() == OO_Call && Op->getNumArgs() > 0) {
    const Expr *Object = Op->getArg(0)->IgnoreParenImpCasts();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Object))
      if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl())) {
        const CXXRecordDecl *Class = Var->getType().getNonReferenceType()->getAsCXXRecordDecl();
        if (Class && !Class->isLambda())
          return Var->getCanonicalDecl();
      }
  }
  const FunctionDecl *Callee = Call->getDirectCallee();
  return Callee ? Callee->getCanonicalDecl() : nullptr;
}

/// The variable a Callable lambda initialises (`Callable f = [](...) {...};`).
const VarDecl *callableVariableOf(const LambdaExpr *Lambda, ASTContext &Ctx) {
  DynTypedNode Node = DynTypedNode::create(*Lambda);
  for (unsigned Up = 0; Up < 8; ++Up) {
    DynTypedNodeList Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return nullptr;
    if (const auto *Var = Parents[0].get<VarDecl>())
      return Var->getCanonicalDecl();
    if (!Parents[0].get<Expr>())
      return nullptr;
    Node = Parents[0];
  }
  return nullptr;
}

class CallIndexer : public RecursiveASTVisitor<CallIndexer> {
public:
  explicit CallIndexer(llvm::DenseMap<const Decl *, std::vector<const CallExpr *>> &Calls)
      : Calls(Calls) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitCallExpr(CallExpr *Call) {
    if (const Decl *Key = calleeKey(Call))
      Calls[Key].push_back(Call);
    return true;
  }

private:
  llvm::DenseMap<const Decl *, std::vector<const CallExpr *>> &Calls;
};

} // namespace

const Decl *UniformityAnalysis::functionKey(const Stmt *Body) {
  if (const LambdaExpr *Lambda = lambdaOfBody(Body, Ctx)) {
    switch (lambdaRole(Lambda, Ctx)) {
    case LambdaRole::Kernel:
      return nullptr;
    case LambdaRole::Callable:
      return callableVariableOf(Lambda, Ctx);
    case LambdaRole::Other:
      return Lambda->getCallOperator()->getCanonicalDecl();
    }
  }
  for (const DynTypedNode &Parent : Ctx.getParents(*Body))
    if (const auto *Function = Parent.get<FunctionDecl>())
      return Function->getCanonicalDecl();
  return nullptr;
}

const std::vector<const CallExpr *> &UniformityAnalysis::callersOf(const Stmt *Body) {
  const Decl *Key = Body ? functionKey(Body) : nullptr;
  if (!Key)
    return NoCalls;
  if (!CallsIndexed) {
    CallsIndexed = true;
    CallIndexer(Calls).TraverseAST(Ctx);
  }
  auto It = Calls.find(Key);
  return It == Calls.end() ? NoCalls : It->second;
}

Variance UniformityAnalysis::joinOf(llvm::ArrayRef<const Expr *> Exprs) {
  Variance V = Variance::Grid;
  for (const Expr *E : Exprs) {
    V = join(V, varianceOf(E));
    if (V == Variance::Thread)
      break;
  }
  return V;
}

Variance UniformityAnalysis::varianceOf(const Expr *E) {
  E = stripDslWrappers(E);
  // In a template, a dependent expression may become any DSL value.
  if (!E || E->isTypeDependent())
    return Variance::Thread;
  if (!isDslValueType(E->getType()))
    return hostValueVariance(E->getType());
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    return Var ? varianceOfVariable(Var) : Variance::Thread;
  }
  if (const auto *Member = dyn_cast<MemberExpr>(E)) {
    // A field of a DSL struct varies as the struct does. A DSL value kept in
    // a host object (a helper class's `m_lane`, `frame.token`) or reached
    // through a pointer is written where the analysis does not look.
    if (isa<FieldDecl>(Member->getMemberDecl()) && !Member->isArrow() &&
        isDslValueType(Member->getBase()->getType()))
      return varianceOf(Member->getBase());
    return Variance::Thread;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return varianceOfCall(Call);
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E))
    return joinOf({Construct->getArgs(), Construct->getNumArgs()});
  if (const auto *List = dyn_cast<InitListExpr>(E))
    return joinOf({List->getInits(), List->getNumInits()});
  if (const auto *Cond = dyn_cast<ConditionalOperator>(E))
    return joinOf({Cond->getCond(), Cond->getTrueExpr(), Cond->getFalseExpr()});
  return Variance::Thread;
}

Variance UniformityAnalysis::varianceOfCall(const CallExpr *Call) {
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call)) {
    // The DSL's arithmetic operators are global templates (as in the real
    // operators.h); a call operator runs a Callable, which may read anything.
    if (Op->getOperator() == OO_Call ||
        (!isDslFunction(Op->getDirectCallee()) && !isDslValueType(Op->getType())))
      return Variance::Thread;
    if (Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2 &&
        !sharedElementType(Op->getArg(0)->IgnoreParenImpCasts()->getType()).isNull())
      return join(Variance::Block, varianceOf(Op->getArg(1)));
    return joinOf({Op->getArgs(), Op->getNumArgs()});
  }
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call)) {
    const CXXMethodDecl *Method = Member->getMethodDecl();
    if (!isDslFunction(Method) || !Method->getIdentifier() || isAtomicOperation(Method->getName()))
      return Variance::Thread;
    const Expr *Object = Member->getImplicitObjectArgument();
    Variance V = Object ? varianceOf(Object) : Variance::Thread;
    // Shared memory holds one copy per block.
    if (Object && !sharedElementType(Object->IgnoreParenImpCasts()->getType()).isNull())
      V = join(V, Variance::Block);
    return join(V, joinOf({Member->getArgs(), Member->getNumArgs()}));
  }
  StringRef Name = dslCallName(Call);
  if (Name.empty())
    return Variance::Thread; // A helper or Callable may read thread ids.
  if (Name == "warp_read_lane" && Call->getNumArgs() == 2)
    return varianceOf(Call->getArg(1)) <= Variance::Warp ? Variance::Warp : Variance::Thread;
  if (auto Fixed = builtinVariance(Name))
    return *Fixed;
  return joinOf({Call->getArgs(), Call->getNumArgs()});
}

Variance UniformityAnalysis::varianceOfVariable(const VarDecl *Var) {
  Var = Var->getCanonicalDecl();
  if (!isDslValueType(Var->getType()))
    return Variance::Grid;
  if (auto It = Variables.find(Var); It != Variables.end())
    return It->second;
  if (InProgress.contains(Var)) {
    // A cycle (`x = x + 1`): the other contributions decide.
    ++Assumptions;
    return Variance::Grid;
  }
  Variance V = Variance::Thread;
  const Stmt *Declaration = nullptr;
  if (const auto *Parm = dyn_cast<ParmVarDecl>(Var)) {
    const LambdaExpr *Lambda = lambdaOfParameter(Parm, Ctx);
    // Kernel arguments are the same for every thread; Callable and helper
    // parameters are whatever their callers pass.
    if (!Lambda || lambdaRole(Lambda, Ctx) != LambdaRole::Kernel)
      return Variance::Thread;
    V = Variance::Grid;
  } else if (Var->isLocalVarDecl()) {
    V = Variance::Grid; // DSL locals start as zero, the same everywhere.
    for (const DynTypedNode &Parent : Ctx.getParents(*Var))
      if (const auto *Decl = Parent.get<DeclStmt>())
        Declaration = Decl;
  } else {
    return Variance::Thread;
  }
  unsigned AssumptionsBefore = Assumptions;
  InProgress.insert(Var);
  if (const auto *Loop = deviceLoopOf(Var, Ctx))
    V = join(V, joinOf(*deviceRangeArguments(Loop)));
  else if (Var->getInit())
    V = join(V, varianceOf(Var->getInit()));
  for (const VariableWrite &Write : Writes.writesOf(Var)) {
    if (V == Variance::Thread)
      break;
    if (!Write.Value) {
      V = Variance::Thread;
      break;
    }
    V = join(V, varianceOf(Write.Value));
    // A store under a condition that not all threads share makes the
    // variable differ between the threads that stored and those that did not.
    for (const DslControl &Control :
         Flow.controlsBetween(Write.Write, Declaration ? Declaration : Write.Write))
      V = join(V, conditionsOf(Control));
  }
  InProgress.erase(Var);
  if (Assumptions == AssumptionsBefore)
    Variables[Var] = V;
  return V;
}

Variance UniformityAnalysis::conditionsOf(const DslControl &Control) {
  Variance V = joinOf(Control.Conditions);
  if (!Control.isLoop() || V == Variance::Thread)
    return V;
  // Threads that leave a loop early make later iterations divergent.
  auto [It, Inserted] = LoopExits.try_emplace(Control.Body, Variance::Grid);
  if (!Inserted)
    return join(V, It->second);
  Variance Exits = Variance::Grid;
  for (const ControlFlowAnalysis::LoopExit &Leaving : Flow.exitsLeaving(Control))
    for (const DslControl &C : Leaving.Inside)
      Exits = join(Exits, conditionsOf(C));
  LoopExits[Control.Body] = Exits;
  return join(V, Exits);
}

Variance UniformityAnalysis::priorExitsOf(const Stmt *S) {
  Variance V = Variance::Grid;
  for (const ControlFlowAnalysis::PriorReturn &Return : Flow.returnsBefore(S))
    for (const DslControl &C : Flow.controlsBetween(Return.Exit.Call, Return.Holder))
      V = join(V, conditionsOf(C));
  return V;
}

Variance UniformityAnalysis::controlOf(const Stmt *S) {
  if (auto It = Controls.find(S); It != Controls.end())
    return It->second;
  Variance V = priorExitsOf(S);
  ControlSummary Summary = Flow.enclosing(S);
  for (const DslControl &Control : Summary.Controls)
    V = join(V, conditionsOf(Control));
  // A helper's statements run with the threads that call it. (A recursive
  // call adds nothing: its own callers are counted once.)
  if (V < Variance::Thread && Summary.Body && BodiesInProgress.insert(Summary.Body).second) {
    for (const CallExpr *Call : callersOf(Summary.Body)) {
      V = join(V, controlOf(anchorStatement(Call, Ctx)));
      if (V == Variance::Thread)
        break;
    }
    BodiesInProgress.erase(Summary.Body);
  }
  Controls[S] = V;
  return V;
}

const Stmt *UniformityAnalysis::divergentCause(const Stmt *S, Variance Bound) {
  for (const DslControl &Control : Flow.enclosing(S).Controls) {
    for (const Expr *Cond : Control.Conditions)
      if (varianceOf(Cond) > Bound)
        return Cond;
    if (conditionsOf(Control) > Bound)
      return Control.Statement; // An exit inside the loop.
  }
  return priorExitsOf(S) > Bound ? S : nullptr;
}

bool UniformityAnalysis::isLaneId(const Expr *E) {
  E = stripDslWrappers(E);
  if (!E)
    return false;
  if (dslCallName(E) == "warp_lane_id")
    return true;
  if (const auto *Member = dyn_cast<MemberExpr>(E)) {
    const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
    return Field && isLaneIdField(Field);
  }
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || isa<ParmVarDecl>(Var) || !Var->hasInit() || !Var->isLocalVarDecl())
    return false;
  return dslCallName(stripDslWrappers(Var->getInit())) == "warp_lane_id" && !Writes.isWritten(Var);
}

namespace {

/// True if each constructor of \p Field's class that can build an object in
/// this translation unit initialises \p Field from `warp_lane_id()`.
bool constructorsInitialiseLaneId(const FieldDecl *Field) {
  const auto *Class = dyn_cast<CXXRecordDecl>(Field->getParent());
  if (!Class || !Class->hasDefinition() || !isDslValueType(Field->getType()) ||
      Field->hasInClassInitializer())
    return false;
  bool Template = isa<ClassTemplateSpecializationDecl>(Class);
  // A constructor template may build objects in ways not checked here.
  for (const Decl *Member : Class->decls())
    if (const auto *Function = dyn_cast<FunctionTemplateDecl>(Member);
        Function && isa<CXXConstructorDecl>(Function->getTemplatedDecl()))
      return false;
  unsigned Initialising = 0;
  for (const CXXConstructorDecl *Constructor : Class->ctors()) {
    if (Constructor->isCopyOrMoveConstructor() && !Constructor->isUserProvided())
      continue; // Copies the lane id of an object of the same class.
    const FunctionDecl *Definition = nullptr;
    if (!Constructor->hasBody(Definition)) {
      // A specialization's constructor that nothing called was never
      // instantiated: no object is built with it.
      if (Template && !Constructor->isImplicit())
        continue;
      return false;
    }
    const auto *Defined = cast<CXXConstructorDecl>(Definition);
    const CXXCtorInitializer *Init = nullptr;
    for (const CXXCtorInitializer *I : Defined->inits())
      if (I->getMember() == Field && I->isWritten())
        Init = I;
    const Expr *Value = Init ? Init->getInit() : nullptr;
    // A template's own initialiser may stay unchecked: `lane(warp_lane_id())`.
    if (const auto *List = dyn_cast_or_null<ParenListExpr>(Value); List && List->getNumExprs() == 1)
      Value = List->getExpr(0);
    if (!Value || dslCallName(stripDslWrappers(Value)) != "warp_lane_id")
      return false;
    ++Initialising;
  }
  return Initialising > 0;
}

/// The field of \p Class named as \p Field is, if any.
const FieldDecl *sameField(const CXXRecordDecl *Class, const FieldDecl *Field) {
  for (const FieldDecl *F : Class->fields())
    if (F->getDeclName() == Field->getDeclName())
      return F;
  return nullptr;
}

} // namespace

bool UniformityAnalysis::isLaneIdField(const FieldDecl *Field, bool InThisTranslationUnit) {
  auto It = LaneFields.find(Field);
  if (It == LaneFields.end()) {
    auto Holds = [&](const FieldDecl *F) {
      return F && constructorsInitialiseLaneId(F) && !Writes.isFieldWritten(F);
    };
    bool Here = Holds(Field), Everywhere = Here;
    if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(Field->getParent());
        Spec && Here) {
      const ClassTemplateDecl *Template = Spec->getSpecializedTemplate();
      Here = llvm::all_of(Template->specializations(), [&](const auto *Other) {
        return Other == Spec || !Other->hasDefinition() || Holds(sameField(Other, Field));
      });
      // Other translation units instantiate the template's own code (a write
      // in a discarded `if constexpr` branch here may run there).
      llvm::SmallVector<ClassTemplatePartialSpecializationDecl *, 1> Partial;
      const_cast<ClassTemplateDecl *>(Template)->getPartialSpecializations(Partial);
      Everywhere = Here && Partial.empty() && Holds(sameField(Template->getTemplatedDecl(), Field));
    }
    It = LaneFields.try_emplace(Field, Here, Everywhere).first;
  }
  return InThisTranslationUnit ? It->second.first : It->second.second;
}

namespace {

/// A local variable initialised once and never written again: its uses
/// stand for its initialiser.
const Expr *fixedInitialiser(const Expr *E, WriteAnalysis &Writes) {
  const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || isa<ParmVarDecl>(Var) || !Var->isLocalVarDecl() || !Var->hasInit() ||
      Writes.isWritten(Var))
    return nullptr;
  return Var->getInit();
}

/// True if \p E is `thread_id()` or `dispatch_id()`, or a fixed local holding it.
bool isThreadIndexVectorValue(const Expr *E, WriteAnalysis &Writes) {
  E = stripDslWrappers(E);
  if (!E)
    return false;
  if (const Expr *Init = fixedInitialiser(E, Writes))
    return isThreadIndexVectorValue(Init, Writes);
  return isThreadIndexVector(dslCallName(E->IgnoreParenImpCasts()));
}

constexpr uint64_t Word = 0xFFFFFFFFu; // DSL integer arithmetic wraps at 32 bits.

} // namespace

std::optional<UniformityAnalysis::ThreadLine> UniformityAnalysis::threadLineOf(const Expr *E) {
  E = stripDslWrappers(E);
  if (!E || !dslValueType(E->getType())->isIntegerType())
    return std::nullopt;
  E = E->IgnoreParenImpCasts();
  if (const Expr *Init = fixedInitialiser(E, Writes))
    return threadLineOf(Init);
  StringRef Name = dslCallName(E);
  if (isThreadIndexComponent(Name))
    return ThreadLine{static_cast<unsigned>(Name.back() - 'x'), 1};
  if (const auto *Member = dyn_cast<MemberExpr>(E)) {
    const IdentifierInfo *Field = Member->getMemberDecl()->getIdentifier();
    StringRef Component = Field ? Field->getName() : "";
    if (Component.size() == 1 && Component[0] >= 'x' && Component[0] <= 'z' &&
        isThreadIndexVectorValue(Member->getBase(), Writes))
      return ThreadLine{static_cast<unsigned>(Component[0] - 'x'), 1};
    return std::nullopt;
  }
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
  if (!Op || Op->getNumArgs() != 2)
    return std::nullopt;
  const Expr *L = Op->getArg(0), *R = Op->getArg(1);
  auto Scaled = [](std::optional<ThreadLine> Line, uint64_t Factor) -> std::optional<ThreadLine> {
    if (!Line || (Line->Stride * Factor & Word) == 0)
      return std::nullopt;
    Line->Stride = Line->Stride * Factor & Word;
    return Line;
  };
  auto Constant = [&](const Expr *Side) { return evaluateHostInt(stripDslWrappers(Side), Ctx); };
  switch (Op->getOperator()) {
  case OO_Plus:
  case OO_Minus:
    // Adding the same value in every lane of a warp keeps the differences.
    if (auto Line = threadLineOf(L); Line && varianceOf(R) <= Variance::Warp)
      return Line;
    if (auto Line = threadLineOf(R); Line && varianceOf(L) <= Variance::Warp)
      return Op->getOperator() == OO_Plus ? Line : Scaled(Line, Word); // -x = x * (2^32 - 1).
    return std::nullopt;
  case OO_Star:
    if (auto Factor = Constant(R))
      return Scaled(threadLineOf(L), static_cast<uint64_t>(*Factor) & Word);
    if (auto Factor = Constant(L))
      return Scaled(threadLineOf(R), static_cast<uint64_t>(*Factor) & Word);
    return std::nullopt;
  case OO_LessLess:
    if (auto Shift = Constant(R); Shift && *Shift >= 0 && *Shift < 32)
      return Scaled(threadLineOf(L), uint64_t(1) << *Shift);
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

bool UniformityAnalysis::warpsLieInRows(const Stmt *S) {
  if (!Blocks || !Widths)
    return false;
  auto Shape = Blocks->sizeAt(S).known();
  unsigned Widest = Widths->widthAt(S).Widest;
  if (!Shape || Widest == 0)
    return false;
  // Lanes are consecutive threads of the block, row by row.
  return ((*Shape)[1] == 1 && (*Shape)[2] == 1) || (*Shape)[0] % Widest == 0;
}

bool UniformityAnalysis::admitsOneLaneOfARow(const Expr *Equal, const Expr *Side,
                                             const Expr *Other) {
  if (varianceOf(Other) > Variance::Warp)
    return false;
  // The lanes of a warp in one row hold consecutive x-indices t..t+k (k below
  // the warp width): `a + s * x` differ between two of them by s * d, d below
  // the warp width, which is not 0 modulo 2^32 for an odd s, nor modulo a
  // power of two M (a divisor of 2^32) when M / gcd(s, M) is at least the width.
  Side = stripDslWrappers(Side);
  if (!Side)
    return false;
  if (auto Line = threadLineOf(Side); Line && Line->Dim == 0 && Line->Stride % 2 == 1)
    return warpsLieInRows(Equal);
  const auto *Mod = dyn_cast<CXXOperatorCallExpr>(Side->IgnoreParenImpCasts());
  if (!Mod || Mod->getOperator() != OO_Percent || Mod->getNumArgs() != 2)
    return false;
  std::optional<int64_t> Modulus = evaluateHostInt(stripDslWrappers(Mod->getArg(1)), Ctx);
  auto Line = threadLineOf(Mod->getArg(0));
  if (!Modulus || *Modulus <= 0 || *Modulus > int64_t(Word) + 1 || !llvm::isPowerOf2_64(*Modulus) ||
      !Line || Line->Dim != 0 || !warpsLieInRows(Equal))
    return false;
  uint64_t Period = uint64_t(*Modulus) / std::gcd(Line->Stride, uint64_t(*Modulus));
  return Period >= Widths->widthAt(Equal).Widest;
}

void UniformityAnalysis::pinnedDimensions(const Expr *Cond, unsigned &Pinned) {
  Cond = stripDslWrappers(Cond);
  const auto *Op = Cond ? dyn_cast<CXXOperatorCallExpr>(Cond) : nullptr;
  if (!Op || Op->getNumArgs() != 2)
    return;
  const Expr *L = Op->getArg(0), *R = Op->getArg(1);
  if (Op->getOperator() == OO_Amp || Op->getOperator() == OO_AmpAmp) {
    pinnedDimensions(L, Pinned);
    pinnedDimensions(R, Pinned);
    return;
  }
  if (Op->getOperator() != OO_EqualEqual)
    return;
  // An odd multiple of an index equal to a warp-uniform value leaves one
  // index per warp (the multiple is invertible modulo 2^32).
  for (auto [Side, Other] : {std::pair(L, R), std::pair(R, L)})
    if (auto Line = threadLineOf(Side);
        Line && Line->Stride % 2 == 1 && varianceOf(Other) <= Variance::Warp)
      Pinned |= 1u << Line->Dim;
}

bool UniformityAnalysis::admitsOneLanePerWarp(const Expr *Cond) {
  Cond = stripDslWrappers(Cond);
  if (!Cond)
    return false;
  if (isDslCall(Cond, "warp_is_first_active_lane"))
    return true;
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(Cond);
  if (!Op || Op->getNumArgs() != 2)
    return false;
  const Expr *L = Op->getArg(0), *R = Op->getArg(1);
  switch (Op->getOperator()) {
  case OO_AmpAmp:
  case OO_Amp: {
    if (admitsOneLanePerWarp(L) || admitsOneLanePerWarp(R))
      return true;
    // One thread of the block: every dimension that may have more than one
    // thread is pinned (warps never span blocks).
    unsigned Pinned = 0, Needed = 7;
    pinnedDimensions(Cond, Pinned);
    if (auto Shape = Blocks ? Blocks->sizeAt(Cond).known() : std::nullopt)
      for (unsigned Dim = 0; Dim < 3; ++Dim)
        if ((*Shape)[Dim] == 1)
          Needed &= ~(1u << Dim);
    return (Pinned & Needed) == Needed;
  }
  case OO_EqualEqual:
    // Distinct lanes have distinct ids, so one value matches one lane.
    return (isLaneId(L) && varianceOf(R) <= Variance::Warp) ||
           (isLaneId(R) && varianceOf(L) <= Variance::Warp) || admitsOneLaneOfARow(Cond, L, R) ||
           admitsOneLaneOfARow(Cond, R, L);
  default:
    return false;
  }
}

bool UniformityAnalysis::runsOnOneLanePerWarp(const Stmt *S) {
  for (const DslControl &Control : Flow.enclosing(S).Controls)
    if ((Control.K == DslControl::If || Control.K == DslControl::Elif) &&
        !Control.Conditions.empty() && admitsOneLanePerWarp(Control.Conditions.back()))
      return true;
  return false;
}

} // namespace kernel_tidy::dsl
