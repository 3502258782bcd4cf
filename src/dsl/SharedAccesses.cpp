//===--- SharedAccesses.cpp - Shared-memory accesses and barrier intervals ===//

#include "src/dsl/SharedAccesses.h"

#include "src/dsl/Ast.h"
#include "src/dsl/Divergence.h"
#include "src/dsl/HostEval.h"
#include "src/dsl/Names.h"
#include "src/dsl/Statements.h"
#include "src/dsl/TreeReduction.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include <deque>
#include <unordered_map>

using namespace clang;

namespace kernel_tidy::dsl {

namespace shared_access_detail {

/// A helper, lambda or Callable whose body runs at its call site.
struct CallFrame {
  const CallFrame *Parent = nullptr;
  const CallExpr *Call = nullptr;
  const FunctionDecl *Callee = nullptr;
  unsigned ArgOffset = 0; ///< Where the callee's first parameter is in Call's arguments.
};

/// A condition a thread satisfies (Positive) or fails to be inside a node.
struct Guard {
  const Expr *Cond = nullptr;
  bool Positive = true;
  const CallFrame *Frame = nullptr;
};

/// The structured control of a kernel: sequences, branches, loops and the
/// barriers, exits and accesses at their leaves.
struct Node {
  enum Kind { Seq, Branch, Loop, Barrier, Access, Exit, Opaque };
  Kind K = Seq;
  Node *Parent = nullptr;
  unsigned Slot = 0; ///< Position in Parent->Children.
  std::vector<Node *> Children;
  std::vector<Guard> Guards;     ///< A Seq that is a branch arm or a loop body.
  std::vector<bool> ArmUniform;  ///< Branch: each arm's own condition is block-uniform.
  const Stmt *Statement = nullptr; ///< Loop: the DSL or host loop statement.
  const VarDecl *Var = nullptr;    ///< Loop: the variable that changes per iteration.
  std::vector<int64_t> Values;     ///< Loop: Var's values, when known.
  bool ValuesKnown = false;
  bool Host = false; ///< Loop: unrolled while the kernel is built.
  unsigned AccessIndex = 0;
  int PassFree = -1; ///< Memo of passFree().
};

} // namespace shared_access_detail

using namespace shared_access_detail;

struct SharedAccessAnalysis::KernelModel {
  std::deque<Node> Nodes;
  std::deque<CallFrame> Frames;
  Node *Root = nullptr;
  std::vector<SharedAccess> Accesses;
  std::vector<Node *> AccessNodes;
  std::vector<const CallFrame *> AccessFrames;
  std::vector<Node *> InstanceDeclaredIn; ///< Per array instance: the Seq that constructs it.
  std::vector<SharedRace> Races;
  bool RacesDone = false;
  const LambdaExpr *Kernel = nullptr;
  unsigned Dimension = 1;
  std::array<unsigned, 3> Shape{1, 1, 1};
  std::optional<unsigned> WarpLanes;
};

namespace {

constexpr unsigned MaxInlineDepth = 8;
constexpr unsigned MaxThreads = 4096;
constexpr unsigned MaxCombinations = 256;
constexpr uint64_t EvaluationBudget = 4'000'000; ///< Index evaluations per kernel.

/// The lambda a variable's initialiser holds (`Callable f = [](...) {...};`).
const LambdaExpr *lambdaIn(const Expr *E) {
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

const Expr *argumentOf(const CallFrame *Frame, const ParmVarDecl *Parm) {
  unsigned Index = Parm->getFunctionScopeIndex() + Frame->ArgOffset;
  if (Index >= Frame->Call->getNumArgs())
    return nullptr;
  const Expr *Arg = Frame->Call->getArg(Index);
  if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(Arg))
    return Default->getExpr();
  return Arg;
}

/// The frame whose callee declares \p Parm, or nullptr.
const CallFrame *frameOf(const ParmVarDecl *Parm, const CallFrame *Frame) {
  for (; Frame; Frame = Frame->Parent)
    if (Frame->Callee && Parm->getDeclContext() == Frame->Callee)
      return Frame;
  return nullptr;
}

/// Builds the control tree of one kernel, inlining helper calls.
class ModelBuilder {
public:
  using KernelModel = SharedAccessAnalysis::KernelModel;
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
      if (!Args->empty() && Args->size() <= 3 && llvm::all_of(Bounds, [](const auto &V) { return V.has_value(); })) {
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
    const FunctionDecl *Callee = Call->getDirectCallee();
    const Stmt *Body = nullptr;
    unsigned Offset = 0;
    const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
      expr(Member->getImplicitObjectArgument(), Seq, F);
    for (unsigned I = Op ? 1 : 0; I < Call->getNumArgs(); ++I)
      expr(Call->getArg(I), Seq, F);
    bool IsCallOperator = Op && Op->getOperator() == OO_Call;
    if (Callee && !isLibraryFunction(Callee, SM)) {
      if (const FunctionDecl *Definition = Callee->getDefinition()) {
        Callee = Definition;
        Body = Definition->getBody();
      }
      Offset = Op && isa<CXXMethodDecl>(Callee) ? 1 : 0;
    } else if (IsCallOperator && Op->getNumArgs() > 0) {
      // A Callable: the lambda its variable was initialised with.
      const auto *Ref = dyn_cast<DeclRefExpr>(Op->getArg(0)->IgnoreParenImpCasts());
      const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
      if (const LambdaExpr *Lambda = Var ? lambdaIn(Var->getInit()) : nullptr) {
        Callee = Lambda->getCallOperator();
        Body = Lambda->getBody();
        Offset = 1;
      }
    } else if (Callee) {
      return; // Library code: its arguments were walked.
    }
    if (!Body) {
      add(Node::Opaque, Seq);
      return;
    }
    unsigned Depth = 0;
    for (const CallFrame *Up = F; Up; Up = Up->Parent, ++Depth)
      if (Up->Callee == Callee) {
        add(Node::Opaque, Seq); // Recursion: out of the model.
        return;
      }
    if (Depth >= MaxInlineDepth) {
      add(Node::Opaque, Seq);
      return;
    }
    M.Frames.push_back(CallFrame{F, Call, Callee, Offset});
    stmt(Body, Seq, &M.Frames.back());
  }

