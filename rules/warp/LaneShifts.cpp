//===--- LaneShifts.cpp - Warp loops that read lanes at shifting offsets --===//

#include "rules/warp/LaneShifts.h"

#include "src/dsl/Ast.h"
#include "src/dsl/Calls.h"
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

/// Whether the clamp \p Clamp of the helper of \p Read leaves alone the lanes
/// a reduction or scan reads from; what it bounds goes into \p Read.
bool admitClamp(LaneRead &Read, const Expr *Clamp, const ShuffleHelperShape &Shape,
                ArrayRef<const Expr *> Args, ASTContext &Ctx) {
  const FunctionDecl *Helper = Read.Helper;
  const auto *Cmp = binaryDslOperator(Clamp);
  if (!Cmp)
    return false;
  const Expr *L = Cmp->getArg(0), *R = Cmp->getArg(1);
  OverloadedOperatorKind Op = Cmp->getOperator();
  if (isPartnerLane(R, Shape)) {
    std::swap(L, R);
    Op = Op == OO_Less           ? OO_Greater
         : Op == OO_Greater      ? OO_Less
         : Op == OO_LessEqual    ? OO_GreaterEqual
         : Op == OO_GreaterEqual ? OO_LessEqual
                                 : OO_None;
  }
  if (!isPartnerLane(L, Shape))
    return false;
  auto Bound = valueAtCall(R, Helper, Args, Ctx);
  if (!Bound) {
    // A bound the caller passes at run time: the loop's guard decides.
    int I = parameterIndex(R, Helper);
    if (I < 0 || Read.RuntimeLast || Read.Index.Shift != LaneShift::Down ||
        (Op != OO_Greater && Op != OO_GreaterEqual))
      return false;
    Read.RuntimeLast = LaneRead::RuntimeClamp{Args[I], Op == OO_GreaterEqual};
    return true;
  }
  if (Read.Index.Shift == LaneShift::Up && Op == OO_Less && *Bound == 0)
    return true; // Only lanes below the offset, which a scan's guard leaves out.
  if (Read.Index.Shift != LaneShift::Down || (Op != OO_Greater && Op != OO_GreaterEqual))
    return false;
  int64_t Last = Op == OO_Greater ? *Bound : *Bound - 1;
  Read.LastPartner = Read.LastPartner ? std::min(*Read.LastPartner, Last) : Last;
  return true;
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
  for (const Expr *Clamp : Shape->Clamps)
    if (!admitClamp(Read, Clamp, *Shape, Args, Ctx))
      return std::nullopt;
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

} // namespace kernel_tidy::dsl
