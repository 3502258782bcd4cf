//===--- Names.cpp - DSL names, value types and sugar macros --------------===//

#include "src/dsl/Names.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace kernel_tidy::dsl {

StringRef collectiveSuffix(CombineOp Op) {
  switch (Op) {
  case CombineOp::Sum:
    return "sum";
  case CombineOp::Product:
    return "product";
  case CombineOp::Min:
    return "min";
  case CombineOp::Max:
    return "max";
  case CombineOp::BitAnd:
    return "bit_and";
  case CombineOp::BitOr:
    return "bit_or";
  case CombineOp::BitXor:
    return "bit_xor";
  }
  llvm_unreachable("unknown CombineOp");
}

bool isThreadIndexComponent(StringRef Name) {
  return llvm::is_contained(
      {"thread_x", "thread_y", "thread_z", "dispatch_x", "dispatch_y", "dispatch_z"}, Name);
}

bool isThreadIndexVector(StringRef Name) { return Name == "thread_id" || Name == "dispatch_id"; }

std::string collectiveName(CombineOp Op) { return ("warp_active_" + collectiveSuffix(Op)).str(); }

bool isInLuisaCompute(const Decl *D) {
  const DeclContext *Ctx = D ? D->getDeclContext() : nullptr;
  // Walk out through records and inline namespaces to the first named one.
  bool SawCompute = false;
  for (; Ctx; Ctx = Ctx->getParent()) {
    const auto *NS = dyn_cast<NamespaceDecl>(Ctx);
    if (!NS)
      continue;
    if (NS->isInline() && !SawCompute)
      continue;
    if (!SawCompute) {
      if (NS->getName() != "compute")
        return false;
      SawCompute = true;
      continue;
    }
    return NS->getName() == "luisa" && isa<TranslationUnitDecl>(NS->getDeclContext());
  }
  return false;
}

bool isInLuisaComputeLibrary(const Decl *D) {
  for (const DeclContext *Ctx = D ? D->getDeclContext() : nullptr; Ctx; Ctx = Ctx->getParent()) {
    const auto *NS = dyn_cast<NamespaceDecl>(Ctx);
    if (!NS || NS->getName() != "compute")
      continue;
    const auto *Luisa = dyn_cast<NamespaceDecl>(NS->getDeclContext());
    if (Luisa && Luisa->getName() == "luisa" && isa<TranslationUnitDecl>(Luisa->getDeclContext()))
      return true;
  }
  return false;
}

bool isLibraryFunction(const FunctionDecl *FD, const SourceManager &SM) {
  if (!FD)
    return true;
  if (isInLuisaComputeLibrary(FD) || FD->isInStdNamespace() ||
      SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation())))
    return true;
  for (const DeclContext *DC = FD->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getName() == "luisa" && isa<TranslationUnitDecl>(NS->getDeclContext()))
        return true;
  return false;
}

static const FunctionDecl *directCallee(const Expr *E) {
  const auto *Call = dyn_cast_or_null<CallExpr>(E);
  if (!Call || isa<CXXOperatorCallExpr>(Call) || isa<CXXMemberCallExpr>(Call))
    return nullptr;
  return Call->getDirectCallee();
}

StringRef dslCallName(const Expr *E) {
  if (!E)
    return "";
  const FunctionDecl *FD = directCallee(E->IgnoreParenImpCasts());
  if (!FD || !FD->getIdentifier() || !isInLuisaCompute(FD))
    return "";
  return FD->getName();
}

static bool isDslWrapperRecord(const CXXRecordDecl *RD) {
  if (!RD || !RD->getIdentifier())
    return false;
  // Ref<T> lives in luisa::compute::detail.
  const auto *Detail = dyn_cast<NamespaceDecl>(RD->getDeclContext());
  bool InDetail = Detail && Detail->getName() == "detail" && isInLuisaCompute(Detail);
  if (!InDetail && !isInLuisaCompute(RD))
    return false;
  return llvm::StringSwitch<bool>(RD->getName())
      .Cases("Var", "Expr", "Ref", "RefBase", true)
      .Default(false);
}

/// The class template specialization a DSL value type names.
static const ClassTemplateSpecializationDecl *dslWrapperOf(QualType T) {
  T = T.getNonReferenceType().getCanonicalType();
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl());
  if (!Spec || !isDslWrapperRecord(Spec) || Spec->getTemplateArgs().size() < 1)
    return nullptr;
  return Spec;
}

/// The DSL value wrapper \p T derives from (user structs derive from Var<T>).
static std::optional<QualType> dslBaseOf(QualType T) {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition())
    return std::nullopt;
  for (const CXXBaseSpecifier &Base : RD->bases())
    if (isDslValueType(Base.getType()))
      return Base.getType();
  return std::nullopt;
}

bool isDslValueType(QualType T) { return dslWrapperOf(T) || dslBaseOf(T); }

QualType dslValueType(QualType T) {
  if (const auto *Spec = dslWrapperOf(T))
    return Spec->getTemplateArgs()[0].getAsType();
  if (auto Base = dslBaseOf(T))
    return dslValueType(*Base);
  return T.getNonReferenceType();
}

bool isFloatingValue(QualType T) {
  T = dslValueType(T).getCanonicalType();
  if (T->isRealFloatingType())
    return true;
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->getIdentifier())
    return false;
  if (RD->getName() == "half")
    return true;
  // luisa::Vector<T, N> and luisa::Matrix<N> (float matrices only).
  if (RD->getName() == "Matrix")
    return true;
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
    if (Spec->getName() == "Vector" && Spec->getTemplateArgs().size() >= 1 &&
        Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
      return isFloatingValue(Spec->getTemplateArgs()[0].getAsType());
  return false;
}

