//===--- WarpAggregatedAtomicCheck.cpp - luisa-warp-aggregated-atomic -----===//

#include "rules/WarpAggregatedAtomicCheck.h"

#include "rules/AtomicRewrite.h"
#include "rules/FixEdits.h"
#include "src/dsl/Matchers.h"
#include "src/dsl/Naming.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Transformer/RangeSelector.h"
#include "clang/Tooling/Transformer/Stencil.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace kernel_tidy::dsl;
using namespace kernel_tidy::dsl::matchers;

namespace kernel_tidy::rules {

namespace {

/// The expression that uses the value of \p E, above implicit conversions
/// and temporaries (a VarDecl for an initialiser); null when none.
DynTypedNode userOf(const Expr *E, ASTContext &Ctx) {
  DynTypedNode Node = DynTypedNode::create(*E);
  while (true) {
    auto Parents = Ctx.getParents(Node);
    if (Parents.size() != 1)
      return {};
    const auto *P = Parents[0].get<Expr>();
    if (!P || !(isa<ImplicitCastExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
                    ExprWithCleanups>(P) ||
                (isa<CXXConstructExpr>(P) && !isa<CXXTemporaryObjectExpr>(P) &&
                 cast<CXXConstructExpr>(P)->getNumArgs() == 1)))
      return Parents[0];
    Node = Parents[0];
  }
}

/// True if the new value may replace \p Fetch without parentheses: it is a
/// whole initialiser, call argument, or right-hand side of an assignment.
bool standsAlone(const DynTypedNode &User) {
  if (User.get<VarDecl>() || User.get<ParenExpr>())
    return true;
  if (const auto *Op = User.get<CXXOperatorCallExpr>())
    return Op->getOperator() == OO_Equal;
  if (const auto *Op = User.get<BinaryOperator>())
    return Op->getOpcode() == BO_Assign;
  return User.get<CallExpr>() || User.get<CXXConstructExpr>();
}

/// True if \p E writes DSL memory (an atomic or a write), so evaluating it
/// twice would change the program.
bool hasDeviceSideEffects(const Stmt *E) {
  if (const auto *Call = dyn_cast<CXXMemberCallExpr>(E))
    if (const auto *Method = Call->getMethodDecl()) {
      StringRef Name = Method->getName();
      if (Name.starts_with("fetch_") || Name == "exchange" || Name == "compare_exchange" ||
          Name == "write")
        return true;
    }
  for (const Stmt *Child : E->children())
    if (Child && hasDeviceSideEffects(Child))
      return true;
  return false;
}

/// \p Text, parenthesized unless it is one token (a name or a literal).
std::string asFactor(const std::string &Text) {
  if (!Text.empty() && Text.find_first_of(" +-*/%<>&|^!?:~()") == std::string::npos)
    return Text;
  return "(" + Text + ")";
}

/// True if \p E is a thread's own index: thread_x/y/z(), dispatch_x/y/z(),
/// or a component of thread_id() or dispatch_id().
bool isThreadIndex(const Expr *E) {
  E = stripDslWrappers(E);
  if (const auto *Member = dyn_cast<MemberExpr>(E))
    E = stripDslWrappers(Member->getBase());
  StringRef Name = dslCallName(E->IgnoreParenImpCasts());
  return llvm::is_contained({"thread_x", "thread_y", "thread_z", "dispatch_x", "dispatch_y",
                             "dispatch_z", "thread_id", "dispatch_id"},
                            Name);
}

/// True if \p Cond lets at most one thread of a row of the block through:
/// `thread_x() == X` with X warp-uniform, or a conjunction with such a side
/// (the guide's `$if (thread_x() == 0u)` around the one atomic per block).
bool admitsOneThread(const Expr *Cond, UniformityAnalysis &U) {
  Cond = stripDslWrappers(Cond);
  const Expr *L = nullptr, *R = nullptr;
  bool IsEqual = false, IsAnd = false;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Cond); Op && Op->getNumArgs() == 2) {
    L = Op->getArg(0), R = Op->getArg(1);
    IsEqual = Op->getOperator() == OO_EqualEqual;
    IsAnd = Op->getOperator() == OO_Amp || Op->getOperator() == OO_AmpAmp;
  } else if (const auto *Bin = dyn_cast<BinaryOperator>(Cond)) {
    L = Bin->getLHS(), R = Bin->getRHS();
    IsEqual = Bin->getOpcode() == BO_EQ;
    IsAnd = Bin->getOpcode() == BO_And || Bin->getOpcode() == BO_LAnd;
  }
  if (IsAnd)
    return admitsOneThread(L, U) || admitsOneThread(R, U);
  return IsEqual && ((isThreadIndex(L) && U.varianceOf(R) <= Variance::Warp) ||
                     (isThreadIndex(R) && U.varianceOf(L) <= Variance::Warp));
}

