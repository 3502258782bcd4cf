//===--- LaneShifts.cpp - Warp loops that read lanes at shifting offsets --===//

#include "src/dsl/LaneShifts.h"

#include "src/dsl/Ast.h"
#include "src/dsl/HostEval.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/Support/MathExtras.h"

using namespace clang;

namespace kernel_tidy::dsl {

namespace {

/// `V <<= 1`, `V *= 2`, `V += V`, `V = V * 2`, `V = 2 * V`, `V = V << 1`, `V = V + V`.
bool isDoubling(const Stmt *S, const VarDecl *Var, const ASTContext &Ctx) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  const auto *Op = E ? dyn_cast<CXXOperatorCallExpr>(E->IgnoreImplicit()) : nullptr;
  if (!Op || Op->getNumArgs() != 2 || !isVariable(Op->getArg(0), Var))
    return false;
  const Expr *R = Op->getArg(1);
  switch (Op->getOperator()) {
  case OO_LessLessEqual:
    return isHostValue(R, 1, Ctx);
  case OO_StarEqual:
    return isHostValue(R, 2, Ctx);
  case OO_PlusEqual:
    return isVariable(R, Var);
  case OO_Equal:
    break;
  default:
    return false;
  }
  return isDoubled(R, [&](const Expr *E) { return isVariable(E, Var); }, Ctx);
}

/// The function a call runs and the arguments it passes to the function's
/// parameters: the callee of a plain or member call, the `operator()` of a
/// lambda object, or the lambda of a Callable variable.
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

/// The statement around \p E (a declaration's when E initialises a local)
/// and the statement that holds it.
EnclosingStatement statementOf(const Expr *E, ASTContext &Ctx) {
  const Stmt *Node = E;
  while (true) {
    auto Parents = Ctx.getParents(*Node);
    if (Parents.empty())
      return {};
    if (const auto *Var = Parents[0].get<VarDecl>()) {
      auto Holders = Ctx.getParents(*Var);
      const auto *Decl = Holders.empty() ? nullptr : Holders[0].get<DeclStmt>();
      return Decl ? EnclosingStatement{Decl, parentStmt(Decl, Ctx)} : EnclosingStatement{};
    }
    const Stmt *Parent = parentStmt(Node, Ctx);
    if (!Parent)
      return {};
    if (!isa<Expr>(Parent))
      return {Node, Parent};
    Node = Parent;
  }
}

} // namespace

std::optional<LaneOffsetIndex> matchLaneOffsetIndex(const Expr *Index) {
  const auto *Op = binaryDslOperator(Index);
  if (!Op)
    return std::nullopt;
  const Expr *A = Op->getArg(0), *B = Op->getArg(1);
  auto Make = [](LaneShift Shift, const Expr *Lane,
                 const Expr *Offset) -> std::optional<LaneOffsetIndex> {
    const VarDecl *Var = variableOf(Offset);
    if (!Var)
      return std::nullopt;
    return LaneOffsetIndex{Shift, Lane, Var};
  };
  switch (Op->getOperator()) {
  case OO_Plus:
  case OO_Caret: {
    LaneShift Shift = Op->getOperator() == OO_Plus ? LaneShift::Down : LaneShift::Xor;
    // The offset is the variable that is not a lane: try `lane OP offset` first.
    if (auto Found = Make(Shift, A, B); Found && !variableOf(A))
      return Found;
    if (auto Found = Make(Shift, B, A); Found && !variableOf(B))
      return Found;
    return Make(Shift, A, B);
  }
  case OO_Minus:
    return Make(LaneShift::Up, A, B);
  default:
    return std::nullopt;
  }
}

bool isSameLaneOffset(const Expr *E, const LaneOffsetIndex &Index) {
  const auto *Op = binaryDslOperator(E);
  if (!Op)
    return false;
  auto Same = [&](const Expr *Lane, const Expr *Offset) {
    const VarDecl *L = variableOf(Index.Lane);
    bool LaneMatches =
        L ? isVariable(Lane, L)
          : isSameVariable(Lane, Index.Lane) ||
                (dslCallName(stripDslWrappers(Lane)) == dslCallName(stripDslWrappers(Index.Lane)) &&
                 !dslCallName(stripDslWrappers(Lane)).empty());
    return LaneMatches && isVariable(Offset, Index.Offset);
  };
  const Expr *A = Op->getArg(0), *B = Op->getArg(1);
  switch (Index.Shift) {
  case LaneShift::Down:
    return Op->getOperator() == OO_Plus && (Same(A, B) || Same(B, A));
  case LaneShift::Xor:
    return Op->getOperator() == OO_Caret && (Same(A, B) || Same(B, A));
  case LaneShift::Up:
    return Op->getOperator() == OO_Minus && Same(A, B);
  }
  return false;
}

