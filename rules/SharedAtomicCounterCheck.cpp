//===--- SharedAtomicCounterCheck.cpp - luisa-shared-atomic-counter -------===//

#include "rules/SharedAtomicCounterCheck.h"

#include "rules/FixEdits.h"
#include "src/dsl/Matchers.h"
#include "src/dsl/Naming.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Transformer/Stencil.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace kernel_tidy::dsl;
using namespace kernel_tidy::dsl::matchers;

namespace kernel_tidy::rules {

namespace {

/// The warp collective that combines the operands of an atomic fetch_OP.
CombineOp reductionOf(StringRef Method) {
  return llvm::StringSwitch<CombineOp>(Method)
      .Case("fetch_min", CombineOp::Min)
      .Case("fetch_max", CombineOp::Max)
      .Case("fetch_and", CombineOp::BitAnd)
      .Case("fetch_or", CombineOp::BitOr)
      .Case("fetch_xor", CombineOp::BitXor)
      .Default(CombineOp::Sum); // fetch_add, fetch_sub
}

/// The declared name of the Shared array an atomic is taken on.
std::string sharedName(const Expr *Object) {
  const Expr *E = Object->IgnoreParenImpCasts();
  if (const auto *Deref = dyn_cast<UnaryOperator>(E))
    if (Deref->getOpcode() == UO_Deref)
      E = Deref->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    return Ref->getDecl()->getNameAsString();
  if (const auto *Member = dyn_cast<MemberExpr>(E))
    return Member->getMemberDecl()->getNameAsString();
  return "";
}

/// The operand as written, converted to the element type when it is a host
/// value of another type (the DSL does not convert `1` to a uint atomic).
std::string operandText(const Expr *Operand, QualType Element, ASTContext &Ctx) {
  std::string Text = sourceText(Operand->getSourceRange(), Ctx);
  const Expr *Host = Operand->IgnoreParenImpCasts();
  if (Text.empty() || isDslValueType(Host->getType()) ||
      Ctx.hasSameUnqualifiedType(Host->getType(), Element))
    return Text;
  if (isa<IntegerLiteral>(Host) && Element->isUnsignedIntegerType() &&
      Ctx.getTypeSize(Element) == 32 &&
      Text.find_first_not_of("0123456789") == std::string::npos)
    return Text + "u";
  PrintingPolicy Policy(Ctx.getLangOpts());
  return "static_cast<" + Element.getAsString(Policy) + ">(" + Text + ")";
}

/// The text of \p Call with its only argument replaced by \p NewArgument.
std::string withArgumentReplaced(const CallExpr *Call, StringRef NewArgument,
                                 ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LangOpts = Ctx.getLangOpts();
  CharSourceRange Whole = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(Call->getSourceRange()), SM, LangOpts);
  CharSourceRange Arg = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(Call->getArg(0)->getSourceRange()), SM, LangOpts);
  if (Whole.isInvalid() || Arg.isInvalid())
    return "";
  StringRef Text = Lexer::getSourceText(Whole, SM, LangOpts);
  unsigned Base = SM.getFileOffset(Whole.getBegin());
  unsigned Begin = SM.getFileOffset(Arg.getBegin()) - Base;
  unsigned End = SM.getFileOffset(Arg.getEnd()) - Base;
  if (Begin > End || End > Text.size())
    return "";
  return (Text.substr(0, Begin) + NewArgument + Text.substr(End)).str();
}

} // namespace

void SharedAtomicCounterCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      cxxMemberCallExpr(atomicFetch({"fetch_add", "fetch_sub", "fetch_min", "fetch_max", "fetch_and",
                        "fetch_or", "fetch_xor"},
                       "fetch", "atomic"),
           hasArgument(0, expr().bind("operand")),
           optionally(expr(isDiscardedResult()).bind("discarded"))),
      this);
}

void SharedAtomicCounterCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  UniformityAnalysis &U = analyses(Ctx).Uniformity;
  const auto *Fetch = Result.Nodes.getNodeAs<CXXMemberCallExpr>("fetch");
  const auto *Atomic = Result.Nodes.getNodeAs<CXXMemberCallExpr>("atomic");
  const Expr *Object = Atomic->getImplicitObjectArgument();
  QualType Element = sharedElementType(Object->IgnoreParenImpCasts()->getType());
  // The rewrite lets the warp's first active lane do the atomic at its own
  // slot, so every active lane must name the same slot.
  if (Element.isNull() || Atomic->getNumArgs() != 1 || Fetch->getNumArgs() != 1 ||
      U.varianceOf(Atomic->getArg(0)) > Variance::Warp || U.runsOnOneLanePerWarp(Fetch))
    return;
  StringRef Method = Fetch->getMethodDecl()->getName();
  CombineOp Op = reductionOf(Method);
  std::string Collective = "warp_active_" + collectiveSuffix(Op).str();
  Diagnosis D;
  D.Loc = Ctx.getSourceManager().getExpansionLoc(Fetch->getBeginLoc());
  D.Args = {Method.str(), sharedName(Object), Collective};
  D.Kind = rewriteOf(Op, Element, Ctx);
  if (!Result.Nodes.getNodeAs<Expr>("discarded")) {
    D.Format = "every thread does a shared atomic %0 on the same slot of '%1'; its old "
               "value is used, so it cannot be aggregated per warp automatically";
    D.Highlight = CharSourceRange::getTokenRange(Fetch->getSourceRange());
    D.Safety = FixSafety::none();
    emit(Result, std::move(D));
    return;
  }
  D.Format = "every thread does a shared atomic %0 on the same slot of '%1'; reduce "
             "with %2 first and let one lane per warp do the atomic";
  const Expr *Operand = Result.Nodes.getNodeAs<Expr>("operand");
  std::string OperandText = operandText(Operand, Element, Ctx);
  // The rewrite spells the guard with `$if`, which needs the DSL sugar.
  bool Fixable = !OperandText.empty() && PP && PP->isMacroDefined("$if");
  std::string Partial =
      Fixable ? freshName("warp_" + collectiveSuffix(Op).str(), Fetch, Ctx, TakenNames)
              : "";
  std::string NewAtomic = withArgumentReplaced(Fetch, Partial, Ctx);
  const SourceManager &SM = Ctx.getSourceManager();
  D.Edit = transformer::edit(transformer::changeTo(
      userStatements("fetch", "fetch"),
      transformer::cat(
          "auto " + Partial + " = " +
          dslQualifier(Collective, Fetch, Ctx,
                       isDslValueType(stripDslWrappers(Operand)->getType())) +
          Collective + "(" + OperandText + ");" + lineEnding(Fetch->getBeginLoc(), SM) +
          lineIndentation(Fetch->getBeginLoc(), SM) + "$if (" +
          dslQualifier("warp_is_first_active_lane", Fetch, Ctx, false) +
          "warp_is_first_active_lane()) { " + NewAtomic + "; };")));
  // Reassociating a floating-point sum changes its rounding.
  if (Op == CombineOp::Sum && isFloatingValue(Element))
    D.Safety = FixSafety::unsafe("warp_active_sum adds the floating-point values in "
                                 "another order, so the result can differ by rounding");
  if (!Fixable || NewAtomic.empty())
    D.Safety = FixSafety::none();
  emit(Result, std::move(D));
}

} // namespace kernel_tidy::rules
