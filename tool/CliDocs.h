//===--- CliDocs.h - Docs and completions from the CLI definition ---------===//

#ifndef KERNEL_TIDY_TOOL_CLIDOCS_H
#define KERNEL_TIDY_TOOL_CLIDOCS_H

#include <CLI/CLI.hpp>
#include <string>

namespace kernel_tidy::cli_docs {

/// What `kernel-tidy __cli-docs KIND` prints, made from \p App's commands
/// and options so that none of it can drift from the parser:
///   man:     the man page's COMMANDS AND OPTIONS section (roff);
///   options: README.md's option tables (Markdown);
///   bash:    a bash completion script;
///   zsh:     a zsh completion function.
/// scripts/cli-docs.py writes them into the repository and checks them
/// (ctest cli_docs_in_sync). An unknown \p Kind gives "".
std::string generate(const CLI::App &App, const std::string &Kind);

} // namespace kernel_tidy::cli_docs

#endif // KERNEL_TIDY_TOOL_CLIDOCS_H
