//===--- AtomicRewrite.cpp - Text pieces of rewritten atomics -------------===//

#include "rules/atomics/AtomicRewrite.h"

#include "rules/FixEdits.h"
#include "src/dsl/Ast.h"
#include "src/dsl/HostEval.h"
#include "src/dsl/Naming.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/Transformer/Stencil.h"
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

const ValueDecl *atomicObjectDecl(const Expr *Object) {
  const Expr *E = Object->IgnoreParenImpCasts();
  // `buffer->atomic(i)` on a captured Buffer<T> calls Buffer<T>::operator->,
  // also through a pointer: `(*p)->atomic(i)`.
  if (const auto *Arrow = dyn_cast<CXXOperatorCallExpr>(E))
    if (Arrow->getOperator() == OO_Arrow && Arrow->getNumArgs() == 1)
      E = Arrow->getArg(0)->IgnoreParenImpCasts();
  if (const auto *Deref = dyn_cast<UnaryOperator>(E))
    if (Deref->getOpcode() == UO_Deref)
      E = Deref->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *Arrow = dyn_cast<CXXOperatorCallExpr>(E))
    if (Arrow->getOperator() == OO_Arrow && Arrow->getNumArgs() == 1)
      E = Arrow->getArg(0)->IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    return Ref->getDecl();
  if (const auto *Member = dyn_cast<MemberExpr>(E))
    return Member->getMemberDecl();
  return nullptr;
}

std::string atomicObjectName(const Expr *Object) {
  const ValueDecl *D = atomicObjectDecl(Object);
  return D ? D->getNameAsString() : "";
}

std::string atomicOperandText(const Expr *Operand, QualType Element, ASTContext &Ctx) {
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

std::string withArgumentReplaced(const CallExpr *Call, StringRef NewArgument, ASTContext &Ctx) {
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

bool activeLanesAreContiguous(const Stmt *S, Analyses &A) {
  // Threads past the dispatch edge are the last ones of a block, so in a
  // block of one row each warp keeps a run of lanes from lane 0.
  auto Shape = A.Blocks.sizeAt(S).known();
  return Shape && (*Shape)[1] == 1 && (*Shape)[2] == 1 && !A.Uniformity.isDivergent(S);
}

/// Whether code checked for \p Backend may run on LuisaCompute's CUDA backend.
static bool allowsCuda(dsl::Target Backend) {
  return Backend == dsl::Target::Any || Backend == dsl::Target::Cuda;
}

FixSafety warpReductionSafety(dsl::CombineOp Op, QualType Element, StringRef Collective,
                              const Stmt *At, Analyses &A, dsl::Target Backend) {
  // A guarded shuffle butterfly: a lane whose partner is inactive skips that
  // partner's whole subtree; the first active lane's result is exact on a
  // run of lanes from lane 0. Only 32-bit integers have redux.sync, and only
  // from sm_80 on, while CUDA still compiles for sm_75. A value left out is
  // a wrong result, not a rounding: never offered.
  if (allowsCuda(Backend) && !activeLanesAreContiguous(At, A)) {
    bool AlwaysButterfly = dsl::isFloatingValue(Element) || A.Ctx.getTypeSize(Element) > 32;
    return FixSafety::none(
        "LuisaCompute's CUDA " + Collective.str() +
        (AlwaysButterfly ? " of float and 64-bit values" : " of 32-bit integers below sm_80") +
        " is a guarded shuffle butterfly that leaves out the values of some lanes when the "
        "active lanes have gaps (divergent code, blocks of several rows), so the warp's result "
        "can be wrong; the Target option allows CUDA");
  }
  if (Op == dsl::CombineOp::Sum && dsl::isFloatingValue(Element))
    return reassociationSafety(Op, Element, "warp_active_sum adds");
  return FixSafety::safe();
}

FixSafety warpPrefixSumSafety(const Stmt *At, Analyses &A, dsl::Target Backend) {
  // Each step adds the lane `d` below only when that lane is active: on a
  // run of lanes from lane 0 that is every step of an exact scan.
  if (allowsCuda(Backend) && !activeLanesAreContiguous(At, A))
    return FixSafety::none(
        "the amounts differ per lane, and LuisaCompute's CUDA warp_prefix_sum is a guarded "
        "shuffle scan that leaves out the amounts of some lanes when the active lanes have gaps "
        "(divergent code, blocks of several rows), so lanes can get overlapping slots; the "
        "Target option allows CUDA");
  return FixSafety::safe();
}

FixSafety warpBaseReadSafety(dsl::Target Backend, bool AssumeReconvergence) {
  // LuisaCompute's CUDA backend reads the base with
  // __shfl_sync(__activemask(), base, first lane); since Volta a warp need
  // not reconverge after a divergent branch, so the leader may not be in
  // that mask yet. Vulkan promises reconvergence only under
  // SPV_KHR_maximal_reconvergence, Metal documents none; HLSL's wave
  // operations must see the lanes of the programmer's control flow.
  if (Backend == dsl::Target::DirectX || AssumeReconvergence)
    return FixSafety::safe();
  StringRef Where = Backend == dsl::Target::Cuda     ? "CUDA since Volta"
                    : Backend == dsl::Target::Vulkan ? "Vulkan without maximal reconvergence"
                    : Backend == dsl::Target::Metal  ? "Metal"
                                                     : "CUDA since Volta, Vulkan or Metal";
  return FixSafety::none(
      ("the lanes read the warp's base with warp_read_first_active_lane after the first active "
       "lane's $if, and a warp need not run together again there on " +
       Where +
       ", which the Target option allows, so a lane can read the base before it is written and "
       "two lanes can get one slot; --assume-warp-reconvergence (AssumeWarpReconvergence) states "
       "that every target reconverges there")
          .str());
}

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
    if (!P ||
        !(isa<ImplicitCastExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr, ExprWithCleanups>(
              P) ||
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

/// True if \p E equals one value in at most one thread of 32 consecutive
/// ones: a thread's own index (thread_x/y/z(), dispatch_x/y/z(), a component
/// of thread_id() or dispatch_id()), that index modulo a host constant of at
/// least 32, the narrowest native warp (`dispatch_x() % 256u % 32u`), or a
/// local variable initialised from one and never written again
/// (`auto tid = thread_x();`).
bool isSparseThreadIndex(const Expr *E, ASTContext &Ctx, WriteAnalysis &Writes) {
  E = stripDslWrappers(E);
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
        Var && !isa<ParmVarDecl>(Var) && Var->isLocalVarDecl() && Var->hasInit() &&
        !Writes.isWritten(Var))
      return isSparseThreadIndex(Var->getInit(), Ctx, Writes);
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E->IgnoreParenImpCasts());
      Op && Op->getOperator() == OO_Percent && Op->getNumArgs() == 2) {
    std::optional<int64_t> Modulus = evaluateHostInt(stripDslWrappers(Op->getArg(1)), Ctx);
    return Modulus && *Modulus >= 32 && isSparseThreadIndex(Op->getArg(0), Ctx, Writes);
  }
  if (const auto *Member = dyn_cast<MemberExpr>(E))
    E = stripDslWrappers(Member->getBase());
  StringRef Name = dslCallName(E->IgnoreParenImpCasts());
  return isThreadIndexComponent(Name) || isThreadIndexVector(Name);
}

/// True if \p Cond lets at most one thread of a row of the block, or of 32
/// consecutive threads, through (the guide's `$if (thread_x() == 0u)` around
/// the one atomic per block, `$if (eid % 256u == 0u)`).
bool admitsOneThread(const Expr *Cond, Analyses &A) {
  UniformityAnalysis &U = A.Uniformity;
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
    return admitsOneThread(L, A) || admitsOneThread(R, A);
  ASTContext &Ctx = A.Ctx;
  return IsEqual && ((isSparseThreadIndex(L, Ctx, A.Writes) && U.varianceOf(R) <= Variance::Warp) ||
                     (isSparseThreadIndex(R, Ctx, A.Writes) && U.varianceOf(L) <= Variance::Warp));
}

/// \p Text, parenthesized unless it is one token (a name or a literal).
std::string asFactor(const std::string &Text) {
  if (!Text.empty() && Text.find_first_of(" +-*/%<>&|^!?:~()") == std::string::npos)
    return Text;
  return "(" + Text + ")";
}

} // namespace

