//===--- KernelClangdMain.cpp - clangd with the kernel-tidy checks --------===//
//
// kernel-clangd is Debian's clangd 19 (clang::clangd::clangdMain) with the
// kernel-tidy clang-tidy module linked in. Everything is clangd's: options,
// configuration, the LSP server. kernel-clangd adds three defaults and
// nothing else:
//
//  - `--resource-dir` names Clang 19's resource directory unless given, since
//    kernel-clangd is not installed next to Clang's builtin headers;
//  - the `initialize` request gets `initializationOptions.fallbackFlags`
//    (clangd's flags for files without a compile database) set to
//    `-std=c++20 -isystem <share>/api-model`, the bundled model of the
//    LuisaCompute DSL API, unless the client sends its own fallbackFlags.
//    `--kernel-tidy-model=DIR` names another model folder; an empty value
//    turns this off;
//  - the checks attach their unsafe fixes to notes (check option UnsafeFixes,
//    off in the plugin), which clangd offers as separate code actions, and
//    say why in a note of their own (clangd drops the text of a note whose
//    fix it turns into a code action); kernel-clangd marks those actions
//    not preferred (`isPreferred: false`), so that an editor's "apply the
//    preferred fixes" never changes rounding, and offers each once (clangd
//    repeats it for the note when the client has no relatedInformation);
//  - clangd links each clang-tidy finding to clang-tidy's own pages, where
//    the kernel-tidy checks have none: kernel-clangd links them to their
//    pages in kernel-tidy's docs (KERNEL_TIDY_DOCS_URL, else the installed
//    docs), as `kernel-tidy lsp` and SARIF do;
//  - clangd's list of fast clang-tidy checks (the one `FastCheckFilter:
//    Strict`, clangd's default, keeps) also names the kernel-tidy checks, as
//    measured by bench/clangd-check-time; every other check keeps clangd's
//    verdict. The link wraps clangd's isFastTidyCheck for this (CMakeLists.txt).
//
//===----------------------------------------------------------------------===//

#include "rules/FixProtocol.h"
#include "rules/RuleRegistry.h"
#include "src/driver/LspTransport.h"
#include "src/driver/Nesting.h"
#include "src/driver/Paths.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"
#include <cerrno>
#include <csignal>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace clang::clangd {
int clangdMain(int argc, char *argv[]);
} // namespace clang::clangd

namespace kernel_tidy::rules {
extern volatile int LuisaModuleAnchorSource;
void offerUnsafeFixesByDefault(); // rules/RuleBase.h
} // namespace kernel_tidy::rules

/// clangd's own isFastTidyCheck, reached through the linker's --wrap.
std::optional<bool> clangdIsFastTidyCheck(llvm::StringRef Check) __asm__(
    "__real__ZN5clang6clangd15isFastTidyCheckEN4llvm9StringRefE");

/// What clangd's calls of isFastTidyCheck reach: the kernel-tidy checks are
/// fast (their overhead on a kernel file is under clangd's 8% threshold for
/// fast checks, bench/clangd-check-time), other checks are as clangd says.
std::optional<bool> isFastTidyCheck(llvm::StringRef Check) __asm__(
    "__wrap__ZN5clang6clangd15isFastTidyCheckEN4llvm9StringRefE");

std::optional<bool> isFastTidyCheck(llvm::StringRef Check) {
  if (const kernel_tidy::rules::RuleInfo *Rule = kernel_tidy::rules::findRule(Check))
    if (Rule->Language == "C++")
      return true;
  return clangdIsFastTidyCheck(Check);
}

namespace {

/// kernel-tidy's share folder (the bundled DSL model, the docs), laid out
/// next to the executable by both the build tree and `cmake --install`.
std::string shareDir(const char *Argv0) {
  static int Anchor;
  std::string Exe = llvm::sys::fs::getMainExecutable(Argv0, &Anchor);
  llvm::SmallString<256> Dir(llvm::sys::path::parent_path(llvm::sys::path::parent_path(Exe)));
  llvm::sys::path::append(Dir, KERNEL_TIDY_SHARE_SUBDIR);
  return Dir.str().str();
}

using kernel_tidy::lsp::writeAll;

/// Copies what can be read from \p From to \p To until either ends.
void copyAll(int From, int To) {
  char Buffer[1 << 16];
  for (;;) {
    ssize_t N = ::read(From, Buffer, sizeof(Buffer));
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0 || !writeAll(To, llvm::StringRef(Buffer, N)))
      return;
  }
}

