//===--- HardcodedWarpWidthCheck.cpp - luisa-hardcoded-warp-width ---------===//

#include "rules/warp/HardcodedWarpWidthCheck.h"

#include "clang/AST/ParentMapContext.h"

#include "rules/FixEdits.h"
#include "src/dsl/Matchers.h"
#include "src/dsl/Naming.h"
#include "src/dsl/Divergence.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Tooling/Transformer/RangeSelector.h"
#include "clang/Tooling/Transformer/Stencil.h"
#include <algorithm>

using namespace clang;
using namespace clang::ast_matchers;
using namespace kernel_tidy::dsl;
using namespace kernel_tidy::dsl::matchers;

namespace kernel_tidy::rules {

namespace {

/// True if \p E is arithmetic on thread, dispatch or lane ids (constants
/// allowed beside them), directly or through locals never written again.
bool isIdArithmetic(const Expr *E, WriteAnalysis &Writes, unsigned Depth = 0) {
  E = stripDslWrappers(E);
  if (!E || Depth > 12)
    return false;
  StringRef Name = dslCallName(E);
  if (isThreadIndexComponent(Name) || Name == "warp_lane_id")
    return true;
  if (const auto *Member = dyn_cast<MemberExpr>(E))
    return isThreadIndexVector(dslCallName(stripDslWrappers(Member->getBase())));
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    return Var && Var->isLocalVarDecl() && Var->getInit() && !Writes.isWritten(Var) &&
           isIdArithmetic(Var->getInit(), Writes, Depth + 1);
  }
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
    if (Op->getNumArgs() != 2)
      return false;
    switch (Op->getOperator()) {
    case OO_Plus:
    case OO_Minus:
    case OO_Star:
    case OO_Slash:
    case OO_Percent:
    case OO_Amp:
    case OO_GreaterGreater:
    case OO_LessLess:
      break;
    default:
      return false;
    }
    bool A = isIdArithmetic(Op->getArg(0), Writes, Depth + 1);
    bool B = isIdArithmetic(Op->getArg(1), Writes, Depth + 1);
    auto Constant = [](const Expr *X) {
      const Expr *S = stripDslWrappers(X);
      return S && isa<IntegerLiteral>(S->IgnoreParenImpCasts());
    };
    return (A && (B || Constant(Op->getArg(1)))) || (B && Constant(Op->getArg(0)));
  }
  return false;
}

} // namespace

/// True if \p Constant's name says it is a warp width (`WARP_SIZE`,
/// `warp_dim`, `kWaveLanes`, `SIMD_WIDTH`, `NUM_LANES`).
static bool namesTheWarp(const ValueDecl *Constant) {
  if (!Constant->getIdentifier())
    return false;
  std::string Name = Constant->getName().lower();
  return llvm::any_of(std::initializer_list<StringRef>{"warp", "wave", "simd", "lane"},
                      [&](StringRef Word) { return StringRef(Name).contains(Word); });
}

/// True if \p E is the amount of a shift (`1u << (x % 32u)`): a bit position
/// in a 32-bit word, not a lane.
static bool isShiftAmount(const Expr *E, ASTContext &Ctx) {
  for (DynTypedNodeList Parents = Ctx.getParents(*E); !Parents.empty();) {
    if (const auto *Call = Parents[0].get<CXXOperatorCallExpr>())
      if (Call != E && Call->getNumArgs() == 2 &&
          (Call->getOperator() == OO_LessLess || Call->getOperator() == OO_GreaterGreater))
        return stripDslWrappers(Call->getArg(1)) &&
               stripDslWrappers(Call->getArg(1))->IgnoreParenImpCasts() == E;
    const auto *Node = Parents[0].get<Expr>();
    if (const auto *Shift = dyn_cast_or_null<BinaryOperator>(Node))
      return Shift->isShiftOp() && Shift->getRHS()->IgnoreParenImpCasts() == E;
    // Through parentheses, conversions and the DSL's expression wrappers.
    if (!Node || !(isa<ParenExpr, ImplicitCastExpr, MaterializeTemporaryExpr, CXXConstructExpr,
                       CXXBindTemporaryExpr, CXXFunctionalCastExpr>(Node)))
      return false;
    Parents = Ctx.getParents(*Node);
  }
  return false;
}

