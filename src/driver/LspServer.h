//===--- LspServer.h - `kernel-tidy lsp`: CuTe DSL files in editors -------===//
//
// A language server (LSP 3.17 over stdio) for CuTe DSL (.py) files: the
// findings of the CuTe frontend as diagnostics when a document is opened,
// changed or saved, and code actions for them: the fix (safe ones preferred,
// unsafe ones not, titled with the reason) and "disable RULE for this line",
// the NOLINT comment that `--add-nolint` inserts. It analyses the editor's
// text, never the file on disk, and writes no file. C++ files are
// kernel-clangd's (docs/editors.md); other documents get no diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_SRC_DRIVER_LSPSERVER_H
#define KERNEL_TIDY_SRC_DRIVER_LSPSERVER_H

#include "src/driver/Analyzer.h"
#include <string>

namespace kernel_tidy {

/// Serves the client on \p In / \p Out until its `exit` notification or the
/// end of its input; problems go to stderr. Returns the exit code: 0 after
/// `shutdown` then `exit`, 1 otherwise (LSP), 2 when \p Options cannot work.
/// Diagnostics and hovers link each rule to its page under \p DocsBase (a
/// folder or a URL; none when empty).
int serveLanguageServer(int In, int Out, const AnalysisOptions &Options, const std::string &Version,
                        const std::string &DocsBase = "");

} // namespace kernel_tidy

#endif // KERNEL_TIDY_SRC_DRIVER_LSPSERVER_H
