//===--- StreamSubmissions.cpp - Host statements that submit to a Stream --===//

#include "rules/host/StreamSubmissions.h"

#include "src/dsl/Names.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace kernel_tidy::dsl {

bool isSynchronizing(StreamOperand Kind) {
  return Kind == StreamOperand::Synchronize || Kind == StreamOperand::Event;
}

bool StreamSubmission::onlyCommands(bool SingleCommands) const {
  return llvm::all_of(Operands, [&](const auto &Operand) {
    return Operand.first == StreamOperand::Command ||
           (!SingleCommands && Operand.first == StreamOperand::Compound);
  });
}

bool StreamSubmission::endsWithBarrier() const {
  StreamOperand Last = Operands.back().first;
  return isSynchronizing(Last) || Last == StreamOperand::Commit;
}

bool StreamSubmission::isChainable() const {
  auto IsCommand = [](const auto &Operand) {
    return Operand.first == StreamOperand::Command || Operand.first == StreamOperand::Compound;
  };
  size_t Commands = endsWithBarrier() ? Operands.size() - 1 : Operands.size();
  return Commands > 0 && std::all_of(Operands.begin(), Operands.begin() + Commands, IsCommand);
}

/// True for luisa::compute::Stream and its Delegate.
static bool isStreamClass(const CXXRecordDecl *RD) {
  if (!RD || !isInLuisaCompute(RD))
    return false;
  if (RD->getName() == "Stream")
    return true;
  const auto *Outer = dyn_cast<CXXRecordDecl>(RD->getDeclContext());
  return RD->getName() == "Delegate" && Outer && Outer->getName() == "Stream";
}

/// What the `<<` overload \p Method takes, by the type of its parameter.
static std::optional<StreamOperand> operandKind(const CXXMethodDecl *Method) {
  if (Method->getNumParams() != 1)
    return std::nullopt;
  QualType T = Method->getParamDecl(0)->getType().getNonReferenceType().getCanonicalType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->getIdentifier())
    return std::nullopt;
  StringRef Name = RD->getName();
  if (Name == "unique_ptr")
    return StreamOperand::Command;
  if (Name == "tuple")
    return StreamOperand::Compound;
  if (Name.contains("function"))
    return StreamOperand::Callback;
  if (Name == "Synchronize")
    return StreamOperand::Synchronize;
  if (Name == "Commit")
    return StreamOperand::Commit;
  // The stream-event template: Event/TimelineEvent signal and wait, presents.
  return StreamOperand::Event;
}

std::optional<StreamSubmission> asStreamSubmission(const Stmt *S) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  if (!E)
    return std::nullopt;
  StreamSubmission Sub;
  Sub.Statement = S;
  const Expr *Left = E->IgnoreImplicit()->IgnoreParens();
  while (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Left)) {
    const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
    if (Op->getOperator() != OO_LessLess || Op->getNumArgs() != 2 || !Method ||
        !isStreamClass(Method->getParent()))
      break;
    std::optional<StreamOperand> Kind = operandKind(Method);
    if (!Kind)
      return std::nullopt;
    Sub.Operands.insert(Sub.Operands.begin(), {*Kind, Op->getArg(1)});
    Sub.FirstShift = Op;
    Left = Op->getArg(0)->IgnoreImplicit()->IgnoreParens();
  }
  const CXXRecordDecl *Type = Left->getType()->getAsCXXRecordDecl();
  if (!Sub.FirstShift || !Type || Type->getName() != "Stream" || !isStreamClass(Type))
    return std::nullopt;
  Sub.Stream = Left;
  return Sub;
}

/// \p E without parentheses, implicit nodes and dereferences, for comparing.
static const Expr *streamObject(const Expr *E, bool &Dereferenced) {
  E = E->IgnoreImplicit()->IgnoreParens();
  if (const auto *Unary = dyn_cast<UnaryOperator>(E); Unary && Unary->getOpcode() == UO_Deref) {
    Dereferenced = true;
    return Unary->getSubExpr()->IgnoreImplicit()->IgnoreParens();
  }
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
      Op && Op->getOperator() == OO_Star && Op->getNumArgs() == 1) {
    Dereferenced = true;
    return Op->getArg(0)->IgnoreImplicit()->IgnoreParens();
  }
  return E;
}