  bool control(const CXXOperatorCallExpr *Op, Node *Seq, const CallFrame *F) {
    if (Op->getNumArgs() != 2 ||
        (Op->getOperator() != OO_Percent && Op->getOperator() != OO_Slash))
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
      const auto *Chain = dyn_cast<CXXOperatorCallExpr>(Op->getArg(0)->IgnoreImplicit()->IgnoreParens());
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
      Branch->ArmUniform.push_back(
          Else || Uniformity.varianceOf(Control.Conditions.back()) <= Variance::Block);
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
      const LambdaExpr *Body = Case && Case->getNumArgs() == 2 ? asLambda(Case->getArg(1)) : nullptr;
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
  std::optional<std::pair<const VarDecl *, unsigned>> arrayOf(const ValueDecl *D,
                                                              const CallFrame *F,
                                                              unsigned Depth = 0) {
    const auto *Var = dyn_cast_or_null<VarDecl>(D);
    if (!Var || Depth > 16)
      return std::nullopt;
    auto Referenced = [&](const Expr *E, const CallFrame *At)
        -> std::optional<std::pair<const VarDecl *, unsigned>> {
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

bool passFree(Node *N) {
  if (N->PassFree >= 0)
    return N->PassFree;
  bool Free = false;
  switch (N->K) {
  case Node::Seq:
    Free = llvm::all_of(N->Children, passFree);
    break;
  case Node::Branch:
    Free = llvm::any_of(N->Children, passFree);
    break;
  case Node::Loop:
    Free = passFree(N->Children.front());
    break;
  case Node::Access:
    Free = true;
    break;
  case Node::Barrier:
  case Node::Exit:
  case Node::Opaque:
    Free = false;
    break;
  }
  N->PassFree = Free;
  return Free;
}

/// A barrier-free path from the entry of \p Top (an ancestor) to \p X, or
/// from \p X to the exit of \p Top.
bool freeWithin(const Node *X, const Node *Top, bool ToExit) {
  for (const Node *N = X; N != Top; N = N->Parent) {
    const Node *P = N->Parent;
    if (P->K != Node::Seq)
      continue;
    for (unsigned I = ToExit ? N->Slot + 1 : 0; I < (ToExit ? P->Children.size() : N->Slot); ++I)
      if (!passFree(P->Children[I]))
        return false;
  }
  return true;
}

std::vector<Node *> pathTo(Node *N) {
  std::vector<Node *> Path;
  for (; N; N = N->Parent)
    Path.insert(Path.begin(), N);
  return Path;
}

/// How the two accesses' copies of a loop variable relate.
enum class Tie { Same, Free, NextAB, NextBA, Distinct };

/// Which iterations of a loop one side can be in: a barrier-free path that
/// leaves a loop whose every iteration has a barrier starts in its last
/// iteration, one that enters it ends in its first.
enum class Iterations { Any, First, Last };

/// How a loop's variable is bound on the two sides of a meeting.
struct LoopBinding {
  const Node *Loop = nullptr;
  Tie T = Tie::Free;
  Iterations A = Iterations::Any, B = Iterations::Any; ///< For Free.
};

/// One way two threads can be in one barrier interval at two accesses.
struct Meeting {
  SharedRace::Order Sequence = SharedRace::WriteThenRead;
  const Node *AcrossLoop = nullptr;
  /// The loops around either access (a Free loop around one access only
  /// binds that side).
  std::vector<LoopBinding> Loops;
};

/// How the barrier-free path of a meeting meets the loops around one access
/// only: A leaves them and B enters them, the reverse, both enter, or any.
enum class PathShape { AExitsBEnters, BExitsAEnters, BothEnter, Anywhere };

/// The evaluation state of one side (thread) of a candidate race.
struct Side {
  std::array<int64_t, 3> Thread{0, 0, 0};
  llvm::DenseMap<const VarDecl *, int64_t> Loops;
  HostBindings Host;
  unsigned Seed = 0;
  unsigned Which = 0;
};

} // namespace

SharedAccessAnalysis::SharedAccessAnalysis(ASTContext &Ctx, UniformityAnalysis &Uniformity,
                                           BlockSizeAnalysis &Blocks, WarpWidthAnalysis &Widths,
                                           IndexRangeAnalysis &Ranges, WriteAnalysis &Writes)
    : Ctx(Ctx), Uniformity(Uniformity), Blocks(Blocks), Widths(Widths), Ranges(Ranges),
      Writes(Writes) {}

SharedAccessAnalysis::~SharedAccessAnalysis() = default;

SharedAccessAnalysis::KernelModel &SharedAccessAnalysis::modelOf(const LambdaExpr *Kernel) {
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
    M.Shape = M.Dimension == 1 ? std::array<unsigned, 3>{32, 1, 1}
              : M.Dimension == 2 ? std::array<unsigned, 3>{8, 8, 1}
                                 : std::array<unsigned, 3>{4, 4, 4};
  M.WarpLanes = Widths.widthOf(Kernel).known();
  ModelBuilder(Ctx, Uniformity, Writes, M).build(Kernel);
  return M;
}

const std::vector<SharedAccess> &SharedAccessAnalysis::accessesIn(const LambdaExpr *Kernel) {
  return modelOf(Kernel).Accesses;
}

namespace {

/// Finds the meetings and the witnesses of races in one kernel model.
class RaceFinder {
public:
  using KernelModel = SharedAccessAnalysis::KernelModel;
  RaceFinder(ASTContext &Ctx, UniformityAnalysis &Uniformity, WriteAnalysis &Writes,
             IndexRangeAnalysis &Ranges, KernelModel &M)
      : Ctx(Ctx), Uniformity(Uniformity), Writes(Writes), Ranges(Ranges), M(M) {}

  std::vector<Meeting> meetings(unsigned A, unsigned B) {
    std::vector<Meeting> Found;
    Node *NA = M.AccessNodes[A], *NB = M.AccessNodes[B];
    std::vector<Node *> PA = pathTo(NA), PB = pathTo(NB);
    size_t Common = 0;
    while (Common < PA.size() && Common < PB.size() && PA[Common] == PB[Common])
      ++Common;
    // Loops above the meeting point keep both threads in one iteration when
    // every path through their body has a barrier.
    auto LoopsFor = [&](size_t Upto, const Node *Across, Tie AcrossTie, PathShape Shape) {
      auto RangeOf = [&](const Node *Loop, bool SideA) {
        if (Shape == PathShape::Anywhere || passFree(Loop->Children.front()))
          return Iterations::Any;
        bool Exits = SideA ? Shape == PathShape::AExitsBEnters : Shape == PathShape::BExitsAEnters;
        return Exits ? Iterations::Last : Iterations::First;
      };
      std::vector<LoopBinding> Loops;
      for (size_t K = 0; K < PA.size(); ++K) {
        if (PA[K]->K != Node::Loop)
          continue;
        LoopBinding Binding{PA[K], Tie::Free, RangeOf(PA[K], true), RangeOf(PA[K], false)};
        if (K < Common && PA[K] == Across)
          Binding.T = AcrossTie;
        else if (K < Common && K < Upto && !passFree(PA[K]->Children.front()))
          Binding.T = Tie::Same; // Every iteration has a barrier: in step.
        else if (K < Common && K < Upto)
          Binding.A = Binding.B = Iterations::Any;
        if (K >= Common)
          Binding.B = Iterations::Any; // Not around B: unbound there.
        Loops.push_back(Binding);
      }
      for (size_t K = Common; K < PB.size(); ++K)
        if (PB[K]->K == Node::Loop)
          Loops.push_back({PB[K], Tie::Free, Iterations::Any, RangeOf(PB[K], false)});
      return Loops;
    };
    if (A == B) {
      Found.push_back({SharedRace::SameStatement, nullptr,
                       LoopsFor(Common, nullptr, Tie::Free, PathShape::Anywhere)});
    } else if (Common > 0 && Common < PA.size() && Common < PB.size()) {
      Node *L = PA[Common - 1];
      Node *CA = PA[Common], *CB = PB[Common];
      if (L->K == Node::Seq) {
        bool AFirst = CA->Slot < CB->Slot;
        Node *First = AFirst ? CA : CB, *Second = AFirst ? CB : CA;
        bool Free = freeWithin(AFirst ? NA : NB, First, true) &&
                    freeWithin(AFirst ? NB : NA, Second, false);
        for (unsigned I = First->Slot + 1; Free && I < Second->Slot; ++I)
          Free = passFree(L->Children[I]);
        if (Free)
          Found.push_back({AFirst ? SharedRace::WriteThenRead : SharedRace::ReadThenWrite, nullptr,
                           LoopsFor(Common, nullptr, Tie::Free,
                                    AFirst ? PathShape::AExitsBEnters : PathShape::BExitsAEnters)});
      } else if (L->K == Node::Branch) {
        unsigned Lower = std::min(CA->Slot, CB->Slot);
        if (!L->ArmUniform[Lower] && freeWithin(NA, CA, false) && freeWithin(NB, CB, false))
          Found.push_back({SharedRace::OtherBranch, nullptr,
                           LoopsFor(Common, nullptr, Tie::Free, PathShape::BothEnter)});
      }
    }
    // Around the back edge of a loop that holds both: one thread late in an
    // iteration, the other early in the next.
    for (size_t I = std::min(Common, PA.size()); I-- > 0;) {
      Node *Loop = PA[I];
      if (Loop->K != Node::Loop || I + 1 >= PA.size())
        continue;
      Node *Body = Loop->Children.front();
      if (Loop->Host && A != B) {
        unsigned Instance = M.Accesses[A].Instance;
        bool Inside = false;
        for (const Node *N = M.InstanceDeclaredIn[Instance]; N; N = N->Parent)
          Inside |= N == Loop;
        if (Inside)
          continue; // A new array in every unrolled iteration.
      }
      if (passFree(Body)) {
        Found.push_back({SharedRace::WriteThenRead, Loop, LoopsFor(I, Loop, Tie::Distinct, PathShape::Anywhere)});
        continue;
      }
      if (freeWithin(NA, Body, true) && freeWithin(NB, Body, false))
        Found.push_back({SharedRace::WriteThenRead, Loop, LoopsFor(I, Loop, Tie::NextAB, PathShape::AExitsBEnters)});
      if (freeWithin(NB, Body, true) && freeWithin(NA, Body, false))
        Found.push_back({SharedRace::ReadThenWrite, Loop, LoopsFor(I, Loop, Tie::NextBA, PathShape::BExitsAEnters)});
    }
    return Found;
  }

  /// A witness that the write \p W and the read \p R meet at one element.
  std::optional<SharedRace> witness(unsigned W, unsigned R, const Meeting &Meet) {
    std::optional<SharedRace> First;
    for (unsigned Seed = 0; Seed < 2; ++Seed) {
      auto Found = witnessWithSeed(W, R, Meet, Seed);
      if (!Found)
        return std::nullopt;
      if (!First)
        First = Found;
    }
    return First;
  }

  bool exhausted() const { return Evaluations > EvaluationBudget; }

private:
  /// The values of every loop variable in \p Meet for both sides, as a list
  /// of alternatives (at most MaxCombinations).
  std::vector<std::pair<Side, Side>> combinations(const Meeting &Meet, unsigned Seed) {
    std::vector<std::pair<Side, Side>> Out(1);
    Out[0].first.Seed = Out[0].second.Seed = Seed;
    Out[0].second.Which = 1;
    for (const LoopBinding &Binding : Meet.Loops) {
      const Node *Loop = Binding.Loop;
      Tie T = Binding.T;
      bool OnA = onPath(Loop, true), OnB = onPath(Loop, false);
      const VarDecl *Var = Loop->Var;
      if (!Var)
        continue;
      std::vector<std::pair<std::optional<int64_t>, std::optional<int64_t>>> Choices;
      if (!Loop->ValuesKnown) {
        bool Same = T == Tie::Same;
        Choices.push_back({OnA ? std::optional(symbol(Var, Seed, Same ? 2 : 0)) : std::nullopt,
                           OnB ? std::optional(symbol(Var, Seed, Same ? 2 : 1)) : std::nullopt});
      } else {
        const std::vector<int64_t> &V = Loop->Values;
        for (size_t I = 0; I < V.size(); ++I)
          for (size_t J = 0; J < V.size(); ++J) {
            bool Keep = false;
            switch (T) {
            case Tie::Same: Keep = I == J; break;
            case Tie::Free:
              Keep = inRange(Binding.A, I, V.size()) && inRange(Binding.B, J, V.size());
              break;
            case Tie::NextAB: Keep = J == I + 1; break;
            case Tie::NextBA: Keep = I == J + 1; break;
            case Tie::Distinct: Keep = I != J; break;
            }
            if (Keep && (OnA || I == 0) && (OnB || J == 0))
              Choices.push_back({OnA ? std::optional(V[I]) : std::nullopt,
                                 OnB ? std::optional(V[J]) : std::nullopt});
          }
      }
      std::vector<std::pair<Side, Side>> Next;
      for (const auto &Base : Out)
        for (const auto &[VA, VB] : Choices) {
          if (Next.size() >= MaxCombinations)
            break;
          auto Pair = Base;
          if (VA)
            bind(Pair.first, Loop, *VA);
          if (VB)
            bind(Pair.second, Loop, *VB);
          Next.push_back(std::move(Pair));
        }
      Out = std::move(Next);
    }
    return Out;
  }

  static bool inRange(Iterations R, size_t I, size_t Count) {
    return R == Iterations::Any || (R == Iterations::First ? I == 0 : I + 1 == Count);
  }

  bool onPath(const Node *Loop, bool SideA) {
    for (const Node *N = SideA ? CurrentA : CurrentB; N; N = N->Parent)
      if (N == Loop)
        return true;
    return false;
  }

  static void bind(Side &S, const Node *Loop, int64_t Value) {
    S.Loops[Loop->Var] = Value;
    if (Loop->Host)
      S.Host[Loop->Var] = Value;
  }

  /// A large value for an unknown uniform quantity: far from any index a
  /// thread id makes, different per seed (and per side when \p Which < 2).
  static int64_t symbol(const void *Key, unsigned Seed, unsigned Which) {
    uint64_t H = reinterpret_cast<uintptr_t>(Key);
    H = (H ^ (H >> 17)) * 0x9E3779B97F4A7C15ull;
    return (int64_t(1) << 22) + int64_t(Seed) * (int64_t(1) << 21) + int64_t((H >> 40) & 0xfff) * 64 +
           int64_t(Which) * 11;
  }

  std::optional<int64_t> normalize(std::optional<int64_t> V, QualType T) {
    if (!V)
      return std::nullopt;
    T = dslValueType(T).getCanonicalType();
    if (T->isBooleanType())
      return *V != 0;
    if (!T->isIntegerType())
      return std::nullopt;
    uint64_t Bits = Ctx.getTypeSize(T);
    if (T->isUnsignedIntegerType()) {
      if (Bits >= 64)
        return *V >= 0 ? V : std::nullopt;
      return int64_t(uint64_t(*V) & ((uint64_t(1) << Bits) - 1));
    }
    if (Bits >= 64)
      return V;
    int64_t Lim = int64_t(1) << (Bits - 1);
    return *V >= -Lim && *V < Lim ? V : std::nullopt;
  }

  static std::optional<unsigned> axisOf(StringRef Name) {
    if (Name == "x")
      return 0u;
    if (Name == "y")
      return 1u;
    if (Name == "z")
      return 2u;
    return std::nullopt;
  }

  std::optional<int64_t> builtin(StringRef Name, std::optional<unsigned> Axis, const Side &S) {
    auto Linear = [&] {
      return S.Thread[0] + S.Thread[1] * M.Shape[0] + S.Thread[2] * M.Shape[0] * M.Shape[1];
    };
    if (!Axis)
      return std::nullopt;
    if (Name == "thread_id")
      return S.Thread[*Axis];
    if (Name == "block_id")
      return int64_t(S.Seed);
    if (Name == "dispatch_id")
      return int64_t(S.Seed) * M.Shape[*Axis] + S.Thread[*Axis];
    if (Name == "block_size")
      return BlockKnown ? std::optional<int64_t>(M.Shape[*Axis]) : std::nullopt;
    if (Name == "dispatch_size")
      return symbol(&M, S.Seed, 2 + *Axis);
    if (Name == "warp_lane_id")
      return M.WarpLanes ? std::optional<int64_t>(Linear() % *M.WarpLanes) : std::nullopt;
    if (Name == "warp_lane_count")
      return M.WarpLanes ? std::optional<int64_t>(*M.WarpLanes) : std::nullopt;
    return std::nullopt;
  }

  std::optional<int64_t> eval(const Expr *E, const CallFrame *F, const Side &S, unsigned Depth = 0) {
    if (!E || Depth > 32)
      return std::nullopt;
    ++Evaluations;
    if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(E))
      return eval(Default->getExpr(), F, S, Depth + 1);
    if (!isDslValueType(E->getType()))
      return host(E, F, S, Depth);
    const Expr *Inner = stripDslWrappers(E);
    if (!Inner)
      return std::nullopt;
    if (!isDslValueType(Inner->getType()))
      return normalize(host(Inner, F, S, Depth), E->getType());
    StringRef Name = dslCallName(Inner);
    if (const auto *Call = dyn_cast<CallExpr>(Inner); Call && Name.empty()) {
      const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
      if (!Op || Op->getOperator() == OO_Call)
        return normalize(helperResult(Call, F, S, Depth), E->getType());
    }
    if (!Name.empty()) {
      const auto *Call = cast<CallExpr>(Inner->IgnoreParenImpCasts());
      if (Name.size() >= 3 && (Name.ends_with("_x") || Name.ends_with("_y") || Name.ends_with("_z")))
        if (auto V = builtin(Name.drop_back(2) == "thread" ? "thread_id"
                             : Name.drop_back(2) == "block" ? "block_id"
                             : Name.drop_back(2) == "dispatch" ? "dispatch_id"
                                                               : Name.drop_back(2),
                             axisOf(Name.take_back(1)), S))
          return V;
      if (Name == "warp_lane_id" || Name == "warp_lane_count")
        return builtin(Name, 0u, S);
      if ((Name == "min" || Name == "max") && Call->getNumArgs() == 2) {
        auto A = eval(Call->getArg(0), F, S, Depth + 1), B = eval(Call->getArg(1), F, S, Depth + 1);
        if (!A || !B)
          return std::nullopt;
        return normalize(Name == "min" ? std::min(*A, *B) : std::max(*A, *B), E->getType());
      }
      return std::nullopt;
    }
    if (const auto *Member = dyn_cast<MemberExpr>(Inner)) {
      StringRef Of = dslCallName(stripDslWrappers(Member->getBase()));
      if (Of.empty() || !Member->getMemberDecl()->getIdentifier())
        return std::nullopt;
      return builtin(Of, axisOf(Member->getMemberDecl()->getName()), S);
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Inner))
      return normalize(variable(Ref, F, S, Depth), E->getType());
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Inner)) {
      if (Op->getNumArgs() == 1) {
        auto V = eval(Op->getArg(0), F, S, Depth + 1);
        if (!V)
          return std::nullopt;
        switch (Op->getOperator()) {
        case OO_Minus: return *V == INT64_MIN ? std::nullopt : normalize(-*V, Op->getType());
        case OO_Exclaim: return normalize(*V == 0, Op->getType());
        case OO_Tilde: return normalize(~*V, Op->getType());
        case OO_Plus: return normalize(V, Op->getType());
        default: return std::nullopt;
        }
      }
      if (Op->getNumArgs() != 2)
        return std::nullopt;
      auto A = eval(Op->getArg(0), F, S, Depth + 1);
      auto B = A ? eval(Op->getArg(1), F, S, Depth + 1) : std::nullopt;
      if (!A || !B)
        return std::nullopt;
      return normalize(binary(Op->getOperator(), *A, *B), Op->getType());
    }
    return std::nullopt;
  }

