//===--- StreamSubmissionsTest.cpp - Host statements that submit ----------===//

#include "rules/host/StreamSubmissions.h"
#include "test/unit/DslSnippet.h"
#include <gtest/gtest.h>

namespace kernel_tidy::test {
namespace {

/// Host code: the body of `void host(...)` with a stream, buffers and host memory.
class HostSnippet {
public:
  explicit HostSnippet(const std::string &Body, const std::string &Prelude = "")
      : S("", Prelude +
                  "\nvoid host(Device &device, Stream &stream, Stream &other, "
                  "Buffer<float> &a, Buffer<float> &b, Event &event, "
                  "luisa::vector<float> &v, luisa::vector<float> &w, float &x) {\n" +
                  Body + "\n}\n") {}

  bool parsed() { return S.parsed(); }
  ASTContext &context() { return S.context(); }

  const CompoundStmt *body() {
    auto Found =
        match(functionDecl(hasName("host"), hasBody(compoundStmt().bind("body"))), context());
    return Found.empty() ? nullptr : Found[0].getNodeAs<CompoundStmt>("body");
  }
  const Stmt *statement(unsigned I) { return body()->body_begin()[I]; }
  std::optional<dsl::StreamSubmission> submission(unsigned I) {
    return dsl::asStreamSubmission(statement(I));
  }

private:
  Snippet S;
};

using Kind = dsl::StreamOperand;

std::vector<Kind> kindsOf(const dsl::StreamSubmission &Sub) {
  std::vector<Kind> Kinds;
  for (const auto &Operand : Sub.Operands)
    Kinds.push_back(Operand.first);
  return Kinds;
}

TEST(StreamSubmissions, ClassifiesEveryOperandOfAStatement) {
  HostSnippet H("  stream << a.copy_from(v.data()) << b.copy_to(w.data()) << synchronize();\n"
                "  stream << [&] { x = 1.f; } << event.signal();\n"
                "  stream << event.wait() << a.copy_to(&x) << commit();\n"
                "  auto list = CommandList::create();\n"
                "  stream << list.commit();\n"
                "  stream.synchronize();\n"
                "  x = 2.f;\n");
  ASSERT_TRUE(H.parsed());
  auto First = H.submission(0);
  ASSERT_TRUE(First);
  EXPECT_EQ((std::vector<Kind>{Kind::Command, Kind::Command, Kind::Synchronize}), kindsOf(*First));
  EXPECT_TRUE(First->isChainable());
  EXPECT_TRUE(First->endsWithBarrier());
  EXPECT_FALSE(First->onlyCommands());
  auto Second = H.submission(1);
  ASSERT_TRUE(Second);
  EXPECT_EQ((std::vector<Kind>{Kind::Callback, Kind::Event}), kindsOf(*Second));
  EXPECT_FALSE(Second->isChainable());
  auto Third = H.submission(2);
  ASSERT_TRUE(Third);
  EXPECT_EQ((std::vector<Kind>{Kind::Event, Kind::Command, Kind::Commit}), kindsOf(*Third));
  EXPECT_FALSE(Third->isChainable()); // The wait must stay before its commands.
  auto Fifth = H.submission(4);
  ASSERT_TRUE(Fifth);
  EXPECT_EQ((std::vector<Kind>{Kind::Commit}), kindsOf(*Fifth));
  EXPECT_FALSE(H.submission(3));
  EXPECT_FALSE(H.submission(5));
  EXPECT_TRUE(dsl::isHostWait(cast<Expr>(H.statement(5))));
  EXPECT_FALSE(H.submission(6));
  EXPECT_TRUE(dsl::isSynchronizing(Kind::Synchronize));
  EXPECT_TRUE(dsl::isSynchronizing(Kind::Event));
  EXPECT_FALSE(dsl::isSynchronizing(Kind::Command));
}

TEST(StreamSubmissions, SameStreamMeansTheSameObject) {
  HostSnippet H("  Stream *p = &stream;\n"
                "  stream << a.copy_from(v.data());\n"
                "  other << a.copy_from(v.data());\n"
                "  *p << a.copy_from(v.data());\n"
                "  *p << a.copy_from(v.data());\n"
                "  stream << a.copy_from(v.data());\n");
  ASSERT_TRUE(H.parsed());
  auto S1 = H.submission(1), S2 = H.submission(2), S3 = H.submission(3), S4 = H.submission(4),
       S5 = H.submission(5);
  ASSERT_TRUE(S1 && S2 && S3 && S4 && S5);
  EXPECT_FALSE(dsl::isSameStream(S1->Stream, S2->Stream));
  EXPECT_TRUE(dsl::isSameStream(S3->Stream, S4->Stream));
  EXPECT_FALSE(dsl::isSameStream(S1->Stream, S3->Stream)); // p may point elsewhere.
  EXPECT_TRUE(dsl::isSameStream(S1->Stream, S5->Stream));
}

TEST(StreamSubmissions, FindsTheHostMemoryOfTransfers) {
  HostSnippet H("  stream << a.copy_to(v.data() + 4) << a.copy_from(&w[2]) << a.copy_to(&x)"
                " << a.copy_to(luisa::span{w}) << a.copy_from(b);\n");
  ASSERT_TRUE(H.parsed());
  auto Sub = H.submission(0);
  ASSERT_TRUE(Sub);
  auto RootOf = [&](const Expr *Transfer) -> std::string {
    const ValueDecl *Root = Transfer ? dsl::hostMemoryRoot(Transfer) : nullptr;
    return Root ? Root->getNameAsString() : "";
  };
  const auto &Ops = Sub->Operands;
  EXPECT_EQ("v", RootOf(dsl::downloadTarget(Ops[0].second)));
  EXPECT_EQ(nullptr, dsl::uploadSource(Ops[0].second));
  EXPECT_EQ("w", RootOf(dsl::uploadSource(Ops[1].second)));
  EXPECT_EQ(nullptr, dsl::downloadTarget(Ops[1].second));
  EXPECT_EQ("x", RootOf(dsl::downloadTarget(Ops[2].second)));
  EXPECT_EQ("w", RootOf(dsl::downloadTarget(Ops[3].second)));
  // A copy between buffers touches no host memory.
  EXPECT_EQ(nullptr, dsl::downloadTarget(Ops[4].second));
  EXPECT_EQ(nullptr, dsl::uploadSource(Ops[4].second));
}

TEST(StreamSubmissions, DownloadedMemoryIsReadByLaterCode) {
  HostSnippet H("  stream << a.copy_to(v.data());\n"
                "  stream << a.copy_to(v.data() + 1);\n" // written again, not read
                "  stream << b.copy_from(w.data());\n"
                "  stream << b.copy_from(v.data());\n"
                "  x = v[0];\n");
  ASSERT_TRUE(H.parsed());
  dsl::DownloadedMemory Downloaded;
  EXPECT_TRUE(Downloaded.empty());
  Downloaded.add(*H.submission(0));
  EXPECT_FALSE(Downloaded.empty());
  EXPECT_FALSE(Downloaded.isReadBy(H.statement(1)));
  EXPECT_FALSE(Downloaded.isReadBy(H.statement(2)));
  EXPECT_TRUE(Downloaded.isReadBy(H.statement(3)));
  EXPECT_TRUE(Downloaded.isReadBy(H.statement(4)));
}

TEST(StreamSubmissions, ADownloadToUnknownMemoryIsReadByAnything) {
  HostSnippet H("  auto cmd = a.copy_to(v.data());\n"
                "  stream << std::move(cmd);\n"
                "  stream << b.copy_from(w.data());\n");
  ASSERT_TRUE(H.parsed());
  dsl::DownloadedMemory Downloaded;
  Downloaded.add(*H.submission(1));
  EXPECT_TRUE(Downloaded.isReadBy(H.statement(2)));
}

TEST(StreamSubmissions, UploadedMemoryIsWrittenByLaterCode) {
  HostSnippet H("  stream << a.copy_from(&x) << b.copy_from(v.data() + 1);\n"
                "  stream << a.copy_from(&x);\n" // read again, not written
                "  stream << a.copy_to(w.data()) << b.copy_from(&w[x++]);\n"
                "  v[2] = 1.f;\n"
                "  w[0] += 1.f;\n"
                "  stream << b.copy_from(luisa::vector<float>(4u, x).data());\n"
                "  w[0] = 2.f;\n");
  ASSERT_TRUE(H.parsed());
  dsl::UploadedMemory Uploaded;
  Uploaded.add(*H.submission(0));
  EXPECT_FALSE(Uploaded.isWrittenBy(H.statement(1)));
  EXPECT_TRUE(Uploaded.isWrittenBy(H.statement(2)));
  EXPECT_TRUE(Uploaded.isWrittenBy(H.statement(3)));
  EXPECT_FALSE(Uploaded.isWrittenBy(H.statement(4)));
  // A temporary's memory is its own: unknown, so any write may be to it.
  Uploaded.add(*H.submission(5));
  EXPECT_TRUE(Uploaded.isWrittenBy(H.statement(6)));
}

TEST(StreamSubmissions, UploadedMemoryIsWrittenThroughLibraryCalls) {
  HostSnippet H("  stream << a.copy_from(v.data()) << b.copy_from(&x);\n"
                "  stream << a.copy_from(v.data() + v.size()) << b.copy_from(&w.front());\n"
                "  stream << b.copy_from(&std::max(x, w[0]));\n"
                "  stream << a.copy_to(v.data());\n"
                "  std::swap(x, w[1]);\n"
                "  std::fill(v.begin(), v.end(), 1.f);\n"
                "  v.push_back(x);\n"
                "  stream << b.copy_from((w.push_back(x), w.data()));\n",
                "#include <algorithm>\n#include <utility>\n");
  ASSERT_TRUE(H.parsed());
  dsl::UploadedMemory Uploaded;
  Uploaded.add(*H.submission(0));
  // Accessors, const references and downloads do not write what was uploaded.
  EXPECT_FALSE(Uploaded.isWrittenBy(H.statement(1)));
  EXPECT_FALSE(Uploaded.isWrittenBy(H.statement(2)));
  EXPECT_FALSE(Uploaded.isWrittenBy(H.statement(3)));
  EXPECT_TRUE(Uploaded.isWrittenBy(H.statement(4)));
  EXPECT_TRUE(Uploaded.isWrittenBy(H.statement(5)));
  EXPECT_TRUE(Uploaded.isWrittenBy(H.statement(6)));
  EXPECT_FALSE(Uploaded.isWrittenBy(H.statement(7))); // w was not uploaded.
  Uploaded.add(*H.submission(1));
  EXPECT_TRUE(Uploaded.isWrittenBy(H.statement(7)));
}

TEST(StreamSubmissions, RunsEndAtAnythingThatIsNotAPlainSubmission) {
  HostSnippet H(
      "  stream << a.copy_from(v.data());\n"           // 0 run 1
      "  stream << b.copy_from(v.data());\n"           // 1 run 1
      "  other << b.copy_from(v.data());\n"            // 2 alone
      "  stream << a.copy_from(v.data());\n"           // 3 run 2
      "  stream << a.copy_to(&x) << event.signal();\n" // 4 run 2, last
      "  stream << a.copy_from(&x);\n"                 // 5 alone: reads x
      "  x = 0.f;\n"
      "  stream << a.copy_from(v.data());\n" // 7 alone: the helper runs first
      "  stream << make_command(a);\n"       // 8 run 3
      "  stream << a.copy_from(v.data());\n" // 9 run 3
      "  // a comment is fine\n"
      "  stream << a.copy_from(v.data()) << synchronize();\n",
      "luisa::unique_ptr<luisa::compute::Command> make_command(luisa::compute::Buffer<float> &);\n"
      "using namespace luisa::compute;\n");
  ASSERT_TRUE(H.parsed());
  auto Runs = dsl::chainableRuns(H.body(), H.context());
  ASSERT_EQ(3u, Runs.size());
  auto StatementsOf = [&](const std::vector<dsl::StreamSubmission> &Run) {
    std::vector<const Stmt *> Out;
    for (const auto &Sub : Run)
      Out.push_back(Sub.Statement);
    return Out;
  };
  EXPECT_EQ((std::vector<const Stmt *>{H.statement(0), H.statement(1)}), StatementsOf(Runs[0]));
  EXPECT_EQ((std::vector<const Stmt *>{H.statement(3), H.statement(4)}), StatementsOf(Runs[1]));
  EXPECT_EQ((std::vector<const Stmt *>{H.statement(8), H.statement(9), H.statement(10)}),
            StatementsOf(Runs[2]));
  EXPECT_EQ(nullptr, dsl::userCodeCall(H.statement(7)));
  EXPECT_NE(nullptr, dsl::userCodeCall(H.statement(8)));
}

TEST(StreamSubmissions, APreprocessorDirectiveEndsARun) {
  HostSnippet H("  stream << a.copy_from(v.data());\n"
                "#if 0\n"
                "  x = 1.f;\n"
                "#endif\n"
                "  stream << b.copy_from(v.data());\n");
  ASSERT_TRUE(H.parsed());
  EXPECT_TRUE(dsl::chainableRuns(H.body(), H.context()).empty());
}

const Stmt *loopNumber(HostSnippet &H, unsigned I) {
  unsigned Seen = 0;
  for (const Stmt *S : H.body()->body())
    if (isa<ForStmt, CXXForRangeStmt, WhileStmt, DoStmt>(S) && Seen++ == I)
      return S;
  return nullptr;
}

TEST(StreamSubmissions, BatchableLoopsOnlySubmitToOneStream) {
  HostSnippet H(
      "  for (auto i = 0u; i < 4u; i++) { stream << a.copy_from(v.data()); }\n" // 0 yes
      "  for (auto &s : streams()) s << a.copy_from(v.data());\n"               // 1 no
      "  for (auto i = 0u; i < 4u; i++) { stream << a.copy_from(v.data()); other << "
      "b.copy_from(v.data()); }\n"                                                           // 2 no
      "  for (auto i = 0u; i < 4u; i++) stream << a.copy_from(v.data()) << synchronize();\n" // 3 no
      "  for (auto i = 0u; i < 4u; i++) { stream << a.copy_from(v.data()); x += 1.f; }\n"    // 4 no
      "  while (x == 0.f) stream << a.copy_to(&x);\n"                                        // 5 no
      "  for (auto i = 0u; i < 4u; i++) stream << a.copy_from(&i);\n"                        // 6 no
      "  for (auto &e : v) stream << a.copy_from(&e);\n"                                 // 7 yes
      "  for (auto e : v) stream << a.copy_from(&e);\n"                                  // 8 no
      "  do { for (auto &e : w) { stream << a.copy_from(&e); } } while (x < size(w));\n" // 9 yes
      "  for (auto e : v) stream << a.view(0u, 1u).copy_to(&e);\n"                       // 10 no
      "  for (auto &e : v) stream << a.view(0u, 1u).copy_to(&e);\n"                      // 11 yes
      "  for (auto i = 0u; i < 4u; i++) { stream << a.copy_from(&x); stream << "
      "a.copy_from(&w[x++]); }\n" // 12 no
      "  for (auto i = 0u; i < 4u; i++) stream << a.copy_from(luisa::vector<float>(4u, "
      "x).data());\n", // 13 no
      "float size(const luisa::vector<float> &);\n"
      "luisa::vector<luisa::compute::Stream> &streams();\n");
  ASSERT_TRUE(H.parsed());
  std::vector<bool> Expected{true, false, false, false, false, false, false,
                             true, false, true,  false, true,  false, false};
  for (unsigned I = 0; I < Expected.size(); ++I) {
    const Stmt *Loop = loopNumber(H, I);
    ASSERT_NE(nullptr, Loop) << I;
    EXPECT_EQ(Expected[I], dsl::asBatchableLoop(Loop, H.context()).has_value()) << I;
  }
  auto Nested = dsl::asBatchableLoop(loopNumber(H, 9), H.context());
  ASSERT_TRUE(Nested);
  EXPECT_EQ(1u, Nested->Submissions.size());
  EXPECT_NE(nullptr, Nested->HeaderCall); // size(w) is the user's.
  EXPECT_EQ(nullptr, dsl::asBatchableLoop(loopNumber(H, 0), H.context())->HeaderCall);
}

} // namespace
} // namespace kernel_tidy::test
