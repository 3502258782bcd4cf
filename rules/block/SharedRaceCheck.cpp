//===--- SharedRaceCheck.cpp - luisa-shared-race --------------------------===//

#include "rules/block/SharedRaceCheck.h"

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

std::string threadName(const std::array<unsigned, 3> &Id, unsigned Dimension) {
  if (Dimension <= 1)
    return std::to_string(Id[0]);
  std::string Text = "(" + std::to_string(Id[0]) + ", " + std::to_string(Id[1]);
  if (Dimension == 3)
    Text += ", " + std::to_string(Id[2]);
  return Text + ")";
}

SourceLocation fileLocOf(const Stmt *S, const SourceManager &SM) {
  return SM.getFileLoc(S->getBeginLoc());
}

/// The finding for \p Race, reported at the access that comes second on the
/// barrier-free path, with notes at the other one and at the calls between.
Diagnosis raceDiagnosis(const SharedRace &Race, const SourceManager &SM) {
  auto At = [&](const Stmt *S) { return fileLocOf(S, SM); };
  bool AtWrite = Race.Sequence == SharedRace::ReadThenWrite ||
                 (Race.Sequence == SharedRace::OtherBranch &&
                  SM.isBeforeInTranslationUnit(At(Race.Read->Access), At(Race.Write->Access)));
  const SharedAccess &Here = AtWrite ? *Race.Write : *Race.Read;
  const SharedAccess &There = AtWrite ? *Race.Read : *Race.Write;
  std::string Writer = threadName(Race.Writer, Race.Dimension);
  std::string Reader = threadName(Race.Reader, Race.Dimension);
  std::string Where = Race.AcrossLoop                              ? " in an earlier iteration"
                      : Race.Sequence == SharedRace::SameStatement ? " in the same statement"
                      : Race.Sequence == SharedRace::OtherBranch   ? " in another branch"
                                                                   : "";
  Diagnosis D;
  D.Loc = At(Here.Access);
  D.Format = "race on shared array '%0': thread %1 %2 element %3 here while thread %4 %5 "
             "it%6, with no sync_block() in between";
  D.Args = {Here.Array->getNameAsString(),
            AtWrite ? Writer : Reader,
            AtWrite ? "writes" : "reads",
            std::to_string(Race.Element),
            AtWrite ? Reader : Writer,
            AtWrite ? "reads" : "writes",
            Where};
  D.Safety = FixSafety::none();
  for (const CallExpr *Call : Here.Calls)
    D.Notes.emplace_back(At(Call), std::string(AtWrite ? "the write" : "the read") + " runs in '" +
                                       calleeName(Call) + "', called here");
  D.Notes.emplace_back(
      At(There.Access),
      std::string(AtWrite ? "the read by thread " + Reader : "the write by thread " + Writer) +
          (AtWrite ? "" : (Race.Write->Reads ? " (a read-modify-write)" : "")));
  for (const CallExpr *Call : There.Calls)
    D.Notes.emplace_back(At(Call), std::string(AtWrite ? "the read" : "the write") + " runs in '" +
                                       calleeName(Call) + "', called here");
  if (Race.AcrossLoop)
    D.Notes.emplace_back(At(Race.AcrossLoop),
                         "the path from one to the other goes around this loop without a "
                         "sync_block()");
  return D;
}

} // namespace

void SharedRaceCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(lambdaExpr(isKernelLambda()).bind("kernel"), this);
}

void SharedRaceCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  const auto *Kernel = Result.Nodes.getNodeAs<LambdaExpr>("kernel");
  // A template's pattern is checked in its instantiations.
  if (Kernel->getCallOperator()->isDependentContext())
    return;
  for (const SharedRace &Race : analyses(Ctx).SharedAccesses.racesIn(Kernel))
    emit(Result, raceDiagnosis(Race, Ctx.getSourceManager()));
}

} // namespace kernel_tidy::rules
