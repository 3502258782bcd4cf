//===--- SharedAccesses.cpp - The Shared accesses of a kernel ------------===//
//
// The kernel's access model (SharedAccessModel.h), built here; the barrier
// intervals are in BarrierIntervals.cpp, the per-thread evaluation of the
// indices and the witness search in ThreadValues.cpp.
//
//===----------------------------------------------------------------------===//

#include "src/dsl/SharedAccesses.h"

#include "src/dsl/Ast.h"
#include "src/dsl/BarrierIntervals.h"
#include "src/dsl/Divergence.h"
#include "src/dsl/HalvingLoops.h"
#include "src/dsl/HostEval.h"
#include "src/dsl/Names.h"
#include "src/dsl/SharedAccessModel.h"
#include "src/dsl/Statements.h"
#include "src/dsl/ThreadValues.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace kernel_tidy::dsl {

using namespace shared_access_detail;

namespace shared_access_detail {

const Expr *argumentOf(const CallFrame *Frame, const ParmVarDecl *Parm) {
  unsigned Index = Parm->getFunctionScopeIndex() + Frame->ArgOffset;
  if (Index >= Frame->Call->getNumArgs())
    return nullptr;
  const Expr *Arg = Frame->Call->getArg(Index);
  if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(Arg))
    return Default->getExpr();
  return Arg;
}

const CallFrame *frameOf(const ParmVarDecl *Parm, const CallFrame *Frame) {
  for (; Frame; Frame = Frame->Parent)
    if (Frame->Callee && Parm->getDeclContext() == Frame->Callee)
      return Frame;
  return nullptr;
}

InlinedCall inlinedCall(const CallExpr *Call, const SourceManager &SM) {
  InlinedCall Result;
  const FunctionDecl *Callee = Call->getDirectCallee();
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
  if (Callee && !isLibraryFunction(Callee, SM)) {
    const FunctionDecl *Definition = Callee->getDefinition();
    Result.Callee = Definition ? Definition : Callee;
    Result.Body = Definition ? Definition->getBody() : nullptr;
    Result.ArgOffset = Op && isa<CXXMethodDecl>(Result.Callee) ? 1 : 0;
  } else if (Op && Op->getOperator() == OO_Call && Op->getNumArgs() > 0) {
    // A Callable: the lambda its variable was initialised with.
    const auto *Ref = dyn_cast<DeclRefExpr>(Op->getArg(0)->IgnoreParenImpCasts());
    const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (const LambdaExpr *Lambda = Var ? lambdaOfInit(Var->getInit()) : nullptr) {
      Result.Callee = Lambda->getCallOperator();
      Result.Body = Lambda->getBody();
      Result.ArgOffset = 1;
    }
  } else {
    Result.Library = Callee != nullptr;
  }
  return Result;
}

} // namespace shared_access_detail

namespace {

/// Builds the control tree of one kernel, inlining helper calls.
class ModelBuilder {
public:
  using KernelModel = shared_access_detail::KernelModel;
  ModelBuilder(ASTContext &Ctx, UniformityAnalysis &Uniformity, WriteAnalysis &Writes,
               KernelModel &M)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Uniformity(Uniformity), Writes(Writes), M(M) {}

  void build(const LambdaExpr *Kernel) {
    M.Nodes.emplace_back();
    M.Root = &M.Nodes.back();
    stmt(Kernel->getBody(), M.Root, nullptr);
  }

private:
  Node *add(Node::Kind K, Node *Parent) {
    M.Nodes.emplace_back();
    Node *N = &M.Nodes.back();
    N->K = K;
    N->Parent = Parent;
    N->Slot = unsigned(Parent->Children.size());
    Parent->Children.push_back(N);
    return N;
  }

  Node *loop(Node *Seq, const Stmt *Statement, bool Host) {
    Node *L = add(Node::Loop, Seq);
    L->Statement = Statement;
    L->Host = Host;
    return add(Node::Seq, L);
  }