/// True if \p S runs under a `$if`/`$elif` that admits one thread per row.
bool runsOnOneThread(const Stmt *S, Analyses &A) {
  for (const DslControl &Control : A.Flow.enclosing(S).Controls)
    if ((Control.K == DslControl::If || Control.K == DslControl::Elif) &&
        !Control.Conditions.empty() && admitsOneThread(Control.Conditions.back(), A.Uniformity))
      return true;
  return false;
}

} // namespace

void WarpAggregatedAtomicCheck::registerMatchers(MatchFinder *Finder) {
  // exchange and compare_exchange have no warp-collective form.
  Finder->addMatcher(
      cxxMemberCallExpr(atomicFetch({"fetch_add", "fetch_sub", "fetch_min", "fetch_max",
                                     "fetch_and", "fetch_or", "fetch_xor"},
                                    "fetch", "atomic"),
                        hasArgument(0, expr().bind("operand"))),
      this);
}

void WarpAggregatedAtomicCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  UniformityAnalysis &U = analyses(Ctx).Uniformity;
  const auto *Fetch = Result.Nodes.getNodeAs<CXXMemberCallExpr>("fetch");
  const auto *Atomic = Result.Nodes.getNodeAs<CXXMemberCallExpr>("atomic");
  const Expr *Object = Atomic->getImplicitObjectArgument();
  bool OnShared = !sharedElementType(Object->IgnoreParenImpCasts()->getType()).isNull();
  bool Discarded = isDiscardedResult(Fetch, Ctx);
  QualType Element = dslValueType(Fetch->getType());
  StringRef Method = Fetch->getMethodDecl()->getName();
  bool AddOrSub = Method == "fetch_add" || Method == "fetch_sub";
  // One lane's atomic stands for the warp only if every lane names its slot;
  // a discarded shared atomic is luisa-shared-atomic-counter's; a used old
  // value of min/max/and/or/xor has no prefix builtin to share it out.
  if (Atomic->getNumArgs() != 1 || Fetch->getNumArgs() != 1 || !Element->isScalarType() ||
      U.varianceOf(Atomic->getArg(0)) > Variance::Warp || U.runsOnOneLanePerWarp(Fetch) ||
      runsOnOneThread(Fetch, analyses(Ctx)) ||
      (Discarded && OnShared) || (!Discarded && !AddOrSub))
    return;
  Diagnosis D;
  // A condition of `$while (...)` is a macro argument: report where it is spelled.
  D.Loc = Ctx.getSourceManager().getFileLoc(Fetch->getBeginLoc());
  D.Args = {OnShared ? "shared" : "global", Method.str(), atomicObjectName(Object)};
  D.Highlight = CharSourceRange::getTokenRange(Fetch->getSourceRange());
  if (Discarded)
    reportGlobalCounter(Result, std::move(D));
  else
    reportSlotAllocation(Result, std::move(D));
}