/// The variable or member \p E names (through casts), or nullptr.
static const ValueDecl *namedValue(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    return Ref->getDecl();
  if (const auto *Member = dyn_cast<MemberExpr>(E))
    return Member->getMemberDecl();
  return nullptr;
}

/// True if \p E names a host block size: a variable named like one, or one
/// of \p SetBlockSizeArguments.
static bool isHostBlockSize(const Expr *E,
                            const llvm::SmallPtrSetImpl<const ValueDecl *> &SetBlockSizeArguments) {
  const ValueDecl *Value = namedValue(E);
  if (!Value || !Value->getIdentifier())
    return false;
  std::string Name = Value->getName().lower();
  Name.erase(std::remove(Name.begin(), Name.end(), '_'), Name.end());
  return Name.find("blocksize") != std::string::npos ||
         Name.find("blockdim") != std::string::npos ||
         Name.find("threadsperblock") != std::string::npos || SetBlockSizeArguments.contains(Value);
}

/// True if \p E (through casts and temporaries) sizes a Shared array.
static bool sizesSharedArray(const Expr *E, ASTContext &Ctx) {
  for (DynTypedNode Node = DynTypedNode::create(*E);;) {
    DynTypedNodeList Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return false;
    const auto *Parent = Parents[0].get<Expr>();
    if (!Parent)
      return false;
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(Parent))
      return !sharedElementType(Construct->getType()).isNull();
    if (!isa<ImplicitCastExpr, ParenExpr, InitListExpr, CXXFunctionalCastExpr>(Parent))
      return false;
    Node = Parents[0];
  }
}

/// True if \p T is a luisa::compute::Device (or a reference to one).
static bool isDeviceType(QualType T) {
  const auto *Record = T.getNonReferenceType()->getAsCXXRecordDecl();
  return Record && Record->getIdentifier() && Record->getName() == "Device" &&
         isInLuisaCompute(Record);
}

/// A Device variable that the code at \p At in the function or lambda body
/// \p Body can name: a local declared before it or a parameter.
static const VarDecl *deviceDeclaredFor(const Stmt *At, const Stmt *Body, const LambdaExpr *Lambda,
                                        ASTContext &Ctx) {
  const VarDecl *Found = nullptr;
  for (const Stmt *Before : statementsBefore(At, Ctx, Body))
    if (const auto *Declaration = dyn_cast<DeclStmt>(Before); Declaration && !Found)
      for (const clang::Decl *D : Declaration->decls())
        if (const auto *Var = dyn_cast<VarDecl>(D); Var && isDeviceType(Var->getType()))
          Found = Var;
  if (Found)
    return Found;
  const FunctionDecl *Function = nullptr;
  if (Lambda)
    Function = Lambda->getCallOperator();
  else
    for (const DynTypedNode &Parent : Ctx.getParents(*Body))
      if (const auto *FD = Parent.get<FunctionDecl>())
        Function = FD;
  if (Function)
    for (const ParmVarDecl *Parm : Function->parameters())
      if (isDeviceType(Parm->getType()))
        Found = Parm;
  return Found;
}

/// True if every lambda of \p Crossed captures \p Var by reference.
static bool capturedByReference(ArrayRef<const LambdaExpr *> Crossed, const VarDecl *Var) {
  return llvm::all_of(Crossed, [&](const LambdaExpr *Inner) {
    if (Inner->getCaptureDefault() == LCD_ByRef)
      return true;
    return llvm::any_of(Inner->explicit_captures(), [&](const LambdaCapture &C) {
      return C.capturesVariable() && C.getCaptureKind() == LCK_ByRef && C.getCapturedVar() == Var;
    });
  });
}

/// A Device variable that code at \p S can name: a parameter or an earlier
/// local of the function around it, seen through lambdas that capture by
/// reference; nullptr if none.
static const VarDecl *deviceInScope(const Stmt *S, ASTContext &Ctx) {
  std::vector<const LambdaExpr *> Crossed;
  for (const Stmt *At = S; At;) {
    const Stmt *Body = enclosingFunctionBody(At, Ctx);
    if (!Body)
      return nullptr;
    const LambdaExpr *Lambda = lambdaOfBody(Body, Ctx);
    if (const VarDecl *Found = deviceDeclaredFor(At, Body, Lambda, Ctx))
      return capturedByReference(Crossed, Found) ? Found : nullptr;
    if (!Lambda)
      return nullptr;
    Crossed.push_back(Lambda);
    At = Lambda;
  }
  return nullptr;
}

