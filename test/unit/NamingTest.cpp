//===--- NamingTest.cpp - Names that generated code can use ---------------===//

#include "src/dsl/Naming.h"
#include "test/unit/DslSnippet.h"
#include "llvm/ADT/StringSet.h"
#include <gtest/gtest.h>

namespace kernel_tidy::test {
namespace {

TEST(Naming, QualifiesWhereTheNameIsNotVisible) {
  Snippet Plain("    probe(0u);", "", "");
  ASSERT_TRUE(Plain.parsed());
  const Stmt *At = Plain.probeStatement(0);
  EXPECT_EQ("luisa::compute::",
            dsl::dslQualifier("warp_is_first_active_lane", At, Plain.context(), false));
  EXPECT_EQ("", dsl::dslQualifier("warp_active_sum", At, Plain.context(), true));

  Snippet Using("    probe(0u);");
  ASSERT_TRUE(Using.parsed());
  EXPECT_EQ("", dsl::dslQualifier("warp_is_first_active_lane", Using.probeStatement(0),
                                  Using.context(), false));

  Snippet Local("    using namespace luisa::compute;\n    probe(0u);", "", "");
  ASSERT_TRUE(Local.parsed());
  EXPECT_EQ("",
            dsl::dslQualifier("warp_active_sum", Local.probeStatement(0), Local.context(), false));

  Snippet Declared("    using luisa::compute::warp_active_sum;\n    probe(0u);", "", "");
  ASSERT_TRUE(Declared.parsed());
  const Stmt *After = Declared.probeStatement(0);
  EXPECT_EQ("", dsl::dslQualifier("warp_active_sum", After, Declared.context(), false));
  EXPECT_EQ("luisa::compute::",
            dsl::dslQualifier("warp_active_max", After, Declared.context(), false));

  // A directive after the insertion point does not count.
  Snippet Late("    probe(0u);\n    using namespace luisa::compute;", "", "");
  ASSERT_TRUE(Late.parsed());
  EXPECT_EQ("luisa::compute::",
            dsl::dslQualifier("warp_active_sum", Late.probeStatement(0), Late.context(), false));
}

TEST(Naming, FreshNamesAvoidEveryNameInTheFunction) {
  Snippet S("    UInt warp_sum = 1u;\n    probe(warp_sum);");
  ASSERT_TRUE(S.parsed());
  const Stmt *At = S.probeStatement(0);
  dsl::forgetNamesTakenByFixes();
  EXPECT_EQ("warp_sum_1", dsl::freshName("warp_sum", At, S.context()));
  // Taken by an earlier fix, whichever rule made it.
  EXPECT_EQ("warp_sum_2", dsl::freshName("warp_sum", At, S.context()));
  EXPECT_EQ("warp_max", dsl::freshName("warp_max", At, S.context()));
  // A new translation unit starts afresh.
  dsl::forgetNamesTakenByFixes();
  EXPECT_EQ("warp_sum_1", dsl::freshName("warp_sum", At, S.context()));
  dsl::forgetNamesTakenByFixes();
}

} // namespace
} // namespace kernel_tidy::test
