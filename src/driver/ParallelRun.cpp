//===--- ParallelRun.cpp - Analyses many files on worker threads ----------===//

#include "src/driver/ParallelRun.h"

#include "src/driver/CuteFrontend.h"
#include "src/driver/Paths.h"

#include "llvm/Support/ThreadPool.h"

#include <algorithm>
#include <atomic>
#include <mutex>

namespace kernel_tidy {

std::optional<std::vector<FileResult>> analyzeFiles(const std::vector<std::string> &Files,
                                                    const AnalysisOptions &Analysis,
                                                    const ParallelRunOptions &Options,
                                                    std::string &Error) {
  if (Files.empty())
    return std::vector<FileResult>(); // An empty shard: empty reports.
  unsigned Workers = std::max(1u, std::min<unsigned>(Options.Jobs, Files.size()));
  AnalysisOptions Shared = Analysis;
  // A CuTe DSL helper class often gets its thread index from a kernel in
  // another file of the run: the frontend reads the run's other Python files.
  auto Python = std::make_shared<std::vector<std::string>>();
  for (const std::string &File : Files)
    if (isPythonFile(File))
      Python->push_back(absolutePath(File));
  if (Python->size() > 1 && !Shared.PythonModules)
    Shared.PythonModules = std::move(Python);
  if (Analysis.Pch != PchMode::Off && !Analysis.Prefixes) {
    // One header parse for the files that share their leading includes; a
    // single file reuses it from the cache on its next run.
    auto Planner = Analyzer::create(Analysis, Error);
    if (!Planner)
      return std::nullopt;
    Shared.Prefixes = Planner->planPrecompiledPrefixes(Files, Workers);
  }
  std::vector<std::unique_ptr<Analyzer>> Analyzers;
  for (unsigned I = 0; I < Workers; ++I) {
    Analyzers.push_back(Analyzer::create(Shared, Error));
    if (!Analyzers.back())
      return std::nullopt;
  }

  std::vector<FileResult> Results(Files.size());
  std::atomic<size_t> Next{0};
  std::mutex ProgressLock;
  size_t Done = 0, InOrderNext = 0;
  std::vector<bool> Finished(Files.size(), false);
  auto Work = [&](Analyzer &Mine) {
    for (size_t I = Next++; I < Files.size(); I = Next++) {
      auto Given = Options.Contents.find(Files[I]);
      Results[I] = Given == Options.Contents.end() ? Mine.analyze(Files[I])
                                                   : Mine.analyze(Files[I], Given->second);
      if (Options.AfterAnalysis)
        Options.AfterAnalysis(I, Results[I], Mine);
      std::lock_guard<std::mutex> Guard(ProgressLock);
      ++Done;
      Finished[I] = true;
      for (; InOrderNext < Files.size() && Finished[InOrderNext]; ++InOrderNext)
        if (Options.InOrder)
          Options.InOrder(InOrderNext, Results[InOrderNext]);
      if (Options.OnProgress)
        Options.OnProgress(Done, Files.size());
    }
  };
  // Workers - 1 pool threads, each with its own analyzer; the main thread
  // works too.
  llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(Workers - 1));
  for (unsigned I = 1; I < Workers; ++I)
    Pool.async([&Work, &Mine = *Analyzers[I]] { Work(Mine); });
  Work(*Analyzers[0]);
  Pool.wait();
  return Results;
}

} // namespace kernel_tidy
