//===--- BarrierIntervals.cpp - Accesses two threads reach between barriers ===//

#include "src/dsl/BarrierIntervals.h"

#include "llvm/ADT/STLExtras.h"
#include <algorithm>

namespace kernel_tidy::dsl::shared_access_detail {

namespace {

/// True if some path through \p N passes no barrier, exit or opaque step.
bool passFree(Node *N) {
  if (N->PassFree >= 0)
    return N->PassFree;
  bool Free = false;
  switch (N->K) {
  case Node::Seq:
    Free = llvm::all_of(N->Children, passFree);
    break;
  case Node::Branch:
    Free = llvm::any_of(N->Children, passFree);
    break;
  case Node::Loop:
    Free = passFree(N->Children.front());
    break;
  case Node::Access:
    Free = true;
    break;
  case Node::Barrier:
  case Node::Exit:
  case Node::Opaque:
    Free = false;
    break;
  }
  N->PassFree = Free;
  return Free;
}

/// A barrier-free path from the entry of \p Top (an ancestor) to \p X, or
/// from \p X to the exit of \p Top.
bool freeWithin(const Node *X, const Node *Top, bool ToExit) {
  for (const Node *N = X; N != Top; N = N->Parent) {
    const Node *P = N->Parent;
    if (P->K != Node::Seq)
      continue;
    for (unsigned I = ToExit ? N->Slot + 1 : 0; I < (ToExit ? P->Children.size() : N->Slot); ++I)
      if (!passFree(P->Children[I]))
        return false;
  }
  return true;
}

/// \p N and its ancestors, the root first.
std::vector<Node *> pathTo(Node *N) {
  std::vector<Node *> Path;
  for (; N; N = N->Parent)
    Path.insert(Path.begin(), N);
  return Path;
}

/// How the barrier-free path of a meeting meets the loops around one access
/// only: A leaves them and B enters them, the reverse, both enter, or any.
enum class PathShape { AExitsBEnters, BExitsAEnters, BothEnter, Anywhere };

} // namespace

std::vector<Meeting> meetingsOf(shared_access_detail::KernelModel &M, unsigned A, unsigned B) {
  std::vector<Meeting> Found;
  Node *NA = M.AccessNodes[A], *NB = M.AccessNodes[B];
  std::vector<Node *> PA = pathTo(NA), PB = pathTo(NB);
  size_t Common = 0;
  while (Common < PA.size() && Common < PB.size() && PA[Common] == PB[Common])
    ++Common;
  // Loops above the meeting point keep both threads in one iteration when
  // every path through their body has a barrier.
  auto LoopsFor = [&](size_t Upto, const Node *Across, Tie AcrossTie, PathShape Shape) {
    auto RangeOf = [&](const Node *Loop, bool SideA) {
      if (Shape == PathShape::Anywhere || passFree(Loop->Children.front()))
        return Iterations::Any;
      bool Exits = SideA ? Shape == PathShape::AExitsBEnters : Shape == PathShape::BExitsAEnters;
      return Exits ? Iterations::Last : Iterations::First;
    };
    std::vector<LoopBinding> Loops;
    for (size_t K = 0; K < PA.size(); ++K) {
      if (PA[K]->K != Node::Loop)
        continue;
      LoopBinding Binding{PA[K], Tie::Free, RangeOf(PA[K], true), RangeOf(PA[K], false)};
      if (K < Common && PA[K] == Across)
        Binding.T = AcrossTie;
      else if (K < Common && K < Upto && !passFree(PA[K]->Children.front()))
        Binding.T = Tie::Same; // Every iteration has a barrier: in step.
      else if (K < Common && K < Upto)
        Binding.A = Binding.B = Iterations::Any;
      if (K >= Common)
        Binding.B = Iterations::Any; // Not around B: unbound there.
      Loops.push_back(Binding);
    }
    for (size_t K = Common; K < PB.size(); ++K)
      if (PB[K]->K == Node::Loop)
        Loops.push_back({PB[K], Tie::Free, Iterations::Any, RangeOf(PB[K], false)});
    return Loops;
  };
  if (A == B) {
    Found.push_back({SharedRace::SameStatement, nullptr,
                     LoopsFor(Common, nullptr, Tie::Free, PathShape::Anywhere)});
  } else if (Common > 0 && Common < PA.size() && Common < PB.size()) {
    Node *L = PA[Common - 1];
    Node *CA = PA[Common], *CB = PB[Common];
    if (L->K == Node::Seq) {
      bool AFirst = CA->Slot < CB->Slot;
      Node *First = AFirst ? CA : CB, *Second = AFirst ? CB : CA;
      bool Free =
          freeWithin(AFirst ? NA : NB, First, true) && freeWithin(AFirst ? NB : NA, Second, false);
      for (unsigned I = First->Slot + 1; Free && I < Second->Slot; ++I)
        Free = passFree(L->Children[I]);
      if (Free)
        Found.push_back({AFirst ? SharedRace::WriteThenRead : SharedRace::ReadThenWrite, nullptr,
                         LoopsFor(Common, nullptr, Tie::Free,
                                  AFirst ? PathShape::AExitsBEnters : PathShape::BExitsAEnters)});
    } else if (L->K == Node::Branch) {
      unsigned Lower = std::min(CA->Slot, CB->Slot);
      if (!L->ArmUniform[Lower] && freeWithin(NA, CA, false) && freeWithin(NB, CB, false))
        Found.push_back({SharedRace::OtherBranch, nullptr,
                         LoopsFor(Common, nullptr, Tie::Free, PathShape::BothEnter)});
    }
  }
  // Around the back edge of a loop that holds both: one thread late in an
  // iteration, the other early in the next.
  for (size_t I = std::min(Common, PA.size()); I-- > 0;) {
    Node *Loop = PA[I];
    if (Loop->K != Node::Loop || I + 1 >= PA.size())
      continue;
    Node *Body = Loop->Children.front();
    if (Loop->Host && A != B) {
      unsigned Instance = M.Accesses[A].Instance;
      bool Inside = false;
      for (const Node *N = M.InstanceDeclaredIn[Instance]; N; N = N->Parent)
        Inside |= N == Loop;
      if (Inside)
        continue; // A new array in every unrolled iteration.
    }
    if (passFree(Body)) {
      Found.push_back(
          {SharedRace::WriteThenRead, Loop, LoopsFor(I, Loop, Tie::Distinct, PathShape::Anywhere)});
      continue;
    }
    if (freeWithin(NA, Body, true) && freeWithin(NB, Body, false))
      Found.push_back({SharedRace::WriteThenRead, Loop,
                       LoopsFor(I, Loop, Tie::NextAB, PathShape::AExitsBEnters)});
    if (freeWithin(NB, Body, true) && freeWithin(NA, Body, false))
      Found.push_back({SharedRace::ReadThenWrite, Loop,
                       LoopsFor(I, Loop, Tie::NextBA, PathShape::BExitsAEnters)});
  }
  return Found;
}

} // namespace kernel_tidy::dsl::shared_access_detail
