//===--- DslAstTest.cpp - Ast, Statements and Writes on DSL snippets -------===//

#include "src/dsl/Ast.h"
#include "src/dsl/ControlFlow.h"
#include "src/dsl/Statements.h"
#include "src/dsl/Writes.h"
#include "test/unit/DslSnippet.h"
#include <gtest/gtest.h>
#include <map>

namespace kernel_tidy::test {
namespace {

/// The variable that the probe's argument names.
const VarDecl *probedVariable(Snippet &S, unsigned Index) {
  return dsl::variableOf(S.probe(Index));
}

TEST(DslAst, LambdaRolesCalleeNamesAndDiscardedResults) {
  Snippet S(R"(
    Callable twice = [](UInt x) noexcept { return x * 2u; };
    probe(twice(n));
    auto slot = buffer.atomic(0u).fetch_add(1u);
    buffer.atomic(1u).fetch_add(slot);
    probe(slot);
  )");
  ASSERT_TRUE(S.parsed());
  ASTContext &Ctx = S.context();
  const auto *Call = dyn_cast<CallExpr>(S.probe(0)->IgnoreImplicit());
  ASSERT_NE(nullptr, Call);
  EXPECT_EQ("twice", dsl::calleeName(Call));
  const LambdaExpr *Kernel = dsl::enclosingKernel(S.probeStatement(0), Ctx);
  ASSERT_NE(nullptr, Kernel);
  EXPECT_EQ(dsl::LambdaRole::Kernel, dsl::lambdaRole(Kernel, Ctx));
  auto Fetches =
      match(findAll(cxxMemberCallExpr(callee(cxxMethodDecl(hasName("fetch_add")))).bind("f")), Ctx);
  std::vector<bool> Discarded;
  for (const auto &Node : Fetches)
    Discarded.push_back(dsl::isDiscardedResult(Node.getNodeAs<Expr>("f"), Ctx));
  std::sort(Discarded.begin(), Discarded.end());
  Discarded.erase(std::unique(Discarded.begin(), Discarded.end()), Discarded.end());
  EXPECT_EQ((std::vector<bool>{false, true}), Discarded); // `auto slot = ...` and a statement.
  // What ran before the second probe, innermost block first, in source order.
  std::vector<const Stmt *> Before = dsl::statementsBefore(S.probeStatement(1), Ctx);
  ASSERT_GE(Before.size(), 4u);
  EXPECT_TRUE(isa<DeclStmt>(Before[0])); // `Callable twice = ...`
}

TEST(DslAst, UnbracedBodiesAndTheirOwners) {
  Snippet S(R"(
    for (auto i = 0u; i < 2u; i++)
      buffer.atomic(0u).fetch_add(1u);
    if (true)
      (void)buffer.atomic(1u).fetch_add(1u);
    else
      ((buffer.atomic(2u).fetch_add(1u)));
    while (false) { buffer.atomic(3u).fetch_add(1u); }
    do buffer.atomic(4u).fetch_add(1u); while (false);
    for (auto i = 0u; i < 2u; i++)
      auto slot = buffer.atomic(5u).fetch_add(1u);
    buffer.atomic(6u).fetch_add(1u);
  )");
  ASSERT_TRUE(S.parsed());
  ASTContext &Ctx = S.context();
  // The owner of each atomic, by the slot it names.
  std::map<unsigned, std::string> Owners;
  for (const auto &Node :
       match(findAll(cxxMemberCallExpr(callee(cxxMethodDecl(hasName("fetch_add"))),
                                       on(cxxMemberCallExpr(hasArgument(
                                           0, ignoringImplicit(integerLiteral().bind("slot"))))))
                         .bind("f")),
             Ctx)) {
    const Stmt *Owner = dsl::unbracedBodyOwner(Node.getNodeAs<Expr>("f"), Ctx);
    Owners[Node.getNodeAs<IntegerLiteral>("slot")->getValue().getZExtValue()] =
        Owner ? Owner->getStmtClassName() : "";
  }
  // A void cast is a use; braces, a declaration and a block are not bodies.
  EXPECT_EQ((std::map<unsigned, std::string>{
                {0, "ForStmt"}, {1, ""}, {2, "IfStmt"}, {3, ""}, {4, "DoStmt"}, {5, ""}, {6, ""}}),
            Owners);
}

TEST(DslAst, AtomicPathsThroughElementsMembersAndKeptReferences) {
  Snippet S(R"(
    probe((*matrices)->atomic(n)[1].x);
    auto kept = (*matrices)->atomic(0u);
    auto kept_element = kept[n + 1u];
    probe(kept_element.y);
    probe(buffer.atomic(n));
    Var<float2x2> m;
    probe(m[1].x);
  )",
            "luisa::compute::Buffer<luisa::float2x2> *matrices;\n");
  ASSERT_TRUE(S.parsed());
  auto AtomicIndex = [](const Expr *Root) -> std::string {
    const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(Root);
    if (!Call || Call->getMethodDecl()->getName() != "atomic")
      return "not an atomic";
    const auto *Literal = dyn_cast<IntegerLiteral>(Call->getArg(0)->IgnoreImplicit());
    return Literal ? std::to_string(Literal->getValue().getZExtValue()) : "n";
  };
  dsl::AtomicPath Element = dsl::atomicPathOf(S.probe(0));
  EXPECT_EQ("n", AtomicIndex(Element.Root));
  ASSERT_EQ(1u, Element.Subscripts.size());
  EXPECT_TRUE(isa<IntegerLiteral>(Element.Subscripts[0]->IgnoreImplicit()));
  // Through two variables to the atomic of the first.
  dsl::AtomicPath Kept = dsl::atomicPathOf(S.probe(1));
  EXPECT_EQ("0", AtomicIndex(Kept.Root));
  ASSERT_EQ(1u, Kept.Subscripts.size());
  EXPECT_TRUE(isa<BinaryOperator>(Kept.Subscripts[0]->IgnoreImplicit()) ||
              isa<CXXOperatorCallExpr>(Kept.Subscripts[0]->IgnoreImplicit()));
  dsl::AtomicPath Bare = dsl::atomicPathOf(S.probe(2));
  EXPECT_EQ("n", AtomicIndex(Bare.Root));
  EXPECT_TRUE(Bare.Subscripts.empty());
  // A DSL variable is not an atomic reference: the path stops at it.
  EXPECT_TRUE(isa<DeclRefExpr>(dsl::atomicPathOf(S.probe(3)).Root));
}

TEST(DslStatements, DeviceLoopsAndAccumulateSteps) {
  Snippet S(R"(
    UInt sum = 0u;
    $for (i, n) {
      sum += i;
      probe(i);
    };
    for (auto j : dynamic_range(n)) { probe(j); }
    for (auto k = 0u; k < 4u; k++) { probe(k); }
  )");
  ASSERT_TRUE(S.parsed());
  ASTContext &Ctx = S.context();
  const CXXForRangeStmt *DollarFor = dsl::deviceLoopOf(probedVariable(S, 0), Ctx);
  ASSERT_NE(nullptr, DollarFor);
  EXPECT_EQ(1u, dsl::deviceRangeArguments(DollarFor)->size());
  EXPECT_NE(nullptr, dsl::deviceLoopOf(probedVariable(S, 1), Ctx));
  EXPECT_EQ(nullptr, dsl::deviceLoopOf(probedVariable(S, 2), Ctx)); // A host loop.
  // `sum += i` in the $for body is one accumulation step.
  auto Accumulate =
      match(findAll(cxxOperatorCallExpr(hasOverloadedOperatorName("+=")).bind("s")), Ctx);
  ASSERT_FALSE(Accumulate.empty());
  auto Matched = dsl::matchAccumulateStep(Accumulate[0].getNodeAs<Stmt>("s"));
  ASSERT_TRUE(Matched);
  EXPECT_EQ(dsl::CombineOp::Sum, Matched->Op);
}

TEST(DslWrites, WritesWithTheirValuesAndKinds) {
  Snippet S(R"(
    UInt a = n;
    UInt b = 1u;
    UInt c = 2u;
    a = b + 1u;
    b += 3u;
    probe(a);
    probe(b);
    probe(c);
  )");
  ASSERT_TRUE(S.parsed());
  dsl::WriteAnalysis Writes(S.context());
  const auto &OfA = Writes.writesOf(probedVariable(S, 0));
  ASSERT_EQ(1u, OfA.size());
  EXPECT_NE(nullptr, OfA[0].Value);
  EXPECT_FALSE(OfA[0].KeepsOldValue);
  const auto &OfB = Writes.writesOf(probedVariable(S, 1));
  ASSERT_EQ(1u, OfB.size());
  EXPECT_TRUE(OfB[0].KeepsOldValue);
  EXPECT_FALSE(Writes.isWritten(probedVariable(S, 2)));
}

TEST(DslControlFlow, ControlsBetweenAreTheInnerOnesOnly) {
  Snippet S(R"(
    $if (n > 0u) {
      $for (i, n) {
        $if (i > 1u) { probe(0u); };
      };
      probe(1u);
    };
  )");
  ASSERT_TRUE(S.parsed());
  dsl::ControlFlowAnalysis Flow(S.context());
  std::vector<dsl::DslControl> Between =
      Flow.controlsBetween(S.probeStatement(0), S.probeStatement(1));
  ASSERT_EQ(2u, Between.size());
  EXPECT_EQ(dsl::DslControl::If, Between[0].K);
  EXPECT_EQ(dsl::DslControl::For, Between[1].K);
  EXPECT_TRUE(Flow.controlsBetween(S.probeStatement(1), S.probeStatement(0)).empty());
}

TEST(DslAst, BodiesParentsAndLambdaRoles) {
  Snippet S(R"(
    Callable add_one = [](UInt x) noexcept { return x + 1u; };
    $if (n > 0u) {
      probe(add_one(n));
    };
  )");
  ASSERT_TRUE(S.parsed());
  ASTContext &Ctx = S.context();
  const Stmt *Probe = S.probeStatement(0);
  // The probe runs in the $if's lambda, a DSL statement body of the kernel.
  const Stmt *Body = dsl::enclosingFunctionBody(Probe, Ctx);
  const LambdaExpr *Arm = dsl::lambdaOfBody(Body, Ctx);
  ASSERT_NE(nullptr, Arm);
  EXPECT_EQ(Arm, dsl::parentStmt(Body, Ctx));
  EXPECT_EQ(dsl::LambdaRole::Other, dsl::lambdaRole(Arm, Ctx));
  EXPECT_EQ((std::vector<const Stmt *>{Probe}), dsl::blockStatements(Body));
  const LambdaExpr *Kernel = dsl::enclosingKernel(Probe, Ctx);
  ASSERT_NE(nullptr, Kernel);
  EXPECT_NE(Arm, Kernel);
  EXPECT_EQ(Kernel->getBody(), dsl::enclosingFunctionBody(Arm, Ctx));
  // The Callable's lambda, found from the variable's initialiser.
  const auto *Call = dyn_cast<CXXOperatorCallExpr>(S.probe(0)->IgnoreImplicit());
  ASSERT_NE(nullptr, Call);
  const VarDecl *AddOne = dsl::variableOf(Call->getArg(0));
  ASSERT_NE(nullptr, AddOne);
  const LambdaExpr *Callable = dsl::lambdaOfInit(AddOne->getInit());
  ASSERT_NE(nullptr, Callable);
  EXPECT_EQ(dsl::LambdaRole::Callable, dsl::lambdaRole(Callable, Ctx));
}

TEST(DslStatements, IfChainsDecideEachArmAndExitsLeaveScopes) {
  Snippet S(R"(
    $if (n > 1u) { probe(0u); } $elif (n > 2u) { probe(1u); } $else { probe(2u); };
    $if (n == 0u) { probe(3u); };
    $loop { probe(4u); $break; };
  )");
  ASSERT_TRUE(S.parsed());
  ASTContext &Ctx = S.context();
  auto ControlOf = [&](unsigned I) {
    return dsl::controlOfBody(dsl::enclosingFunctionBody(S.probeStatement(I), Ctx), Ctx);
  };
  auto If = ControlOf(0), Elif = ControlOf(1), Else = ControlOf(2);
  ASSERT_TRUE(If && Elif && Else);
  EXPECT_EQ(dsl::DslControl::If, If->K);
  EXPECT_EQ(1u, If->Conditions.size());
  EXPECT_EQ(dsl::DslControl::Elif, Elif->K);
  EXPECT_EQ(2u, Elif->Conditions.size()); // Its own and the $if's.
  EXPECT_EQ(dsl::DslControl::Else, Else->K);
  EXPECT_EQ(2u, Else->Conditions.size()); // Every condition of the chain.
  auto Lone = ControlOf(3);
  ASSERT_TRUE(Lone);
  auto Matched = dsl::matchDslIf(Lone->Statement);
  ASSERT_TRUE(Matched);
  EXPECT_EQ(Lone->Body, Matched->Then);
  auto Loop = ControlOf(4);
  ASSERT_TRUE(Loop);
  EXPECT_EQ(dsl::DslControl::Loop, Loop->K);
  EXPECT_TRUE(Loop->isLoop());
  EXPECT_TRUE(dsl::containsDslExit(Loop->Body));
  EXPECT_FALSE(dsl::containsDslExit(Lone->Body));
  std::vector<const Stmt *> InLoop = dsl::blockStatements(Loop->Body);
  ASSERT_EQ(2u, InLoop.size());
  EXPECT_EQ(dsl::DslExit::Break, dsl::matchDslExit(dyn_cast<Expr>(InLoop[1])));
  EXPECT_FALSE(dsl::matchDslExit(dyn_cast<Expr>(InLoop[0])));
}

TEST(DslWrites, IncrementsAddressesReferenceArgumentsAndMembers) {
  Snippet S(R"(
    int a = 0;
    int b = 0;
    int c = 0;
    Pair d{};
    int e = 0;
    Shared<uint> s{32};
    a++;
    bump(b);
    int *pointer = &c;
    d.first = 1;
    peek(e);
    s[0u] = 1u;
    probe(a);
    probe(b);
    probe(c);
    probe(d);
    probe(e);
    probe(s);
  )",
            "struct Pair { int first; int second; };\n"
            "inline void bump(int &v) { v += 1; }\n"
            "inline int peek(const int &v) { return v; }\n");
  ASSERT_TRUE(S.parsed());
  dsl::WriteAnalysis Writes(S.context());
  auto Only = [&](unsigned I) -> const dsl::VariableWrite * {
    const auto &Found = Writes.writesOf(probedVariable(S, I));
    EXPECT_EQ(1u, Found.size()) << I;
    return Found.size() == 1 ? &Found[0] : nullptr;
  };
  for (unsigned I : {0u, 1u, 2u, 3u}) {
    const dsl::VariableWrite *W = Only(I);
    ASSERT_NE(nullptr, W) << I;
    // No value replaces the old one: ++, a callee or a pointer may change
    // it, a store to a member keeps the other members.
    EXPECT_EQ(I == 3, W->Value != nullptr) << I;
    EXPECT_TRUE(W->KeepsOldValue) << I;
  }
  EXPECT_TRUE(isa<UnaryOperator>(Only(0)->Write));      // a++
  EXPECT_TRUE(isa<CallExpr>(Only(1)->Write));           // bump(b)
  EXPECT_TRUE(isa<UnaryOperator>(Only(2)->Write));      // &c
  EXPECT_TRUE(isa<BinaryOperator>(Only(3)->Write));     // d.first = 1
  EXPECT_FALSE(Writes.isWritten(probedVariable(S, 4))); // A const reference.
  // An element store writes the Shared array.
  EXPECT_TRUE(Writes.isWritten(probedVariable(S, 5)));
}

} // namespace
} // namespace kernel_tidy::test
