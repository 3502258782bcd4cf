//===--- Naming.cpp - Names that generated code can use -------------------===//

#include "src/dsl/Naming.h"

#include "src/dsl/Ast.h"
#include "src/dsl/Names.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"

using namespace clang;

namespace kernel_tidy::dsl {

namespace {

/// True for luisa::compute and the namespaces inline in it.
bool isComputeNamespace(const NamespaceDecl *NS) {
  while (NS && NS->isInline())
    NS = dyn_cast<NamespaceDecl>(NS->getDeclContext());
  if (!NS || NS->getName() != "compute")
    return false;
  const auto *Luisa = dyn_cast<NamespaceDecl>(NS->getDeclContext());
  return Luisa && Luisa->getName() == "luisa" && isa<TranslationUnitDecl>(Luisa->getDeclContext());
}

/// The innermost declaration context of \p S.
const DeclContext *contextOf(const Stmt *S, ASTContext &Ctx) {
  DynTypedNodeList Parents = Ctx.getParents(*S);
  while (!Parents.empty()) {
    if (const auto *D = Parents[0].get<Decl>()) {
      if (const auto *DC = dyn_cast<DeclContext>(D))
        return DC;
      return D->getDeclContext();
    }
    Parents = Ctx.getParents(Parents[0]);
  }
  return nullptr;
}

/// True if an unqualified lookup of \p Name from \p DC at \p Loc finds the
/// luisa::compute function.
bool isVisible(StringRef Name, const DeclContext *DC, SourceLocation Loc, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  auto Before = [&](const Decl *D) { return SM.isBeforeInTranslationUnit(D->getLocation(), Loc); };
  IdentifierInfo &Id = Ctx.Idents.get(Name);
  for (; DC; DC = DC->getParent()) {
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC); NS && isComputeNamespace(NS))
      return true;
    if (DC->isFileContext()) {
      for (const UsingDirectiveDecl *Using : DC->using_directives())
        if (Before(Using) && isComputeNamespace(Using->getNominatedNamespace()))
          return true;
      for (const NamedDecl *Found : DC->lookup(&Id))
        if (Before(Found) && isa<UsingShadowDecl>(Found) &&
            isInLuisaCompute(Found->getUnderlyingDecl()))
          return true;
      continue;
    }
    // Function bodies have no lookup table: their declarations in order.
    for (const Decl *D : DC->decls()) {
      if (!Before(D))
        continue;
      if (const auto *Using = dyn_cast<UsingDirectiveDecl>(D))
        if (isComputeNamespace(Using->getNominatedNamespace()))
          return true;
      if (const auto *Shadow = dyn_cast<UsingShadowDecl>(D))
        if (Shadow->getDeclName().getAsIdentifierInfo() == &Id &&
            isInLuisaCompute(Shadow->getUnderlyingDecl()))
          return true;
    }
  }
  return false;
}

/// True if a block around \p At declares, before it, a using-directive for
/// luisa::compute or a using-declaration of \p Name.
bool isVisibleInBlocks(StringRef Name, const Stmt *At, ASTContext &Ctx) {
  for (const Stmt *Before : statementsBefore(At, Ctx)) {
    const auto *Decls = dyn_cast<DeclStmt>(Before);
    if (!Decls)
      continue;
    for (const Decl *D : Decls->decls()) {
      if (const auto *Using = dyn_cast<UsingDirectiveDecl>(D))
        if (isComputeNamespace(Using->getNominatedNamespace()))
          return true;
      if (const auto *Using = dyn_cast<UsingDecl>(D))
        for (const UsingShadowDecl *Shadow : Using->shadows())
          if (Shadow->getName() == Name && isInLuisaCompute(Shadow->getTargetDecl()))
            return true;
    }
  }
  return false;
}

/// Collects every identifier declared or referenced below a statement.
class NameCollector : public RecursiveASTVisitor<NameCollector> {
public:
  llvm::StringSet<> Names;
  bool VisitNamedDecl(NamedDecl *D) {
    if (D->getIdentifier())
      Names.insert(D->getName());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    if (Ref->getDecl()->getIdentifier())
      Names.insert(Ref->getDecl()->getName());
    return true;
  }
  bool shouldVisitLambdaBody() const { return true; }
};

} // namespace

std::string dslQualifier(StringRef Name, const Stmt *At, ASTContext &Ctx, bool HasDslArgument) {
  if (HasDslArgument)
    return ""; // The DSL types live in luisa::compute: ADL finds the builtin.
  if (isVisibleInBlocks(Name, At, Ctx))
    return "";
  const DeclContext *DC = contextOf(At, Ctx);
  if (DC && isVisible(Name, DC, Ctx.getSourceManager().getExpansionLoc(At->getBeginLoc()), Ctx))
    return "";
  return "luisa::compute::";
}

namespace {
/// The names the fixes of the unit being checked declared, per outermost
/// function body. Per thread: each worker (CLI, clangd) checks one
/// translation unit at a time, and all checks of a unit run on its thread.
thread_local llvm::DenseMap<const Stmt *, llvm::StringSet<>> NamesTakenByFixes;
} // namespace

std::string freshName(StringRef Base, const Stmt *Site, ASTContext &Ctx) {
  const Stmt *Outermost = nullptr;
  for (const Stmt *Body = enclosingFunctionBody(Site, Ctx); Body;
       Body = enclosingFunctionBody(Body, Ctx))
    Outermost = Body;
  NameCollector Collector;
  if (Outermost)
    Collector.TraverseStmt(const_cast<Stmt *>(Outermost));
  llvm::StringSet<> &Taken = NamesTakenByFixes[Outermost];
  std::string Name = Base.str();
  for (unsigned Suffix = 1; Collector.Names.contains(Name) || Taken.contains(Name); ++Suffix)
    Name = (Base + "_" + llvm::Twine(Suffix)).str();
  Taken.insert(Name);
  return Name;
}

void forgetNamesTakenByFixes() { NamesTakenByFixes.clear(); }

} // namespace kernel_tidy::dsl
