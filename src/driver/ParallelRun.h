//===--- ParallelRun.h - Analyses many files on worker threads ------------===//

#ifndef KERNEL_TIDY_SRC_DRIVER_PARALLELRUN_H
#define KERNEL_TIDY_SRC_DRIVER_PARALLELRUN_H

#include "src/driver/Analyzer.h"
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kernel_tidy {

struct ParallelRunOptions {
  unsigned Jobs = 1;
  /// Texts analysed in place of the files they are keyed by (the text of
  /// --stdin-filename).
  std::map<std::string, std::string> Contents;
  /// Runs on the worker right after a file is analysed, with the worker's
  /// analyzer (to filter, fix and write the file). Called concurrently for
  /// different files.
  std::function<void(size_t Index, FileResult &, Analyzer &)> AfterAnalysis;
  /// Called after each file, one call at a time, with files done so far.
  std::function<void(size_t Done, size_t Total)> OnProgress;
  /// Called once per file, in the order of the files, as soon as the file
  /// and every file before it are done (after its AfterAnalysis), one call
  /// at a time: a report can stream and still keep its order, and drop
  /// what an earlier file reported.
  std::function<void(size_t Index, FileResult &)> InOrder;
};

/// Analyses \p Files with up to Options.Jobs threads, each with its own
/// Analyzer (clang-tidy's context is per run and not shared). The results
/// are in the order of \p Files, whatever order the threads finish in.
/// std::nullopt with \p Error when an analyzer cannot be created.
std::optional<std::vector<FileResult>> analyzeFiles(const std::vector<std::string> &Files,
                                                    const AnalysisOptions &Analysis,
                                                    const ParallelRunOptions &Options,
                                                    std::string &Error);

} // namespace kernel_tidy

#endif // KERNEL_TIDY_SRC_DRIVER_PARALLELRUN_H