std::string inPlaceOf(const Expr *Fetch, std::string Value, ASTContext &Ctx,
                      WriteAnalysis &Writes) {
  DynTypedNode User = userOf(Fetch, Ctx);
  if (const auto *Var = User.get<VarDecl>();
      Var && Var->getType()->getContainedAutoType() && Writes.isWritten(Var))
    // `auto` must stay an assignable Var.
    return dslQualifier("def", Fetch, Ctx, true) + "def(" + Value + ")";
  if (!standsAlone(User))
    return "(" + Value + ")";
  return Value;
}

Variance slotVariance(const CXXMemberCallExpr *Fetch, const CXXMemberCallExpr *Atomic,
                      UniformityAnalysis &U) {
  Variance Slot = U.varianceOf(Atomic->getArg(0));
  for (const Expr *Index : atomicPathOf(Fetch->getImplicitObjectArgument()).Subscripts)
    Slot = join(Slot, U.varianceOf(Index));
  return Slot;
}

bool runsOnOneThread(const Stmt *S, Analyses &A) {
  for (const DslControl &Control : A.Flow.enclosing(S).Controls)
    if ((Control.K == DslControl::If || Control.K == DslControl::Elif) &&
        !Control.Conditions.empty() && admitsOneThread(Control.Conditions.back(), A))
      return true;
  return false;
}

bool isBallotCountable(const Expr *Operand, QualType Element, UniformityAnalysis &U,
                       ASTContext &Ctx) {
  // A 32-bit increment the same for the whole warp is counted with one
  // ballot, exact for any set of active lanes; per-lane amounts need a scan.
  return U.varianceOf(Operand) <= Variance::Warp && Element->isIntegerType() &&
         Ctx.getTypeSize(Element) == 32;
}