  void stmt(const Stmt *S, Node *Seq, const CallFrame *F) {
    if (!S)
      return;
    if (const auto *Block = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *Child : Block->body())
        stmt(Child, Seq, F);
    } else if (const auto *E = dyn_cast<Expr>(S)) {
      expr(E, Seq, F);
    } else if (const auto *Decl = dyn_cast<DeclStmt>(S)) {
      for (const clang::Decl *D : Decl->decls())
        if (const auto *Var = dyn_cast<VarDecl>(D)) {
          expr(Var->getInit(), Seq, F);
          if (!sharedElementType(Var->getType()).isNull() &&
              ((!Var->getType()->isReferenceType() && !Var->getType()->isPointerType()) ||
               isNewArray(Var))) {
            Instances[Var] = unsigned(M.InstanceDeclaredIn.size());
            M.InstanceDeclaredIn.push_back(Seq);
          }
        }
    } else if (const auto *Return = dyn_cast<ReturnStmt>(S)) {
      expr(Return->getRetValue(), Seq, F);
    } else if (const auto *If = dyn_cast<IfStmt>(S)) {
      hostIf(If, Seq, F);
    } else if (const auto *Range = dyn_cast<CXXForRangeStmt>(S)) {
      rangeFor(Range, Seq, F);
    } else if (const auto *For = dyn_cast<ForStmt>(S)) {
      Node *Body = loop(Seq, For, true);
      if (auto Host = evaluateHostLoop(For, Ctx)) {
        Body->Parent->Var = Host->Var;
        Body->Parent->Values = Host->Values;
        Body->Parent->ValuesKnown = true;
      } else if (const auto *Init = dyn_cast_or_null<DeclStmt>(For->getInit());
                 Init && Init->isSingleDecl()) {
        Body->Parent->Var = dyn_cast<VarDecl>(Init->getSingleDecl());
      }
      stmt(For->getBody(), Body, F);
    } else if (const auto *While = dyn_cast<WhileStmt>(S)) {
      stmt(While->getBody(), loop(Seq, While, true), F);
    } else if (const auto *Do = dyn_cast<DoStmt>(S)) {
      stmt(Do->getBody(), loop(Seq, Do, true), F);
    } else if (isa<NullStmt>(S)) {
    } else if (isa<BreakStmt, ContinueStmt>(S)) {
      add(Node::Exit, Seq);
    } else {
      add(Node::Opaque, Seq); // A statement the model does not follow.
    }
  }

  void hostIf(const IfStmt *If, Node *Seq, const CallFrame *F) {
    if (If->getInit() || If->getConditionVariable()) {
      add(Node::Opaque, Seq);
      return;
    }
    if (auto Value = evaluateHostInt(If->getCond()->IgnoreParenImpCasts(), Ctx)) {
      stmt(*Value ? If->getThen() : If->getElse(), Seq, F);
      return;
    }
    expr(If->getCond(), Seq, F);
    Node *Branch = add(Node::Branch, Seq);
    Branch->ArmUniform = {true, true};
    stmt(If->getThen(), add(Node::Seq, Branch), F);
    stmt(If->getElse(), add(Node::Seq, Branch), F);
  }

  void rangeFor(const CXXForRangeStmt *Range, Node *Seq, const CallFrame *F) {
    if (auto Args = deviceRangeArguments(Range)) {
      for (const Expr *Arg : *Args)
        expr(Arg, Seq, F);
      Node *Body = loop(Seq, Range, false);
      Node *L = Body->Parent;
      L->Var = Range->getLoopVariable();
      std::vector<std::optional<int64_t>> Bounds;
      for (const Expr *Arg : *Args)
        Bounds.push_back(evaluateHostInt(stripDslWrappers(Arg)->IgnoreParenImpCasts(), Ctx));
      if (!Args->empty() && Args->size() <= 3 &&
          llvm::all_of(Bounds, [](const auto &V) { return V.has_value(); })) {
        int64_t Begin = Args->size() == 1 ? 0 : *Bounds[0];
        int64_t End = Args->size() == 1 ? *Bounds[0] : *Bounds[1];
        int64_t Step = Args->size() == 3 ? *Bounds[2] : 1;
        if (Step > 0 && End - Begin <= int64_t(MaxCombinations) * Step) {
          for (int64_t V = Begin; V < End; V += Step)
            L->Values.push_back(V);
          L->ValuesKnown = !L->Values.empty();
        }
      }
      stmt(Range->getBody(), Body, F);
      return;
    }
    Node *Body = loop(Seq, Range, true);
    if (auto Host = evaluateHostLoop(Range, Ctx)) {
      Body->Parent->Var = Host->Var;
      Body->Parent->Values = Host->Values;
      Body->Parent->ValuesKnown = true;
    } else {
      Body->Parent->Var = Range->getLoopVariable();
    }
    stmt(Range->getBody(), Body, F);
  }

