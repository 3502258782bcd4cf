//===--- DslModel.cpp - What a LuisaCompute DSL construct is --------------===//

#include "src/dsl/DslModel.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace kernel_tidy::dsl {

StringRef collectiveSuffix(CombineOp Op) {
  switch (Op) {
  case CombineOp::Sum:
    return "sum";
  case CombineOp::Product:
    return "product";
  case CombineOp::Min:
    return "min";
  case CombineOp::Max:
    return "max";
  case CombineOp::BitAnd:
    return "bit_and";
  case CombineOp::BitOr:
    return "bit_or";
  case CombineOp::BitXor:
    return "bit_xor";
  }
  llvm_unreachable("unknown CombineOp");
}

bool isInLuisaCompute(const Decl *D) {
  const DeclContext *Ctx = D ? D->getDeclContext() : nullptr;
  // Walk out through records and inline namespaces to the first named one.
  bool SawCompute = false;
  for (; Ctx; Ctx = Ctx->getParent()) {
    const auto *NS = dyn_cast<NamespaceDecl>(Ctx);
    if (!NS)
      continue;
    if (NS->isInline() && !SawCompute)
      continue;
    if (!SawCompute) {
      if (NS->getName() != "compute")
        return false;
      SawCompute = true;
      continue;
    }
    return NS->getName() == "luisa" &&
           isa<TranslationUnitDecl>(NS->getDeclContext());
  }
  return false;
}

static const FunctionDecl *directCallee(const Expr *E) {
  const auto *Call = dyn_cast_or_null<CallExpr>(E);
  if (!Call || isa<CXXOperatorCallExpr>(Call) || isa<CXXMemberCallExpr>(Call))
    return nullptr;
  return Call->getDirectCallee();
}

StringRef dslCallName(const Expr *E) {
  if (!E)
    return "";
  const FunctionDecl *FD = directCallee(E->IgnoreParenImpCasts());
  if (!FD || !FD->getIdentifier() || !isInLuisaCompute(FD))
    return "";
  return FD->getName();
}

static bool isDslWrapperRecord(const CXXRecordDecl *RD) {
  if (!RD || !RD->getIdentifier())
    return false;
  // Ref<T> lives in luisa::compute::detail.
  const auto *Detail = dyn_cast<NamespaceDecl>(RD->getDeclContext());
  bool InDetail = Detail && Detail->getName() == "detail" && isInLuisaCompute(Detail);
  if (!InDetail && !isInLuisaCompute(RD))
    return false;
  return llvm::StringSwitch<bool>(RD->getName())
      .Cases("Var", "Expr", "Ref", "RefBase", true)
      .Default(false);
}

/// The class template specialization a DSL value type names.
static const ClassTemplateSpecializationDecl *dslWrapperOf(QualType T) {
  T = T.getNonReferenceType().getCanonicalType();
  const auto *Spec =
      dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl());
  if (!Spec || !isDslWrapperRecord(Spec) || Spec->getTemplateArgs().size() < 1)
    return nullptr;
  return Spec;
}

bool isDslValueType(QualType T) {
  if (dslWrapperOf(T))
    return true;
  // Types derived from Var<T> (e.g. BufferVar is not; user structs are).
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition())
    return false;
  for (const CXXBaseSpecifier &Base : RD->bases())
    if (isDslValueType(Base.getType()))
      return true;
  return false;
}

QualType dslValueType(QualType T) {
  if (const auto *Spec = dslWrapperOf(T))
    return Spec->getTemplateArgs()[0].getAsType();
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (RD && RD->hasDefinition())
    for (const CXXBaseSpecifier &Base : RD->bases())
      if (isDslValueType(Base.getType()))
        return dslValueType(Base.getType());
  return T.getNonReferenceType();
}

bool isFloatingValue(QualType T) {
  T = dslValueType(T).getCanonicalType();
  if (T->isRealFloatingType())
    return true;
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->getIdentifier())
    return false;
  if (RD->getName() == "half")
    return true;
  // luisa::Vector<T, N> and luisa::Matrix<N> (float matrices only).
  if (RD->getName() == "Matrix")
    return true;
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
    if (Spec->getName() == "Vector" && Spec->getTemplateArgs().size() >= 1 &&
        Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
      return isFloatingValue(Spec->getTemplateArgs()[0].getAsType());
  return false;
}

