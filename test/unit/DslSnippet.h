//===--- DslSnippet.h - DSL code parsed with the bundled model, for tests -===//

#ifndef KERNEL_TIDY_TEST_UNIT_DSLSNIPPET_H
#define KERNEL_TIDY_TEST_UNIT_DSLSNIPPET_H

#include "test/unit/TestSupport.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include <algorithm>
#include <memory>
#include <string>

namespace kernel_tidy::test {

using namespace clang;
using namespace clang::ast_matchers;

/// A DSL snippet parsed with the bundled model; `probe(E)` marks the
/// expressions under test, in source order.
class Snippet {
public:
  /// \p KernelBody inside a Kernel1D lambda taking (BufferUInt buffer,
  /// UInt n); \p Prelude before the function; \p Using the using-directives.
  explicit Snippet(
      const std::string &KernelBody, const std::string &Prelude = "",
      const char *Using = "using namespace luisa;\nusing namespace luisa::compute;\n") {
    std::string Code =
        std::string(ModelIncludes) + Using + "template<typename T> void probe(const T &) {}\n" +
        Prelude +
        "\nvoid build(luisa::compute::Device &device) {\n"
        "  luisa::compute::Kernel1D kernel = [&](luisa::compute::BufferUInt buffer,\n"
        "                                        luisa::compute::UInt n) noexcept {\n" +
        KernelBody + "\n  };\n}\n";
    std::vector<std::string> Args = modelCompileArgs();
    // The model's headers come precompiled (their include guards then skip
    // the includes): one header parse per build instead of one per snippet.
    std::string Pch = modelPch();
    if (!Pch.empty())
      Args.insert(Args.end(), {"-include-pch", Pch});
    Unit = tooling::buildASTFromCodeWithArgs(Code, Args, "snippet.cpp");
    if (!Unit)
      return;
    // Matchers and parent maps walk the snippet's own declarations only, as
    // in a kernel-tidy run (walking the headers would deserialize the PCH).
    std::vector<Decl *> Own;
    for (Decl *D : context().getTranslationUnitDecl()->decls())
      if (context().getSourceManager().isInMainFile(D->getLocation()))
        Own.push_back(D);
    context().setTraversalScope(Own);
  }

  bool parsed() const { return Unit && !Unit->getDiagnostics().hasErrorOccurred(); }

  ASTContext &context() { return Unit->getASTContext(); }

  /// The argument of the \p Index-th `probe(...)` call.
  const Expr *probe(unsigned Index) {
    auto Calls =
        match(findAll(callExpr(callee(functionDecl(hasName("probe")))).bind("call")), context());
    std::vector<const CallExpr *> Sorted;
    for (const auto &Node : Calls)
      Sorted.push_back(Node.getNodeAs<CallExpr>("call"));
    // Lambda bodies are reachable twice (expression and closure class).
    std::sort(Sorted.begin(), Sorted.end(), [](const CallExpr *A, const CallExpr *B) {
      return A->getBeginLoc() < B->getBeginLoc();
    });
    Sorted.erase(std::unique(Sorted.begin(), Sorted.end()), Sorted.end());
    return Index < Sorted.size() ? Sorted[Index]->getArg(0) : nullptr;
  }

  /// The statement of the \p Index-th probe (the `probe(...);` itself).
  const clang::Stmt *probeStatement(unsigned Index) {
    const clang::Expr *Arg = probe(Index);
    if (!Arg)
      return nullptr;
    for (const clang::Stmt *S = Arg; S;) {
      auto Parents = context().getParents(*S);
      if (Parents.empty())
        return nullptr;
      const auto *Parent = Parents[0].get<clang::Stmt>();
      if (isa_and_nonnull<clang::CompoundStmt>(Parent))
        return S;
      S = Parent;
    }
    return nullptr;
  }

  const ForStmt *firstHostFor() {
    auto Loops = match(findAll(forStmt(isExpansionInMainFile()).bind("for")), context());
    return Loops.empty() ? nullptr : Loops[0].getNodeAs<ForStmt>("for");
  }

private:
  std::unique_ptr<ASTUnit> Unit;
};

} // namespace kernel_tidy::test

#endif // KERNEL_TIDY_TEST_UNIT_DSLSNIPPET_H
