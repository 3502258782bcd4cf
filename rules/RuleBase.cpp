//===--- RuleBase.cpp - What every kernel-tidy check shares ---------------===//

#include "rules/RuleBase.h"

#include "rules/FixEdits.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/Support/YAMLParser.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace kernel_tidy::rules {

namespace {
// Set once, before any check is created (kernel-clangd's main).
bool UnsafeFixesDefault = false;
// kernel-clangd: clangd turns a note with a fix into a code action titled by
// the note and drops the note's text from the diagnostic, so the reason an
// attached unsafe fix is unsafe is said again in a note without a fix.
bool RepeatUnsafeReason = false;
} // namespace

void offerUnsafeFixesByDefault() {
  UnsafeFixesDefault = true;
  RepeatUnsafeReason = true;
}

FixSafety reassociationSafety(dsl::CombineOp Op, QualType Values, StringRef Combiner,
                              StringRef Order) {
  if ((Op != dsl::CombineOp::Sum && Op != dsl::CombineOp::Product) || !dsl::isFloatingValue(Values))
    return FixSafety::safe();
  return FixSafety::unsafe((Combiner + " the floating-point values in " + Order +
                            ", so the result can differ by rounding")
                               .str());
}

RuleBase::RuleBase(StringRef Name, tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context), Backend(targetOption()), UnsafeFixes(unsafeFixesOption()),
      DefaultWidths(defaultWidthsOption()) {}

// Read as a string: the bool specialisations of OptionsView are mangled
// differently by GCC and by the Clang that built Debian's libclangTidy.
bool RuleBase::boolOption(StringRef Name, bool Default) const {
  StringRef Value = Options.getLocalOrGlobal(Name, "");
  if (Value.empty())
    return Default;
  if (std::optional<bool> Parsed = llvm::yaml::parseBool(Value))
    return *Parsed;
  configurationDiag("invalid configuration value '%0' for option '%1'; expected a bool")
      << Value << Name;
  return Default;
}

bool RuleBase::unsafeFixesOption() const { return boolOption("UnsafeFixes", UnsafeFixesDefault); }

dsl::Target RuleBase::targetOption() const {
  StringRef Value = Options.getLocalOrGlobal("Target", "any");
  if (auto Parsed = dsl::parseTarget(Value))
    return *Parsed;
  configurationDiag("invalid configuration value '%0' for option 'Target'; "
                    "expected %1")
      << Value << dsl::targetChoices();
  return dsl::Target::Any;
}

dsl::DefaultWarpWidths RuleBase::defaultWidthsOption() const {
  std::optional<StringRef> Value = Options.getLocalOrGlobal("WarpSize");
  if (!Value)
    return dsl::defaultWarpWidths(false, dsl::DefaultWarpWidth, Backend);
  std::optional<unsigned> Lanes = dsl::parseWarpWidth(*Value);
  // A wrong width would make wrong "safe" fixes and wrong ranges: no width,
  // no fixes and no findings that depend on it.
  if (!Lanes)
    configurationDiag("invalid configuration value '%0' for option 'WarpSize'; expected %1",
                      DiagnosticIDs::Error)
        << *Value << dsl::warpWidthChoices();
  return dsl::defaultWarpWidths(true, Lanes, Backend);
}

void RuleBase::storeOptions(tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "Target", dsl::targetName(Backend));
  Options.store(Opts, "UnsafeFixes", UnsafeFixes ? "true" : "false");
  Options.store(Opts, "WarpSize",
                DefaultWidths.Lanes ? std::to_string(*DefaultWidths.Lanes)
                                    : Options.getLocalOrGlobal("WarpSize").value_or("").str());
}

dsl::Analyses &RuleBase::analyses(ASTContext &Ctx) {
  if (!TUAnalyses || &TUAnalyses->Ctx != &Ctx)
    TUAnalyses = std::make_unique<dsl::Analyses>(Ctx, DefaultWidths);
  return *TUAnalyses;
}

