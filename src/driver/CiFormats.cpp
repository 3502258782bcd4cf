//===--- CiFormats.cpp - Reports for CI systems: GitHub, GitLab, JUnit ----===//

#include "src/driver/CiFormats.h"

#include "rules/RuleRegistry.h"
#include "src/driver/Fingerprint.h"
#include "src/driver/Paths.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/xxhash.h"
#include <map>
#include <nlohmann/json.hpp>

namespace kernel_tidy {
namespace {

/// A workflow command's message: '%', CR and LF escaped as GitHub's runner
/// reads them back; a property also ':' and ','.
std::string githubEscape(llvm::StringRef Text, bool Property) {
  std::string Out;
  for (char C : Text) {
    if (C == '%')
      Out += "%25";
    else if (C == '\r')
      Out += "%0D";
    else if (C == '\n')
      Out += "%0A";
    else if (Property && C == ':')
      Out += "%3A";
    else if (Property && C == ',')
      Out += "%2C";
    else
      Out += C;
  }
  return Out;
}

std::string xmlEscape(llvm::StringRef Raw) {
  // XML is text: bytes that are not UTF-8 (a file name) become U+FFFD, or
  // the document would not be well-formed (issue 49, item 12).
  std::string Valid = llvm::json::isUTF8(Raw) ? Raw.str() : llvm::json::fixUTF8(Raw);
  llvm::StringRef Text = Valid;
  std::string Out;
  for (unsigned char C : Text) {
    switch (C) {
    case '&':
      Out += "&amp;";
      break;
    case '<':
      Out += "&lt;";
      break;
    case '>':
      Out += "&gt;";
      break;
    case '"':
      Out += "&quot;";
      break;
    case '\'':
      Out += "&apos;";
      break;
    default:
      // XML 1.0 has no other control characters, even escaped.
      Out += C < 0x20 && C != '\t' && C != '\n' && C != '\r' ? '?' : static_cast<char>(C);
    }
  }
  return Out;
}

std::string location(const std::string &File, unsigned Line, unsigned Column) {
  return File + ":" + std::to_string(Line) + ":" + std::to_string(Column);
}

/// GitLab's severity for a finding, from what its rule finds (Rules.def): a
/// wrong or undefined kernel is critical, one right on some backends only
/// major, a slow one minor; --warnings-as-errors makes it at least major.
llvm::StringRef gitlabSeverity(const Finding &F) {
  const rules::RuleInfo *Rule = rules::findRule(F.Rule);
  llvm::StringRef Kind = Rule ? Rule->Kind : "performance";
  if (Kind == "correctness")
    return "critical";
  return Kind == "portability" || F.AsError ? "major" : "minor";
}

} // namespace

std::string formatGithub(const std::vector<FileResult> &Results, const std::string &Root) {
  std::string Out;
  auto Command = [&](const char *Kind, const std::string &File, unsigned Line, unsigned Column,
                     unsigned EndLine, unsigned EndColumn, const std::string &Title,
                     const std::string &Message) {
    Out += std::string("::") + Kind + " file=" + githubEscape(relativeToRoot(File, Root), true);
    // GitHub takes columns only for a range within one line (its annotations
    // API rejects start/end columns when the lines differ).
    bool OneLine = !EndLine || EndLine == Line;
    if (Line) {
      Out += ",line=" + std::to_string(Line);
      if (OneLine)
        Out += ",col=" + std::to_string(Column);
      if (EndLine)
        Out += ",endLine=" + std::to_string(EndLine);
      if (EndLine && OneLine)
        Out += ",endColumn=" + std::to_string(EndColumn);
    }
    Out += ",title=" + githubEscape(Title, true) + "::" + githubEscape(Message, false) + "\n";
  };
  for (const FileResult &R : Results) {
    for (const ParseError &E : R.Errors)
      Command("error", E.File, E.Line, E.Column, 0, 0, "kernel-tidy", E.Message);
    for (const Finding &F : R.Findings)
      Command(F.AsError ? "error" : "warning", F.File, F.Begin.Line, F.Begin.Column, F.End.Line,
              F.End.Column, F.Rule, F.Message + " [" + F.Rule + "]");
  }
  return Out;
}

std::string formatGitlab(const std::vector<FileResult> &Results, const std::string &Root) {
  nlohmann::json Issues = nlohmann::json::array();
  std::map<std::string, unsigned> SameErrors; // GitLab merges issues of one fingerprint.
  for (const FileResult &R : Results) {
    for (const ParseError &E : R.Errors) {
      std::string Path = relativeToRoot(E.File, Root);
      std::string Key = "error\n" + Path + "\n" + E.Message;
      if (unsigned Before = SameErrors[Key]++)
        Key += "\n" + std::to_string(Before);
      Issues.push_back(
          {{"description", E.Message},
           {"check_name", "kernel-tidy-error"},
           {"fingerprint", llvm::utohexstr(llvm::xxh3_64bits(Key))},
           {"severity", "blocker"},
           {"location", {{"path", Path}, {"lines", {{"begin", std::max(1u, E.Line)}}}}}});
    }
    // Line-independent fingerprints (as the baseline's), so that GitLab
    // matches a finding across commits that move it.
    std::vector<std::string> Prints = fingerprintFindings(R);
    for (size_t I = 0; I < R.Findings.size(); ++I) {
      const Finding &F = R.Findings[I];
      std::string Path = relativeToRoot(F.File, Root);
      Issues.push_back(
          {{"description", F.Message},
           {"check_name", F.Rule},
           {"fingerprint",
            llvm::utohexstr(llvm::xxh3_64bits(Path + "\n" + F.Rule + "\n" + Prints[I]))},
           {"severity", gitlabSeverity(F)},
           {"location",
            {{"path", Path}, {"lines", {{"begin", F.Begin.Line}, {"end", F.End.Line}}}}}});
    }
  }
  return Issues.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string formatJunit(const std::vector<FileResult> &Results) {
  // One test case per finding (a failure) and per file error (an error, as a
  // test that could not run), so that a CI's test view lists each on its own;
  // a file with neither is one passing case.
  size_t Tests = 0, Failures = 0, Errors = 0;
  std::string Cases;
  auto Case = [&](const std::string &File, const std::string &Name, const std::string &Body) {
    ++Tests;
    Cases += "    <testcase name=\"" + xmlEscape(Name) + "\" classname=\"" + xmlEscape(File) + "\"";
    Cases += Body.empty() ? "/>\n" : ">\n" + Body + "    </testcase>\n";
  };
  for (const FileResult &R : Results) {
    for (const ParseError &E : R.Errors) {
      ++Errors;
      Case(
          R.File, "kernel-tidy:" + std::to_string(E.Line) + ":" + std::to_string(E.Column),
          "      <error type=\"error\" message=\"" + xmlEscape(E.Message) + "\">" +
              xmlEscape(location(R.shownName(E.File), E.Line, E.Column) + ": error: " + E.Message) +
              "</error>\n");
    }
    for (const Finding &F : R.Findings) {
      ++Failures;
      const std::string &Shown = R.shownName(F.File);
      Case(Shown,
           F.Rule + ":" + std::to_string(F.Begin.Line) + ":" + std::to_string(F.Begin.Column),
           "      <failure type=\"" + xmlEscape(F.Rule) + "\" message=\"" + xmlEscape(F.Message) +
               "\">" +
               xmlEscape(location(Shown, F.Begin.Line, F.Begin.Column) + ": " +
                         (F.AsError ? "error: " : "warning: ") + F.Message + " [" + F.Rule + "]") +
               "</failure>\n");
    }
    if (R.Errors.empty() && R.Findings.empty())
      Case(R.File, "kernel-tidy", "");
  }
  std::string Counts = "tests=\"" + std::to_string(Tests) + "\" failures=\"" +
                       std::to_string(Failures) + "\" errors=\"" + std::to_string(Errors) + "\"";
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"kernel-tidy\" " + Counts +
         ">\n  <testsuite name=\"kernel-tidy\" " + Counts + ">\n" + Cases +
         "  </testsuite>\n</testsuites>\n";
}

} // namespace kernel_tidy
