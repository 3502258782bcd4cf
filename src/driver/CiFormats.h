//===--- CiFormats.h - Reports for CI systems: GitHub, GitLab, JUnit ------===//
//
// The formats Ruff's --output-format offers for CI besides SARIF:
//  - github: workflow commands (`::warning file=...::message`), which GitHub
//    Actions shows inline on a pull request without code scanning
//    (docs.github.com, "Workflow commands for GitHub Actions");
//  - gitlab: a Code Quality report, a JSON array of issues
//    (docs.gitlab.com, "Code Quality", implementing a custom tool);
//  - junit: JUnit XML, one test case per file and a failure per finding,
//    which most CI systems show as test results.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_SRC_DRIVER_CIFORMATS_H
#define KERNEL_TIDY_SRC_DRIVER_CIFORMATS_H

#include "src/driver/Findings.h"
#include <string>
#include <vector>

namespace kernel_tidy {

/// GitHub Actions workflow commands, one per finding and per file error;
/// paths relative to \p Root (the repository, as GitHub expects).
std::string formatGithub(const std::vector<FileResult> &Results, const std::string &Root);

/// A GitLab Code Quality report; paths relative to \p Root.
std::string formatGitlab(const std::vector<FileResult> &Results, const std::string &Root);

/// A JUnit XML report: a test case per file, a failure per finding or error.
std::string formatJunit(const std::vector<FileResult> &Results);

} // namespace kernel_tidy

#endif // KERNEL_TIDY_SRC_DRIVER_CIFORMATS_H