bool isSameStream(const Expr *A, const Expr *B) {
  bool DerefA = false, DerefB = false;
  A = streamObject(A, DerefA);
  B = streamObject(B, DerefB);
  return DerefA == DerefB && isSameVariable(A, B);
}

bool isHostWait(const Expr *E) {
  const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(E ? E->IgnoreImplicit() : nullptr);
  const CXXMethodDecl *Method = Call ? Call->getMethodDecl() : nullptr;
  if (!Method || !Method->getIdentifier() || Method->getName() != "synchronize" ||
      !isInLuisaCompute(Method))
    return false;
  StringRef Class = Method->getParent()->getName();
  return Class == "Stream" || Class == "Event" || Class == "TimelineEvent";
}

/// The command type `X` of an operand of type luisa::unique_ptr<X>, and the
/// expression that made it.
static std::pair<StringRef, const Expr *> commandOf(const Expr *Operand) {
  const Expr *E = Operand->IgnoreImplicit();
  // The conversion of unique_ptr<X> to unique_ptr<Command>: one argument,
  // and with EASTL's unique_ptr (the real luisa::unique_ptr) a defaulted
  // enable_if pointer after it.
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E);
      Construct && Construct->getNumArgs() >= 1 &&
      llvm::all_of(llvm::drop_begin(Construct->arguments()),
                   [](const Expr *A) { return isa<CXXDefaultArgExpr>(A); }))
    E = Construct->getArg(0)->IgnoreImplicit();
  const auto *Spec =
      dyn_cast_or_null<ClassTemplateSpecializationDecl>(E->getType()->getAsCXXRecordDecl());
  if (!Spec || Spec->getName() != "unique_ptr" || Spec->getTemplateArgs().size() < 1 ||
      Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return {"", E};
  const CXXRecordDecl *Command = Spec->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl();
  return {Command && Command->getIdentifier() ? Command->getName() : "", E};
}

/// The host memory argument of a transfer command of type \p Suffix
/// ("DownloadCommand", "UploadCommand"): the operand itself when unknown.
static const Expr *hostTransfer(const Expr *Operand, StringRef Suffix) {
  auto [Type, Made] = commandOf(Operand);
  if (!Type.ends_with(Suffix))
    return nullptr;
  // `view.copy_to(p)` and the like; a command made elsewhere is unknown.
  const auto *Call = dyn_cast<CXXMemberCallExpr>(Made);
  const CXXMethodDecl *Method = Call ? Call->getMethodDecl() : nullptr;
  if (!Method || Call->getNumArgs() < 1 || !isInLuisaComputeLibrary(Method))
    return Operand;
  return Call->getArg(0);
}

const Expr *downloadTarget(const Expr *Operand) { return hostTransfer(Operand, "DownloadCommand"); }

const Expr *uploadSource(const Expr *Operand) { return hostTransfer(Operand, "UploadCommand"); }

/// True if \p D is declared in a namespace of LuisaCompute or a standard
/// library (LuisaCompute's containers come from EASTL, its strings from fmt).
static bool isLibrary(const Decl *D) {
  if (const auto *FD = dyn_cast<FunctionDecl>(D); FD && FD->getBuiltinID())
    return true;
  const NamespaceDecl *Outermost = nullptr;
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      Outermost = NS;
  return Outermost && llvm::StringSwitch<bool>(Outermost->getName())
                          .Cases("luisa", "std", "eastl", "fmt", "spdlog", "vstd", true)
                          .Default(false);
}

