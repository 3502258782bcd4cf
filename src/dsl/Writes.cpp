//===--- Writes.cpp - Where DSL and host variables are written ------------===//

#include "src/dsl/Writes.h"

#include "src/dsl/Ast.h"
#include "src/dsl/Names.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace kernel_tidy::dsl {

namespace {

/// The variable at the end of the written path \p E (writtenVariable), with
/// \p EachField called for every member on the way (`o.a.b` writes `b` and `a`).
const VarDecl *walkWrittenPath(const Expr *E,
                               llvm::function_ref<void(const FieldDecl *)> EachField) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(Ref->getDecl());
    if (const auto *Member = dyn_cast<MemberExpr>(E)) {
      if (const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl()))
        EachField(Field);
      E = Member->getBase();
    } else if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E))
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

} // namespace

const VarDecl *writtenVariable(const Expr *E) {
  return walkWrittenPath(E, [](const FieldDecl *) {});
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
bool isWholeVariable(const Expr *Target) { return isa<DeclRefExpr>(Target->IgnoreParenImpCasts()); }

/// Collects the writes of one function body, or of every body of the
/// translation unit, handing each written expression to a sink.
class WriteIndexer : public RecursiveASTVisitor<WriteIndexer> {
public:
  using Sink = llvm::function_ref<void(const Expr *Target, const VariableWrite &Write)>;
  WriteIndexer(Sink Record, llvm::DenseSet<const Stmt *> &Indexed, bool Instantiations = false)
      : Record(Record), Indexed(Indexed), Instantiations(Instantiations) {}

  bool shouldVisitLambdaBody() const { return true; }
  bool shouldVisitTemplateInstantiations() const { return Instantiations; }

  /// A nested body is indexed once: with its enclosing body, or before it,
  /// alone (a variable declared inside it was asked for first). Indexing it
  /// twice would append to vectors that writesOf's callers may be iterating.
  bool TraverseLambdaExpr(LambdaExpr *Lambda) {
    if (!Indexed.insert(Lambda->getBody()).second)
      return true;
    return RecursiveASTVisitor::TraverseLambdaExpr(Lambda);
  }

  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Call) {
    OverloadedOperatorKind Kind = Call->getOperator();
    if (Call->getNumArgs() < 1 || !isAssignment(Kind))
      return true;
    const Expr *Target = Call->getArg(0);
    bool Plain = Kind == OO_Equal && isWholeVariable(Target);
    const Expr *Value = Call->getNumArgs() == 2 && Kind != OO_PlusPlus && Kind != OO_MinusMinus
                            ? Call->getArg(1)
                            : nullptr;
    record(Target, {Call, Value, !Plain});
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *Op) {
    if (Op->isAssignmentOp())
      record(Op->getLHS(),
             {Op, Op->getRHS(), Op->getOpcode() != BO_Assign || !isWholeVariable(Op->getLHS())});
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
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call)) {
      // A Callable or functor call `f(a, b)`: its arguments follow the
      // object. A Callable's `T &` parameter is passed as a Ref<T>, by value.
      if (Op->getOperator() == OO_Call && Callee)
        recordArguments(Call, Callee, 1, /*RefParametersWrite=*/true);
      return true;
    }
    if (!Callee || isInLuisaComputeLibrary(Callee))
      return true;
    recordArguments(Call, Callee, 0, /*RefParametersWrite=*/false);
    // A non-const method of a user type derived from a DSL value may
    // change the object it is called on.
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
      if (const auto *Method = Member->getMethodDecl();
          Method && !Method->isConst() && !Method->isStatic())
        record(Member->getImplicitObjectArgument(), {Call, nullptr, true});
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *Construct) {
    // A helper object built on a non-const reference (`Ranker r{counts};`)
    // may write through it later, where the analysis does not look.
    const CXXConstructorDecl *Constructor = Construct->getConstructor();
    if (!Constructor || isInLuisaComputeLibrary(Constructor))
      return true;
    for (unsigned I = 0; I < Construct->getNumArgs() && I < Constructor->getNumParams(); ++I)
      if (isWritableReference(Constructor->getParamDecl(I)->getType(), false))
        record(Construct->getArg(I), {Construct, nullptr, true});
    return true;
  }
  bool VisitVarDecl(VarDecl *Var) {
    // `auto &alias = v;` writes v wherever alias is written.
    if (!isa<ParmVarDecl>(Var) && Var->getInit() && isWritableReference(Var->getType(), false))
      record(Var->getInit(), {Var->getInit(), nullptr, true});
    return true;
  }

private:
  /// True if a parameter or variable of type \p T can write what it is
  /// bound to: a non-const reference, or (when \p RefParametersWrite) a DSL
  /// Ref<T> taken by value, as a Callable's reference parameter is.
  static bool isWritableReference(QualType T, bool RefParametersWrite) {
    if (T->isReferenceType())
      return !T.getNonReferenceType().isConstQualified();
    if (!RefParametersWrite)
      return false;
    const auto *Record = T->getAsCXXRecordDecl();
    return Record && Record->getIdentifier() && Record->getName() == "Ref" &&
           isInLuisaComputeLibrary(Record);
  }
  /// Records the arguments of \p Call from \p First on that \p Callee's
  /// parameters may write.
  void recordArguments(const CallExpr *Call, const FunctionDecl *Callee, unsigned First,
                       bool RefParametersWrite) {
    for (unsigned I = First; I < Call->getNumArgs() && I - First < Callee->getNumParams(); ++I)
      if (isWritableReference(Callee->getParamDecl(I - First)->getType(), RefParametersWrite))
        record(Call->getArg(I), {Call, nullptr, true});
  }
  void record(const Expr *Target, VariableWrite Write) { Record(Target, Write); }
  Sink Record;
  llvm::DenseSet<const Stmt *> &Indexed;
  bool Instantiations;
};

} // namespace

void WriteAnalysis::indexBody(const Stmt *Body) {
  if (!IndexedBodies.insert(Body).second)
    return;
  auto Record = [this](const Expr *Target, const VariableWrite &Write) {
    if (const VarDecl *Var = writtenVariable(Target))
      Writes[Var->getCanonicalDecl()].push_back(Write);
  };
  WriteIndexer Indexer(Record, IndexedBodies);
  Indexer.TraverseStmt(const_cast<Stmt *>(Body));
}

bool WriteAnalysis::isFieldWritten(const FieldDecl *Field) {
  if (!FieldsIndexed) {
    FieldsIndexed = true;
    auto Record = [this](const Expr *Target, const VariableWrite &Write) {
      walkWrittenPath(Target, [&](const FieldDecl *F) { WrittenFields.insert(F); });
      // An object handed by reference to a function whose body the
      // translation unit lacks may have any of its fields written there.
      const auto *Call = dyn_cast<CallExpr>(Write.Write);
      const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
      if (Call && (!Callee || !Callee->hasBody()))
        if (const auto *Class = Target->getType()->getAsCXXRecordDecl())
          EscapedRecords.insert(Class->getCanonicalDecl());
    };
    // Every body, headers and template instantiations included: a field is
    // written wherever an object of its class is reachable. The traversal
    // scope (the main file's declarations) is bypassed on purpose.
    llvm::DenseSet<const Stmt *> Seen;
    WriteIndexer Indexer(Record, Seen, /*Instantiations=*/true);
    for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
      Indexer.TraverseDecl(D);
  }
  const auto *Class = dyn_cast<CXXRecordDecl>(Field->getParent());
  return WrittenFields.contains(Field) ||
         (Class && EscapedRecords.contains(Class->getCanonicalDecl()));
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
