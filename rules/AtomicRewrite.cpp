//===--- AtomicRewrite.cpp - Text pieces of rewritten atomics -------------===//

#include "rules/AtomicRewrite.h"

#include "rules/FixEdits.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;
using namespace kernel_tidy::dsl;

namespace kernel_tidy::rules {

CombineOp reductionOf(StringRef Method) {
  return llvm::StringSwitch<CombineOp>(Method)
      .Case("fetch_min", CombineOp::Min)
      .Case("fetch_max", CombineOp::Max)
      .Case("fetch_and", CombineOp::BitAnd)
      .Case("fetch_or", CombineOp::BitOr)
      .Case("fetch_xor", CombineOp::BitXor)
      .Default(CombineOp::Sum); // fetch_add, fetch_sub
}

std::string atomicObjectName(const Expr *Object) {
  const Expr *E = Object->IgnoreParenImpCasts();
  if (const auto *Deref = dyn_cast<UnaryOperator>(E))
    if (Deref->getOpcode() == UO_Deref)
      E = Deref->getSubExpr()->IgnoreParenImpCasts();
  // `buffer->atomic(i)` on a captured Buffer<T> calls Buffer<T>::operator->.
  if (const auto *Arrow = dyn_cast<CXXOperatorCallExpr>(E))
    if (Arrow->getOperator() == OO_Arrow && Arrow->getNumArgs() == 1)
      E = Arrow->getArg(0)->IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    return Ref->getDecl()->getNameAsString();
  if (const auto *Member = dyn_cast<MemberExpr>(E))
    return Member->getMemberDecl()->getNameAsString();
  return "";
}

std::string atomicOperandText(const Expr *Operand, QualType Element, ASTContext &Ctx) {
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

FixSafety warpReductionSafety(dsl::CombineOp Op, QualType Element, StringRef Collective,
                              ASTContext &Ctx) {
  if (Op == dsl::CombineOp::Sum && dsl::isFloatingValue(Element))
    return FixSafety::unsafe("warp_active_sum adds the floating-point values in "
                             "another order, so the result can differ by rounding");
  // A guarded shuffle butterfly: a lane whose partner is inactive skips that
  // partner's whole subtree.
  if (dsl::isFloatingValue(Element) || Ctx.getTypeSize(Element) > 32)
    return FixSafety::unsafe(
        "LuisaCompute's CUDA " + Collective.str() + " of float and 64-bit values is a shuffle "
        "butterfly that drops values when the active lanes have gaps (divergent code)");
  return FixSafety::safe();
}

} // namespace kernel_tidy::rules
