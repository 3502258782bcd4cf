//===--- TidyFindingsTest.cpp - clang-tidy's diagnostics as findings ------===//
//
// The protocol of rules/FixProtocol.h in both directions, and its reader
// addTidyDiagnostics on diagnostics made by hand, as clang-tidy reports them.
//
//===----------------------------------------------------------------------===//

#include "src/driver/TidyFindings.h"
#include "rules/FixProtocol.h"
#include <gtest/gtest.h>

namespace kernel_tidy {
namespace {

using clang::tidy::ClangTidyError;
using clang::tooling::DiagnosticMessage;
using clang::tooling::Replacement;

TEST(FixProtocol, ReadsBackWhatItWrites) {
  std::string UnsafeNote = fix_protocol::unsafeFixNote("reordered: sum");
  auto Unsafe = fix_protocol::readNote(UnsafeNote, true);
  EXPECT_EQ(fix_protocol::NoteMeaning::UnsafeFix, Unsafe.K);
  EXPECT_EQ("reordered: sum", Unsafe.Reason);
  std::string NoFixNote = fix_protocol::noFixNote("in a macro");
  auto None = fix_protocol::readNote(NoFixNote, false);
  EXPECT_EQ(fix_protocol::NoteMeaning::NoFix, None.K);
  EXPECT_EQ("in a macro", None.Reason);
  // An unsafe fix that was not attached is told as a plain note.
  EXPECT_EQ(fix_protocol::NoteMeaning::Plain,
            fix_protocol::readNote(fix_protocol::withheldUnsafeFixNote("r"), false).K);
  EXPECT_EQ(fix_protocol::NoteMeaning::Plain,
            fix_protocol::readNote("no automatic fix is wanted here", false).K);
  EXPECT_TRUE(fix_protocol::isUnsafeFixTitle(fix_protocol::unsafeFixNote("r")));
  EXPECT_FALSE(fix_protocol::isUnsafeFixTitle("replace with warp_active_sum"));
}

TEST(FixSafety, AHazardMakesAFixUnsafeButNotAFix) {
  FixSafety Safety = FixSafety::safe();
  Safety.addHazard("a");
  Safety.addHazard("b");
  EXPECT_EQ(Applicability::Unsafe, Safety.Kind);
  EXPECT_EQ("a; and b", Safety.Reason);
  FixSafety None = FixSafety::none("no width");
  None.addHazard("a");
  EXPECT_EQ(Applicability::None, None.Kind);
  EXPECT_EQ("no width", None.Reason);
}

/// A diagnostic of \p Check at \p Offset of \p File.
ClangTidyError
diagnostic(llvm::StringRef Check, llvm::StringRef File, unsigned Offset, llvm::StringRef Message,
           clang::tooling::Diagnostic::Level Level = clang::tooling::Diagnostic::Warning) {
  ClangTidyError Error(Check, Level, "", false);
  Error.Message.Message = Message.str();
  Error.Message.FilePath = File.str();
  Error.Message.FileOffset = Offset;
  return Error;
}

void addFix(DiagnosticMessage &Message, llvm::StringRef File, unsigned Offset, unsigned Length,
            llvm::StringRef Text) {
  llvm::cantFail(Message.Fix[File].add(Replacement(File, Offset, Length, Text)));
}

DiagnosticMessage note(llvm::StringRef File, unsigned Offset, std::string Text) {
  DiagnosticMessage Note(Text);
  Note.FilePath = File.str();
  Note.FileOffset = Offset;
  return Note;
}

class TidyFindings : public ::testing::Test {
protected:
  TidyInput Input{"k.cpp", "/p/k.cpp", "int a;\nint b = a + a;\n", "/p"};
  FileResult Result;