void HardcodedWarpWidthCheck::checkHost(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  const auto *Op = Result.Nodes.getNodeAs<BinaryOperator>("host");
  const auto *Literal = Result.Nodes.getNodeAs<IntegerLiteral>("literal");
  if (Op->isInstantiationDependent() || !Op->getType()->isIntegerType())
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  if (!SM.isWrittenInMainFile(SM.getFileLoc(Op->getBeginLoc())))
    return; // Library and header code: not the kernels being checked.
  bool Shared = sizesSharedArray(Op, Ctx);
  if (!Shared && IndexedFor != &Ctx) {
    IndexedFor = &Ctx;
    SetBlockSizeArguments.clear();
    for (const BoundNodes &Call :
         match(findAll(callExpr(dslCall({"set_block_size"}), hasArgument(0, expr().bind("arg")))),
               Ctx))
      if (const ValueDecl *Value = namedValue(Call.getNodeAs<Expr>("arg")))
        SetBlockSizeArguments.insert(Value);
  }
  if (!Shared && !isHostBlockSize(Op->getLHS(), SetBlockSizeArguments))
    return;
  // In a kernel that states its width the count is right.
  const Stmt *At = anchorStatement(Op, Ctx);
  if (enclosingKernel(At, Ctx) && widthAt(At, Ctx).SetBy)
    return;
  const VarDecl *Device = deviceInScope(Op, Ctx);
  std::string Width = (Device ? Device->getNameAsString() : "device") + ".compute_warp_size()";
  Diagnosis D;
  D.Loc = SM.getFileLoc(Literal->getBeginLoc());
  D.Format = "'%0 %1' counts 32-lane warps on the host%2; the warp width is 32 on CUDA and "
             "Metal but can be 64 on DirectX, Vulkan and HIP: use %3";
  D.Args = {Op->getOpcodeStr().str(), sourceText(Literal->getSourceRange(), Ctx),
            Shared ? " (the size of a Shared array)" : "", Width};
  if (Op->getOpcode() == BO_Shr) {
    D.Safety = FixSafety::none("the shift by log2 of the warp width has no counterpart; "
                               "divide by " +
                               Width + " instead");
  } else if (!Device) {
    D.Safety = FixSafety::none("no Device is in scope here to ask for its warp width");
  } else {
    D.bind("literal", Literal);
    D.Edit = transformer::edit(
        transformer::changeTo(userCode(transformer::node("literal")), transformer::cat(Width)));
    D.Safety = FixSafety::unsafe("on 64-lane hardware the count halves (the point of the fix); "
                                 "device code that indexes per warp must use warp_lane_count()");
  }
  emit(Result, std::move(D));
}

/// True if \p At runs in a kernel or Callable that does not state its warp
/// width with set_warp_size: its own or, in a helper function, one that
/// calls the helper (directly or through other helpers). A helper that no
/// code of the translation unit calls may run in any kernel: not reported.
static bool runsWithUnstatedWidth(const Stmt *At, dsl::Analyses &A, unsigned Depth = 0) {
  if (enclosingKernel(At, A.Ctx))
    return !A.Widths.widthAt(At).SetBy;
  if (Depth >= 8)
    return false;
  for (const CallExpr *Call : A.Uniformity.callersOf(A.Flow.enclosing(At).Body))
    if (runsWithUnstatedWidth(anchorStatement(Call, A.Ctx), A, Depth + 1))
      return true;
  return false;
}

/// True if \p Op (whose right operand is \p Constant, a literal or the use
/// \p Named of a constant) computes on thread or lane ids with a width of 32
/// lanes that code of a kernel without set_warp_size runs.
static bool assumesWarpWidth(const CXXOperatorCallExpr *Op, const Expr *Constant,
                             const DeclRefExpr *Named, dsl::Analyses &A) {
  // The constant must be the right operand itself (not inside a
  // sub-expression); a named one must be named for the warp (a `TILE = 32u`
  // is not a warp width).
  const Expr *Right = stripDslWrappers(Op->getArg(1));
  if (!Right || Right->IgnoreParenImpCasts() != Constant || !isDslValueType(Op->getType()) ||
      !isIdArithmetic(Op->getArg(0), A.Writes) || isShiftAmount(Op, A.Ctx) ||
      (Named && !namesTheWarp(Named->getDecl())))
    return false;
  // An explicit set_warp_size states the width. A helper is kernel code
  // where a kernel that does not state it calls it.
  return runsWithUnstatedWidth(anchorStatement(Op, A.Ctx), A);
}