void WarpAggregatedAtomicCheck::reportSlotAllocation(const MatchFinder::MatchResult &Result,
                                                     Diagnosis D) {
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = Ctx.getSourceManager();
  UniformityAnalysis &U = analyses(Ctx).Uniformity;
  const auto *Fetch = Result.Nodes.getNodeAs<CXXMemberCallExpr>("fetch");
  const auto *Operand = Result.Nodes.getNodeAs<Expr>("operand");
  QualType Element = dslValueType(Fetch->getType());
  if (isFloatingValue(Element)) {
    D.Format = "every thread does a %0 atomic %1 on the same slot of '%2' and uses its old "
               "value; float slots cannot be shared out per warp without changing rounding";
    D.Safety = FixSafety::none("the old values of a float sum depend on the order of the "
                               "additions, which a warp prefix sum changes");
    emit(Result, std::move(D));
    return;
  }
  // A 32-bit increment the same for the whole warp is counted with one ballot,
  // exact for any set of active lanes; per-lane amounts need a prefix scan.
  bool UniformAmount = U.varianceOf(Operand) <= Variance::Warp &&
                       Element->isIntegerType() && Ctx.getTypeSize(Element) == 32;
  D.Args.push_back(UniformAmount ? "warp_active_count_bits" : "warp_active_sum");
  D.Args.push_back(UniformAmount ? "warp_prefix_count_bits" : "warp_prefix_sum");
  D.Format = "every thread takes a slot with a %0 atomic %1 on the same slot of '%2'; let "
             "one lane per warp take the warp's slots (%3) and give each lane its offset (%4)";
  if (!UniformAmount)
    D.Safety = FixSafety::unsafe(
        "the amounts differ per lane, and LuisaCompute's CUDA warp_prefix_sum is a shuffle "
        "scan that drops values when the active lanes have gaps (divergent code)");
  std::string OperandText = atomicOperandText(Operand, Element, Ctx);
  // The new code goes before the statement that holds the atomic: the
  // expression statement itself, or the declaration or `return` around it.
  EnclosingStatement Enclosing = enclosingStatement(Fetch, Ctx);
  const Stmt *Statement = isa_and_nonnull<DeclStmt, ReturnStmt>(Enclosing.Container)
                              ? Enclosing.Container
                              : Enclosing.Statement;
  bool InsideBlock = isa_and_nonnull<DeclStmt, ReturnStmt, CompoundStmt>(Enclosing.Container);
  auto Withhold = [&](std::string Why) {
    D.Safety = FixSafety::none(std::move(Why));
    emit(Result, std::move(D));
  };
  if (!PP || !PP->isMacroDefined("$if"))
    return Withhold("the rewrite needs the DSL sugar ($if) of luisa/dsl/sugar.h");
  if (OperandText.empty() || !Statement)
    return Withhold("the atomic is spelled in a macro");
  if (!InsideBlock)
    return Withhold("the atomic is part of a host control statement");
  if (Statement->getBeginLoc().isMacroID())
    return Withhold("the atomic is in the condition of a DSL control statement, which the "
                    "aggregated atomic cannot be placed before");
  if (!UniformAmount && hasDeviceSideEffects(Operand))
    return Withhold("the amount writes memory, and the rewrite evaluates it twice");

  auto Fresh = [&](StringRef Base) { return freshName(Base, Fetch, Ctx, TakenNames); };
  bool DslOperand = isDslValueType(stripDslWrappers(Operand)->getType());
  auto Q = [&](StringRef Name, bool HasDslArgument) {
    return dslQualifier(Name, Fetch, Ctx, HasDslArgument) + Name.str();
  };
  std::string Total = Fresh("warp_total"), Offset = Fresh("lane_offset"),
              Base = Fresh("warp_base");
  std::string TotalValue, OffsetValue;
  PrintingPolicy Policy(Ctx.getLangOpts());
  if (UniformAmount) {
    Expr::EvalResult One;
    const Expr *Host = stripDslWrappers(Operand);
    bool IsOne = !isDslValueType(Host->getType()) && !Host->isValueDependent() &&
                 Host->EvaluateAsInt(One, Ctx) && One.Val.getInt() == 1;
    std::string Times = IsOne ? "" : " * " + asFactor(OperandText);
    // The counts are uint; a signed counter takes them as its own type.
    auto Count = [&](StringRef Builtin) {
      std::string Call = Q(Builtin, false) + "(true)";
      if (Element->isSignedIntegerType())
        Call = Q("cast", true) + "<" + Element.getAsString(Policy) + ">(" + Call + ")";
      return Call + Times;
    };
    TotalValue = Count("warp_active_count_bits");
    OffsetValue = Count("warp_prefix_count_bits");
  } else {
    TotalValue = Q("warp_active_sum", DslOperand) + "(" + OperandText + ")";
    OffsetValue = Q("warp_prefix_sum", DslOperand) + "(" + OperandText + ")";
  }
  std::string NewAtomic = withArgumentReplaced(Fetch, Total, Ctx);
  if (NewAtomic.empty())
    return Withhold("the atomic is spelled in a macro");
  // Lanes take the warp's range in lane order, as one serial order of the
  // original atomics would hand it out (fetch_sub counts down).
  std::string Slot = Q("warp_read_first_active_lane", true) + "(" + Base + ") " +
                     (D.Args[1] == "fetch_sub" ? "- " : "+ ") + Offset;
  DynTypedNode User = userOf(Fetch, Ctx);
  if (const auto *Var = User.get<VarDecl>();
      Var && Var->getType()->getContainedAutoType() && analyses(Ctx).Writes.isWritten(Var))
    Slot = Q("def", true) + "(" + Slot + ")"; // `auto` must stay an assignable Var.
  else if (!standsAlone(User))
    Slot = "(" + Slot + ")";

  SourceLocation At = SM.getExpansionLoc(Statement->getBeginLoc());
  std::string Indent = lineIndentation(At, SM);
  bool StartsLine = SM.getColumnNumber(SM.getFileID(At), SM.getFileOffset(At)) ==
                    Indent.size() + 1;
  std::string Break = StartsLine ? lineEnding(At, SM) + Indent : " ";
  std::string Preamble =
      "auto " + Total + " = " + TotalValue + ";" + Break + "auto " + Offset + " = " +
      OffsetValue + ";" + Break + dslQualifier("Var", Fetch, Ctx, false) + "Var<" +
      Element.getAsString(Policy) + "> " + Base + ";" + Break + "$if (" +
      Q("warp_is_first_active_lane", false) + "()) { " + Base + " = " + NewAtomic + "; };" +
      Break;
  D.bind("statement", Statement);
  D.Edit = transformer::flatten(
      transformer::edit(transformer::insertBefore(userCode(transformer::node("statement")),
                                                  transformer::cat(Preamble))),
      transformer::edit(transformer::changeTo(userCode(transformer::node("fetch")),
                                              transformer::cat(Slot))));
  emit(Result, std::move(D));
}