/// \p Result with \p Extra bound as well.
static MatchFinder::MatchResult
withBindings(const MatchFinder::MatchResult &Result,
             llvm::ArrayRef<std::pair<std::string, DynTypedNode>> Extra) {
  ast_matchers::internal::BoundNodesTreeBuilder Builder;
  for (const auto &[Id, Node] : Result.Nodes.getMap())
    Builder.setBinding(Id, Node);
  for (const auto &[Id, Node] : Extra)
    Builder.setBinding(Id, Node);
  struct Collect : ast_matchers::internal::BoundNodesTreeBuilder::Visitor {
    std::optional<BoundNodes> Nodes;
    void visitMatch(const BoundNodes &Match) override { Nodes = Match; }
  } Collector;
  Builder.visitMatches(&Collector);
  return MatchFinder::MatchResult(*Collector.Nodes, Result.Context);
}

std::vector<FixItHint> RuleBase::fixItsOf(const MatchFinder::MatchResult &Result, Diagnosis &D) {
  if (!D.Edit)
    return {};
  auto Withhold = [&](std::string Why) {
    if (D.Safety.Kind != Applicability::None)
      D.Safety = FixSafety::none(std::move(Why));
    return std::vector<FixItHint>();
  };
  auto Edits = D.Edit(withBindings(Result, D.Bindings));
  if (!Edits)
    return Withhold(llvm::toString(Edits.takeError()));
  if (Edits->empty())
    return Withhold("the code to replace is spelled in a macro");
  // The finding underlines the code its rewrite replaces.
  if (!D.Highlight)
    D.Highlight = Edits->front().Range;
  std::vector<FixItHint> Hints;
  for (const transformer::Edit &E : *Edits) {
    auto Hint = safeReplacement(E.Range, E.Replacement, *Result.Context);
    if (!Hint)
      return Withhold(llvm::toString(Hint.takeError()));
    Hints.push_back(std::move(*Hint));
  }
  return D.Safety.Kind == Applicability::None ? std::vector<FixItHint>() : Hints;
}

void RuleBase::emit(const MatchFinder::MatchResult &Result, Diagnosis D) {
  if (!Reported.insert(D.Loc.getRawEncoding()).second)
    return;
  std::vector<FixItHint> Hints = fixItsOf(Result, D);
  {
    auto Warning = diag(D.Loc, D.Format);
    for (const std::string &Arg : D.Args)
      Warning << Arg;
    if (D.Highlight)
      Warning << *D.Highlight;
    if (D.Safety.Kind == Applicability::Safe)
      for (const FixItHint &Hint : Hints)
        Warning << Hint;
  }
  for (const auto &[Loc, Text] : D.Notes)
    diag(Loc, "%0", DiagnosticIDs::Note) << Text;
  if (D.Safety.Kind == Applicability::Unsafe && !Hints.empty()) {
    auto Note = diag(D.Loc, "%0", DiagnosticIDs::Note)
                << (UnsafeFixes ? fix_protocol::unsafeFixNote(D.Safety.Reason)
                                : fix_protocol::withheldUnsafeFixNote(D.Safety.Reason));
    if (UnsafeFixes)
      for (const FixItHint &Hint : Hints)
        Note << Hint;
  }
  if (D.Safety.Kind == Applicability::Unsafe && !Hints.empty() && UnsafeFixes && RepeatUnsafeReason)
    diag(D.Loc, "%0", DiagnosticIDs::Note) << fix_protocol::unsafeFixNote(D.Safety.Reason);
  if (D.Safety.Kind == Applicability::None && !D.Safety.Reason.empty())
    diag(D.Loc, "%0", DiagnosticIDs::Note) << fix_protocol::noFixNote(D.Safety.Reason);
  if (D.Kind)
    noteProfitability(D.Loc, *D.Kind);
}

void RuleBase::noteProfitability(SourceLocation Loc, Rewrite Kind) {
  auto Entry = dsl::lookupGain(getID(), dsl::gainOpName(Kind.Op), Kind.IsFloat, Backend);
  if (!Entry || Entry->Outcome == dsl::Gain::Faster)
    return;
  // The finding is still a valid lint, so it stays, with its fix; the note
  // only withdraws the speed claim. It carries no fix: clang-tidy's
  // --fix-notes applies a note's fix only when exactly one note has one.
  diag(Loc,
       "on %0 this rewrite %select{is not expected to be faster|is expected "
       "to be slower}1 (%2); it is kept for readability and robustness",
       DiagnosticIDs::Note)
      << dsl::targetName(Backend) << (Entry->Outcome == dsl::Gain::Slower) << Entry->Source;
}

} // namespace kernel_tidy::rules
