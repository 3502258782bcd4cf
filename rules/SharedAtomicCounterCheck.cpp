//===--- SharedAtomicCounterCheck.cpp - luisa-shared-atomic-counter -------===//

#include "rules/SharedAtomicCounterCheck.h"

#include "src/dsl/DslModel.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace kernel_tidy::dsl;

namespace kernel_tidy::rules {

namespace {

/// The warp collective that combines the operands of an atomic fetch_OP.
std::optional<CombineOp> reductionOf(StringRef Method) {
  return llvm::StringSwitch<std::optional<CombineOp>>(Method)
      .Cases("fetch_add", "fetch_sub", CombineOp::Sum)
      .Case("fetch_min", CombineOp::Min)
      .Case("fetch_max", CombineOp::Max)
      .Case("fetch_and", CombineOp::BitAnd)
      .Case("fetch_or", CombineOp::BitOr)
      .Case("fetch_xor", CombineOp::BitXor)
      .Default(std::nullopt);
}

/// True if the value of \p Call is discarded: it is a statement of its own.
bool isResultUnused(const Expr *Call, ASTContext &Ctx) {
  const Stmt *Node = Call;
  for (auto Parents = Ctx.getParents(*Node); !Parents.empty();
       Parents = Ctx.getParents(*Node)) {
    const auto *Parent = Parents[0].get<Stmt>();
    if (!Parent)
      return false;
    if (isa<ExprWithCleanups, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
            ImplicitCastExpr, ParenExpr>(Parent)) {
      Node = Parent;
      continue;
    }
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(Parent))
      return Cast->getType()->isVoidType();
    return isa<CompoundStmt>(Parent);
  }
  return false;
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

/// A name for the warp partial that no code around \p Site uses, and that no
/// other fix of this run has taken.
std::string freshName(StringRef Base, const Stmt *Site, ASTContext &Ctx,
                      llvm::StringSet<> &Taken) {
  const Stmt *Outermost = nullptr;
  for (const Stmt *Body = enclosingFunctionBody(Site, Ctx); Body;
       Body = enclosingFunctionBody(Body, Ctx))
    Outermost = Body;
  NameCollector Collector;
  if (Outermost)
    Collector.TraverseStmt(const_cast<Stmt *>(Outermost));
  std::string Name = Base.str();
  for (unsigned Suffix = 1;
       Collector.Names.contains(Name) || Taken.contains(Name); ++Suffix)
    Name = (Base + "_" + llvm::Twine(Suffix)).str();
  Taken.insert(Name);
  return Name;
}

/// The operand as written, converted to the element type when it is a host
/// value of another type (the DSL does not convert `1` to a uint atomic).
std::string operandText(const Expr *Operand, QualType Element,
                        ASTContext &Ctx) {
  std::string Text = sourceText(Operand->getSourceRange(), Ctx);
  const Expr *Host = Operand->IgnoreParenImpCasts();
  if (Text.empty() || isDslValueType(Host->getType()) ||
      Ctx.hasSameUnqualifiedType(Host->getType(), Element))
    return Text;
  if (isa<IntegerLiteral>(Host) && Element->isUnsignedIntegerType() &&
      Ctx.getTypeSize(Element) == 32 && Text.find_first_not_of("0123456789") == std::string::npos)
    return Text + "u";
  PrintingPolicy Policy(Ctx.getLangOpts());
  return "static_cast<" + Element.getAsString(Policy) + ">(" + Text + ")";
}

/// True if \p E runs under `$if (warp_is_first_active_lane())` or a guard on
/// the lane id, i.e. the atomic is already done by one lane per warp.
bool isOneLanePerWarp(const Expr *E, ASTContext &Ctx) {
  for (const Stmt *S = parentStmt(E, Ctx); S; S = parentStmt(S, Ctx)) {
    auto If = matchDslIf(S);
    if (!If)
      continue;
    const Expr *Cond = stripDslWrappers(If->Cond);
    if (isDslCall(Cond, "warp_is_first_active_lane"))
      return true;
    if (const auto *Eq = dyn_cast<CXXOperatorCallExpr>(Cond))
      if (Eq->getOperator() == OO_EqualEqual && Eq->getNumArgs() == 2 &&
          (isWarpLaneId(Eq->getArg(0), Ctx) || isWarpLaneId(Eq->getArg(1), Ctx)))
        return true;
  }
  return false;
}

/// The text of \p Call with its only argument replaced by \p NewArgument.
std::string withArgumentReplaced(const CallExpr *Call, StringRef NewArgument,
                                 ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LangOpts = Ctx.getLangOpts();
  CharSourceRange Whole = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(Call->getSourceRange()), SM, LangOpts);
  CharSourceRange Arg = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(Call->getArg(0)->getSourceRange()), SM,
      LangOpts);
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
  auto AtomicOnShared = cxxMemberCallExpr(callee(cxxMethodDecl(hasName("atomic"))))
                            .bind("atomic");
  Finder->addMatcher(
      cxxMemberCallExpr(
          callee(cxxMethodDecl(hasAnyName("fetch_add", "fetch_sub", "fetch_min",
                                          "fetch_max", "fetch_and", "fetch_or",
                                          "fetch_xor"))),
          on(ignoringImplicit(AtomicOnShared)))
          .bind("fetch"),
      this);
}