std::optional<OffsetLoop> matchOffsetLoop(const CompoundStmt *Body, const VarDecl *Var,
                                          ASTContext &Ctx, WriteAnalysis &Writes) {
  if (!Body || !Var)
    return std::nullopt;
  auto Control = controlOfBody(Body, Ctx);
  if (!Control) {
    // A host loop: `for (...) { BODY }` over Var.
    const Stmt *Loop = parentStmt(Body, Ctx);
    auto Host = Loop ? evaluateHostLoop(Loop, Ctx) : std::nullopt;
    if (!Host || Host->Var != Var)
      return std::nullopt;
    const Stmt *LoopBody = isa<ForStmt>(Loop) ? cast<ForStmt>(Loop)->getBody()
                                              : cast<CXXForRangeStmt>(Loop)->getBody();
    if (LoopBody != Body)
      return std::nullopt;
    OffsetLoop Result;
    Result.Loop = Loop;
    Result.Body = Body;
    Result.Var = Var;
    Result.Values = Host->Values;
    return Result;
  }
  if (Control->K != DslControl::While || Control->Conditions.size() != 1 || Body->size() < 2)
    return std::nullopt;
  const auto *Cond = binaryDslOperator(Control->Conditions.front());
  if (!Cond || Cond->getOperator() != OO_Less || !isVariable(Cond->getArg(0), Var))
    return std::nullopt;
  // Var starts at 1 and only the last statement of the body, a doubling, writes it.
  if (!Var->isLocalVarDecl() || !Var->hasInit() || !isHostValue(Var->getInit(), 1, Ctx))
    return std::nullopt;
  const Stmt *Update = Body->body_back();
  const auto &VarWrites = Writes.writesOf(Var);
  if (VarWrites.size() != 1 ||
      VarWrites.front().Write->IgnoreImplicit() != cast<Expr>(Update)->IgnoreImplicit() ||
      !isDoubling(Update, Var, Ctx) || containsDslExit(Body))
    return std::nullopt;
  OffsetLoop Result;
  Result.Loop = Control->Statement;
  Result.Body = Body;
  Result.Var = Var;
  Result.Device = true;
  Result.Update = Update;
  const Expr *Bound = Cond->getArg(1);
  // `UInt wave_size = warp_lane_count();` never written again names the width too.
  if (const VarDecl *Named = variableOf(Bound);
      Named && Named->isLocalVarDecl() && Named->hasInit() && !Writes.isWritten(Named))
    Bound = Named->getInit();
  if (isDslCall(Bound, "warp_lane_count")) {
    Result.UpToLaneCount = true;
    return Result;
  }
  auto Limit = evaluateHostInt(stripDslWrappers(Bound), Ctx);
  if (!Limit || *Limit > 1024)
    return std::nullopt;
  for (int64_t Offset = 1; Offset < *Limit; Offset *= 2)
    Result.Values.push_back(Offset);
  return Result;
}