/// \p Body as JSON; nothing when it is not JSON or is nested too deep
/// (llvm::json::parse recurses once per level: a message nested a million
/// levels deep would crash here; clangd gets it as sent).
std::optional<llvm::json::Value> parseMessage(llvm::StringRef Body) {
  if (!kernel_tidy::nestingProblem(Body, /*JsonStrings=*/true).empty())
    return std::nullopt;
  llvm::Expected<llvm::json::Value> Message = llvm::json::parse(Body);
  if (!Message) {
    llvm::consumeError(Message.takeError());
    return std::nullopt;
  }
  return std::move(*Message);
}

/// The initialize request with the bundled-model fallback flags added, or
/// nothing if \p Body is not one or already carries fallbackFlags.
std::optional<std::string> withFallbackFlags(llvm::StringRef Body, const std::string &ModelDir) {
  std::optional<llvm::json::Value> Message = parseMessage(Body);
  llvm::json::Object *Object = Message ? Message->getAsObject() : nullptr;
  if (!Object || Object->getString("method") != "initialize")
    return std::nullopt;
  llvm::json::Object *Params = Object->getObject("params");
  if (!Params)
    return std::nullopt;
  llvm::json::Object *InitOptions = Params->getObject("initializationOptions");
  if (!InitOptions) {
    (*Params)["initializationOptions"] = llvm::json::Object();
    InitOptions = Params->getObject("initializationOptions");
  }
  if (InitOptions->get("fallbackFlags"))
    return std::nullopt; // The client's choice.
  (*InitOptions)["fallbackFlags"] =
      llvm::json::Array{"-std=c++20", "-isystem", ModelDir, "-isystem", ModelDir + "/luisa"};
  std::string Patched;
  llvm::raw_string_ostream(Patched) << llvm::json::Value(std::move(*Message));
  return kernel_tidy::lsp::frame(Patched);
}

/// Serves clangd a standard input whose initialize request carries the
/// bundled-model fallback flags; every other byte passes through unchanged.
bool installFallbackFlags(const std::string &ModelDir) {
  int Pipe[2];
  if (::pipe(Pipe) != 0)
    return false;
  int Client = ::dup(STDIN_FILENO);
  if (Client < 0 || ::dup2(Pipe[0], STDIN_FILENO) < 0)
    return false;
  ::close(Pipe[0]);
  std::thread([Client, Out = Pipe[1], ModelDir] {
    // clangd refuses a message over its limit, or without a length: hand
    // those on unread for it to refuse, rather than allocate them here.
    std::string Raw, Body;
    kernel_tidy::lsp::Framed First = kernel_tidy::lsp::readMessage(Client, Raw, Body);
    if (First.K == kernel_tidy::lsp::Framed::Message)
      if (auto Patched = withFallbackFlags(Body, ModelDir))
        Raw = std::move(*Patched) + Raw.substr(First.BodyEnd);
    if (writeAll(Out, Raw))
      copyAll(Client, Out);
    ::close(Out); // clangd sees end of input, as it would have.
  }).detach();
  return true;
}

/// Ends the process a few seconds after a crash began. clangd's crash
/// report (stack dump) can block for ever when the fault left a lock held
/// that the report needs (a stack overflow inside malloc, say), and an
/// editor then waits on a server that neither answers nor exits; clangd-19
/// alone does the same. The thread is started beforehand and woken with
/// write(), which is safe in a signal handler.
void endCrashesThatHang() {
  static int Wake[2];
  if (::pipe(Wake) != 0)
    return;
  std::thread([] {
    char Byte;
    ssize_t N;
    while ((N = ::read(Wake[0], &Byte, 1)) < 0 && errno == EINTR) {
    }
    if (N != 1)
      return;
    ::sleep(3);
    static const char Message[] =
        "kernel-clangd: the crash report did not finish within 3 s; aborting\n";
    (void)!::write(STDERR_FILENO, Message, sizeof(Message) - 1);
    ::signal(SIGABRT, SIG_DFL);
    ::raise(SIGABRT);
  }).detach();
  // Registered before clangd's handlers, so it runs before they can block.
  llvm::sys::AddSignalHandler(
      [](void *) {
        char Byte = 0;
        (void)!::write(Wake[1], &Byte, 1);
      },
      nullptr);
}

/// Marks each code action in \p Actions (a JSON array) that applies an
/// unsafe fix not preferred; true if one was.
bool unpreferUnsafeFixes(llvm::json::Array *Actions) {
  if (!Actions)
    return false;
  bool Changed = false;
  for (llvm::json::Value &Action : *Actions) {
    llvm::json::Object *Object = Action.getAsObject();
    if (!Object)
      continue;
    std::optional<llvm::StringRef> Title = Object->getString("title");
    if (Title && kernel_tidy::fix_protocol::isUnsafeFixTitle(*Title)) {
      (*Object)["isPreferred"] = false;
      Changed = true;
    }
  }
  return Changed;
}

