// Test-only entry point of the uniformity property test (uniformity.py, issue 30 item 3):
// parses a generated DSL file with the bundled model and prints what kernel-tidy's
// analyses say about each marked expression `probe(rec, ID, ctx, E)`: how uniform E is
// (UniformityAnalysis::varianceOf), how uniform the decision to run the probe is
// (UniformityAnalysis::controlOf) and whether DivergenceAnalysis has a witness of
// divergent control there. One line per probe call: `ID VALUE CONTROL WITNESS`.
//
//   kernel-tidy-classify-probes FILE.cpp
#include "src/dsl/Analyses.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>

using namespace clang;
using namespace kernel_tidy;

namespace {

/// Every call of a function named `probe` in the main file (each once: a
/// lambda's body is reachable from its expression and its closure class).
class ProbeCollector : public RecursiveASTVisitor<ProbeCollector> {
public:
  explicit ProbeCollector(ASTContext &Ctx) : Ctx(Ctx) {}
  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (Callee && Callee->getName() == "probe" && Call->getNumArgs() == 4 &&
        Ctx.getSourceManager().isInMainFile(Call->getBeginLoc()))
      Calls.insert(Call);
    return true;
  }
  ASTContext &Ctx;
  std::set<const CallExpr *> Calls;
};

/// The statement that holds \p Call: the child of its enclosing block.
const Stmt *statementOf(const CallExpr *Call, ASTContext &Ctx) {
  for (const Stmt *S = Call; S;) {
    DynTypedNodeList Parents = Ctx.getParents(*S);
    if (Parents.empty())
      return nullptr;
    const auto *Parent = Parents[0].get<Stmt>();
    if (isa_and_nonnull<CompoundStmt>(Parent))
      return S;
    S = Parent;
  }
  return nullptr;
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc != 2) {
    llvm::errs() << "usage: " << Argv[0] << " FILE.cpp\n";
    return 2;
  }
  auto Source = llvm::MemoryBuffer::getFile(Argv[1]);
  if (!Source) {
    llvm::errs() << Argv[1] << ": " << Source.getError().message() << "\n";
    return 2;
  }
  std::vector<std::string> Args = {"-std=c++20", "-isystem", KERNEL_TIDY_MODEL_DIR,
                                   "-resource-dir=" KERNEL_TIDY_CLANG_RESOURCE_DIR};
  std::unique_ptr<ASTUnit> Unit =
      tooling::buildASTFromCodeWithArgs((*Source)->getBuffer(), Args, Argv[1]);
  if (!Unit || Unit->getDiagnostics().hasErrorOccurred()) {
    llvm::errs() << Argv[1] << ": does not parse with the bundled model\n";
    return 2;
  }
  ASTContext &Ctx = Unit->getASTContext();
  // Walk the file's own declarations only, as a kernel-tidy run does.
  std::vector<Decl *> Own;
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (Ctx.getSourceManager().isInMainFile(D->getLocation()))
      Own.push_back(D);
  Ctx.setTraversalScope(Own);
  ProbeCollector Collector(Ctx);
  Collector.TraverseAST(Ctx);

  dsl::Analyses A(Ctx, dsl::DefaultWarpWidth);
  std::map<uint64_t, std::string> Lines;
  for (const CallExpr *Call : Collector.Calls) {
    Expr::EvalResult Id;
    if (!Call->getArg(1)->EvaluateAsInt(Id, Ctx)) {
      llvm::errs() << "a probe whose id is not a constant\n";
      return 2;
    }
    const Stmt *S = statementOf(Call, Ctx);
    if (!S) {
      llvm::errs() << "a probe outside a block\n";
      return 2;
    }
    std::string Line;
    llvm::raw_string_ostream Out(Line);
    uint64_t Key = Id.Val.getInt().getZExtValue();
    Out << Key << " " << dsl::varianceName(A.Uniformity.varianceOf(Call->getArg(3))) << " "
        << dsl::varianceName(A.Uniformity.controlOf(S)) << " "
        << (A.Divergence.witnessFor(S) ? 1 : 0);
    if (!Lines.emplace(Key, Line).second) {
      llvm::errs() << "probe id " << Key << " used twice\n";
      return 2;
    }
  }
  for (const auto &[Key, Line] : Lines)
    llvm::outs() << Line << "\n";
  return 0;
}