std::optional<unsigned> coveredLanes(llvm::ArrayRef<int64_t> Offsets) {
  uint64_t Seen = 0;
  for (int64_t D : Offsets) {
    if (D <= 0 || D > 64 || !llvm::isPowerOf2_64(D) || (Seen & D))
      return std::nullopt;
    Seen |= D;
  }
  if (Offsets.empty() || !llvm::isPowerOf2_64(Seen + 1))
    return std::nullopt;
  return static_cast<unsigned>(Seen + 1);
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

namespace {

/// The index of \p E's parameter in \p F when \p E names one, else -1.
int parameterIndex(const Expr *E, const FunctionDecl *F) {
  const auto *Param = dyn_cast_or_null<ParmVarDecl>(variableOf(E));
  if (!Param)
    return -1;
  for (unsigned I = 0; I < F->getNumParams(); ++I)
    if (F->getParamDecl(I) == Param)
      return static_cast<int>(I);
  return -1;
}

/// The host value that \p E, an expression of \p Helper's body, has at a call
/// with \p Args: a host constant, or a parameter given one (or defaulted to one).
std::optional<int64_t> valueAtCall(const Expr *E, const FunctionDecl *Helper,
                                   llvm::ArrayRef<const Expr *> Args, ASTContext &Ctx) {
  E = stripDslWrappers(E);
  if (int I = parameterIndex(E, Helper); I >= 0) {
    E = Args[I]->IgnoreImplicit();
    if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(E))
      E = Default->getExpr();
    E = stripDslWrappers(E);
  }
  return evaluateHostInt(E, Ctx);
}

/// The shape of a shuffle helper (see LaneRead), in the helper's own terms.
struct ShuffleHelperShape {
  const CallExpr *Read = nullptr;
  LaneOffsetIndex Index;                     ///< Over the helper's parameters.
  const VarDecl *Partner = nullptr;          ///< `UInt src = LANE OP OFFSET;`, if any.
  llvm::SmallVector<const Expr *, 2> Clamps; ///< Conditions that return the value itself.
};

std::optional<ShuffleHelperShape> matchShuffleHelperShape(const FunctionDecl *Helper) {
  auto Statements = blockStatements(Helper->getBody());
  if (Statements.empty())
    return std::nullopt;
  ShuffleHelperShape Shape;
  const VarDecl *Result = nullptr;
  auto SingleVar = [](const Stmt *S) -> const VarDecl * {
    const auto *Decl = dyn_cast<DeclStmt>(S);
    const auto *Var =
        Decl && Decl->isSingleDecl() ? dyn_cast<VarDecl>(Decl->getSingleDecl()) : nullptr;
    return Var && Var->hasInit() ? Var : nullptr;
  };
  size_t I = 0;
  if (Statements.size() > 1) {
    if (const VarDecl *Var = SingleVar(Statements[I]);
        Var && !asDslCall(Var->getInit(), "warp_read_lane")) {
      Shape.Partner = Var;
      ++I;
    }
    Result = I < Statements.size() ? SingleVar(Statements[I]) : nullptr;
    if (!Result)
      return std::nullopt;
    Shape.Read = asDslCall(Result->getInit(), "warp_read_lane");
    ++I;
  } else if (const auto *Return = dyn_cast<ReturnStmt>(Statements[0])) {
    Shape.Read =
        Return->getRetValue() ? asDslCall(Return->getRetValue(), "warp_read_lane") : nullptr;
  }
  if (!Shape.Read || Shape.Read->getNumArgs() != 2 ||
      parameterIndex(Shape.Read->getArg(0), Helper) < 0)
    return std::nullopt;
  // `$if (CLAMP) { result = VALUE; };` then `return result;`.
  for (; Result && I + 1 < Statements.size(); ++I) {
    const auto *E = dyn_cast<Expr>(Statements[I]);
    auto If = E ? matchDslIf(E->IgnoreImplicit()) : std::nullopt;
    auto Reset = If && If->Then->size() == 1 ? dyn_cast<Expr>(If->Then->body_front()) : nullptr;
    const auto *Assign = Reset ? dyn_cast<CXXOperatorCallExpr>(Reset->IgnoreImplicit()) : nullptr;
    if (!Assign || Assign->getOperator() != OO_Equal || !isVariable(Assign->getArg(0), Result) ||
        !isSameVariable(Assign->getArg(1), Shape.Read->getArg(0)))
      return std::nullopt;
    Shape.Clamps.push_back(If->Cond);
  }
  if (Result) {
    const auto *Return = I + 1 == Statements.size() ? dyn_cast<ReturnStmt>(Statements[I]) : nullptr;
    if (!Return || !Return->getRetValue() || !isVariable(Return->getRetValue(), Result))
      return std::nullopt;
  }
  const Expr *Index = Shape.Read->getArg(1);
  if (Shape.Partner) {
    if (!isVariable(Index, Shape.Partner))
      return std::nullopt;
    Index = Shape.Partner->getInit();
  }
  auto Found = matchLaneOffsetIndex(stripDslWrappers(Index));
  if (!Found || parameterIndex(Found->Lane, Helper) < 0 || !isa<ParmVarDecl>(Found->Offset) ||
      Found->Offset->getDeclContext() != Helper || variableOf(Found->Lane) == Found->Offset)
    return std::nullopt;
  Shape.Index = *Found;
  return Shape;
}

/// Whether \p E is the partner lane of \p Shape: its local or `LANE OP OFFSET`.
bool isPartnerLane(const Expr *E, const ShuffleHelperShape &Shape) {
  E = stripDslWrappers(E);
  return Shape.Partner ? isVariable(E, Shape.Partner) : isSameLaneOffset(E, Shape.Index);
}

} // namespace

