//===--- ReportMerge.h - One report from the reports of CI shards ---------===//

#ifndef KERNEL_TIDY_SRC_DRIVER_REPORTMERGE_H
#define KERNEL_TIDY_SRC_DRIVER_REPORTMERGE_H

#include <optional>
#include <string>
#include <vector>

namespace kernel_tidy {

/// Merges the reports of the shards of one run (`check --shard K/N`): all
/// SARIF logs, all JSON reports, or all baselines. The result has the shape
/// of one unsharded report: one SARIF run (the first log's tool and rules,
/// every result and notification), summed JSON summaries, one baseline.
/// Entries are ordered by file, keeping each file's own order, which is the
/// order of an unsharded run over folders (whose files are listed sorted).
/// std::nullopt with \p Error when the inputs are not all of one kind.
std::optional<std::string> mergeReports(const std::vector<std::string> &Texts, std::string &Error);

} // namespace kernel_tidy

#endif // KERNEL_TIDY_SRC_DRIVER_REPORTMERGE_H