  /// The value of a helper, lambda or Callable whose body is `return X;`.
  std::optional<int64_t> helperResult(const CallExpr *Call, const CallFrame *F, const Side &S,
                                      unsigned Depth) {
    if (isa<CXXMemberCallExpr>(Call))
      return std::nullopt;
    const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
    if (Op && Op->getOperator() != OO_Call)
      return std::nullopt;
    const FunctionDecl *Callee = Call->getDirectCallee();
    const Stmt *Body = nullptr;
    if (Callee && !isLibraryFunction(Callee, Ctx.getSourceManager())) {
      if ((Callee = Callee->getDefinition()))
        Body = Callee->getBody();
    } else if (Op && Op->getNumArgs() > 0) {
      const auto *Ref = dyn_cast<DeclRefExpr>(Op->getArg(0)->IgnoreParenImpCasts());
      const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
      if (const LambdaExpr *Lambda = Var ? lambdaIn(Var->getInit()) : nullptr) {
        Callee = Lambda->getCallOperator();
        Body = Lambda->getBody();
      }
    }
    const auto *Block = dyn_cast_or_null<CompoundStmt>(Body);
    const auto *Return = Block && Block->size() == 1 ? dyn_cast<ReturnStmt>(Block->body_front())
                                                     : nullptr;
    if (!Return || !Return->getRetValue())
      return std::nullopt;
    CallFrame Local{F, Call, Callee, Op ? 1u : 0u};
    return eval(Return->getRetValue(), &Local, S, Depth + 1);
  }