const ValueDecl *hostMemoryRoot(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 16; ++Depth) {
    E = E->IgnoreImplicit()->IgnoreParenCasts();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(Ref->getDecl());
    if (const auto *Member = dyn_cast<MemberExpr>(E)) {
      if (isa<CXXThisExpr>(Member->getBase()->IgnoreParenImpCasts()))
        return Member->getMemberDecl();
      E = Member->getBase();
    } else if (const auto *Unary = dyn_cast<UnaryOperator>(E)) {
      E = Unary->getSubExpr();
    } else if (const auto *Binary = dyn_cast<BinaryOperator>(E)) {
      if (!Binary->isAdditiveOp())
        return nullptr;
      E = Binary->getLHS()->getType()->isPointerType() ? Binary->getLHS() : Binary->getRHS();
    } else if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E)) {
      E = Subscript->getBase();
    } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
      if (Op->getNumArgs() < 1 || !Op->getDirectCallee() || !isLibrary(Op->getDirectCallee()))
        return nullptr;
      E = Op->getArg(0);
    } else if (const auto *Call = dyn_cast<CXXMemberCallExpr>(E)) {
      // `v.data()`, `v.begin()`: the container's memory.
      if (!Call->getMethodDecl() || !isLibrary(Call->getMethodDecl()))
        return nullptr;
      E = Call->getImplicitObjectArgument();
    } else if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
      // `luisa::span{v}`, `std::span(p, n)`: a view of its argument's memory. Any
      // other object (a temporary `luisa::vector<uint>(n, k)`, found by the
      // differential fuzzer) has memory of its own.
      const CXXRecordDecl *Class = Construct->getType()->getAsCXXRecordDecl();
      if (Construct->getNumArgs() < 1 || !isLibrary(Construct->getConstructor()) || !Class ||
          !Class->getIdentifier() ||
          (Class->getName() != "span" && !Class->getName().ends_with("string_view")))
        return nullptr;
      E = Construct->getArg(0);
    } else if (const auto *List = dyn_cast<InitListExpr>(E)) {
      if (List->getNumInits() < 1)
        return nullptr;
      E = List->getInit(0);
    } else if (const auto *Call = dyn_cast<CallExpr>(E)) {
      // `std::data(v)`, `std::addressof(x)`.
      if (Call->getNumArgs() < 1 || !Call->getDirectCallee() || !isLibrary(Call->getDirectCallee()))
        return nullptr;
      E = Call->getArg(0);
    } else {
      return nullptr;
    }
  }
  return nullptr;
}

const Expr *userCodeCall(const Stmt *S) {
  if (!S || isa<LambdaExpr>(S)) // Defining a lambda runs nothing.
    return nullptr;
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    const Decl *Callee = Call->getCalleeDecl();
    if (!Callee || !isLibrary(Callee))
      return Call;
  } else if (const auto *Construct = dyn_cast<CXXConstructExpr>(S)) {
    const CXXConstructorDecl *Ctor = Construct->getConstructor();
    if (!Ctor->isTrivial() && !Ctor->isImplicit() && !isLibrary(Ctor))
      return Construct;
  }
  for (const Stmt *Child : S->children())
    if (const Expr *Found = userCodeCall(Child))
      return Found;
  return nullptr;
}

void DownloadedMemory::add(const StreamSubmission &S) {
  for (const auto &[Kind, Operand] : S.Operands) {
    const Expr *Target = Kind == StreamOperand::Command ? downloadTarget(Operand) : nullptr;
    if (!Target)
      continue;
    const ValueDecl *Root = Target == Operand ? nullptr : hostMemoryRoot(Target);
    if (!Root)
      Unknown = true;
    else
      Roots.insert(Root);
    Targets.insert(Target);
  }
}

/// True if \p S refers to one of \p Roots outside the subtrees \p Skip.
static bool refersTo(const Stmt *S, const llvm::SmallPtrSetImpl<const ValueDecl *> &Roots,
                     const llvm::SmallPtrSetImpl<const Expr *> &Skip) {
  if (!S)
    return false;
  if (const auto *E = dyn_cast<Expr>(S); E && Skip.contains(E))
    return false;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S); Ref && Roots.contains(Ref->getDecl()))
    return true;
  if (const auto *Member = dyn_cast<MemberExpr>(S);
      Member && Roots.contains(Member->getMemberDecl()))
    return true;
  for (const Stmt *Child : S->children())
    if (refersTo(Child, Roots, Skip))
      return true;
  return false;
}

bool DownloadedMemory::isReadBy(const Stmt *S) const {
  if (empty() || !S)
    return false;
  if (Unknown)
    return true;
  // Its own download targets are written, not read; so are earlier ones'.
  llvm::SmallPtrSet<const Expr *, 4> Skip(Targets.begin(), Targets.end());
  if (std::optional<StreamSubmission> Sub = asStreamSubmission(S))
    for (const auto &[Kind, Operand] : Sub->Operands)
      if (const Expr *Target = downloadTarget(Operand))
        Skip.insert(Target);
  return refersTo(S, Roots, Skip);
}