QualType sharedElementType(QualType T) {
  T = T.getNonReferenceType();
  if (T->isPointerType())
    T = T->getPointeeType();
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getCanonicalType()->getAsCXXRecordDecl());
  if (!Spec || Spec->getName() != "Shared" || !isInLuisaCompute(Spec) ||
      Spec->getTemplateArgs().size() != 1)
    return {};
  return Spec->getTemplateArgs()[0].getAsType();
}

const Expr *stripDslWrappers(const Expr *E) {
  while (E) {
    const Expr *Next = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(Next)) {
      // Copies, moves and conversions between DSL wrappers keep the value.
      if (Construct->getNumArgs() == 1 && isDslValueType(Construct->getType()))
        Next = Construct->getArg(0);
    } else if (const auto *Conversion = dyn_cast<CXXMemberCallExpr>(Next)) {
      // Var<T> -> Expr<T> goes through Ref<T>::operator Expr<T>().
      if (isa_and_nonnull<CXXConversionDecl>(Conversion->getMethodDecl()) &&
          isDslValueType(Conversion->getType()))
        Next = Conversion->getImplicitObjectArgument();
    } else if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(Next)) {
      Next = Cast->getSubExpr();
    } else if (const auto *List = dyn_cast<InitListExpr>(Next)) {
      if (List->getNumInits() == 1)
        Next = List->getInit(0);
    } else if (dslCallName(Next) == "def") {
      const auto *Call = cast<CallExpr>(Next->IgnoreParenImpCasts());
      if (Call->getNumArgs() == 1)
        Next = Call->getArg(0);
    }
    if (Next == E)
      return E;
    E = Next;
  }
  return E;
}

bool isDslCall(const Expr *E, StringRef Name) {
  return dslCallName(stripDslWrappers(E)) == Name;
}

bool isSameVariable(const Expr *A, const Expr *B) {
  A = stripDslWrappers(A);
  B = stripDslWrappers(B);
  if (!A || !B)
    return false;
  if (const auto *RefA = dyn_cast<DeclRefExpr>(A)) {
    const auto *RefB = dyn_cast<DeclRefExpr>(B);
    return RefB && RefA->getDecl()->getCanonicalDecl() ==
                       RefB->getDecl()->getCanonicalDecl();
  }
  if (const auto *MemA = dyn_cast<MemberExpr>(A)) {
    const auto *MemB = dyn_cast<MemberExpr>(B);
    if (!MemB || MemA->getMemberDecl() != MemB->getMemberDecl())
      return false;
    const Expr *BaseA = MemA->getBase()->IgnoreParenImpCasts();
    const Expr *BaseB = MemB->getBase()->IgnoreParenImpCasts();
    if (isa<CXXThisExpr>(BaseA) && isa<CXXThisExpr>(BaseB))
      return true;
    return isSameVariable(BaseA, BaseB);
  }
  return false;
}

const Stmt *parentStmt(const Stmt *S, ASTContext &Ctx) {
  DynTypedNodeList Parents = Ctx.getParents(*S);
  if (Parents.empty())
    return nullptr;
  if (const auto *Parent = Parents[0].get<Stmt>())
    return Parent;
  // A lambda body hangs off the closure's call operator, not the LambdaExpr.
  const auto *Method = Parents[0].get<CXXMethodDecl>();
  if (!Method || !Method->getParent()->isLambda() || Method->getBody() != S)
    return nullptr;
  for (DynTypedNodeList Up = Ctx.getParents(*Method->getParent()); !Up.empty();
       Up = Ctx.getParents(Up[0]))
    if (const auto *Lambda = Up[0].get<LambdaExpr>())
      return Lambda;
  return nullptr;
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

namespace {
/// Finds writes to one variable: assignments, compound assignments, ++/--.
class WriteFinder : public RecursiveASTVisitor<WriteFinder> {
public:
  explicit WriteFinder(const VarDecl *Var) : Var(Var) {}
  bool Found = false;

  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Call) {
    if (Call->getNumArgs() >= 1 && isWrite(Call->getOperator()) &&
        refersToVar(Call->getArg(0)))
      Found = true;
    return !Found;
  }
  bool VisitBinaryOperator(BinaryOperator *Op) {
    if (Op->isAssignmentOp() && refersToVar(Op->getLHS()))
      Found = true;
    return !Found;
  }
  bool VisitUnaryOperator(UnaryOperator *Op) {
    if ((Op->isIncrementDecrementOp() || Op->getOpcode() == UO_AddrOf) &&
        refersToVar(Op->getSubExpr()))
      Found = true;
    return !Found;
  }
  bool shouldVisitLambdaBody() const { return true; }

private:
  static bool isWrite(OverloadedOperatorKind Kind) {
    switch (Kind) {
    case OO_Equal:
    case OO_PlusEqual:
    case OO_MinusEqual:
    case OO_StarEqual:
    case OO_SlashEqual:
    case OO_PercentEqual:
    case OO_AmpEqual:
    case OO_PipeEqual:
    case OO_CaretEqual:
    case OO_LessLessEqual:
    case OO_GreaterGreaterEqual:
    case OO_PlusPlus:
    case OO_MinusMinus:
      return true;
    default:
      return false;
    }
  }
  bool refersToVar(const Expr *E) const {
    const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return Ref && Ref->getDecl()->getCanonicalDecl() == Var->getCanonicalDecl();
  }
  const VarDecl *Var;
};
} // namespace