std::optional<LaneRead> matchLaneRead(const CallExpr *Call, ASTContext &Ctx) {
  if (!Call)
    return std::nullopt;
  if (dslCallName(Call) == "warp_read_lane") {
    auto Index = Call->getNumArgs() == 2 ? matchLaneOffsetIndex(Call->getArg(1)) : std::nullopt;
    if (!Index)
      return std::nullopt;
    return LaneRead{Call, Call->getArg(0), *Index, nullptr, Call, "", std::nullopt, std::nullopt};
  }
  llvm::SmallVector<const Expr *, 4> Args;
  const FunctionDecl *Helper = calledFunction(Call, Args);
  if (!Helper || !Helper->hasBody() || Args.size() != Helper->getNumParams())
    return std::nullopt;
  auto Shape = matchShuffleHelperShape(Helper);
  if (!Shape)
    return std::nullopt;
  LaneRead Read;
  Read.Call = Call;
  Read.Helper = Helper;
  Read.WarpRead = Shape->Read;
  Read.HelperName = calleeName(Call);
  Read.Value = Args[parameterIndex(Shape->Read->getArg(0), Helper)];
  Read.Index.Shift = Shape->Index.Shift;
  Read.Index.Lane = Args[parameterIndex(Shape->Index.Lane, Helper)];
  Read.Index.Offset =
      variableOf(Args[cast<ParmVarDecl>(Shape->Index.Offset)->getFunctionScopeIndex()]);
  if (!Read.Index.Offset)
    return std::nullopt;
  // Each clamp must leave alone the lanes a reduction or scan reads from.
  for (const Expr *Clamp : Shape->Clamps) {
    const auto *Cmp = binaryDslOperator(Clamp);
    if (!Cmp)
      return std::nullopt;
    const Expr *L = Cmp->getArg(0), *R = Cmp->getArg(1);
    OverloadedOperatorKind Op = Cmp->getOperator();
    if (isPartnerLane(R, *Shape)) {
      std::swap(L, R);
      Op = Op == OO_Less           ? OO_Greater
           : Op == OO_Greater      ? OO_Less
           : Op == OO_LessEqual    ? OO_GreaterEqual
           : Op == OO_GreaterEqual ? OO_LessEqual
                                   : OO_None;
    }
    if (!isPartnerLane(L, *Shape))
      return std::nullopt;
    auto Bound = valueAtCall(R, Helper, Args, Ctx);
    if (!Bound) {
      // A bound the caller passes at run time: the loop's guard decides.
      int I = parameterIndex(R, Helper);
      if (I < 0 || Read.RuntimeLast || Read.Index.Shift != LaneShift::Down ||
          (Op != OO_Greater && Op != OO_GreaterEqual))
        return std::nullopt;
      Read.RuntimeLast = LaneRead::RuntimeClamp{Args[I], Op == OO_GreaterEqual};
      continue;
    }
    if (Read.Index.Shift == LaneShift::Up && Op == OO_Less && *Bound == 0)
      continue; // Only lanes below the offset, which a scan's guard leaves out.
    if (Read.Index.Shift != LaneShift::Down || (Op != OO_Greater && Op != OO_GreaterEqual))
      return std::nullopt;
    int64_t Last = Op == OO_Greater ? *Bound : *Bound - 1;
    Read.LastPartner = Read.LastPartner ? std::min(*Read.LastPartner, Last) : Last;
  }
  return Read;
}