  void convert(std::vector<ClangTidyError> Errors) {
    addTidyDiagnostics(std::move(Errors), Input, Result, [](const Finding &) { return true; });
  }
};

TEST_F(TidyFindings, SafeFixOnTheWarningUnsafeFixOnItsNote) {
  ClangTidyError Safe = diagnostic("luisa-x", "/p/k.cpp", 4, "safe");
  clang::tooling::FileByteRange Underlined;
  Underlined.FilePath = "/p/k.cpp";
  Underlined.FileOffset = 4;
  Underlined.Length = 1;
  Safe.Message.Ranges.push_back(Underlined);
  addFix(Safe.Message, "/p/k.cpp", 4, 1, "c");
  ClangTidyError Unsafe = diagnostic("luisa-y", "/p/k.cpp", 15, "unsafe");
  DiagnosticMessage Plain = note("/p/k.cpp", 11, "the value");
  DiagnosticMessage Carrier = note("/p/k.cpp", 15, fix_protocol::unsafeFixNote("rounds"));
  addFix(Carrier, "/p/k.cpp", 15, 5, "2 * a");
  Unsafe.Notes = {Plain, Carrier};
  convert({Safe, Unsafe});
  ASSERT_EQ(2u, Result.Findings.size());
  const Finding &S = Result.Findings[0];
  EXPECT_EQ("k.cpp", S.File);
  EXPECT_EQ(1u, S.Begin.Line);
  EXPECT_EQ(5u, S.Begin.Column);
  EXPECT_EQ(6u, S.End.Column);
  ASSERT_TRUE(S.FixIt);
  EXPECT_EQ(Applicability::Safe, S.FixIt->Kind);
  EXPECT_EQ("a", S.FixIt->Edits[0].Replaced);
  const Finding &U = Result.Findings[1];
  ASSERT_TRUE(U.FixIt);
  EXPECT_EQ(Applicability::Unsafe, U.FixIt->Kind);
  EXPECT_EQ("rounds", U.FixIt->Reason);
  ASSERT_EQ(1u, U.FixIt->Edits.size());
  EXPECT_EQ("k.cpp", U.FixIt->Edits[0].File);
  EXPECT_EQ(2u, U.FixIt->Edits[0].Begin.Line);
  EXPECT_EQ(9u, U.FixIt->Edits[0].Begin.Column);
  EXPECT_EQ("a + a", U.FixIt->Edits[0].Replaced);
  ASSERT_EQ(1u, U.Notes.size()); // The carrier is the fix, not a note.
  EXPECT_EQ("the value", U.Notes[0].Message);
  EXPECT_EQ(5u, U.Notes[0].At.Column);
}

TEST_F(TidyFindings, NoFixNoteBecomesTheReasonUnlessThereIsAFix) {
  ClangTidyError Withheld = diagnostic("luisa-x", "/p/k.cpp", 0, "w");
  Withheld.Notes = {note("/p/k.cpp", 0, fix_protocol::noFixNote("in a macro"))};
  ClangTidyError Fixed = Withheld;
  addFix(Fixed.Message, "/p/k.cpp", 0, 3, "long");
  convert({Withheld, Fixed});
  ASSERT_EQ(2u, Result.Findings.size());
  EXPECT_FALSE(Result.Findings[0].FixIt);
  EXPECT_EQ("in a macro", Result.Findings[0].NoFixReason);
  EXPECT_TRUE(Result.Findings[0].Notes.empty());
  EXPECT_TRUE(Result.Findings[1].FixIt);
  EXPECT_EQ("", Result.Findings[1].NoFixReason);
}

TEST_F(TidyFindings, CompilerAndNolintErrorsFailTheFileConfigurationIsDropped) {
  using clang::tooling::Diagnostic;
  convert({diagnostic("clang-diagnostic-error", "/p/k.cpp", 7, "bad", Diagnostic::Error),
           diagnostic("clang-tidy-nolint", "/p/k.cpp", 0, "unmatched", Diagnostic::Error),
           diagnostic("clang-diagnostic-error", "", 0, "no input", Diagnostic::Error),
           diagnostic("clang-tidy-config", "", 0, "bad option", Diagnostic::Error)});
  EXPECT_TRUE(Result.Findings.empty());
  ASSERT_EQ(3u, Result.Errors.size());
  EXPECT_EQ("k.cpp", Result.Errors[0].File);
  EXPECT_EQ(2u, Result.Errors[0].Line);
  EXPECT_EQ(1u, Result.Errors[0].Column);
  EXPECT_EQ("unmatched [clang-tidy-nolint]", Result.Errors[1].Message);
  EXPECT_EQ(0u, Result.Errors[2].Line);
  EXPECT_EQ("k.cpp", Result.Errors[2].File);
}

TEST_F(TidyFindings, RelativePathsAreResolvedFromTheCommandDirectory) {
  convert({diagnostic("luisa-x", "k.cpp", 4, "relative"),
           diagnostic("luisa-x", "sub/../k.cpp", 4, "dotted")});
  ASSERT_EQ(2u, Result.Findings.size());
  EXPECT_EQ("k.cpp", Result.Findings[0].File); // = /p/k.cpp, shown as named
  EXPECT_EQ("k.cpp", Result.Findings[1].File);
  EXPECT_EQ(5u, Result.Findings[1].Begin.Column);
}

TEST_F(TidyFindings, KeepFiltersFindings) {
  addTidyDiagnostics(
      {diagnostic("luisa-x", "/p/k.cpp", 0, "a"), diagnostic("luisa-y", "/p/k.cpp", 7, "b")}, Input,
      Result, [](const Finding &F) { return F.Rule == "luisa-y"; });
  ASSERT_EQ(1u, Result.Findings.size());
  EXPECT_EQ(2u, Result.Findings[0].Begin.Line);
}

} // namespace
} // namespace kernel_tidy