bool isReassigned(const VarDecl *Var, const Stmt *Scope, ASTContext &Ctx) {
  if (!Scope)
    return true;
  WriteFinder Finder(Var);
  Finder.TraverseStmt(const_cast<Stmt *>(Scope));
  return Finder.Found;
}

namespace {
thread_local ScanCache *CurrentScanCache = nullptr;

/// The body of the function or lambda whose body declares \p Var.
const Stmt *declaringBody(const VarDecl *Var, ASTContext &Ctx) {
  for (const DynTypedNode &Parent : Ctx.getParents(*Var))
    if (const auto *Decl = Parent.get<DeclStmt>())
      return enclosingFunctionBody(Decl, Ctx);
  return nullptr;
}
} // namespace

UseScanCache::UseScanCache(ScanCache &Cache) : Previous(CurrentScanCache) {
  CurrentScanCache = &Cache;
}

UseScanCache::~UseScanCache() { CurrentScanCache = Previous; }

bool isReassignedAfterDeclaration(const VarDecl *Var, ASTContext &Ctx) {
  if (!CurrentScanCache)
    return isReassigned(Var, declaringBody(Var, Ctx), Ctx);
  auto [It, Inserted] = CurrentScanCache->Reassigned.try_emplace(Var, true);
  if (Inserted)
    It->second = isReassigned(Var, declaringBody(Var, Ctx), Ctx);
  return It->second;
}

bool isWarpLaneId(const Expr *E, ASTContext &Ctx) {
  E = stripDslWrappers(E);
  if (!E)
    return false;
  if (dslCallName(E) == "warp_lane_id")
    return true;
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || isa<ParmVarDecl>(Var) || !Var->hasInit() ||
      !Var->isLocalVarDecl())
    return false;
  if (dslCallName(stripDslWrappers(Var->getInit())) != "warp_lane_id")
    return false;
  return !isReassignedAfterDeclaration(Var, Ctx);
}

static std::optional<int64_t> evaluateBinary(BinaryOperatorKind Op, int64_t L,
                                             int64_t R) {
  switch (Op) {
  case BO_Add:
    return L + R;
  case BO_Sub:
    return L - R;
  case BO_Mul:
    return L * R;
  case BO_Div:
    return R == 0 ? std::nullopt : std::optional<int64_t>(L / R);
  case BO_Rem:
    return R == 0 ? std::nullopt : std::optional<int64_t>(L % R);
  case BO_Shl:
    return R < 0 || R > 62 ? std::nullopt : std::optional<int64_t>(L << R);
  case BO_Shr:
    return R < 0 || R > 63 ? std::nullopt : std::optional<int64_t>(L >> R);
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
  default:
    return std::nullopt;
  }
}