/// Removes from \p Actions (a codeAction result) each action that repeats an
/// earlier one but for the diagnostics it names; true if one was removed.
/// clangd 19 keeps a note that carries a fix as a note too, and a client
/// without relatedInformation gets it as a diagnostic of its own: asked for
/// the actions of a line, clangd offers the fix once for the finding and
/// once for its note.
bool dropRepeatedActions(llvm::json::Array *Actions) {
  if (!Actions)
    return false;
  std::set<std::string> Seen;
  llvm::json::Array Kept;
  for (llvm::json::Value &Action : *Actions) {
    std::string Key;
    if (const llvm::json::Object *Object = Action.getAsObject()) {
      llvm::json::Object WithoutDiagnostics = *Object;
      WithoutDiagnostics.erase("diagnostics");
      llvm::raw_string_ostream(Key) << llvm::json::Value(std::move(WithoutDiagnostics));
    }
    if (Key.empty() || Seen.insert(Key).second)
      Kept.push_back(std::move(Action));
  }
  bool Dropped = Kept.size() != Actions->size();
  *Actions = std::move(Kept);
  return Dropped;
}

/// Links the diagnostic \p D of a kernel-tidy check to the rule's page
/// instead of clang-tidy's (which has none for them); true if it did.
bool linkRulePage(llvm::json::Object &D, const std::string &DocsBase) {
  std::optional<llvm::StringRef> Code = D.getString("code");
  llvm::json::Object *Description = D.getObject("codeDescription");
  if (!Code || !Description || !kernel_tidy::rules::findRule(*Code))
    return false;
  (*Description)["href"] = kernel_tidy::ruleDocUri(*Code, DocsBase);
  return true;
}

/// clangd's message \p Body with its unsafe fixes offered once and not
/// preferred (the result of a codeAction request, the code actions that
/// clangd puts in published diagnostics) and the kernel-tidy findings linked
/// to their rules' pages, or nothing if it has neither.
std::optional<std::string> withKernelTidyActionsAndLinks(llvm::StringRef Body,
                                                         const std::string &DocsBase) {
  // Most messages mention no unsafe fix and no check's page: pass them on
  // unparsed. clangd links a check `luisa-x` to .../clang-tidy/checks/luisa/x.html.
  if (!Body.contains(kernel_tidy::fix_protocol::unsafeFixNote("")) &&
      !Body.contains("/clang-tidy/checks/luisa/"))
    return std::nullopt;
  std::optional<llvm::json::Value> Message = parseMessage(Body);
  llvm::json::Object *Object = Message ? Message->getAsObject() : nullptr;
  if (!Object)
    return std::nullopt;
  bool Changed = dropRepeatedActions(Object->getArray("result"));
  Changed |= unpreferUnsafeFixes(Object->getArray("result"));
  if (llvm::json::Object *Params = Object->getObject("params"))
    if (llvm::json::Array *Diagnostics = Params->getArray("diagnostics"))
      for (llvm::json::Value &Diagnostic : *Diagnostics)
        if (llvm::json::Object *D = Diagnostic.getAsObject()) {
          Changed |= unpreferUnsafeFixes(D->getArray("codeActions"));
          Changed |= linkRulePage(*D, DocsBase);
        }
  if (!Changed)
    return std::nullopt;
  std::string Patched;
  llvm::raw_string_ostream(Patched) << llvm::json::Value(std::move(*Message));
  return kernel_tidy::lsp::frame(Patched);
}

/// Sends clangd's standard output to the client through a thread that
/// marks unsafe fixes not preferred and links the kernel-tidy findings to
/// their pages; every other byte passes through unchanged. The returned
/// thread ends when clangd's output is closed.
std::optional<std::thread> installOutputFilter(const std::string &DocsBase) {
  int Pipe[2];
  if (::pipe(Pipe) != 0)
    return std::nullopt;
  int Client = ::dup(STDOUT_FILENO);
  if (Client < 0 || ::dup2(Pipe[1], STDOUT_FILENO) < 0)
    return std::nullopt;
  ::close(Pipe[1]);
  return std::thread([Client, In = Pipe[0], DocsBase] {
    std::string Raw, Body;
    bool Open = true;
    for (kernel_tidy::lsp::Framed Next;
         Open && (Next = kernel_tidy::lsp::readMessage(In, Raw, Body)).K ==
                     kernel_tidy::lsp::Framed::Message;) {
      // Raw may hold the start of the next message past BodyEnd.
      std::optional<std::string> Patched = withKernelTidyActionsAndLinks(Body, DocsBase);
      Open = writeAll(Client, Patched ? llvm::StringRef(*Patched)
                                      : llvm::StringRef(Raw).take_front(Next.BodyEnd));
      Raw.erase(0, Next.BodyEnd);
    }
    // What was read of a message that is not one goes on as it was.
    if (Open && writeAll(Client, Raw))
      copyAll(In, Client);
    ::close(In);
    ::close(Client);
  });
}