void SharedAtomicCounterCheck::check(const MatchFinder::MatchResult &Result) {
  dsl::UseScanCache Use(Scans);
  ASTContext &Ctx = *Result.Context;
  const auto *Fetch = Result.Nodes.getNodeAs<CXXMemberCallExpr>("fetch");
  const auto *Atomic = Result.Nodes.getNodeAs<CXXMemberCallExpr>("atomic");
  const Expr *Object = Atomic->getImplicitObjectArgument();
  QualType Element = Object ? sharedElementType(Object->IgnoreParenImpCasts()->getType())
                            : QualType();
  if (Element.isNull() || Atomic->getNumArgs() != 1 || Fetch->getNumArgs() != 1)
    return;
  if (!isThreadUniform(Atomic->getArg(0), Ctx) ||
      isOneLanePerWarp(Fetch, Ctx))
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = reportLocation(Fetch->getBeginLoc(), SM);
  StringRef Method = Fetch->getMethodDecl()->getName();
  CombineOp Op = *reductionOf(Method);
  std::string Collective = "warp_active_" + collectiveSuffix(Op).str();
  std::string Site = ("every thread does a shared atomic " + Method +
                      " on the same slot of '" + sharedName(Object) + "'; ")
                         .str();
  Rewrite Kind = rewriteOf(Op, Element, Ctx);
  if (!isResultUnused(Fetch, Ctx)) {
    report(Loc, Kind,
           Site + "its old value is used, so it cannot be aggregated per warp "
                  "automatically",
           CharSourceRange::getTokenRange(Fetch->getSourceRange()), std::nullopt);
    return;
  }

  auto Range = editableStatementRange(Fetch, Fetch, Ctx);
  std::string Operand = operandText(Fetch->getArg(0), Element, Ctx);
  std::optional<FixItHint> Fix;
  // The rewrite spells the guard with `$if`, which needs the DSL sugar.
  if (Range && !Operand.empty() && PP && PP->isMacroDefined("$if")) {
    std::string Partial =
        freshName("warp_" + collectiveSuffix(Op).str(), Fetch, Ctx, TakenNames);
    std::string Atomic = withArgumentReplaced(Fetch, Partial, Ctx);
    if (!Atomic.empty())
      Fix = FixItHint::CreateReplacement(
          *Range, "auto " + Partial + " = " + Collective + "(" + Operand + ");" +
                      lineEnding(Fetch->getBeginLoc(), SM) +
                      lineIndentation(Fetch->getBeginLoc(), SM) +
                      "$if (warp_is_first_active_lane()) { " + Atomic + "; };");
  }
  report(Loc, Kind,
         Site + "reduce with " + Collective +
             " first and let one lane per warp do the atomic",
         Range, Fix,
         // Reassociating a floating-point sum changes its rounding.
         Op == CombineOp::Sum && isFloatingValue(Element)
             ? "warp_active_sum adds the floating-point values in another "
               "order, so the result can differ by rounding"
             : "");
}

} // namespace kernel_tidy::rules