std::optional<int64_t> evaluateHostInt(const Expr *E, const ASTContext &Ctx,
                                       const HostBindings &Bindings) {
  if (!E)
    return std::nullopt;
  E = E->IgnoreParenImpCasts();
  if (isDslValueType(E->getType()))
    return std::nullopt;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    if (Var) {
      auto Bound = Bindings.find(Var);
      if (Bound != Bindings.end())
        return Bound->second;
    }
  }
  if (const auto *Bin = dyn_cast<BinaryOperator>(E)) {
    auto L = evaluateHostInt(Bin->getLHS(), Ctx, Bindings);
    auto R = evaluateHostInt(Bin->getRHS(), Ctx, Bindings);
    if (!L || !R)
      return std::nullopt;
    return evaluateBinary(Bin->getOpcode(), *L, *R);
  }
  if (const auto *Un = dyn_cast<UnaryOperator>(E)) {
    auto V = evaluateHostInt(Un->getSubExpr(), Ctx, Bindings);
    if (!V)
      return std::nullopt;
    switch (Un->getOpcode()) {
    case UO_Minus:
      return -*V;
    case UO_Plus:
      return *V;
    case UO_Not:
      return ~*V;
    case UO_LNot:
      return !*V;
    default:
      return std::nullopt;
    }
  }
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E))
    return evaluateHostInt(Cast->getSubExpr(), Ctx, Bindings);
  if (E->isValueDependent() || E->isTypeDependent() ||
      !E->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  Expr::EvalResult Result;
  if (!E->EvaluateAsInt(Result, Ctx))
    return std::nullopt;
  return Result.Val.getInt().getExtValue();
}

/// Applies the increment of a host loop to the loop variable's value.
static std::optional<int64_t> stepHostLoop(const Expr *Inc,
                                           const VarDecl *Var, int64_t Value,
                                           const ASTContext &Ctx) {
  HostBindings Bindings{{Var, Value}};
  Inc = Inc->IgnoreParenImpCasts();
  auto RefersToVar = [&](const Expr *E) {
    const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return Ref && Ref->getDecl() == Var;
  };
  if (const auto *Un = dyn_cast<UnaryOperator>(Inc)) {
    if (!RefersToVar(Un->getSubExpr()))
      return std::nullopt;
    if (Un->isIncrementOp())
      return Value + 1;
    if (Un->isDecrementOp())
      return Value - 1;
    return std::nullopt;
  }
  if (const auto *Assign = dyn_cast<CompoundAssignOperator>(Inc)) {
    if (!RefersToVar(Assign->getLHS()))
      return std::nullopt;
    auto R = evaluateHostInt(Assign->getRHS(), Ctx, Bindings);
    if (!R)
      return std::nullopt;
    return evaluateBinary(
        BinaryOperator::getOpForCompoundAssignment(Assign->getOpcode()), Value,
        *R);
  }
  if (const auto *Assign = dyn_cast<BinaryOperator>(Inc)) {
    if (Assign->getOpcode() != BO_Assign || !RefersToVar(Assign->getLHS()))
      return std::nullopt;
    return evaluateHostInt(Assign->getRHS(), Ctx, Bindings);
  }
  return std::nullopt;
}

std::optional<HostLoop> evaluateHostLoop(const ForStmt *Loop,
                                         const ASTContext &Ctx,
                                         unsigned MaxIterations) {
  const auto *Init = dyn_cast_or_null<DeclStmt>(Loop->getInit());
  if (!Init || !Init->isSingleDecl() || !Loop->getCond() || !Loop->getInc())
    return std::nullopt;
  const auto *Var = dyn_cast<VarDecl>(Init->getSingleDecl());
  if (!Var || !Var->getType()->isIntegerType() || !Var->hasInit())
    return std::nullopt;
  auto Value = evaluateHostInt(Var->getInit(), Ctx);
  if (!Value)
    return std::nullopt;
  HostLoop Result{Var, {}};
  for (unsigned Iteration = 0;; ++Iteration) {
    auto Continue = evaluateHostInt(Loop->getCond(), Ctx, {{Var, *Value}});
    if (!Continue)
      return std::nullopt;
    if (!*Continue)
      break;
    if (Iteration == MaxIterations)
      return std::nullopt;
    Result.Values.push_back(*Value);
    Value = stepHostLoop(Loop->getInc(), Var, *Value, Ctx);
    if (!Value)
      return std::nullopt;
    // Unsigned loop variables wrap; a wrapped value ends any sane loop.
    if (Var->getType()->isUnsignedIntegerType() && *Value < 0)
      return std::nullopt;
  }
  return Result;
}

namespace {
/// Collects `set_warp_size(...)` calls below a statement.
class WarpSizeFinder : public RecursiveASTVisitor<WarpSizeFinder> {
public:
  std::vector<const CallExpr *> Calls;
  bool VisitCallExpr(CallExpr *Call) {
    if (dslCallName(Call) == "set_warp_size")
      Calls.push_back(Call);
    return true;
  }
  bool shouldVisitLambdaBody() const { return true; }
};
} // namespace