bool mentionsOption(llvm::ArrayRef<std::string> Args, llvm::StringRef Name) {
  for (llvm::StringRef Arg : Args) {
    Arg = Arg.ltrim('-');
    if (Arg == Name || Arg.starts_with((Name + "=").str()))
      return true;
  }
  return false;
}

} // namespace

int main(int argc, char *argv[]) {
  // The checks are linked as objects; keep their registration referenced.
  (void)kernel_tidy::rules::LuisaModuleAnchorSource;
  // clangd offers a note's fix as its own code action, titled by the note
  // ("unsafe fix: ... rounding"), and applies it only when the user picks it.
  kernel_tidy::rules::offerUnsafeFixesByDefault();
  endCrashesThatHang();

  std::vector<std::string> Args;
  std::string ModelDir = shareDir(argv[0]) + "/api-model";
  for (int I = 1; I < argc; ++I) {
    llvm::StringRef Arg = argv[I];
    if (Arg.consume_front("--kernel-tidy-model=")) {
      ModelDir = Arg.str();
      continue;
    }
    Args.push_back(argv[I]);
  }
  std::vector<std::string> FromEnv;
  if (auto Flags = llvm::sys::Process::GetEnv("CLANGD_FLAGS"))
    FromEnv.push_back(*Flags);
  if (!mentionsOption(Args, "resource-dir") &&
      !(FromEnv.size() && llvm::StringRef(FromEnv[0]).contains("resource-dir")))
    Args.insert(Args.begin(), std::string("--resource-dir=") + KERNEL_TIDY_CLANG_RESOURCE_DIR);

  // clangd prints its own version and help after these lines and exits.
  if (mentionsOption(Args, "version"))
    llvm::outs() << "kernel-clangd " << KERNEL_TIDY_VERSION
                 << " (clangd with the kernel-tidy checks; bundled DSL model: "
                 << (ModelDir.empty() ? std::string("off") : ModelDir) << ")\n";
  if (mentionsOption(Args, "help") || mentionsOption(Args, "help-hidden"))
    llvm::outs() << "kernel-clangd " << KERNEL_TIDY_VERSION
                 << ": clangd with the kernel-tidy checks (luisa-*).\n\n"
                    "KERNEL-CLANGD OPTIONS:\n"
                    "  --kernel-tidy-model=<dir>  The DSL model that files without a compile "
                    "database are parsed with\n"
                    "                             (default: "
                 << ModelDir
                 << "; empty: clangd's defaults)\n\n"
                    "The options below are clangd's.\n\n";
  llvm::outs().flush();
  bool Serving = !mentionsOption(Args, "check") && !mentionsOption(Args, "help") &&
                 !mentionsOption(Args, "help-hidden") && !mentionsOption(Args, "version");
  if (Serving && !ModelDir.empty()) {
    if (!llvm::sys::fs::is_directory(ModelDir))
      llvm::errs() << "kernel-clangd: bundled DSL model not found at '" << ModelDir
                   << "'; files without a compile database use clangd's defaults\n";
    else if (!installFallbackFlags(ModelDir))
      llvm::errs() << "kernel-clangd: cannot wrap standard input; files without a "
                      "compile database use clangd's defaults\n";
  }

  std::optional<std::thread> Filter;
  if (Serving) {
    Filter = installOutputFilter(kernel_tidy::docsBase(KERNEL_TIDY_DOCS_URL, shareDir(argv[0])));
    if (!Filter)
      llvm::errs() << "kernel-clangd: cannot wrap standard output; unsafe fixes are offered "
                      "as clangd marks them, links as clangd makes them\n";
  }

  std::vector<char *> Argv{argv[0]};
  for (std::string &Arg : Args)
    Argv.push_back(Arg.data());
  Argv.push_back(nullptr);
  int Code = clang::clangd::clangdMain(static_cast<int>(Argv.size()) - 1, Argv.data());
  if (Filter) {
    // The filter ends at the end of clangd's output; wait until it has
    // handed everything on.
    llvm::outs().flush();
    ::close(STDOUT_FILENO);
    Filter->join();
  }
  return Code;
}