  void expr(const Expr *E, Node *Seq, const CallFrame *F) {
    if (!E || isa<LambdaExpr>(E))
      return; // A lambda runs where it is called.
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
      if (control(Op, Seq, F) || sharedAccess(Op, Seq, F))
        return;
      if (Op->getOperator() == OO_Call) {
        call(Op, Seq, F);
        return;
      }
      if (Op->isAssignmentOp() && Op->getNumArgs() == 2) {
        expr(Op->getArg(1), Seq, F); // C++17: the right operand first.
        expr(Op->getArg(0), Seq, F);
        return;
      }
      for (const Expr *Arg : Op->arguments())
        expr(Arg, Seq, F);
      return;
    }
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      StringRef Name = dslCallName(Call);
      if (Name == "sync_block") {
        add(Node::Barrier, Seq);
        return;
      }
      if (matchDslExit(Call)) {
        add(Node::Exit, Seq);
        return;
      }
      if (sharedAccess(Call, Seq, F))
        return;
      call(Call, Seq, F);
      return;
    }
    for (const Stmt *Child : E->children())
      if (const auto *ChildExpr = dyn_cast_or_null<Expr>(Child))
        expr(ChildExpr, Seq, F);
  }

  /// A call: inlined when it runs a user helper, lambda or Callable; an
  /// opaque step (it may hold barriers) when its body is out of sight.
  void call(const CallExpr *Call, Node *Seq, const CallFrame *F) {
    const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
      expr(Member->getImplicitObjectArgument(), Seq, F);
    for (unsigned I = Op ? 1 : 0; I < Call->getNumArgs(); ++I)
      expr(Call->getArg(I), Seq, F);
    InlinedCall Target = inlinedCall(Call, SM);
    if (Target.Library)
      return; // Library code: its arguments were walked.
    if (!Target.Body) {
      add(Node::Opaque, Seq);
      return;
    }
    unsigned Depth = 0;
    for (const CallFrame *Up = F; Up; Up = Up->Parent, ++Depth)
      if (Up->Callee == Target.Callee) {
        add(Node::Opaque, Seq); // Recursion: out of the model.
        return;
      }
    if (Depth >= MaxInlineDepth) {
      add(Node::Opaque, Seq);
      return;
    }
    M.Frames.push_back(CallFrame{F, Call, Target.Callee, Target.ArgOffset});
    stmt(Target.Body, Seq, &M.Frames.back());
  }

  bool control(const CXXOperatorCallExpr *Op, Node *Seq, const CallFrame *F) {
    if (Op->getNumArgs() != 2 || (Op->getOperator() != OO_Percent && Op->getOperator() != OO_Slash))
      return false;
    const LambdaExpr *Lambda = asLambda(Op->getArg(1));
    auto Control = Lambda ? controlOfBody(Lambda->getBody(), Ctx) : std::nullopt;
    if (!Control)
      return false;
    switch (Control->K) {
    case DslControl::If:
    case DslControl::Elif:
    case DslControl::Else:
      return ifChain(Op, Seq, F);
    case DslControl::While: {
      const auto *Body = dyn_cast<CompoundStmt>(Lambda->getBody());
      Node *BodySeq = loop(Seq, Op, false);
      if (!Control->Conditions.empty()) {
        BodySeq->Guards.push_back({Control->Conditions.front(), true, F});
        expr(Control->Conditions.front(), BodySeq, F);
      }
      if (auto Halving = matchHalvingLoop(Body, Ctx, Writes);
          Halving && Halving->Device && !Halving->Values.empty()) {
        BodySeq->Parent->Var = Halving->Var;
        BodySeq->Parent->Values = Halving->Values;
        BodySeq->Parent->ValuesKnown = true;
      }
      stmt(Body, BodySeq, F);
      return true;
    }
    case DslControl::Loop:
      stmt(Lambda->getBody(), loop(Seq, Op, false), F);
      return true;
    case DslControl::For:
    case DslControl::Case:
    case DslControl::Default:
      stmt(Lambda->getBody(), Seq, F); // The enclosing loop or switch decides.
      return true;
    case DslControl::Switch:
      return switchStmt(Control->Conditions, Lambda, Seq, F);
    }
    return false;
  }

  /// The arm lambdas of `$if ... $elif ... $else ...`, in order.
  bool collectArms(const Expr *E, std::vector<const LambdaExpr *> &Arms) {
    const auto *Op = dyn_cast<CXXOperatorCallExpr>(E->IgnoreImplicit()->IgnoreParens());
    if (!Op || Op->getNumArgs() != 2)
      return false;
    const LambdaExpr *Lambda = asLambda(Op->getArg(1));
    if (!Lambda)
      return false;
    if (Op->getOperator() == OO_Slash) {
      if (!collectArms(Op->getArg(0), Arms))
        return false;
      Arms.push_back(Lambda);
      return true;
    }
    if (Op->getOperator() != OO_Percent)
      return false;
    auto Control = controlOfBody(Lambda->getBody(), Ctx);
    if (!Control)
      return false;
    if (Control->K == DslControl::Elif) {
      const auto *Chain =
          dyn_cast<CXXOperatorCallExpr>(Op->getArg(0)->IgnoreImplicit()->IgnoreParens());
      if (!Chain || Chain->getOperator() != OO_Star || Chain->getNumArgs() != 2 ||
          !collectArms(Chain->getArg(0), Arms))
        return false;
    } else if (Control->K != DslControl::If) {
      return false;
    }
    Arms.push_back(Lambda);
    return true;
  }

  bool ifChain(const CXXOperatorCallExpr *Op, Node *Seq, const CallFrame *F) {
    std::vector<const LambdaExpr *> Arms;
    if (!collectArms(Op, Arms)) {
      add(Node::Opaque, Seq);
      return true;
    }
    std::vector<DslControl> Controls;
    for (const LambdaExpr *Arm : Arms) {
      auto Control = controlOfBody(Arm->getBody(), Ctx);
      if (!Control || (Control->K != DslControl::Else && Control->Conditions.empty())) {
        add(Node::Opaque, Seq);
        return true;
      }
      if (Control->K != DslControl::Else)
        expr(Control->Conditions.back(), Seq, F);
      Controls.push_back(std::move(*Control));
    }
    Node *Branch = add(Node::Branch, Seq);
    for (const DslControl &Control : Controls) {
      Node *Arm = add(Node::Seq, Branch);
      bool Else = Control.K == DslControl::Else;
      for (size_t I = 0; I < Control.Conditions.size(); ++I)
        Arm->Guards.push_back(
            {Control.Conditions[I], !Else && I + 1 == Control.Conditions.size(), F});
      Branch->ArmUniform.push_back(Else || Uniformity.varianceOf(Control.Conditions.back()) <=
                                               Variance::Block);
      stmt(Control.Body, Arm, F);
    }
    if (Controls.back().K != DslControl::Else) {
      add(Node::Seq, Branch); // The threads that take no arm.
      Branch->ArmUniform.push_back(true);
    }
    return true;
  }

  bool switchStmt(const std::vector<const Expr *> &Value, const LambdaExpr *Lambda, Node *Seq,
                  const CallFrame *F) {
    if (Value.empty()) {
      add(Node::Opaque, Seq);
      return true;
    }
    expr(Value.front(), Seq, F);
    bool Uniform = Uniformity.varianceOf(Value.front()) <= Variance::Block;
    Node *Branch = add(Node::Branch, Seq);
    bool HasDefault = false;
    for (const Stmt *S : blockStatements(Lambda->getBody())) {
      const auto *Case = dyn_cast<CXXOperatorCallExpr>(S);
      const LambdaExpr *Body =
          Case && Case->getNumArgs() == 2 ? asLambda(Case->getArg(1)) : nullptr;
      auto Control = Body ? controlOfBody(Body->getBody(), Ctx) : std::nullopt;
      if (!Control || (Control->K != DslControl::Case && Control->K != DslControl::Default)) {
        add(Node::Opaque, Branch->Parent);
        continue;
      }
      HasDefault |= Control->K == DslControl::Default;
      stmt(Body->getBody(), add(Node::Seq, Branch), F);
      Branch->ArmUniform.push_back(Uniform);
    }
    if (!HasDefault) {
      add(Node::Seq, Branch);
      Branch->ArmUniform.push_back(Uniform);
    }
    return true;
  }

  enum class Use { Read, Write, ReadWrite, Unknown };

  /// How the element access \p Access is used: stored to, read, both.
  Use useOf(const Expr *Access, const Expr *&Stored) {
    const Expr *Child = Access;
    for (unsigned Depth = 0; Depth < 16; ++Depth) {
      DynTypedNodeList Parents = Ctx.getParents(*Child);
      if (Parents.empty())
        return Use::Unknown;
      if (const auto *Var = Parents[0].get<VarDecl>())
        return Var->getType()->isReferenceType() ? Use::Unknown : Use::Read;
      if (Parents[0].get<ReturnStmt>())
        return Use::Read;
      const auto *P = Parents[0].get<Expr>();
      if (!P)
        return Use::Unknown;
      if (isa<ImplicitCastExpr, ParenExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
              ExprWithCleanups>(P)) {
        Child = P;
        continue;
      }
      if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(P)) {
        bool IsTarget = Op->getNumArgs() >= 1 && Op->getArg(0) == Child;
        if (IsTarget && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2) {
          Stored = Op->getArg(1);
          return Use::Write;
        }
        if (IsTarget && (Op->isAssignmentOp() || Op->getOperator() == OO_PlusPlus ||
                         Op->getOperator() == OO_MinusMinus))
          return Use::ReadWrite;
        if (Op->getOperator() == OO_Subscript || Op->getOperator() == OO_Arrow ||
            Op->getOperator() == OO_Call || Op->getOperator() == OO_Amp)
          return Use::Unknown;
        return Use::Read;
      }
      if (isa<CXXConstructExpr, InitListExpr>(P))
        return Use::Read;
      if (const auto *Member = dyn_cast<MemberExpr>(P)) {
        // `s[i].operator Expr()`: the conversion that reads the element.
        DynTypedNodeList Up = Ctx.getParents(*Member);
        const auto *Call = Up.empty() ? nullptr : Up[0].get<CXXMemberCallExpr>();
        return Call && Call->getCallee() == Member &&
                       isa_and_nonnull<CXXConversionDecl>(Call->getMethodDecl())
                   ? Use::Read
                   : Use::Unknown;
      }
      if (const auto *Member = dyn_cast<CXXMemberCallExpr>(P)) {
        const CXXMethodDecl *Method = Member->getMethodDecl();
        if (Member->getImplicitObjectArgument() == Child)
          return Method && isa<CXXConversionDecl>(Method) ? Use::Read : Use::Unknown;
        return Method && isLibraryFunction(Method, SM) ? Use::Read : Use::Unknown;
      }
      if (const auto *Call = dyn_cast<CallExpr>(P)) {
        const FunctionDecl *Callee = Call->getDirectCallee();
        if (!Callee)
          return Use::Unknown;
        if (isLibraryFunction(Callee, SM))
          return Use::Read;
        for (unsigned I = 0; I < Call->getNumArgs() && I < Callee->getNumParams(); ++I)
          if (Call->getArg(I) == Child) {
            QualType T = Callee->getParamDecl(I)->getType();
            return T->isLValueReferenceType() && !T.getNonReferenceType().isConstQualified()
                       ? Use::Unknown
                       : Use::Read;
          }
        return Use::Unknown;
      }
      return Use::Unknown;
    }
    return Use::Unknown;
  }

  /// The array \p D denotes where frame \p F runs: a variable, through
  /// helper parameters and local pointers or references to it.
  std::optional<std::pair<const VarDecl *, unsigned>>
  arrayOf(const ValueDecl *D, const CallFrame *F, unsigned Depth = 0) {
    const auto *Var = dyn_cast_or_null<VarDecl>(D);
    if (!Var || Depth > 16)
      return std::nullopt;
    auto Referenced =
        [&](const Expr *E,
            const CallFrame *At) -> std::optional<std::pair<const VarDecl *, unsigned>> {
      if (!E)
        return std::nullopt;
      E = E->IgnoreParenImpCasts();
      if (const auto *Unary = dyn_cast<UnaryOperator>(E);
          Unary && (Unary->getOpcode() == UO_AddrOf || Unary->getOpcode() == UO_Deref))
        E = Unary->getSubExpr()->IgnoreParenImpCasts();
      const auto *Ref = dyn_cast<DeclRefExpr>(E);
      return Ref ? arrayOf(Ref->getDecl(), At, Depth + 1) : std::nullopt;
    };
    if (const auto *Parm = dyn_cast<ParmVarDecl>(Var)) {
      const CallFrame *Frame = frameOf(Parm, F);
      return Frame ? Referenced(argumentOf(Frame, Parm), Frame->Parent) : std::nullopt;
    }
    if ((Var->getType()->isReferenceType() || Var->getType()->isPointerType()) && !isNewArray(Var))
      return Writes.isWritten(Var) ? std::nullopt : Referenced(Var->getInit(), F);
    auto It = Instances.find(Var);
    if (It == Instances.end()) {
      It = Instances.try_emplace(Var, unsigned(M.InstanceDeclaredIn.size())).first;
      M.InstanceDeclaredIn.push_back(nullptr); // Constructed outside the model.
    }
    return std::pair(Var, It->second);
  }

  /// `Shared<T> *s = new Shared<T>{n};`, never pointed elsewhere: the
  /// pointer names one array.
  bool isNewArray(const VarDecl *Var) {
    return Var->getType()->isPointerType() && Var->getInit() &&
           isa<CXXNewExpr>(Var->getInit()->IgnoreImplicit()) && !Writes.isWritten(Var);
  }

  bool sharedAccess(const Expr *E, Node *Seq, const CallFrame *F) {
    auto Element = matchSharedElement(E);
    if (!Element || Element->Access != E)
      return false;
    expr(Element->Index, Seq, F);
    expr(Element->Stored, Seq, F);
    const auto *Member = dyn_cast<CXXMemberCallExpr>(E);
    StringRef Method = Member && Member->getMethodDecl() && Member->getMethodDecl()->getIdentifier()
                           ? Member->getMethodDecl()->getName()
                           : "";
    if (Method == "atomic")
      return true; // Atomics do not race with each other; left out.
    const Expr *Stored = Element->Stored;
    Use U = Method == "write" ? Use::Write : Method == "read" ? Use::Read : useOf(E, Stored);
    if (U == Use::Unknown)
      return true;
    auto Array = arrayOf(Element->Array, F);
    if (!Array)
      return true;
    SharedAccess A;
    A.Access = E;
    A.Index = Element->Index;
    A.Stored = U == Use::Write ? Stored : nullptr;
    A.Array = Array->first;
    A.Instance = Array->second;
    A.Reads = U == Use::Read || U == Use::ReadWrite;
    A.Writes = U == Use::Write || U == Use::ReadWrite;
    for (const CallFrame *Up = F; Up; Up = Up->Parent)
      A.Calls.insert(A.Calls.begin(), Up->Call);
    Node *N = add(Node::Access, Seq);
    N->AccessIndex = unsigned(M.Accesses.size());
    M.Accesses.push_back(std::move(A));
    M.AccessNodes.push_back(N);
    M.AccessFrames.push_back(F);
    return true;
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  UniformityAnalysis &Uniformity;
  WriteAnalysis &Writes;
  KernelModel &M;
  llvm::DenseMap<const VarDecl *, unsigned> Instances; ///< The latest construction of each array.
};

} // namespace

