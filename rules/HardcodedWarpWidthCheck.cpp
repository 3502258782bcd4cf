//===--- HardcodedWarpWidthCheck.cpp - luisa-hardcoded-warp-width ---------===//

#include "rules/HardcodedWarpWidthCheck.h"

#include "clang/AST/ParentMapContext.h"

#include "rules/FixEdits.h"
#include "src/dsl/Matchers.h"
#include "src/dsl/Naming.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Tooling/Transformer/RangeSelector.h"
#include "clang/Tooling/Transformer/Stencil.h"

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
  if (Name == "thread_x" || Name == "thread_y" || Name == "thread_z" || Name == "dispatch_x" ||
      Name == "dispatch_y" || Name == "dispatch_z" || Name == "warp_lane_id")
    return true;
  if (const auto *Member = dyn_cast<MemberExpr>(E)) {
    StringRef Of = dslCallName(stripDslWrappers(Member->getBase()));
    return Of == "thread_id" || Of == "dispatch_id";
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    return Var && Var->isLocalVarDecl() && Var->getInit() && !Writes.isWritten(Var) &&
           isIdArithmetic(Var->getInit(), Writes, Depth + 1);
  }
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
    if (Op->getNumArgs() != 2)
      return false;
    switch (Op->getOperator()) {
    case OO_Plus: case OO_Minus: case OO_Star: case OO_Slash: case OO_Percent:
    case OO_Amp: case OO_GreaterGreater: case OO_LessLess: break;
    default: return false;
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

void HardcodedWarpWidthCheck::registerMatchers(MatchFinder *Finder) {
  // check() keeps only a literal that is the right operand itself.
  auto Op = [](StringRef Name, unsigned Value) {
    auto Literal = integerLiteral(equals(Value)).bind("literal");
    return cxxOperatorCallExpr(hasOverloadedOperatorName(Name), argumentCountIs(2),
                               hasArgument(1, expr(anyOf(ignoringParenImpCasts(Literal),
                                                         hasDescendant(Literal)))));
  };
  Finder->addMatcher(expr(anyOf(Op("/", 32), Op("%", 32), Op("&", 31), Op(">>", 5))).bind("op"),
                     this);
}

void HardcodedWarpWidthCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  const auto *Op = Result.Nodes.getNodeAs<CXXOperatorCallExpr>("op");
  const auto *Literal = Result.Nodes.getNodeAs<IntegerLiteral>("literal");
  dsl::Analyses &A = analyses(Ctx);
  // The literal must be the right operand itself (not inside a sub-expression).
  const Expr *Right = stripDslWrappers(Op->getArg(1));
  if (!Right || Right->IgnoreParenImpCasts() != Literal || !isDslValueType(Op->getType()) ||
      !isIdArithmetic(Op->getArg(0), A.Writes) || isShiftAmount(Op, Ctx))
    return;
  // An explicit set_warp_size states the width; helpers may run in any kernel.
  const Stmt *At = anchorStatement(Op, Ctx);
  if (!enclosingKernel(At, Ctx) || A.Widths.widthAt(At, 32u).From != WarpWidth::Default)
    return;
  StringRef Spelling = getOperatorSpelling(Op->getOperator());
  const SourceManager &SM = Ctx.getSourceManager();
  std::string LiteralText = sourceText(Literal->getSourceRange(), Ctx);
  Diagnosis D;
  D.Loc = SM.getFileLoc(Literal->getBeginLoc());
  D.Format = "'%0 %1' assumes 32-lane warps; the warp width is 32 on CUDA and Metal but "
             "can be 64 on DirectX, Vulkan and HIP: use warp_lane_count() or call "
             "set_warp_size(32)";
  D.Args = {Spelling.str(), LiteralText};
  std::string Count = dslQualifier("warp_lane_count", Op, Ctx, false) + "warp_lane_count()";
  if (Op->getOperator() == OO_GreaterGreater) {
    D.Safety = FixSafety::none("the shift by log2 of the warp width has no DSL builtin; "
                               "divide by warp_lane_count() instead");
  } else {
    D.bind("literal", Literal);
    D.Edit = transformer::edit(transformer::changeTo(
        userCode(transformer::node("literal")),
        transformer::cat(Op->getOperator() == OO_Amp ? "(" + Count + " - 1u)" : Count)));
    D.Safety = FixSafety::unsafe("on 64-lane hardware the result changes (the point of the "
                                 "fix); arrays sized for 32-lane warps must follow");
  }
  emit(Result, std::move(D));
}

} // namespace kernel_tidy::rules
