//===--- DivergentBarrierCheck.cpp - luisa-divergent-barrier --------------===//

#include "rules/block/DivergentBarrierCheck.h"

#include "rules/FixEdits.h"
#include "src/dsl/Ast.h"
#include "src/dsl/Matchers.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace kernel_tidy::dsl;
using namespace kernel_tidy::dsl::matchers;

namespace kernel_tidy::rules {

namespace {

/// `'tid' holds 'thread_x()', which differs between threads` and the like.
std::string describeSource(const VaryingSource &Source, Variance LeafVariance, ASTContext &Ctx) {
  std::string Text = sourceText(Source.Leaf->getSourceRange(), Ctx);
  std::string Value = Text.empty() || Text.size() > 60 ? "this value" : "'" + Text + "'";
  std::string What = Source.K == VaryingSource::Atomic ? "returns each thread a different old value"
                     : LeafVariance == Variance::Warp  ? "differs between warps"
                                                       : "differs between threads";
  if (Source.Through)
    return "'" + Source.Through->getNameAsString() + "' holds a value computed from " + Value +
           ", which " + What;
  return Value + " " + What;
}

StringRef exitName(const CallExpr *Exit) {
  switch (matchDslExit(Exit).value_or(DslExit::Return)) {
  case DslExit::Return:
    return "$return";
  case DslExit::Break:
    return "$break";
  case DslExit::Continue:
    return "$continue";
  }
  return "$return";
}

/// Notes on the path from the witness \p W to the barrier: the calls that
/// lead to it, the exit, the \p Condition's variance and where it comes from.
void addWitnessNotes(Diagnosis &D, const DivergenceWitness &W, const std::string &Condition,
                     UniformityAnalysis &U, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  auto At = [&](const Stmt *S) { return SM.getFileLoc(S->getBeginLoc()); };
  for (const CallExpr *Call : W.Calls)
    D.Notes.emplace_back(At(Call), "the barrier runs in '" + calleeName(Call) + "', called here");
  if (W.Exit)
    D.Notes.emplace_back(At(W.Exit), "threads that take this " + exitName(W.Exit).str() +
                                         " do not reach the barrier");
  D.Notes.emplace_back(
      At(W.Condition),
      "this " + std::string(W.ControlKind == DslControl::For ? "trip count" : "condition") +
          " is " + Condition);
  D.Notes.emplace_back(At(W.Source.Leaf),
                       describeSource(W.Source, U.varianceOf(W.Source.Leaf), Ctx));
}

} // namespace

void DivergentBarrierCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(callExpr(syncBlock()).bind("barrier"), this);
}

void DivergentBarrierCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  const auto *Barrier = Result.Nodes.getNodeAs<CallExpr>("barrier");
  dsl::Analyses &A = analyses(Ctx);
  std::optional<DivergenceWitness> W = A.Divergence.witnessFor(Barrier);
  if (!W)
    return;
  std::string Condition = varianceName(A.Uniformity.varianceOf(W->Condition)).str();
  bool IsLoop = W->ControlKind == DslControl::While || W->ControlKind == DslControl::Loop ||
                W->ControlKind == DslControl::For;
  Diagnosis D;
  D.Loc = Ctx.getSourceManager().getFileLoc(Barrier->getBeginLoc());
  D.Format = "not every thread of the block reaches this sync_block(): %0";
  D.Args = {W->Exit ? "threads that take a " + exitName(W->Exit).str() + " under a " + Condition +
                          " condition skip it"
            : IsLoop ? "it runs in a loop whose trip count is " + Condition
                     : "it runs under a " + Condition + " condition"};
  D.Safety = FixSafety::none();
  addWitnessNotes(D, *W, Condition, A.Uniformity, Ctx);
  emit(Result, std::move(D));
}

} // namespace kernel_tidy::rules
