//===--- ThreadValues.cpp - Index values in one thread, and race witnesses ===//

#include "src/dsl/ThreadValues.h"

#include "src/dsl/Names.h"
#include <unordered_map>

using namespace clang;

namespace kernel_tidy::dsl::shared_access_detail {

namespace {

bool inRange(Iterations R, size_t I, size_t Count) {
  return R == Iterations::Any || (R == Iterations::First ? I == 0 : I + 1 == Count);
}

void bind(Side &S, const Node *Loop, int64_t Value) {
  S.Loops[Loop->Var] = Value;
  if (Loop->Host)
    S.Host[Loop->Var] = Value;
}

} // namespace

int64_t ThreadValues::symbol(const void *Key, unsigned Seed, unsigned Which) {
  uint64_t H = reinterpret_cast<uintptr_t>(Key);
  H = (H ^ (H >> 17)) * 0x9E3779B97F4A7C15ull;
  return (int64_t(1) << 22) + int64_t(Seed) * (int64_t(1) << 21) + int64_t((H >> 40) & 0xfff) * 64 +
         int64_t(Which) * 11;
}

std::optional<int64_t> ThreadValues::normalize(std::optional<int64_t> V, QualType T) {
  if (!V)
    return std::nullopt;
  T = dslValueType(T).getCanonicalType();
  if (!T->isIntegerType())
    return std::nullopt;
  return fitToType(*V, T, Ctx);
}

std::optional<int64_t> ThreadValues::builtin(const IntExpr *V, const Side &S) {
  unsigned Axis = V->Axis;
  switch (V->Which) {
  case IntExpr::ThreadId:
    return S.Thread[Axis];
  case IntExpr::BlockId:
    return int64_t(S.Seed);
  case IntExpr::DispatchId:
    return int64_t(S.Seed) * M.Shape[Axis] + S.Thread[Axis];
  case IntExpr::BlockSize:
    return BlockKnown ? std::optional<int64_t>(M.Shape[Axis]) : std::nullopt;
  case IntExpr::DispatchSize:
    return symbol(&M, S.Seed, 2 + Axis);
  case IntExpr::LaneId: {
    int64_t Linear = S.Thread[0] + S.Thread[1] * M.Shape[0] + S.Thread[2] * M.Shape[0] * M.Shape[1];
    return M.WarpLanes ? std::optional<int64_t>(Linear % *M.WarpLanes) : std::nullopt;
  }
  case IntExpr::LaneCount:
    return M.WarpLanes ? std::optional<int64_t>(*M.WarpLanes) : std::nullopt;
  }
  return std::nullopt;
}

std::optional<int64_t> ThreadValues::eval(const IntExpr *V, const CallFrame *F, const Side &S,
                                          unsigned Depth) {
  if (!V || Depth > 32)
    return std::nullopt;
  ++Evaluations;
  if (!V->Dsl)
    return host(V, F, S, Depth);
  if (V->K == IntExpr::Convert)
    return normalize(deviceValue(V->Operands[0], F, S, Depth), V->Type);
  return deviceValue(V, F, S, Depth);
}

/// The value of a DSL expression's own node (its conversion aside).
std::optional<int64_t> ThreadValues::deviceValue(const IntExpr *V, const CallFrame *F,
                                                 const Side &S, unsigned Depth) {
  if (!V->Dsl)
    return host(V, F, S, Depth);
  switch (V->K) {
  case IntExpr::Builtin:
    return builtin(V, S);
  case IntExpr::Variable:
    return variable(V, F, S, Depth);
  case IntExpr::Call:
    return helperResult(V->CallSite, F, S, Depth);
  case IntExpr::Min:
  case IntExpr::Max: {
    auto A = eval(V->Operands[0], F, S, Depth + 1), B = eval(V->Operands[1], F, S, Depth + 1);
    if (!A || !B)
      return std::nullopt;
    return V->K == IntExpr::Min ? std::min(*A, *B) : std::max(*A, *B);
  }
  case IntExpr::Unary: {
    auto A = eval(V->Operands[0], F, S, Depth + 1);
    return A ? normalize(applyUnary(V->UnaryOp, *A), V->Type) : std::nullopt;
  }
  case IntExpr::Binary: {
    auto A = eval(V->Operands[0], F, S, Depth + 1);
    auto B = A ? eval(V->Operands[1], F, S, Depth + 1) : std::nullopt;
    if (!A || !B)
      return std::nullopt;
    // Negative DSL values are not shifted right (whether the backends
    // keep the sign is left unproven).
    if (V->BinaryOp == BO_Shr && *A < 0)
      return std::nullopt;
    return normalize(applyBinary(V->BinaryOp, *A, *B, /*Unsigned=*/false), V->Type);
  }
  default:
    return std::nullopt;
  }
}

/// The value of a helper, lambda or Callable whose body is `return X;`.
std::optional<int64_t> ThreadValues::helperResult(const CallExpr *Call, const CallFrame *F,
                                                  const Side &S, unsigned Depth) {
  if (isa<CXXMemberCallExpr>(Call))
    return std::nullopt;
  InlinedCall Target = inlinedCall(Call, Ctx.getSourceManager());
  const auto *Block = dyn_cast_or_null<CompoundStmt>(Target.Body);
  const auto *Return =
      Block && Block->size() == 1 ? dyn_cast<ReturnStmt>(Block->body_front()) : nullptr;
  if (!Return || !Return->getRetValue())
    return std::nullopt;
  CallFrame Local{F, Call, Target.Callee, Target.ArgOffset};
  return eval(M.Views->of(Return->getRetValue()), &Local, S, Depth + 1);
}

/// A host value: C++ on the loop iterations the side binds, else a variable
/// of the frame, else on the host locals that are constants of the kernel.
std::optional<int64_t> ThreadValues::host(const IntExpr *V, const CallFrame *F, const Side &S,
                                          unsigned Depth) {
  V = withoutImplicitConversions(V);
  if (!V)
    return std::nullopt;
  if (auto Value = evaluateHost(V, Ctx, S.Host))
    return Value;
  if (V->K == IntExpr::Variable)
    return variable(V, F, S, Depth);
  HostBindings Constants = constantLocals(V->Source, Ctx, Writes, *M.Views);
  if (Constants.empty())
    return std::nullopt;
  for (const auto &[Var, Value] : S.Host)
    Constants[Var] = Value;
  return evaluateHost(V, Ctx, Constants);
}

std::optional<int64_t> ThreadValues::variable(const IntExpr *V, const CallFrame *F, const Side &S,
                                              unsigned Depth) {
  const VarDecl *Var = V->Var;
  if (auto It = S.Loops.find(Var); It != S.Loops.end())
    return It->second;
  if (const auto *Parm = dyn_cast<ParmVarDecl>(Var)) {
    if (const CallFrame *Frame = frameOf(Parm, F)) {
      const Expr *Arg = argumentOf(Frame, Parm);
      return Arg ? eval(M.Views->of(Arg), Frame->Parent, S, Depth + 1) : std::nullopt;
    }
    // A kernel argument (or a host parameter): the same in every thread.
    return symbol(Var, S.Seed, 2);
  }
  bool Dsl = isDslValueType(Var->getType());
  if (!Writes.isWritten(Var)) {
    if (Var->getInit() && (Dsl || !Var->getType()->isReferenceType()))
      if (auto Value = eval(M.Views->of(Var->getInit()), F, S, Depth + 1))
        return Value;
    if (Dsl)
      return std::nullopt;
    return symbol(Var, S.Seed, 2); // A host value fixed while the kernel is built.
  }
  if (Dsl && Uniformity.varianceOf(V->Ref) > Variance::Block)
    return std::nullopt;
  // Uniform, but it may change between the two accesses.
  return symbol(Var, S.Seed, S.Which);
}

ThreadValues::Pass ThreadValues::guardsHold(unsigned Access, const Side &S) {
  for (const Node *N = M.AccessNodes[Access]; N; N = N->Parent)
    for (const Guard &G : N->Guards) {
      auto V = valueOf(G.Cond, G.Frame, S);
      if (!V) {
        if (Uniformity.varianceOf(G.Cond) <= Variance::Block)
          continue; // Some blocks take it; they are the ones that race.
        return Pass::Unknown;
      }
      if ((*V != 0) != G.Positive)
        return Pass::No;
    }
  return Pass::Yes;
}

std::optional<SharedRace> RaceWitnessSearch::witness(unsigned W, unsigned R, const Meeting &Meet) {
  std::optional<SharedRace> First;
  for (unsigned Seed = 0; Seed < 2; ++Seed) {
    auto Found = witnessWithSeed(W, R, Meet, Seed);
    if (!Found)
      return std::nullopt;
    if (!First)
      First = Found;
  }
  return First;
}

/// The values of every loop variable in \p Meet for both sides, as a list
/// of alternatives (at most MaxCombinations).
std::vector<std::pair<Side, Side>> RaceWitnessSearch::combinations(const Meeting &Meet,
                                                                   unsigned Seed) {
  std::vector<std::pair<Side, Side>> Out(1);
  Out[0].first.Seed = Out[0].second.Seed = Seed;
  Out[0].second.Which = 1;
  for (const LoopBinding &Binding : Meet.Loops) {
    const Node *Loop = Binding.Loop;
    Tie T = Binding.T;
    bool OnA = onPath(Loop, true), OnB = onPath(Loop, false);
    const VarDecl *Var = Loop->Var;
    if (!Var)
      continue;
    std::vector<std::pair<std::optional<int64_t>, std::optional<int64_t>>> Choices;
    if (!Loop->ValuesKnown) {
      bool Same = T == Tie::Same;
      Choices.push_back(
          {OnA ? std::optional(ThreadValues::symbol(Var, Seed, Same ? 2 : 0)) : std::nullopt,
           OnB ? std::optional(ThreadValues::symbol(Var, Seed, Same ? 2 : 1)) : std::nullopt});
    } else {
      const std::vector<int64_t> &V = Loop->Values;
      for (size_t I = 0; I < V.size(); ++I)
        for (size_t J = 0; J < V.size(); ++J) {
          bool Keep = false;
          switch (T) {
          case Tie::Same:
            Keep = I == J;
            break;
          case Tie::Free:
            Keep = inRange(Binding.A, I, V.size()) && inRange(Binding.B, J, V.size());
            break;
          case Tie::NextAB:
            Keep = J == I + 1;
            break;
          case Tie::NextBA:
            Keep = I == J + 1;
            break;
          case Tie::Distinct:
            Keep = I != J;
            break;
          }
          if (Keep && (OnA || I == 0) && (OnB || J == 0))
            Choices.push_back({OnA ? std::optional(V[I]) : std::nullopt,
                               OnB ? std::optional(V[J]) : std::nullopt});
        }
    }
    std::vector<std::pair<Side, Side>> Next;
    for (const auto &Base : Out)
      for (const auto &[VA, VB] : Choices) {
        if (Next.size() >= MaxCombinations)
          break;
        auto Pair = Base;
        if (VA)
          bind(Pair.first, Loop, *VA);
        if (VB)
          bind(Pair.second, Loop, *VB);
        Next.push_back(std::move(Pair));
      }
    Out = std::move(Next);
  }
  return Out;
}

bool RaceWitnessSearch::onPath(const Node *Loop, bool SideA) const {
  for (const Node *N = SideA ? CurrentA : CurrentB; N; N = N->Parent)
    if (N == Loop)
      return true;
  return false;
}

std::optional<SharedRace> RaceWitnessSearch::witnessWithSeed(unsigned W, unsigned R,
                                                             const Meeting &Meet, unsigned Seed) {
  CurrentA = M.AccessNodes[W];
  CurrentB = M.AccessNodes[R];
  std::optional<int64_t> Size = Ranges.sharedSizeOf(M.Accesses[W].Array);
  std::vector<std::array<int64_t, 3>> Threads;
  for (unsigned Z = 0; Z < M.Shape[2]; ++Z)
    for (unsigned Y = 0; Y < M.Shape[1]; ++Y)
      for (unsigned X = 0; X < M.Shape[0]; ++X)
        Threads.push_back({X, Y, Z});
  if (Threads.size() < 2 || Threads.size() > MaxThreads)
    return std::nullopt;
  auto Index = [&](unsigned Access, Side &S, const std::array<int64_t, 3> &T,
                   bool &Unknown) -> std::optional<int64_t> {
    S.Thread = T;
    ThreadValues::Pass P = Values.guardsHold(Access, S);
    if (P == ThreadValues::Pass::Unknown)
      Unknown = true;
    if (P != ThreadValues::Pass::Yes)
      return std::nullopt;
    auto V = Values.valueOf(M.Accesses[Access].Index, M.AccessFrames[Access], S);
    if (!V)
      Unknown = true;
    if (!V || *V < 0 || *V >= Size.value_or(int64_t(1) << 24))
      return std::nullopt;
    return V;
  };
  for (auto &[SideW, SideR] : combinations(Meet, Seed)) {
    if (exhausted())
      return std::nullopt;
    bool Unknown = false;
    std::unordered_map<int64_t, std::pair<size_t, size_t>> Readers; // first two threads
    for (size_t I = 0; I < Threads.size() && !Unknown; ++I)
      if (auto V = Index(R, SideR, Threads[I], Unknown)) {
        auto [It, New] = Readers.try_emplace(*V, I, SIZE_MAX);
        if (!New && It->second.second == SIZE_MAX)
          It->second.second = I;
      }
    if (Unknown)
      return std::nullopt;
    for (size_t I = 0; I < Threads.size(); ++I) {
      auto V = Index(W, SideW, Threads[I], Unknown);
      if (Unknown)
        return std::nullopt;
      if (!V)
        continue;
      auto It = Readers.find(*V);
      if (It == Readers.end())
        continue;
      size_t Reader = It->second.first != I ? It->second.first : It->second.second;
      if (Reader == SIZE_MAX)
        continue;
      SharedRace Race;
      Race.Write = &M.Accesses[W];
      Race.Read = &M.Accesses[R];
      Race.Sequence = Meet.Sequence;
      Race.AcrossLoop = Meet.AcrossLoop ? Meet.AcrossLoop->Statement : nullptr;
      for (unsigned Axis = 0; Axis < 3; ++Axis) {
        Race.Writer[Axis] = unsigned(Threads[I][Axis]);
        Race.Reader[Axis] = unsigned(Threads[Reader][Axis]);
      }
      Race.Element = *V;
      Race.Dimension = M.Dimension;
      return Race;
    }
  }
  return std::nullopt;
}

} // namespace kernel_tidy::dsl::shared_access_detail