/// The luisa::compute class template specialization named \p Name that \p T
/// is, through references and pointers.
static const ClassTemplateSpecializationDecl *computeTemplateOf(QualType T,
                                                                llvm::ArrayRef<StringRef> Names) {
  T = T.getNonReferenceType();
  if (T->isPointerType())
    T = T->getPointeeType();
  const auto *Spec =
      dyn_cast_or_null<ClassTemplateSpecializationDecl>(T.getCanonicalType()->getAsCXXRecordDecl());
  if (!Spec || !llvm::is_contained(Names, Spec->getName()) || !isInLuisaCompute(Spec) ||
      Spec->getTemplateArgs().size() < 1)
    return nullptr;
  return Spec;
}

QualType sharedElementType(QualType T) {
  const auto *Spec = computeTemplateOf(T, {"Shared"});
  if (!Spec || Spec->getTemplateArgs().size() != 1)
    return {};
  return Spec->getTemplateArgs()[0].getAsType();
}

bool isBufferType(QualType T) {
  // BufferVar<T> is Var<Buffer<T>>; a captured host Buffer<T> or BufferView<T>
  // is the handle itself.
  if (computeTemplateOf(dslValueType(T), {"Buffer", "BufferView"}))
    return true;
  QualType Pointee = T.getNonReferenceType();
  if (Pointee->isPointerType()) {
    Pointee = Pointee->getPointeeType();
    // `buffer_var->atomic(i)`: Expr<Buffer<T>>::operator-> returns `this`.
    if (computeTemplateOf(dslValueType(Pointee), {"Buffer", "BufferView"}))
      return true;
  }
  // `buffer->atomic(i)` goes through a detail::BufferExprProxy<Buffer<T>>.
  const auto *Proxy = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      Pointee.getCanonicalType()->getAsCXXRecordDecl());
  return Proxy && Proxy->getName() == "BufferExprProxy" && isInLuisaComputeLibrary(Proxy) &&
         Proxy->getTemplateArgs().size() == 1 &&
         isBufferType(Proxy->getTemplateArgs()[0].getAsType());
}

const Expr *stripDslWrappers(const Expr *E) {
  while (E) {
    const Expr *Next = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(Next)) {
      // Copies, moves and conversions between DSL wrappers keep the value.
      if (Construct->getNumArgs() == 1 && isDslValueType(Construct->getType()))
        Next = Construct->getArg(0);
    } else if (const auto *Conversion = dyn_cast<CXXMemberCallExpr>(Next)) {
      // Var<T> -> Expr<T> goes through Ref<T>::operator Expr<T>().
      if (isa_and_nonnull<CXXConversionDecl>(Conversion->getMethodDecl()) &&
          isDslValueType(Conversion->getType()))
        Next = Conversion->getImplicitObjectArgument();
    } else if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(Next)) {
      Next = Cast->getSubExpr();
    } else if (const auto *List = dyn_cast<InitListExpr>(Next)) {
      if (List->getNumInits() == 1)
        Next = List->getInit(0);
    } else if (dslCallName(Next) == "def") {
      const auto *Call = cast<CallExpr>(Next->IgnoreParenImpCasts());
      if (Call->getNumArgs() == 1)
        Next = Call->getArg(0);
    }
    if (Next == E)
      return E;
    E = Next;
  }
  return E;
}

bool isDslCall(const Expr *E, StringRef Name) { return dslCallName(stripDslWrappers(E)) == Name; }

const CallExpr *asDslCall(const Expr *E, StringRef Name) {
  E = stripDslWrappers(E);
  return dslCallName(E) == Name ? cast<CallExpr>(E->IgnoreParenImpCasts()) : nullptr;
}

bool isSameVariable(const Expr *A, const Expr *B) {
  A = stripDslWrappers(A);
  B = stripDslWrappers(B);
  if (!A || !B)
    return false;
  if (const auto *RefA = dyn_cast<DeclRefExpr>(A)) {
    const auto *RefB = dyn_cast<DeclRefExpr>(B);
    return RefB && RefA->getDecl()->getCanonicalDecl() == RefB->getDecl()->getCanonicalDecl();
  }
  if (const auto *MemA = dyn_cast<MemberExpr>(A)) {
    const auto *MemB = dyn_cast<MemberExpr>(B);
    if (!MemB || MemA->getMemberDecl() != MemB->getMemberDecl())
      return false;
    const Expr *BaseA = MemA->getBase()->IgnoreParenImpCasts();
    const Expr *BaseB = MemB->getBase()->IgnoreParenImpCasts();
    if (isa<CXXThisExpr>(BaseA) && isa<CXXThisExpr>(BaseB))
      return true;
    return isSameVariable(BaseA, BaseB);
  }
  return false;
}

bool isStatementSugarMacro(StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
      .Cases("$if", "$elif", "$else", "$for", "$while", "$loop", true)
      .Cases("$switch", "$case", "$default", true)
      .Default(false);
}

bool isInStatementSugar(SourceLocation Loc, const SourceManager &SM, const LangOptions &LangOpts) {
  return Loc.isMacroID() && isStatementSugarMacro(Lexer::getImmediateMacroName(Loc, SM, LangOpts));
}

} // namespace kernel_tidy::dsl