std::optional<LaneShiftLoop> matchLaneShiftLoop(const CallExpr *Read, ASTContext &Ctx,
                                                WriteAnalysis &Writes) {
  auto Lanes = matchLaneRead(Read, Ctx);
  if (!Lanes)
    return std::nullopt;
  const LaneOffsetIndex *Index = &Lanes->Index;
  auto [Statement, Container] = statementOf(Read, Ctx);
  if (!Statement)
    return std::nullopt;
  LaneShiftStep Step;
  Step.Read = *Lanes;
  Step.Index = *Index;
  // The statements of the step, in the body of the loop.
  std::vector<const Stmt *> Parts;
  const VarDecl *Temp = nullptr;
  if (const auto *Decl = dyn_cast<DeclStmt>(Statement)) {
    Temp = Decl->isSingleDecl() ? dyn_cast<VarDecl>(Decl->getSingleDecl()) : nullptr;
    if (!Temp || !Temp->hasInit() || stripDslWrappers(Temp->getInit()) != Read)
      return std::nullopt;
    Parts.push_back(Statement);
    const auto *Block = dyn_cast_or_null<CompoundStmt>(Container);
    auto Statements = blockStatements(Block);
    auto It = llvm::find(Statements, Statement);
    if (!Block || It == Statements.end() || It + 1 == Statements.end())
      return std::nullopt;
    Statement = *(It + 1);
  }
  // The combination, alone or as the only statement of a `$if`.
  const Stmt *Combine = Statement;
  const auto *StatementExpr = dyn_cast<Expr>(Statement);
  if (!StatementExpr)
    return std::nullopt;
  if (auto If = matchDslIf(StatementExpr->IgnoreImplicit())) {
    if (If->Then->size() != 1)
      return std::nullopt;
    Step.Guard = If->Cond;
    Combine = If->Then->body_front();
  } else if (!Temp && parentStmt(Statement, Ctx)) {
    // A direct combination inside a `$if` body: the guard is around it.
    const auto *Block = dyn_cast_or_null<CompoundStmt>(Container);
    auto Control = Block ? controlOfBody(Block, Ctx) : std::nullopt;
    if (Control && Control->K == DslControl::If) {
      auto If = matchDslIf(Control->Statement);
      if (!If || If->Then != Block || Block->size() != 1)
        return std::nullopt;
      Step.Guard = If->Cond;
      // The statement of the `$if` in the loop body (around its full expression).
      Statement = Control->Statement;
      for (const Stmt *Up = parentStmt(Statement, Ctx); Up && isa<Expr>(Up);
           Up = parentStmt(Up, Ctx))
        Statement = Up;
    }
  }
  auto Accumulate = matchAccumulateThroughHelpers(Combine, Ctx);
  if (!Accumulate)
    return std::nullopt;
  Step.CombinesThroughCall = !matchAccumulateStep(Combine);
  const Expr *Operand = Accumulate->Operand;
  bool OperandIsRead = Temp ? isVariable(Operand, Temp) : stripDslWrappers(Operand) == Read;
  if (!OperandIsRead || !isSameVariable(Lanes->Value, Accumulate->Target))
    return std::nullopt;
  Step.Target = Accumulate->Target;
  Step.Op = Accumulate->Op;
  Parts.push_back(Statement);
  // The loop: its body is the step (and the doubling of a device loop).
  const auto *Body = dyn_cast_or_null<CompoundStmt>(parentStmt(Statement, Ctx));
  auto Loop = matchOffsetLoop(Body, Index->Offset, Ctx, Writes);
  if (!Loop)
    return std::nullopt;
  auto Statements = blockStatements(Body);
  if (Loop->Device)
    Statements.pop_back();
  if (Statements != Parts)
    return std::nullopt;
  return LaneShiftLoop{*Loop, Step};
}

std::optional<DownBound> matchDownBound(const Expr *Guard, const LaneOffsetIndex &Index) {
  const auto *Cmp = binaryDslOperator(Guard);
  if (!Cmp)
    return std::nullopt;
  const Expr *L = Cmp->getArg(0), *R = Cmp->getArg(1);
  OverloadedOperatorKind Op = Cmp->getOperator();
  if (isSameLaneOffset(R, Index)) {
    std::swap(L, R);
    Op = Op == OO_Greater ? OO_Less : Op == OO_GreaterEqual ? OO_LessEqual : OO_None;
  }
  if (!isSameLaneOffset(L, Index) || (Op != OO_Less && Op != OO_LessEqual))
    return std::nullopt;
  DownBound Bound;
  Bound.Strict = Op == OO_Less;
  Bound.WholeWarp = Bound.Strict && isDslCall(R, "warp_lane_count");
  Bound.Limit = R;
  return Bound;
}

bool guardExcludesClamped(const DownBound &Bound, const LaneRead::RuntimeClamp &Clamp) {
  // Combined: partners below B (Strict) or up to B. Clamped: past B, or from B on.
  return !Bound.WholeWarp && Bound.Limit && isSameVariable(Bound.Limit, Clamp.Bound) &&
         (Bound.Strict || !Clamp.AtBound);
}

bool isScanGuard(const Expr *Guard, const LaneOffsetIndex &Index) {
  const auto *Cmp = binaryDslOperator(Guard);
  if (!Cmp || Index.Shift != LaneShift::Up)
    return false;
  const Expr *L = Cmp->getArg(0), *R = Cmp->getArg(1);
  OverloadedOperatorKind Op = Cmp->getOperator();
  if (Op == OO_LessEqual) {
    std::swap(L, R);
    Op = OO_GreaterEqual;
  }
  if (Op != OO_GreaterEqual || !isVariable(R, Index.Offset))
    return false;
  const VarDecl *Lane = variableOf(Index.Lane);
  return Lane ? isVariable(L, Lane)
              : !dslCallName(stripDslWrappers(L)).empty() &&
                    dslCallName(stripDslWrappers(L)) == dslCallName(stripDslWrappers(Index.Lane));
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