/// What the set_warp_size calls directly in \p Body say (nested lambdas
/// included): nothing, one width, or widths that are unknown or conflict.
static WarpSizeSetting warpSizeSetIn(const Stmt *Body, ASTContext &Ctx) {
  WarpSizeFinder Finder;
  Finder.TraverseStmt(const_cast<Stmt *>(Body));
  if (Finder.Calls.empty())
    return {false, std::nullopt};
  std::optional<unsigned> Width;
  for (const CallExpr *Call : Finder.Calls) {
    auto Value = Call->getNumArgs() == 1 ? evaluateHostInt(Call->getArg(0), Ctx)
                                         : std::nullopt;
    if (!Value || *Value <= 0 || (Width && *Width != *Value))
      return {true, std::nullopt}; // Unknown or conflicting widths.
    Width = static_cast<unsigned>(*Value);
  }
  return {true, Width};
}

std::optional<unsigned> inferWarpSize(const Stmt *S, ASTContext &Ctx) {
  // The innermost enclosing function or lambda that sets a warp size is the
  // kernel (or the kernel-building helper) that S belongs to.
  for (const Stmt *Body = enclosingFunctionBody(S, Ctx); Body;
       Body = enclosingFunctionBody(Body, Ctx)) {
    WarpSizeSetting Setting;
    if (CurrentScanCache) {
      auto [It, Inserted] = CurrentScanCache->WarpSizes.try_emplace(Body);
      if (Inserted)
        It->second = warpSizeSetIn(Body, Ctx);
      Setting = It->second;
    } else {
      Setting = warpSizeSetIn(Body, Ctx);
    }
    if (Setting.SetsWidth)
      return Setting.Width;
  }
  return std::nullopt;
}

/// True if \p Lambda is the body of a kernel (Kernel1D/2D/3D or compiled
/// directly by a device), whose parameters are the same for every thread.
static bool isKernelLambda(const LambdaExpr *Lambda, ASTContext &Ctx) {
  DynTypedNodeList Parents = Ctx.getParents(*Lambda);
  for (unsigned Depth = 0; !Parents.empty() && Depth < 8; ++Depth) {
    const DynTypedNode &Node = Parents[0];
    QualType Type;
    if (const auto *Var = Node.get<VarDecl>())
      Type = Var->getType();
    else if (const auto *E = Node.get<Expr>())
      Type = E->getType();
    if (!Type.isNull())
      if (const auto *RD = Type.getNonReferenceType()->getAsCXXRecordDecl())
        if (RD->getIdentifier() && RD->getName().starts_with("Kernel") &&
            isInLuisaCompute(RD))
          return true;
    if (const auto *Call = Node.get<CXXMemberCallExpr>())
      if (const auto *Method = Call->getMethodDecl())
        if (Method->getIdentifier() && Method->getName() == "compile")
          return true;
    if (Node.get<Stmt>() && !Node.get<Expr>())
      return false;
    Parents = Ctx.getParents(Node);
  }
  return false;
}

static bool isUniformBuiltin(StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
      .Cases("block_id", "block_x", "block_y", "block_z", true)
      .Cases("dispatch_size", "dispatch_size_x", "dispatch_size_y",
             "dispatch_size_z", true)
      .Cases("block_size", "block_size_x", "block_size_y", "block_size_z", true)
      .Cases("warp_lane_count", "kernel_id", "object_id", true)
      .Default(false);
}

static bool isThreadVaryingBuiltin(StringRef Name) {
  return Name.starts_with("thread_") || Name.starts_with("dispatch_id") ||
         Name.starts_with("dispatch_x") || Name.starts_with("dispatch_y") ||
         Name.starts_with("dispatch_z") || Name.starts_with("warp_");
}