std::optional<WarpSlotCode>
warpSlotCode(const CallExpr *Fetch, const Expr *Operand, QualType Element, bool BallotCounts,
             bool CountDown, llvm::function_ref<std::string(StringRef Total)> AtomicWith,
             StringRef Break, ASTContext &Ctx) {
  std::string OperandText = atomicOperandText(Operand, Element, Ctx);
  if (OperandText.empty())
    return std::nullopt;
  auto Fresh = [&](StringRef Base) { return freshName(Base, Fetch, Ctx); };
  auto Q = [&](StringRef Name, bool HasDslArgument) {
    return dslQualifier(Name, Fetch, Ctx, HasDslArgument) + Name.str();
  };
  std::string Total = Fresh("warp_total"), Offset = Fresh("lane_offset"), Base = Fresh("warp_base");
  std::string TotalValue, OffsetValue;
  PrintingPolicy Policy(Ctx.getLangOpts());
  if (BallotCounts) {
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
    bool DslOperand = isDslValueType(stripDslWrappers(Operand)->getType());
    TotalValue = Q("warp_active_sum", DslOperand) + "(" + OperandText + ")";
    OffsetValue = Q("warp_prefix_sum", DslOperand) + "(" + OperandText + ")";
  }
  std::string NewAtomic = AtomicWith(Total);
  if (NewAtomic.empty())
    return std::nullopt;
  WarpSlotCode Code;
  // Lanes take the warp's range in lane order, as one serial order of the
  // original atomics would hand it out (fetch_sub counts down).
  Code.Slot = Q("warp_read_first_active_lane", true) + "(" + Base + ") " +
              (CountDown ? "- " : "+ ") + Offset;
  Code.Preamble = "auto " + Total + " = " + TotalValue + ";" + Break.str() + "auto " + Offset +
                  " = " + OffsetValue + ";" + Break.str() + dslQualifier("Var", Fetch, Ctx, false) +
                  "Var<" + Element.getAsString(Policy) + "> " + Base + ";" + Break.str() + "$if (" +
                  Q("warp_is_first_active_lane", false) + "()) { " + Base + " = " + NewAtomic +
                  "; };" + Break.str();
  return Code;
}

std::string warpReducedAtomicCode(StringRef Collective, StringRef Partial, const Expr *Operand,
                                  StringRef OperandText, StringRef NewAtomic, StringRef Break,
                                  const Stmt *At, ASTContext &Ctx) {
  return "auto " + Partial.str() + " = " +
         dslQualifier(Collective, At, Ctx, isDslValueType(stripDslWrappers(Operand)->getType())) +
         Collective.str() + "(" + OperandText.str() + ");" + Break.str() + "$if (" +
         dslQualifier("warp_is_first_active_lane", At, Ctx, false) +
         "warp_is_first_active_lane()) { " + NewAtomic.str() + "; };";
}

void warpReducedAtomicFix(Diagnosis &D, const CXXMemberCallExpr *Fetch, const Expr *Operand,
                          CombineOp Op, bool HasSugar, Analyses &A, dsl::Target Backend,
                          ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  QualType Element = dslValueType(Fetch->getType());
  std::string Collective = collectiveName(Op);
  std::string OperandText = atomicOperandText(Operand, Element, Ctx);
  std::string Partial = freshName("warp_" + collectiveSuffix(Op).str(), Fetch, Ctx);
  std::string NewAtomic = withArgumentReplaced(Fetch, Partial, Ctx);
  auto Code = [&](StringRef Break) {
    return warpReducedAtomicCode(Collective, Partial, Operand, OperandText, NewAtomic, Break, Fetch,
                                 Ctx);
  };
  D.Safety = warpReductionSafety(Op, Element, Collective, Fetch, A, Backend);
  if (!HasSugar)
    D.Safety = FixSafety::none("the rewrite needs the DSL sugar ($if) of luisa/dsl/sugar.h");
  if (OperandText.empty() || NewAtomic.empty())
    D.Safety = FixSafety::none("the atomic is spelled in a macro");
  if (D.Safety.Kind == Applicability::None)
    return;
  const Stmt *UnbracedIn = unbracedBodyOwner(Fetch, Ctx);
  if (!UnbracedIn) {
    D.Edit = transformer::edit(
        transformer::changeTo(userStatements("fetch", "fetch"),
                              transformer::cat(Code(lineEnding(Fetch->getBeginLoc(), SM) +
                                                    lineIndentation(Fetch->getBeginLoc(), SM)))));
    return;
  }
  // The rewrite's two statements need a block where the atomic was the
  // loop's or branch's only statement; the atomic stays underlined.
  D.Highlight = CharSourceRange::getTokenRange(Fetch->getSourceRange());
  if (auto Edits = bracedBodyEdits(UnbracedIn, Fetch, Code, Ctx))
    D.Edit = std::move(*Edits);
  else
    D.Safety = FixSafety::none(llvm::toString(Edits.takeError()));
}

} // namespace kernel_tidy::rules
