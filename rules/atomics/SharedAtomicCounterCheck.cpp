//===--- SharedAtomicCounterCheck.cpp - luisa-shared-atomic-counter -------===//

#include "rules/atomics/SharedAtomicCounterCheck.h"

#include "rules/atomics/AtomicRewrite.h"
#include "rules/FixEdits.h"
#include "src/dsl/Matchers.h"
#include "src/dsl/Naming.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Transformer/Stencil.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace kernel_tidy::dsl;
using namespace kernel_tidy::dsl::matchers;

namespace kernel_tidy::rules {

void SharedAtomicCounterCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      cxxMemberCallExpr(atomicFetch({"fetch_add", "fetch_sub", "fetch_min", "fetch_max",
                                     "fetch_and", "fetch_or", "fetch_xor"},
                                    "fetch", "atomic"),
                        hasArgument(0, expr().bind("operand")),
                        // A used old value is a slot allocation: luisa-warp-aggregated-atomic.
                        anyOf(isDiscardedResult(), isUnbracedBody())),
      this);
}

void SharedAtomicCounterCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  const auto *Fetch = Result.Nodes.getNodeAs<CXXMemberCallExpr>("fetch");
  const auto *Atomic = Result.Nodes.getNodeAs<CXXMemberCallExpr>("atomic");
  if (plan(Ctx).ownerOf(Fetch, Atomic).Owner != AtomicOwner::SharedCounter)
    return;
  QualType Element = dslValueType(Fetch->getType());
  StringRef Method = Fetch->getMethodDecl()->getName();
  CombineOp Op = reductionOf(Method);
  std::string Collective = collectiveName(Op);
  Diagnosis D;
  D.Loc = Ctx.getSourceManager().getExpansionLoc(Fetch->getBeginLoc());
  D.Args = {Method.str(), atomicObjectName(Atomic->getImplicitObjectArgument()), Collective};
  D.Kind = rewriteOf(Op, Element, Ctx);
  D.Format = "every thread does a shared atomic %0 on the same slot of '%1'; reduce "
             "with %2 first and let one lane per warp do the atomic";
  // The rewrite spells the guard with `$if`, which needs the DSL sugar.
  warpReducedAtomicFix(D, Fetch, Result.Nodes.getNodeAs<Expr>("operand"), Op, hasDslSugar(),
                       analyses(Ctx), target(), Ctx);
  emit(Result, std::move(D));
}

} // namespace kernel_tidy::rules