void WarpAggregatedAtomicCheck::reportGlobalCounter(const MatchFinder::MatchResult &Result,
                                                    Diagnosis D) {
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = Ctx.getSourceManager();
  const auto *Fetch = Result.Nodes.getNodeAs<CXXMemberCallExpr>("fetch");
  const auto *Operand = Result.Nodes.getNodeAs<Expr>("operand");
  QualType Element = dslValueType(Fetch->getType());
  CombineOp Op = reductionOf(D.Args[1]);
  std::string Collective = "warp_active_" + collectiveSuffix(Op).str();
  D.Args.push_back(Collective);
  D.Format = "every thread does a %0 atomic %1 on the same slot of '%2'; reduce with %3 "
             "first and let one lane per warp do the atomic";
  D.Highlight.reset(); // The replaced statement.
  std::string OperandText = atomicOperandText(Operand, Element, Ctx);
  bool Fixable = !OperandText.empty() && PP && PP->isMacroDefined("$if");
  std::string Partial =
      Fixable ? freshName("warp_" + collectiveSuffix(Op).str(), Fetch, Ctx, TakenNames) : "";
  std::string NewAtomic = withArgumentReplaced(Fetch, Partial, Ctx);
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
  D.Safety = warpReductionSafety(Op, Element, Collective, Ctx);
  if (!Fixable || NewAtomic.empty())
    D.Safety = FixSafety::none(Fixable ? "the atomic is spelled in a macro"
                                       : "the rewrite needs the DSL sugar ($if) of "
                                         "luisa/dsl/sugar.h");
  emit(Result, std::move(D));
}

} // namespace kernel_tidy::rules