SharedAccessAnalysis::SharedAccessAnalysis(ASTContext &Ctx, UniformityAnalysis &Uniformity,
                                           BlockSizeAnalysis &Blocks, WarpWidthAnalysis &Widths,
                                           IndexRangeAnalysis &Ranges, WriteAnalysis &Writes)
    : Ctx(Ctx), Uniformity(Uniformity), Blocks(Blocks), Widths(Widths), Ranges(Ranges),
      Writes(Writes) {}

SharedAccessAnalysis::~SharedAccessAnalysis() = default;

shared_access_detail::KernelModel &SharedAccessAnalysis::modelOf(const LambdaExpr *Kernel) {
  auto [It, Inserted] = Models.try_emplace(Kernel);
  if (!Inserted)
    return *It->second;
  It->second = std::make_unique<KernelModel>();
  KernelModel &M = *It->second;
  M.Kernel = Kernel;
  M.Dimension = kernelDimension(Kernel, Ctx).value_or(1);
  BlockSize Size = Blocks.sizeOf(Kernel);
  if (auto Shape = Size.known())
    M.Shape = *Shape;
  else // Unknown: witnesses only among threads any block of the dimension has.
    M.Shape = M.Dimension == 1   ? std::array<unsigned, 3>{32, 1, 1}
              : M.Dimension == 2 ? std::array<unsigned, 3>{8, 8, 1}
                                 : std::array<unsigned, 3>{4, 4, 4};
  M.WarpLanes = Widths.widthOf(Kernel).known();
  M.Views = std::make_unique<IntExprViews>(Ctx);
  ModelBuilder(Ctx, Uniformity, Writes, M).build(Kernel);
  return M;
}