  static std::optional<int64_t> binary(OverloadedOperatorKind Op, int64_t A, int64_t B) {
    int64_t R = 0;
    switch (Op) {
    case OO_Plus: return __builtin_add_overflow(A, B, &R) ? std::nullopt : std::optional(R);
    case OO_Minus: return __builtin_sub_overflow(A, B, &R) ? std::nullopt : std::optional(R);
    case OO_Star: return __builtin_mul_overflow(A, B, &R) ? std::nullopt : std::optional(R);
    case OO_Slash: return B == 0 || (A == INT64_MIN && B == -1) ? std::nullopt : std::optional(A / B);
    case OO_Percent: return B == 0 || (A == INT64_MIN && B == -1) ? std::nullopt : std::optional(A % B);
    case OO_Amp: return A & B;
    case OO_Pipe: return A | B;
    case OO_Caret: return A ^ B;
    case OO_LessLess:
      return B < 0 || B > 62 || A < 0 || A > (INT64_MAX >> B) ? std::nullopt
                                                              : std::optional(A << B);
    case OO_GreaterGreater: return B < 0 || B > 63 || A < 0 ? std::nullopt : std::optional(A >> B);
    case OO_Less: return A < B;
    case OO_Greater: return A > B;
    case OO_LessEqual: return A <= B;
    case OO_GreaterEqual: return A >= B;
    case OO_EqualEqual: return A == B;
    case OO_ExclaimEqual: return A != B;
    case OO_AmpAmp: return A && B;
    case OO_PipePipe: return A || B;
    default: return std::nullopt;
    }
  }

