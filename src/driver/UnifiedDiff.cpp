//===--- UnifiedDiff.cpp - Line diffs as GNU `diff -u` prints them --------===//

#include "src/driver/UnifiedDiff.h"

#include "llvm/ADT/StringMap.h"
#include <algorithm>
#include <climits>
#include <map>

namespace kernel_tidy {
namespace {

using Offset = long;

/// Myers' search for the middle of a shortest edit script between X and Y
/// (lines as numbers), GNU diffseq.h's diag() and compareseq() in the
/// order they explore diagonals, so that equal-cost scripts come out alike.
class Myers {
public:
  Myers(const std::vector<int> &X, const std::vector<int> &Y, LineChanges &Out)
      : X(X), Y(Y), Out(Out), Forward(X.size() + Y.size() + 3), Backward(X.size() + Y.size() + 3) {
    // GNU diff gives up on a minimal script past about the square root of
    // the input size (at least 4096 steps) and splits at its best guess.
    TooExpensive = 1;
    for (size_t D = X.size() + Y.size() + 3; D != 0; D >>= 2)
      TooExpensive <<= 1;
    TooExpensive = std::max<Offset>(4096, TooExpensive);
  }

  void compare(Offset XOff, Offset XLim, Offset YOff, Offset YLim, bool Minimal) {
    while (XOff < XLim && YOff < YLim && X[XOff] == Y[YOff])
      ++XOff, ++YOff;
    while (XOff < XLim && YOff < YLim && X[XLim - 1] == Y[YLim - 1])
      --XLim, --YLim;
    if (XOff == XLim) {
      for (; YOff < YLim; ++YOff)
        Out.Inserted[YOff] = true;
    } else if (YOff == YLim) {
      for (; XOff < XLim; ++XOff)
        Out.Deleted[XOff] = true;
    } else {
      Partition P = middle(XOff, XLim, YOff, YLim, Minimal);
      compare(XOff, P.XMid, YOff, P.YMid, P.LoMinimal);
      compare(P.XMid, XLim, P.YMid, YLim, P.HiMinimal);
    }
  }

private:
  struct Partition {
    Offset XMid, YMid;
    bool LoMinimal, HiMinimal;
  };

  Offset &fd(Offset D) { return Forward[D + Bias()]; }
  Offset &bd(Offset D) { return Backward[D + Bias()]; }
  Offset Bias() const { return static_cast<Offset>(Y.size()) + 1; }

  Partition middle(Offset XOff, Offset XLim, Offset YOff, Offset YLim, bool Minimal) {
    const Offset DMin = XOff - YLim, DMax = XLim - YOff;
    const Offset FMid = XOff - YOff, BMid = XLim - YLim;
    Offset FMin = FMid, FMax = FMid, BMin = BMid, BMax = BMid;
    const bool Odd = (FMid - BMid) & 1;
    fd(FMid) = XOff;
    bd(BMid) = XLim;
    for (Offset Cost = 1;; ++Cost) {
      if (FMin > DMin)
        fd(--FMin - 1) = -1;
      else
        ++FMin;
      if (FMax < DMax)
        fd(++FMax + 1) = -1;
      else
        --FMax;
      for (Offset D = FMax; D >= FMin; D -= 2) {
        Offset Lo = fd(D - 1), Hi = fd(D + 1);
        Offset X0 = Lo < Hi ? Hi : Lo + 1, XI = X0, YI = X0 - D;
        while (XI < XLim && YI < YLim && X[XI] == Y[YI])
          ++XI, ++YI;
        fd(D) = XI;
        if (Odd && BMin <= D && D <= BMax && bd(D) <= XI)
          return {XI, YI, true, true};
      }
      if (BMin > DMin)
        bd(--BMin - 1) = LONG_MAX;
      else
        ++BMin;
      if (BMax < DMax)
        bd(++BMax + 1) = LONG_MAX;
      else
        --BMax;
      for (Offset D = BMax; D >= BMin; D -= 2) {
        Offset Lo = bd(D - 1), Hi = bd(D + 1);
        Offset X0 = Lo < Hi ? Lo : Hi - 1, XI = X0, YI = X0 - D;
        while (XOff < XI && YOff < YI && X[XI - 1] == Y[YI - 1])
          --XI, --YI;
        bd(D) = XI;
        if (!Odd && FMin <= D && D <= FMax && XI <= fd(D))
          return {XI, YI, true, true};
      }
      if (Minimal || Cost < TooExpensive)
        continue;
      // Past the budget: the furthest point reached from either end.
      Offset FBestSum = -1, FBestX = 0;
      for (Offset D = FMax; D >= FMin; D -= 2) {
        Offset XI = std::min(fd(D), XLim), YI = XI - D;
        if (YLim < YI)
          XI = YLim + D, YI = YLim;
        if (FBestSum < XI + YI)
          FBestSum = XI + YI, FBestX = XI;
      }
      Offset BBestSum = LONG_MAX, BBestX = 0;
      for (Offset D = BMax; D >= BMin; D -= 2) {
        Offset XI = std::max(XOff, bd(D)), YI = XI - D;
        if (YI < YOff)
          XI = YOff + D, YI = YOff;
        if (XI + YI < BBestSum)
          BBestSum = XI + YI, BBestX = XI;
      }
      if ((XLim + YLim) - BBestSum < FBestSum - (XOff + YOff))
        return {FBestX, FBestSum - FBestX, true, false};
      return {BBestX, BBestSum - BBestX, false, true};
    }
  }

