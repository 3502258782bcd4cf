//===--- Writes.cpp - Where DSL and host variables are written ------------===//

#include "src/dsl/Writes.h"

#include "src/dsl/Ast.h"
#include "src/dsl/Names.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace kernel_tidy::dsl {

const VarDecl *writtenVariable(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(Ref->getDecl());
    if (const auto *Member = dyn_cast<MemberExpr>(E))
      E = Member->getBase();
    else if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E))
      E = Subscript->getBase();
    else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
             Op && Op->getOperator() == OO_Subscript)
      E = Op->getArg(0);
    else if (const auto *Construct = dyn_cast<CXXConstructExpr>(E);
             Construct && Construct->getNumArgs() == 1)
      E = Construct->getArg(0);
    else if (const auto *Call = dyn_cast<CXXMemberCallExpr>(E);
             Call && isa<CXXConversionDecl>(Call->getMethodDecl()))
      E = Call->getImplicitObjectArgument();
    else
      return nullptr;
  }
  return nullptr;
}

namespace {

bool isAssignment(OverloadedOperatorKind Kind) {
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

/// True if \p Target names the variable itself, not a part of it.
bool isWholeVariable(const Expr *Target) {
  return isa<DeclRefExpr>(Target->IgnoreParenImpCasts());
}

/// Collects the writes of one function body.
class WriteIndexer : public RecursiveASTVisitor<WriteIndexer> {
public:
  using Map = std::unordered_map<const VarDecl *, std::vector<VariableWrite>>;
  explicit WriteIndexer(Map &Writes) : Writes(Writes) {}

  bool shouldVisitLambdaBody() const { return true; }

  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Call) {
    OverloadedOperatorKind Kind = Call->getOperator();
    if (Call->getNumArgs() < 1 || !isAssignment(Kind))
      return true;
    const Expr *Target = Call->getArg(0);
    bool Plain = Kind == OO_Equal && isWholeVariable(Target);
    const Expr *Value = Call->getNumArgs() == 2 && Kind != OO_PlusPlus &&
                                Kind != OO_MinusMinus
                            ? Call->getArg(1)
                            : nullptr;
    record(Target, {Call, Value, !Plain});
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *Op) {
    if (Op->isAssignmentOp())
      record(Op->getLHS(),
             {Op, Op->getRHS(),
              Op->getOpcode() != BO_Assign || !isWholeVariable(Op->getLHS())});
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *Op) {
    if (Op->isIncrementDecrementOp() || Op->getOpcode() == UO_AddrOf)
      record(Op->getSubExpr(), {Op, nullptr, true});
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    // An argument bound to a non-const reference may be written by the callee.
    // DSL builtins take their operands by forwarding reference but do not
    // write them.
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || isa<CXXOperatorCallExpr>(Call) || isInLuisaComputeLibrary(Callee))
      return true;
    for (unsigned I = 0; I < Call->getNumArgs() && I < Callee->getNumParams(); ++I) {
      QualType Param = Callee->getParamDecl(I)->getType();
      if ((Param->isLValueReferenceType() || Param->isRValueReferenceType()) &&
          !Param.getNonReferenceType().isConstQualified())
        record(Call->getArg(I), {Call, nullptr, true});
    }
    return true;
  }

private:
  void record(const Expr *Target, VariableWrite Write) {
    const VarDecl *Var = writtenVariable(Target);
    if (!Var)
      return;
    // A lambda body is indexed with the function around it and again on its
    // own when a variable it declares is asked for: one entry per write.
    auto &Known = Writes[Var->getCanonicalDecl()];
    if (llvm::none_of(Known, [&](const VariableWrite &W) { return W.Write == Write.Write; }))
      Known.push_back(Write);
  }
  Map &Writes;
};

} // namespace

void WriteAnalysis::indexBody(const Stmt *Body) {
  if (!IndexedBodies.insert(Body).second)
    return;
  WriteIndexer Indexer(Writes);
  Indexer.TraverseStmt(const_cast<Stmt *>(Body));
}

const std::vector<VariableWrite> &WriteAnalysis::writesOf(const VarDecl *Var) {
  Var = Var->getCanonicalDecl();
  // The body of the function or lambda that declares the variable.
  const Stmt *Body = nullptr;
  if (const auto *Parm = dyn_cast<ParmVarDecl>(Var)) {
    if (const auto *FD = dyn_cast_or_null<FunctionDecl>(Parm->getDeclContext()))
      Body = FD->getBody();
  } else {
    for (const DynTypedNode &Parent : Ctx.getParents(*Var))
      if (const auto *Decl = Parent.get<DeclStmt>())
        Body = enclosingFunctionBody(Decl, Ctx);
  }
  if (Body)
    indexBody(Body);
  auto It = Writes.find(Var);
  return It == Writes.end() ? None : It->second;
}

} // namespace kernel_tidy::dsl