  std::optional<int64_t> host(const Expr *E, const CallFrame *F, const Side &S, unsigned Depth) {
    E = E->IgnoreParenImpCasts();
    if (auto V = evaluateHostInt(E, Ctx, S.Host))
      return V;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
      return variable(Ref, F, S, Depth);
    HostBindings Constants = constantLocals(E, Ctx, Writes);
    if (Constants.empty())
      return std::nullopt;
    for (const auto &[Var, Value] : S.Host)
      Constants[Var] = Value;
    return evaluateHostInt(E, Ctx, Constants);
  }

  std::optional<int64_t> variable(const DeclRefExpr *Ref, const CallFrame *F, const Side &S,
                                  unsigned Depth) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    if (!Var)
      return std::nullopt;
    if (auto It = S.Loops.find(Var); It != S.Loops.end())
      return It->second;
    if (const auto *Parm = dyn_cast<ParmVarDecl>(Var)) {
      if (const CallFrame *Frame = frameOf(Parm, F)) {
        const Expr *Arg = argumentOf(Frame, Parm);
        return Arg ? eval(Arg, Frame->Parent, S, Depth + 1) : std::nullopt;
      }
      // A kernel argument (or a host parameter): the same in every thread.
      return symbol(Var, S.Seed, 2);
    }
    bool Dsl = isDslValueType(Var->getType());
    if (!Writes.isWritten(Var)) {
      if (Var->getInit() && (Dsl || !Var->getType()->isReferenceType()))
        if (auto V = eval(Var->getInit(), F, S, Depth + 1))
          return V;
      if (Dsl)
        return std::nullopt;
      return symbol(Var, S.Seed, 2); // A host value fixed while the kernel is built.
    }
    if (Dsl && Uniformity.varianceOf(Ref) > Variance::Block)
      return std::nullopt;
    // Uniform, but it may change between the two accesses.
    return symbol(Var, S.Seed, S.Which);
  }