void UploadedMemory::add(const StreamSubmission &S) {
  for (const auto &[Kind, Operand] : S.Operands) {
    const Expr *Source = Kind == StreamOperand::Command ? uploadSource(Operand) : nullptr;
    if (!Source)
      continue;
    if (const ValueDecl *Root = Source == Operand ? nullptr : hostMemoryRoot(Source))
      Roots.insert(Root);
    else
      Unknown = true;
  }
}

/// True if a parameter of type \p T can write what its argument refers to: a
/// non-const reference, a pointer to non-const, or an object taken by value
/// (an iterator, a span) that may point into the argument's memory.
static bool mayWriteThrough(QualType T) {
  if (T->isReferenceType())
    return !T.getNonReferenceType().isConstQualified();
  if (T->isPointerType())
    return !T->getPointeeType().isConstQualified();
  return T->isRecordType();
}

/// True for the methods of a container that hand out its memory without
/// changing it (a write through what they return is seen where it happens).
static bool isAccessor(const CXXMethodDecl *Method) {
  if (Method->getOverloadedOperator() == OO_Subscript)
    return true;
  return Method->getIdentifier() &&
         llvm::StringSwitch<bool>(Method->getName())
             .Cases("data", "begin", "end", "rbegin", "rend", "front", "back", "at", true)
             .Cases("size", "empty", "capacity", "get", true)
             .Default(false);
}

/// Calls \p Visit with each expression that \p S itself may write: the
/// target of an assignment, increment or decrement; the arguments that a call
/// outside LuisaCompute (`std::swap`, `std::fill`) may write through a
/// parameter; the object of a non-const method (`v.push_back(x)` may move
/// v's elements). LuisaCompute's own calls write host memory only as
/// downloads, which complete after the uploads listed before them.
static void forEachWrite(const Stmt *S, llvm::function_ref<void(const Expr *)> Visit) {
  if (const auto *Unary = dyn_cast<UnaryOperator>(S); Unary && Unary->isIncrementDecrementOp())
    return Visit(Unary->getSubExpr());
  if (const auto *Binary = dyn_cast<BinaryOperator>(S); Binary && Binary->isAssignmentOp())
    return Visit(Binary->getLHS());
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
      Op && Op->getNumArgs() >= 1 &&
      (Op->isAssignmentOp() || Op->getOperator() == OO_PlusPlus ||
       Op->getOperator() == OO_MinusMinus))
    return Visit(Op->getArg(0));
  const FunctionDecl *Callee = nullptr;
  llvm::ArrayRef<const Expr *> Arguments;
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    Callee = Call->getDirectCallee();
    Arguments = {Call->getArgs(), Call->getNumArgs()};
    if (isa<CXXOperatorCallExpr>(Call) && isa_and_nonnull<CXXMethodDecl>(Callee))
      Arguments = Arguments.drop_front(); // The object, below.
  } else if (const auto *Construct = dyn_cast<CXXConstructExpr>(S)) {
    Callee = Construct->getConstructor();
    Arguments = {Construct->getArgs(), Construct->getNumArgs()};
  } else {
    return;
  }
  if (Callee && isInLuisaComputeLibrary(Callee))
    return;
  for (unsigned I = 0; I < Arguments.size(); ++I)
    if (!Callee || I >= Callee->getNumParams() ||
        mayWriteThrough(Callee->getParamDecl(I)->getType()))
      Visit(Arguments[I]);
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Callee);
  if (!Method || Method->isStatic() || Method->isConst() || isAccessor(Method))
    return;
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(S))
    Visit(Member->getImplicitObjectArgument());
  else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S))
    Visit(Op->getArg(0));
}

bool UploadedMemory::isWrittenBy(const Stmt *S) const {
  if (!S || isa<LambdaExpr>(S))
    return false;
  bool Written = false;
  forEachWrite(S, [&](const Expr *Target) {
    const ValueDecl *Root = hostMemoryRoot(Target);
    Written |= Unknown || (Root && Roots.contains(Root));
  });
  return Written ||
         llvm::any_of(S->children(), [&](const Stmt *Child) { return isWrittenBy(Child); });
}