/// Puts on \p D the fix that spells \p Constant as warp_lane_count(), or why
/// there is none (a shift by log2 of the width).
static void addLaneCountFix(Diagnosis &D, const CXXOperatorCallExpr *Op, const Expr *Constant,
                            ASTContext &Ctx) {
  if (Op->getOperator() == OO_GreaterGreater) {
    D.Safety = FixSafety::none("the shift by log2 of the warp width has no DSL builtin; "
                               "divide by warp_lane_count() instead");
    return;
  }
  std::string Count = dslQualifier("warp_lane_count", Op, Ctx, false) + "warp_lane_count()";
  D.bind("literal", Constant);
  D.Edit = transformer::edit(transformer::changeTo(
      userCode(transformer::node("literal")),
      transformer::cat(Op->getOperator() == OO_Amp ? "(" + Count + " - 1u)" : Count)));
  D.Safety = FixSafety::unsafe("on 64-lane hardware the result changes (the point of the "
                               "fix); arrays sized for 32-lane warps must follow");
}

void HardcodedWarpWidthCheck::registerMatchers(MatchFinder *Finder) {
  auto HostOp = [](const char *Name, unsigned Value) {
    return binaryOperator(
        hasOperatorName(Name), hasLHS(expr(hasType(isInteger()))),
        hasRHS(ignoringParenImpCasts(integerLiteral(equals(Value)).bind("literal"))));
  };
  Finder->addMatcher(expr(anyOf(HostOp("/", 32), HostOp(">>", 5))).bind("host"), this);
  // check() keeps only a literal, or a named constant initialised with one
  // (`constexpr uint warp_dim = 32u;`), that is the right operand itself.
  auto Op = [](StringRef Name, unsigned Value) {
    auto Literal = integerLiteral(equals(Value)).bind("literal");
    auto Named = declRefExpr(to(varDecl(hasType(isConstQualified()),
                                        hasInitializer(ignoringParenImpCasts(Literal)))))
                     .bind("named");
    return cxxOperatorCallExpr(
        hasOverloadedOperatorName(Name), argumentCountIs(2),
        hasArgument(1, expr(anyOf(ignoringParenImpCasts(Literal), hasDescendant(Literal),
                                  ignoringParenImpCasts(Named), hasDescendant(Named)))));
  };
  Finder->addMatcher(expr(anyOf(Op("/", 32), Op("%", 32), Op("&", 31), Op(">>", 5))).bind("op"),
                     this);
}

void HardcodedWarpWidthCheck::check(const MatchFinder::MatchResult &Result) {
  if (Result.Nodes.getNodeAs<BinaryOperator>("host"))
    return checkHost(Result);
  ASTContext &Ctx = *Result.Context;
  const auto *Op = Result.Nodes.getNodeAs<CXXOperatorCallExpr>("op");
  const auto *Named = Result.Nodes.getNodeAs<DeclRefExpr>("named");
  const Expr *Constant =
      Named ? static_cast<const Expr *>(Named) : Result.Nodes.getNodeAs<IntegerLiteral>("literal");
  if (!assumesWarpWidth(Op, Constant, Named, analyses(Ctx)))
    return;
  std::string ConstantText = sourceText(Constant->getSourceRange(), Ctx);
  Diagnosis D;
  D.Loc = Ctx.getSourceManager().getFileLoc(Constant->getBeginLoc());
  D.Format = "'%0 %1'%2 assumes 32-lane warps; the warp width is 32 on CUDA and Metal but "
             "can be 64 on DirectX, Vulkan and HIP: use warp_lane_count() or call "
             "set_warp_size(32)";
  std::string Value =
      Named
          ? " (" + ConstantText + " = " +
                sourceText(cast<VarDecl>(Named->getDecl())->getInit()->getSourceRange(), Ctx) + ")"
          : "";
  D.Args = {getOperatorSpelling(Op->getOperator()), ConstantText, Value};
  addLaneCountFix(D, Op, Constant, Ctx);
  emit(Result, std::move(D));
}

} // namespace kernel_tidy::rules