  enum class Pass { Yes, No, Unknown };

  Pass guardsHold(unsigned Access, const Side &S) {
    for (const Node *N = M.AccessNodes[Access]; N; N = N->Parent)
      for (const Guard &G : N->Guards) {
        auto V = eval(G.Cond, G.Frame, S);
        if (!V) {
          if (Uniformity.varianceOf(G.Cond) <= Variance::Block)
            continue; // Some blocks take it; they are the ones that race.
          return Pass::Unknown;
        }
        if ((*V != 0) != G.Positive)
          return Pass::No;
      }
    return Pass::Yes;
  }

  std::optional<SharedRace> witnessWithSeed(unsigned W, unsigned R, const Meeting &Meet,
                                            unsigned Seed) {
    CurrentA = M.AccessNodes[W];
    CurrentB = M.AccessNodes[R];
    std::optional<int64_t> Size = Ranges.sharedSizeOf(M.Accesses[W].Array);
    std::vector<std::array<int64_t, 3>> Threads;
    for (unsigned Z = 0; Z < M.Shape[2]; ++Z)
      for (unsigned Y = 0; Y < M.Shape[1]; ++Y)
        for (unsigned X = 0; X < M.Shape[0]; ++X)
          Threads.push_back({X, Y, Z});
    if (Threads.size() < 2 || Threads.size() > MaxThreads)
      return std::nullopt;
    auto Index = [&](unsigned Access, Side &S, const std::array<int64_t, 3> &T,
                     bool &Unknown) -> std::optional<int64_t> {
      S.Thread = T;
      Pass P = guardsHold(Access, S);
      if (P == Pass::Unknown)
        Unknown = true;
      if (P != Pass::Yes)
        return std::nullopt;
      auto V = eval(M.Accesses[Access].Index, M.AccessFrames[Access], S);
      if (!V)
        Unknown = true;
      if (!V || *V < 0 || *V >= Size.value_or(int64_t(1) << 24))
        return std::nullopt;
      return V;
    };
    for (auto &[SideW, SideR] : combinations(Meet, Seed)) {
      if (exhausted())
        return std::nullopt;
      bool Unknown = false;
      std::unordered_map<int64_t, std::pair<size_t, size_t>> Readers; // first two threads
      for (size_t I = 0; I < Threads.size() && !Unknown; ++I)
        if (auto V = Index(R, SideR, Threads[I], Unknown)) {
          auto [It, New] = Readers.try_emplace(*V, I, SIZE_MAX);
          if (!New && It->second.second == SIZE_MAX)
            It->second.second = I;
        }
      if (Unknown)
        return std::nullopt;
      for (size_t I = 0; I < Threads.size(); ++I) {
        auto V = Index(W, SideW, Threads[I], Unknown);
        if (Unknown)
          return std::nullopt;
        if (!V)
          continue;
        auto It = Readers.find(*V);
        if (It == Readers.end())
          continue;
        size_t Reader = It->second.first != I ? It->second.first : It->second.second;
        if (Reader == SIZE_MAX)
          continue;
        SharedRace Race;
        Race.Write = &M.Accesses[W];
        Race.Read = &M.Accesses[R];
        Race.Sequence = Meet.Sequence;
        Race.AcrossLoop = Meet.AcrossLoop ? Meet.AcrossLoop->Statement : nullptr;
        for (unsigned Axis = 0; Axis < 3; ++Axis) {
          Race.Writer[Axis] = unsigned(Threads[I][Axis]);
          Race.Reader[Axis] = unsigned(Threads[Reader][Axis]);
        }
        Race.Element = *V;
        Race.Dimension = M.Dimension;
        return Race;
      }
    }
    return std::nullopt;
  }

public:
  bool BlockKnown = false;

private:
  ASTContext &Ctx;
  UniformityAnalysis &Uniformity;
  WriteAnalysis &Writes;
  IndexRangeAnalysis &Ranges;
  KernelModel &M;
  const Node *CurrentA = nullptr, *CurrentB = nullptr;
  uint64_t Evaluations = 0;
};

} // namespace

bool SharedAccessAnalysis::mayShareInterval(const LambdaExpr *Kernel, unsigned A, unsigned B) {
  KernelModel &M = modelOf(Kernel);
  if (A >= M.Accesses.size() || B >= M.Accesses.size())
    return false;
  return !RaceFinder(Ctx, Uniformity, Writes, Ranges, M).meetings(A, B).empty();
}

const std::vector<SharedRace> &SharedAccessAnalysis::racesIn(const LambdaExpr *Kernel) {
  KernelModel &M = modelOf(Kernel);
  if (M.RacesDone)
    return M.Races;
  M.RacesDone = true;
  RaceFinder Finder(Ctx, Uniformity, Writes, Ranges, M);
  Finder.BlockKnown = Blocks.sizeOf(Kernel).known().has_value();
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
      for (const Meeting &Meet : Finder.meetings(W, R)) {
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