/// True if a preprocessor directive starts a line between \p From and \p To.
static bool directiveBetween(SourceLocation From, SourceLocation To, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  auto [File, Begin] = SM.getDecomposedLoc(From);
  unsigned End = SM.getFileOffset(To);
  StringRef Buffer = SM.getBufferData(File);
  Lexer Raw(SM.getLocForStartOfFile(File), Ctx.getLangOpts(), Buffer.begin(),
            Buffer.begin() + Begin, Buffer.end());
  Token Tok;
  for (Raw.LexFromRawLexer(Tok); Tok.isNot(tok::eof); Raw.LexFromRawLexer(Tok)) {
    if (SM.getFileOffset(Tok.getLocation()) >= End)
      return false;
    if (Tok.is(tok::hash) && Tok.isAtStartOfLine())
      return true;
  }
  return false;
}

static bool isInFile(const Stmt *S) {
  return S->getBeginLoc().isFileID() && S->getEndLoc().isFileID();
}

std::vector<std::vector<StreamSubmission>> chainableRuns(const CompoundStmt *Block,
                                                         const ASTContext &Ctx) {
  std::vector<std::vector<StreamSubmission>> Runs;
  std::vector<StreamSubmission> Run;
  DownloadedMemory Downloaded;
  UploadedMemory Uploaded;
  auto Close = [&] {
    if (Run.size() >= 2)
      Runs.push_back(std::move(Run));
    Run.clear();
    Downloaded = DownloadedMemory();
    Uploaded = UploadedMemory();
  };
  for (const Stmt *S : Block->body()) {
    std::optional<StreamSubmission> Sub = asStreamSubmission(S);
    if (!Sub || !Sub->isChainable() || !isInFile(S)) {
      Close();
      continue;
    }
    bool Joins = !Run.empty() && !Run.back().endsWithBarrier() &&
                 isSameStream(Run.back().Stream, Sub->Stream) &&
                 !directiveBetween(Run.back().Statement->getEndLoc(), S->getBeginLoc(), Ctx) &&
                 !Downloaded.isReadBy(S) && !Uploaded.isWrittenBy(S) && !userCodeCall(S);
    if (!Joins)
      Close();
    Run.push_back(*Sub);
    Downloaded.add(*Sub);
    Uploaded.add(*Sub);
  }
  Close();
  return Runs;
}

namespace {

/// The parts of a loop: its body and the header code run per iteration.
struct LoopParts {
  const Stmt *Body = nullptr;
  llvm::SmallVector<const Stmt *, 3> Header;
  const VarDecl *ElementReference = nullptr; ///< `for (auto &x : container)`.
};

std::optional<LoopParts> partsOf(const Stmt *Loop) {
  LoopParts Parts;
  if (const auto *For = dyn_cast<ForStmt>(Loop)) {
    Parts.Body = For->getBody();
    Parts.Header = {For->getInit(), For->getCond(), For->getInc()};
  } else if (const auto *Range = dyn_cast<CXXForRangeStmt>(Loop)) {
    Parts.Body = Range->getBody();
    Parts.Header = {Range->getInit(), Range->getRangeInit()};
    const VarDecl *Var = Range->getLoopVariable();
    const Expr *Container = Range->getRangeInit()->IgnoreParenImpCasts();
    if (Var->getType()->isLValueReferenceType() && isa<DeclRefExpr, MemberExpr>(Container))
      Parts.ElementReference = Var;
  } else if (const auto *While = dyn_cast<WhileStmt>(Loop)) {
    Parts.Body = While->getBody();
    Parts.Header = {While->getCond()};
  } else if (const auto *Do = dyn_cast<DoStmt>(Loop)) {
    Parts.Body = Do->getBody();
    Parts.Header = {Do->getCond()};
  } else {
    return std::nullopt;
  }
  return Parts;
}

/// Collects the submissions of \p S (a body); false if it does anything else.
bool collectSubmissions(const Stmt *S, BatchableLoop &Out,
                        llvm::SmallVectorImpl<const Stmt *> &Headers,
                        llvm::SmallVectorImpl<const VarDecl *> &ElementReferences) {
  if (isa<NullStmt>(S))
    return true;
  if (const auto *Block = dyn_cast<CompoundStmt>(S))
    return llvm::all_of(Block->body(), [&](const Stmt *Child) {
      return collectSubmissions(Child, Out, Headers, ElementReferences);
    });
  if (std::optional<LoopParts> Nested = partsOf(S)) {
    Headers.append(Nested->Header.begin(), Nested->Header.end());
    if (Nested->ElementReference)
      ElementReferences.push_back(Nested->ElementReference);
    return collectSubmissions(Nested->Body, Out, Headers, ElementReferences);
  }
  std::optional<StreamSubmission> Sub = asStreamSubmission(S);
  if (!Sub || !Sub->onlyCommands(/*SingleCommands=*/true) || !isInFile(S) || userCodeCall(S))
    return false;
  Out.Submissions.push_back(*Sub);
  return true;
}

} // namespace