  const std::vector<int> &X, &Y;
  LineChanges &Out;
  std::vector<Offset> Forward, Backward;
  Offset TooExpensive;
};

/// GNU analyze.c's shift_boundaries on one side: each run of changed lines
/// of \p Lines slides back over identical lines to merge with the runs
/// before it, then forward as far as it can, then back to where it lines up
/// with a run of changes in the other text (\p Other).
void shiftBoundaries(const std::vector<int> &Lines, std::vector<bool> &ChangedVec,
                     const std::vector<bool> &OtherVec) {
  // With a false sentinel before and after each, as GNU diff allocates them.
  Offset End = static_cast<Offset>(Lines.size());
  std::vector<char> ChangedStore(Lines.size() + 2), OtherStore(OtherVec.size() + 2);
  for (size_t I = 0; I < Lines.size(); ++I)
    ChangedStore[I + 1] = ChangedVec[I];
  for (size_t I = 0; I < OtherVec.size(); ++I)
    OtherStore[I + 1] = OtherVec[I];
  char *Changed = ChangedStore.data() + 1, *Other = OtherStore.data() + 1;
  Offset I = 0, J = 0;
  for (;;) {
    while (I < End && !Changed[I]) {
      while (Other[J++])
        ;
      ++I;
    }
    if (I == End)
      break;
    Offset Start = I;
    while (Changed[++I])
      ;
    while (Other[J])
      ++J;
    Offset RunLength, Corresponding;
    do {
      RunLength = I - Start;
      while (Start && Lines[Start - 1] == Lines[I - 1]) {
        Changed[--Start] = 1;
        Changed[--I] = 0;
        while (Changed[Start - 1])
          --Start;
        while (Other[--J])
          ;
      }
      Corresponding = Other[J - 1] ? I : End;
      while (I != End && Lines[Start] == Lines[I]) {
        Changed[Start++] = 0;
        Changed[I++] = 1;
        while (Changed[I])
          ++I;
        while (Other[++J])
          Corresponding = I;
      }
    } while (RunLength != I - Start);
    while (Corresponding < I) {
      Changed[--Start] = 1;
      Changed[--I] = 0;
      while (Other[--J])
        ;
    }
  }
  for (size_t K = 0; K < Lines.size(); ++K)
    ChangedVec[K] = Changed[K];
}

/// The lines the comparison keeps, and where each is in its text.
struct Undiscarded {
  std::vector<int> X, Y;
  std::vector<size_t> XIndex, YIndex;
};

/// GNU analyze.c's discard_confusing_lines: a line that no line of the
/// other text equals is changed, and so, inside runs of such lines, is one
/// that many lines equal; the comparison runs on the rest.
Undiscarded discardConfusingLines(const std::vector<int> &X, const std::vector<int> &Y,
                                  LineChanges &Changes) {
  const std::vector<int> *Text[2] = {&X, &Y};
  std::vector<bool> *Changed[2] = {&Changes.Deleted, &Changes.Inserted};
  std::map<int, size_t> Count[2];
  for (int F = 0; F < 2; ++F)
    for (int Id : *Text[F])
      ++Count[F][Id];
  std::vector<char> Discards[2];
  for (int F = 0; F < 2; ++F) {
    const std::vector<int> &Lines = *Text[F];
    size_t Many = 5;
    for (size_t Tem = Lines.size() / 64; (Tem >>= 2) > 0;)
      Many *= 2;
    Discards[F].resize(Lines.size());
    for (size_t I = 0; I < Lines.size(); ++I) {
      auto It = Count[1 - F].find(Lines[I]);
      size_t Matches = It == Count[1 - F].end() ? 0 : It->second;
      Discards[F][I] = Matches == 0 ? 1 : Matches > Many ? 2 : 0;
    }
  }
  for (int F = 0; F < 2; ++F) {
    std::vector<char> &D = Discards[F];
    Offset End = static_cast<Offset>(D.size());
    for (Offset I = 0; I < End; ++I) {
      if (D[I] == 2) {
        D[I] = 0;
        continue;
      }
      if (D[I] == 0)
        continue;
      Offset J = I, Provisional = 0;
      for (; J < End && D[J] != 0; ++J)
        Provisional += D[J] == 2;
      while (J > I && D[J - 1] == 2)
        D[--J] = 0, --Provisional;
      Offset Length = J - I;
      if (Provisional * 4 > Length) {
        while (J > I)
          if (D[--J] == 2)
            D[J] = 0;
        continue;
      }
      Offset Minimum = 1;
      for (Offset Tem = Length >> 2; 0 < (Tem >>= 2);)
        Minimum <<= 1;
      ++Minimum;
      Offset Consec = 0;
      for (J = 0; J < Length; ++J) {
        if (D[I + J] != 2)
          Consec = 0;
        else if (Minimum == ++Consec)
          J -= Consec;
        else if (Minimum < Consec)
          D[I + J] = 0;
      }
      Consec = 0;
      for (J = 0; J < Length; ++J) {
        if (J >= 8 && D[I + J] == 1)
          break;
        if (D[I + J] == 2)
          Consec = 0, D[I + J] = 0;
        else if (D[I + J] == 0)
          Consec = 0;
        else
          ++Consec;
        if (Consec == 3)
          break;
      }
      I += Length - 1;
      Consec = 0;
      for (J = 0; J < Length; ++J) {
        if (J >= 8 && D[I - J] == 1)
          break;
        if (D[I - J] == 2)
          Consec = 0, D[I - J] = 0;
        else if (D[I - J] == 0)
          Consec = 0;
        else
          ++Consec;
        if (Consec == 3)
          break;
      }
    }
  }
  Undiscarded Kept;
  std::vector<int> *KeptLines[2] = {&Kept.X, &Kept.Y};
  std::vector<size_t> *KeptIndex[2] = {&Kept.XIndex, &Kept.YIndex};
  for (int F = 0; F < 2; ++F)
    for (size_t I = 0; I < Text[F]->size(); ++I) {
      if (Discards[F][I]) {
        (*Changed[F])[I] = true;
        continue;
      }
      KeptLines[F]->push_back((*Text[F])[I]);
      KeptIndex[F]->push_back(I);
    }
  return Kept;
}

std::vector<llvm::StringRef> splitLines(llvm::StringRef Text) {
  std::vector<llvm::StringRef> Lines;
  while (!Text.empty()) {
    size_t End = Text.find('\n');
    if (End == llvm::StringRef::npos) {
      Lines.push_back(Text);
      break;
    }
    Lines.push_back(Text.substr(0, End + 1));
    Text = Text.substr(End + 1);
  }
  return Lines;
}

/// One line of a diff: ' ', '-' or '+', the line, and the numbers of the
/// lines before it in each text.
struct DiffLine {
  char Kind;
  llvm::StringRef Text;
  size_t OldLine, NewLine;
};

/// "START,COUNT" as GNU diff writes a unified range: the line before an
/// empty range, no count for one line.
std::string range(size_t Before, size_t Count) {
  if (Count == 0)
    return std::to_string(Before) + ",0";
  if (Count == 1)
    return std::to_string(Before + 1);
  return std::to_string(Before + 1) + "," + std::to_string(Count);
}

} // namespace

LineChanges diffLines(const std::vector<llvm::StringRef> &Old,
                      const std::vector<llvm::StringRef> &New) {
  // Lines as numbers from 1: equal lines, equal numbers.
  llvm::StringMap<int> Ids;
  std::vector<int> X, Y;
  for (llvm::StringRef Line : Old)
    X.push_back(Ids.try_emplace(Line, Ids.size() + 1).first->second);
  for (llvm::StringRef Line : New)
    Y.push_back(Ids.try_emplace(Line, Ids.size() + 1).first->second);
  LineChanges Changes{std::vector<bool>(X.size()), std::vector<bool>(Y.size())};

  // As GNU io.c's find_identical_ends: the identical first and last lines
  // are left out of the comparison, but for 3 lines (its horizon) next to
  // the changes, which changes may slide into.
  const size_t Horizon = 3;
  size_t Prefix = 0;
  while (Prefix < X.size() && Prefix < Y.size() && X[Prefix] == Y[Prefix])
    ++Prefix;
  size_t Begin = Prefix > Horizon ? Prefix - Horizon : 0;
  size_t Suffix = 0, MaxSuffix = std::min(X.size(), Y.size()) - Begin;
  while (Suffix < MaxSuffix && X[X.size() - 1 - Suffix] == Y[Y.size() - 1 - Suffix])
    ++Suffix;
  size_t Kept = std::min(Suffix, Horizon);
  std::vector<int> MidX(X.begin() + Begin, X.end() - (Suffix - Kept));
  std::vector<int> MidY(Y.begin() + Begin, Y.end() - (Suffix - Kept));

  LineChanges Mid{std::vector<bool>(MidX.size()), std::vector<bool>(MidY.size())};
  Undiscarded Kept2 = discardConfusingLines(MidX, MidY, Mid);
  LineChanges Compared{std::vector<bool>(Kept2.X.size()), std::vector<bool>(Kept2.Y.size())};
  Myers(Kept2.X, Kept2.Y, Compared)
      .compare(0, Kept2.X.size(), 0, Kept2.Y.size(),
               /*Minimal=*/false);
  for (size_t I = 0; I < Compared.Deleted.size(); ++I)
    if (Compared.Deleted[I])
      Mid.Deleted[Kept2.XIndex[I]] = true;
  for (size_t I = 0; I < Compared.Inserted.size(); ++I)
    if (Compared.Inserted[I])
      Mid.Inserted[Kept2.YIndex[I]] = true;
  // In GNU diff's order: the old text's runs first.
  shiftBoundaries(MidX, Mid.Deleted, Mid.Inserted);
  shiftBoundaries(MidY, Mid.Inserted, Mid.Deleted);
  for (size_t I = 0; I < MidX.size(); ++I)
    Changes.Deleted[Begin + I] = Mid.Deleted[I];
  for (size_t I = 0; I < MidY.size(); ++I)
    Changes.Inserted[Begin + I] = Mid.Inserted[I];
  return Changes;
}

std::string unifiedDiff(const std::string &Path, const std::string &Before,
                        const std::string &After) {
  if (Before == After)
    return "";
  auto A = splitLines(Before), B = splitLines(After);
  LineChanges Changes = diffLines(A, B);
  std::vector<DiffLine> Lines;
  for (size_t I = 0, J = 0; I < A.size() || J < B.size();) {
    if (I < A.size() && Changes.Deleted[I])
      Lines.push_back({'-', A[I], I, J}), ++I;
    else if (J < B.size() && Changes.Inserted[J])
      Lines.push_back({'+', B[J], I, J}), ++J;
    else
      Lines.push_back({' ', A[I], I, J}), ++I, ++J;
  }
  const size_t Context = 3;
  std::string Out = "--- " + Path + "\n+++ " + Path + "\n";
  size_t I = 0;
  while (I < Lines.size()) {
    if (Lines[I].Kind == ' ') {
      ++I;
      continue;
    }
    // A hunk: Context lines before this change to Context lines after the
    // last change that is at most 2 * Context unchanged lines away.
    size_t Begin = I >= Context ? I - Context : 0;
    size_t End = I;
    for (size_t Gap = 0; End < Lines.size(); ++End) {
      Gap = Lines[End].Kind == ' ' ? Gap + 1 : 0;
      if (Gap > 2 * Context)
        break;
    }
    while (End > I && Lines[End - 1].Kind == ' ')
      --End;
    End = std::min(Lines.size(), End + Context);
    size_t OldCount = 0, NewCount = 0;
    for (size_t K = Begin; K < End; ++K) {
      OldCount += Lines[K].Kind != '+';
      NewCount += Lines[K].Kind != '-';
    }
    Out += "@@ -" + range(Lines[Begin].OldLine, OldCount) + " +" +
           range(Lines[Begin].NewLine, NewCount) + " @@\n";
    for (size_t K = Begin; K < End; ++K) {
      Out += Lines[K].Kind;
      Out += Lines[K].Text.str();
      if (!Lines[K].Text.ends_with("\n"))
        Out += "\n\\ No newline at end of file\n";
    }
    I = End;
  }
  return Out;
}

} // namespace kernel_tidy
