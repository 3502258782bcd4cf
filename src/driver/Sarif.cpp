//===--- Sarif.cpp - SARIF 2.1.0 logs -------------------------------------===//

#include "src/driver/Sarif.h"

#include "rules/RuleRegistry.h"
#include "src/driver/Fingerprint.h"
#include "src/driver/Paths.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Base64.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <map>
#include <nlohmann/json.hpp>

using nlohmann::json;

namespace kernel_tidy {
namespace {

const char *SchemaUri =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";
const char *InformationUri = "https://github.com/LuisaGroup/LuisaCompute";
const char *RootBaseId = "%SRCROOT%";

/// \p Target, a link of a page in <docs>/rules, absolute against \p Base (the
/// docs' URI, ending in '/'); URLs and anchors stay as they are.
std::string resolveDocLink(llvm::StringRef Target, const std::string &Base) {
  if (Target.empty() || Target.starts_with("#") || Target.starts_with("/") || Target.contains(':'))
    return Target.str();
  auto [File, Fragment] = Target.split('#');
  llvm::SmallString<128> Path("rules/");
  Path += File;
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true, llvm::sys::path::Style::posix);
  return Base + Path.str().str() + (Target.contains('#') ? "#" + Fragment.str() : "");
}

/// \p Markdown (a rule page of <docs>/rules) with every relative link made
/// absolute against \p DocsBase (a folder or a URL): a SARIF viewer has no
/// folder to resolve `../gpu-harness.md` against. Code is left alone.
std::string resolveDocLinks(llvm::StringRef Markdown, const std::string &DocsBase) {
  if (DocsBase.empty())
    return Markdown.str();
  std::string Base = docsUri(DocsBase);
  llvm::SmallVector<llvm::StringRef> Lines;
  Markdown.split(Lines, '\n');
  std::string Out;
  bool InFence = false;
  for (size_t L = 0; L < Lines.size(); ++L) {
    llvm::StringRef Line = Lines[L];
    if (L)
      Out += '\n';
    bool Fence = Line.ltrim().starts_with("```");
    InFence ^= Fence;
    if (Fence || InFence) {
      Out += Line;
      continue;
    }
    bool InCodeSpan = false;
    for (size_t I = 0; I < Line.size(); ++I) {
      InCodeSpan ^= Line[I] == '`';
      size_t Close = Line.find(')', I);
      if (!InCodeSpan && Line.substr(I).starts_with("](") && Close != llvm::StringRef::npos) {
        Out += "](" + resolveDocLink(Line.slice(I + 2, Close), Base) + ")";
        I = Close;
      } else {
        Out += Line[I];
      }
    }
  }
  return Out;
}

/// The text of each file that locations point into, to turn byte columns
/// into code point columns.
class SourceTexts {
public:
  explicit SourceTexts(const std::vector<FileResult> &Results) {
    for (const FileResult &R : Results)
      Texts[R.File] = R.Original;
  }
  const std::string &get(const std::string &File) {
    auto It = Texts.find(File);
    if (It != Texts.end())
      return It->second;
    auto Buffer = llvm::MemoryBuffer::getFile(File);
    return Texts[File] = Buffer ? (*Buffer)->getBuffer().str() : std::string();
  }

private:
  std::map<std::string, std::string> Texts;
};

/// The 1-based code point column of the byte at \p P.
unsigned codePointColumn(const std::string &Text, const Position &P) {
  if (P.Offset > Text.size() || P.Column > P.Offset + 1)
    return P.Column; // Text unknown: bytes are the best guess.
  unsigned Column = 1;
  for (unsigned I = P.Offset + 1 - P.Column; I < P.Offset; ++I)
    Column += (static_cast<unsigned char>(Text[I]) & 0xC0) != 0x80;
  return Column;
}

class LogBuilder {
public:
  LogBuilder(const std::vector<FileResult> &Results, const SarifOptions &Options)
      : Options(Options), Texts(Results) {}

  json artifactLocation(const std::string &File) const {
    std::string Relative = relativeToRoot(File, Options.Root);
    if (llvm::StringRef(Relative).starts_with("/"))
      return {{"uri", "file://" + encodeUriPath(Relative)}};
    return {{"uri", encodeUriPath(Relative)}, {"uriBaseId", RootBaseId}};
  }

  json region(const std::string &File, const Position &Begin, const Position &End) {
    const std::string &Text = Texts.get(File);
    return {{"startLine", Begin.Line},
            {"startColumn", codePointColumn(Text, Begin)},
            {"endLine", End.Line},
            {"endColumn", codePointColumn(Text, End)}};
  }

  json fixOf(const Fix &F) {
    std::map<std::string, json> ChangesByFile;
    for (const Edit &E : F.Edits) {
      json &Change = ChangesByFile[E.File];
      if (Change.is_null())
        Change = {{"artifactLocation", artifactLocation(E.File)}, {"replacements", json::array()}};
      // SARIF's artifactContent carries bytes that are not UTF-8 as "binary"
      // (base64) instead of "text", which would get U+FFFD in their place.
      json Inserted = llvm::json::isUTF8(E.Replacement)
                          ? json{{"text", E.Replacement}}
                          : json{{"binary", llvm::encodeBase64(E.Replacement)}};
      Change["replacements"].push_back({{"deletedRegion", region(E.File, E.Begin, E.End)},
                                        {"insertedContent", std::move(Inserted)}});
    }
    json Changes = json::array();
    for (auto &[File, Change] : ChangesByFile)
      Changes.push_back(std::move(Change));
    std::string Description = F.Kind == Applicability::Safe
                                  ? "Safe fix: the results stay the same"
                                  : "Unsafe fix (applied only with --unsafe-fixes): " +
                                        (F.Reason.empty() ? "it can change the results" : F.Reason);
    json Fix = {
        {"description", {{"text", Description}}},
        {"artifactChanges", Changes},
        {"properties", {{"applicability", F.Kind == Applicability::Safe ? "safe" : "unsafe"}}}};
    if (!F.Reason.empty())
      Fix["properties"]["reason"] = F.Reason;
    return Fix;
  }