const std::vector<SharedAccess> &SharedAccessAnalysis::accessesIn(const LambdaExpr *Kernel) {
  return modelOf(Kernel).Accesses;
}

bool SharedAccessAnalysis::mayShareInterval(const LambdaExpr *Kernel, unsigned A, unsigned B) {
  KernelModel &M = modelOf(Kernel);
  if (A >= M.Accesses.size() || B >= M.Accesses.size())
    return false;
  return !meetingsOf(M, A, B).empty();
}

const std::vector<SharedRace> &SharedAccessAnalysis::racesIn(const LambdaExpr *Kernel) {
  KernelModel &M = modelOf(Kernel);
  if (M.RacesDone)
    return M.Races;
  M.RacesDone = true;
  RaceWitnessSearch Finder(Ctx, Uniformity, Writes, Ranges, M,
                           Blocks.sizeOf(Kernel).known().has_value());
  // Every thread storing one block-uniform value at one block-uniform slot
  // is benign: a reader sees that value whichever write it sees.
  auto Benign = [&](const SharedAccess &A) {
    if (!A.Stored || Uniformity.varianceOf(A.Stored) > Variance::Block ||
        Uniformity.varianceOf(A.Index) > Variance::Block ||
        Uniformity.controlOf(anchorStatement(A.Access, Ctx)) > Variance::Block)
      return false;
    return llvm::all_of(A.Calls, [&](const CallExpr *Call) {
      return Uniformity.controlOf(anchorStatement(Call, Ctx)) <= Variance::Block;
    });
  };
  for (unsigned W = 0; W < M.Accesses.size(); ++W) {
    const SharedAccess &Write = M.Accesses[W];
    if (!Write.Writes || Benign(Write))
      continue;
    for (unsigned R = 0; R < M.Accesses.size(); ++R) {
      const SharedAccess &Read = M.Accesses[R];
      if (!Read.Reads || Read.Instance != Write.Instance || Read.Array != Write.Array)
        continue;
      for (const Meeting &Meet : meetingsOf(M, W, R)) {
        if (Finder.exhausted())
          return M.Races;
        if (auto Race = Finder.witness(W, R, Meet)) {
          M.Races.push_back(*Race);
          break;
        }
      }
    }
  }
  return M.Races;
}

} // namespace kernel_tidy::dsl