std::optional<BatchableLoop> asBatchableLoop(const Stmt *Loop, const ASTContext &Ctx) {
  std::optional<LoopParts> Parts = partsOf(Loop);
  if (!Parts || !isInFile(Loop))
    return std::nullopt;
  BatchableLoop Result;
  Result.Loop = Loop;
  llvm::SmallVector<const Stmt *, 6> Headers(Parts->Header.begin(), Parts->Header.end());
  llvm::SmallVector<const VarDecl *, 2> ElementReferences;
  if (Parts->ElementReference)
    ElementReferences.push_back(Parts->ElementReference);
  if (!collectSubmissions(Parts->Body, Result, Headers, ElementReferences) ||
      Result.Submissions.empty())
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  auto DeclaredInLoop = [&](const ValueDecl *D) {
    return SM.isPointWithin(D->getLocation(), Loop->getBeginLoc(), Loop->getEndLoc());
  };
  llvm::SmallPtrSet<const Expr *, 1> NoSkip;
  auto UsedByHeader = [&](const ValueDecl *D) {
    llvm::SmallPtrSet<const ValueDecl *, 1> One{D};
    return llvm::any_of(Headers, [&](const Stmt *H) { return refersTo(H, One, NoSkip); });
  };
  // One stream, the same object in every iteration.
  const StreamSubmission &First = Result.Submissions.front();
  const ValueDecl *Stream = hostMemoryRoot(First.Stream);
  if (!Stream || DeclaredInLoop(Stream) || UsedByHeader(Stream))
    return std::nullopt;
  DownloadedMemory Downloaded;
  UploadedMemory Uploaded;
  for (const StreamSubmission &Sub : Result.Submissions) {
    if (!isSameStream(First.Stream, Sub.Stream))
      return std::nullopt;
    Downloaded.add(Sub);
    Uploaded.add(Sub);
  }
  // Nothing in the loop may read what it downloads, or write what it uploads,
  // before the commit.
  for (const StreamSubmission &Sub : Result.Submissions)
    if (Downloaded.isReadBy(Sub.Statement) || Uploaded.isWrittenBy(Sub.Statement))
      return std::nullopt;
  if (llvm::any_of(Headers, [&](const Stmt *H) { return Downloaded.isReadBy(H); }))
    return std::nullopt;
  // A header may change memory it names (`p += 16`, `v.push_back(x)`), but
  // not through a const object or reference (`i < rows.size()` on a `const
  // luisa::vector<...> &rows`), unless it writes through a pointer kept there
  // or calls user code.
  bool HeaderMayWrite = llvm::any_of(
      Headers, [&](const Stmt *H) { return Uploaded.isWrittenBy(H) || userCodeCall(H); });
  auto ReadOnly = [&](const ValueDecl *D) {
    return !HeaderMayWrite && D->getType().getNonReferenceType().isConstQualified();
  };
  // An upload reads its memory when the list is submitted, after the loop; a
  // download writes it then: memory of one iteration would be gone.
  for (const StreamSubmission &Sub : Result.Submissions)
    for (const auto &[Kind, Operand] : Sub.Operands) {
      const Expr *Source = uploadSource(Operand);
      if (!Source)
        Source = downloadTarget(Operand);
      if (!Source)
        continue;
      const ValueDecl *Root = Source == Operand ? nullptr : hostMemoryRoot(Source);
      bool Element = llvm::is_contained(ElementReferences, Root);
      if (!Root || (DeclaredInLoop(Root) && !Element) || (UsedByHeader(Root) && !ReadOnly(Root)))
        return std::nullopt;
    }
  for (const Stmt *H : Headers)
    if (!Result.HeaderCall)
      Result.HeaderCall = userCodeCall(H);
  return Result;
}

} // namespace kernel_tidy::dsl