  json result(const Finding &F, const std::string &Fingerprint) {
    const auto Rules = rules::allRules();
    auto It = std::find_if(Rules.begin(), Rules.end(),
                           [&](const rules::RuleInfo &R) { return R.Id == F.Rule; });
    json Result = {{"ruleId", F.Rule},
                   {"level", F.AsError ? "error" : "warning"},
                   {"message", {{"text", F.Message}}},
                   {"locations",
                    {{{"physicalLocation",
                       {{"artifactLocation", artifactLocation(F.File)},
                        {"region", region(F.File, F.Begin, F.End)}}}}}},
                   {"partialFingerprints", {{"primaryLocationLineHash", Fingerprint}}}};
    if (It != Rules.end())
      Result["ruleIndex"] = It - Rules.begin();
    if (F.FixIt)
      Result["fixes"] = json::array({fixOf(*F.FixIt)});
    else if (!F.NoFixReason.empty())
      Result["properties"] = {{"noFixReason", F.NoFixReason}};
    // Notes as related locations with a message, as Clang's SARIF output has them.
    for (size_t I = 0; I < F.Notes.size(); ++I) {
      const Note &N = F.Notes[I];
      Result["relatedLocations"].push_back({{"id", I},
                                            {"physicalLocation",
                                             {{"artifactLocation", artifactLocation(N.File)},
                                              {"region", region(N.File, N.At, N.At)}}},
                                            {"message", {{"text", N.Message}}}});
    }
    return Result;
  }

  json notification(const ParseError &E) {
    json Location = {{"artifactLocation", artifactLocation(E.File)}};
    if (E.Line)
      Location["region"] = {{"startLine", E.Line}, {"startColumn", E.Column ? E.Column : 1}};
    return {{"level", "error"},
            {"message", {{"text", E.Message}}},
            {"locations", {{{"physicalLocation", Location}}}}};
  }

  json ruleDescriptor(const rules::RuleInfo &Rule) const {
    std::string Doc;
    if (auto Buffer =
            llvm::MemoryBuffer::getFile(Options.RuleDocsDir + "/" + Rule.Id.str() + ".md"))
      Doc = (*Buffer)->getBuffer().str();
    std::string Full = Rule.Summary.str() + " (fixes: " + Rule.FixKinds.str() + ")";
    if (Doc.empty())
      Doc = Full;
    json Descriptor = {
        {"id", Rule.Id.str()},
        {"name", Rule.Id.str()},
        {"shortDescription", {{"text", Rule.Summary.str()}}},
        {"fullDescription", {{"text", Full}}},
        {"help", {{"text", Doc}, {"markdown", resolveDocLinks(Doc, Options.DocsBase)}}},
        {"defaultConfiguration", {{"level", "warning"}}},
        {"properties",
         {{"tags", {Rule.Kind.str(), "gpu", Rule.Language == "C++" ? "luisa-compute" : "cute-dsl"}},
          {"precision", "high"}}}};
    if (!Options.DocsBase.empty())
      Descriptor["helpUri"] = ruleDocUri(Rule.Id, Options.DocsBase);
    return Descriptor;
  }

  json run(const std::vector<FileResult> &Results) {
    json Rules = json::array();
    for (const rules::RuleInfo &Rule : rules::allRules())
      Rules.push_back(ruleDescriptor(Rule));
    json SarifResults = json::array();
    json Notifications = json::array();
    for (const FileResult &R : Results) {
      std::vector<std::string> Prints = fingerprintFindings(R);
      for (size_t I = 0; I < R.Findings.size(); ++I)
        SarifResults.push_back(result(R.Findings[I], Prints[I]));
      for (const ParseError &E : R.Errors)
        Notifications.push_back(notification(E));
    }
    return {
        {"tool",
         {{"driver",
           {{"name", "kernel-tidy"},
            {"version", Options.ToolVersion},
            {"semanticVersion", Options.ToolVersion},
            {"informationUri", InformationUri},
            {"rules", Rules}}}}},
        {"originalUriBaseIds",
         {{RootBaseId, {{"uri", "file://" + encodeUriPath(absolutePath(Options.Root)) + "/"}}}}},
        {"invocations",
         {{{"executionSuccessful", Notifications.empty()},
           {"toolExecutionNotifications", Notifications}}}},
        {"columnKind", "unicodeCodePoints"},
        {"results", SarifResults}};
  }

private:
  const SarifOptions &Options;
  SourceTexts Texts;
};

} // namespace

std::string formatSarif(const std::vector<FileResult> &Results, const SarifOptions &Options) {
  LogBuilder Builder(Results, Options);
  json Log = {
      {"$schema", SchemaUri}, {"version", "2.1.0"}, {"runs", json::array({Builder.run(Results)})}};
  return Log.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

} // namespace kernel_tidy