static bool isUniformImpl(const Expr *E, ASTContext &Ctx, unsigned Depth) {
  if (!E || Depth > 32)
    return false;
  E = stripDslWrappers(E);
  if (!isDslValueType(E->getType()) && !E->getType()->isRecordType())
    return !E->HasSideEffects(Ctx) || isa<DeclRefExpr>(E);
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    if (!Var)
      return false;
    if (const auto *Parm = dyn_cast<ParmVarDecl>(Var)) {
      const auto *Lambda =
          dyn_cast_or_null<CXXMethodDecl>(Parm->getDeclContext());
      if (!Lambda || !Lambda->getParent()->isLambda())
        return false;
      // Find the LambdaExpr owning this call operator.
      for (DynTypedNodeList Parents = Ctx.getParents(*Lambda);
           !Parents.empty(); Parents = Ctx.getParents(Parents[0]))
        if (const auto *LE = Parents[0].get<LambdaExpr>())
          return isKernelLambda(LE, Ctx);
      return false;
    }
    if (!isDslValueType(Var->getType()))
      return true; // Host values are baked into the kernel.
    if (!Var->hasInit() || !Var->isLocalVarDecl())
      return false;
    return !isReassignedAfterDeclaration(Var, Ctx) &&
           isUniformImpl(Var->getInit(), Ctx, Depth + 1);
  }
  if (const auto *Member = dyn_cast<MemberExpr>(E))
    return isa<FieldDecl>(Member->getMemberDecl()) &&
           isUniformImpl(Member->getBase(), Ctx, Depth + 1);
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
    for (const Expr *Arg : Op->arguments())
      if (!isUniformImpl(Arg, Ctx, Depth + 1))
        return false;
    return true;
  }
  StringRef Name = dslCallName(E);
  if (Name.empty())
    return false;
  if (isUniformBuiltin(Name))
    return true;
  if (isThreadVaryingBuiltin(Name))
    return false;
  const auto *Call = cast<CallExpr>(E->IgnoreParenImpCasts());
  for (const Expr *Arg : Call->arguments())
    if (!isUniformImpl(Arg, Ctx, Depth + 1))
      return false;
  return true;
}

bool isThreadUniform(const Expr *E, ASTContext &Ctx) {
  return isUniformImpl(E, Ctx, 0);
}

static const LambdaExpr *asLambda(const Expr *E) {
  return E ? dyn_cast<LambdaExpr>(E->IgnoreImplicit()->IgnoreParens())
           : nullptr;
}

const CompoundStmt *dslBlockBody(const Stmt *S) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  if (!E)
    return nullptr;
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(E->IgnoreImplicit());
  if (!Op || Op->getOperator() != OO_Percent || Op->getNumArgs() != 2)
    return nullptr;
  const LambdaExpr *Lambda = asLambda(Op->getArg(1));
  return Lambda ? dyn_cast<CompoundStmt>(Lambda->getBody()) : nullptr;
}

std::optional<DslIf> matchDslIf(const Stmt *S) {
  const CompoundStmt *Then = dslBlockBody(S);
  if (!Then)
    return std::nullopt;
  const auto *Op = cast<CXXOperatorCallExpr>(cast<Expr>(S)->IgnoreImplicit());
  const auto *Create = dyn_cast<CallExpr>(Op->getArg(0)->IgnoreImplicit());
  const auto *Method =
      Create ? dyn_cast_or_null<CXXMethodDecl>(Create->getDirectCallee())
             : nullptr;
  if (!Method || !Method->getParent()->getIdentifier() ||
      Method->getParent()->getName() != "IfStmtBuilder" ||
      Create->getNumArgs() == 0)
    return std::nullopt;
  return DslIf{Create->getArg(Create->getNumArgs() - 1), Then};
}

std::vector<const Stmt *> blockStatements(const Stmt *Body) {
  if (const auto *Block = dyn_cast_or_null<CompoundStmt>(Body))
    return {Block->body_begin(), Block->body_end()};
  if (Body)
    return {Body};
  return {};
}

static std::optional<CombineOp> combineOpOf(OverloadedOperatorKind Kind) {
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

/// `OP(A, B)` for a commutative combining operation: an operator or max/min.
struct Combination {
  CombineOp Op;
  const Expr *LHS;
  const Expr *RHS;
};

static std::optional<Combination> matchCombination(const Expr *E) {
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
  return Combination{Name == "max" ? CombineOp::Max : CombineOp::Min,
                     Call->getArg(0), Call->getArg(1)};
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
    if (!Combined)
      return std::nullopt;
    if (isSameVariable(Combined->LHS, Target))
      return AccumulateStep{Target, Combined->RHS, Combined->Op};
    if (isSameVariable(Combined->RHS, Target))
      return AccumulateStep{Target, Combined->LHS, Combined->Op};
    return std::nullopt;
  }
  auto Kind = combineOpOf(Op->getOperator());
  if (!Kind || !Op->isAssignmentOp())
    return std::nullopt;
  return AccumulateStep{Target, Op->getArg(1), *Kind};
}

} // namespace kernel_tidy::dsl
