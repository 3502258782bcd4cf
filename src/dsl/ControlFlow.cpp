//===--- ControlFlow.cpp - The DSL control around a statement -------------===//

#include "src/dsl/ControlFlow.h"

#include "src/dsl/Ast.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace kernel_tidy::dsl {

ControlSummary ControlFlowAnalysis::enclosing(const Stmt *S) {
  ControlSummary Summary;
  const Stmt *Node = S;
  for (const Stmt *Parent = parentStmt(Node, Ctx);; Node = Parent, Parent = parentStmt(Node, Ctx)) {
    if (!Parent) {
      Summary.Body = Node;
      return Summary;
    }
    if (auto Control = controlOfBody(Node, Ctx)) {
      Summary.Controls.push_back(std::move(*Control));
      continue;
    }
    if (const auto *Lambda = dyn_cast<LambdaExpr>(Parent)) {
      // A lambda that is not a DSL statement body is a function of its own.
      Summary.Body = Node;
      if (lambdaRole(Lambda, Ctx) != LambdaRole::Other)
        Summary.Kernel = Lambda;
      return Summary;
    }
  }
}

namespace {

/// Collects barriers and exits below a body.
class FactsFinder : public KernelCodeVisitor<FactsFinder> {
public:
  FactsFinder(ASTContext &Ctx, std::vector<const CallExpr *> &Barriers,
              std::vector<ExitSite> &Exits)
      : KernelCodeVisitor(Ctx), Barriers(Barriers), Exits(Exits) {}

  bool VisitCallExpr(CallExpr *Call) {
    if (dslCallName(Call) == "sync_block")
      Barriers.push_back(Call);
    else if (auto Exit = matchDslExit(Call))
      Exits.push_back({*Exit, Call});
    return true;
  }

private:
  std::vector<const CallExpr *> &Barriers;
  std::vector<ExitSite> &Exits;
};

} // namespace

const ControlFlowAnalysis::BodyFacts &ControlFlowAnalysis::factsOf(const Stmt *Body) {
  auto [It, Inserted] = Facts.try_emplace(Body);
  if (Inserted) {
    FactsFinder Finder(Ctx, It->second.Barriers, It->second.Exits);
    Finder.TraverseStmt(const_cast<Stmt *>(Body));
  }
  return It->second;
}

const std::vector<const CallExpr *> &ControlFlowAnalysis::barriers(const Stmt *Body) {
  return factsOf(Body).Barriers;
}

const std::vector<ExitSite> &ControlFlowAnalysis::exits(const Stmt *Body) {
  return factsOf(Body).Exits;
}

std::vector<DslControl> ControlFlowAnalysis::controlsBetween(const Stmt *Inner, const Stmt *Outer) {
  std::vector<DslControl> InnerControls = enclosing(Inner).Controls;
  std::vector<DslControl> OuterControls = enclosing(Outer).Controls;
  while (!InnerControls.empty() && !OuterControls.empty() &&
         InnerControls.back().Body == OuterControls.back().Body) {
    InnerControls.pop_back();
    OuterControls.pop_back();
  }
  return InnerControls;
}

std::vector<ControlFlowAnalysis::PriorReturn> ControlFlowAnalysis::returnsBefore(const Stmt *S) {
  std::vector<PriorReturn> Returns;
  auto AddReturnsIn = [&](const Stmt *Holder) {
    for (const ExitSite &Exit : exits(Holder))
      if (Exit.Kind == DslExit::Return)
        Returns.push_back({Exit, Holder});
  };
  const Stmt *Body = enclosing(S).Body;
  for (const Stmt *Before : statementsBefore(S, Ctx, Body))
    AddReturnsIn(Before);
  for (const Stmt *Node = S, *Parent = parentStmt(S, Ctx); Parent && Node != Body;
       Node = Parent, Parent = parentStmt(Node, Ctx))
    if (isa<ForStmt, CXXForRangeStmt, WhileStmt, DoStmt>(Parent))
      AddReturnsIn(Parent);
  return Returns;
}

std::vector<ControlFlowAnalysis::LoopExit>
ControlFlowAnalysis::exitsLeaving(const DslControl &Loop) {
  std::vector<LoopExit> Leaving;
  for (const ExitSite &Exit : exits(Loop.Body)) {
    std::vector<DslControl> Inside = controlsBetween(Exit.Call, Loop.Body);
    if (Exit.Kind != DslExit::Return &&
        llvm::any_of(Inside, [](const DslControl &C) { return C.isLoop(); }))
      continue; // Leaves an inner loop only.
    Leaving.push_back({Exit, std::move(Inside)});
  }
  return Leaving;
}

const Stmt *anchorStatement(const Stmt *S, ASTContext &Ctx) {
  for (DynTypedNode Node = DynTypedNode::create(*S); Node.get<Expr>();) {
    DynTypedNodeList Parents = Ctx.getParents(Node);
    if (Parents.empty())
      break;
    if (const auto *Var = Parents[0].get<VarDecl>()) {
      for (const DynTypedNode &Up : Ctx.getParents(*Var))
        if (const auto *Decl = Up.get<DeclStmt>())
          return Decl;
      break;
    }
    Node = Parents[0];
  }
  return S;
}

} // namespace kernel_tidy::dsl
