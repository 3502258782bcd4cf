//===--- EditorLatency.cpp - didChange -> publishDiagnostics latency ------===//
//
// kernel-tidy-editor-latency [--edits N] [--file F] [--baseline CLANGD]
//                            [--server KERNEL_CLANGD]
//
// Starts kernel-clangd and a baseline clangd (Debian's clangd-19) on the same
// file with the same configuration and the same fallback flags (bundled DSL
// model), opens the file in both, then sends N edits to each, alternating
// between the servers, and prints the median time from didChange to the
// publishDiagnostics of that version. The edit appends a comment line, so the
// preamble is reused and every rebuild runs the checks on the same code.
//
//===----------------------------------------------------------------------===//

#include "test/unit/LspClient.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>

using kernel_tidy::test::fileUri;
using kernel_tidy::test::LspClient;
using Json = nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

std::string readFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  std::stringstream Buffer;
  Buffer << In.rdbuf();
  return Buffer.str();
}

struct Server {
  std::string Name;
  std::unique_ptr<LspClient> Client;
  std::string Uri;
  std::vector<double> Millis;
};

bool waitDiagnostics(Server &S, int Version, size_t &Count) {
  auto Published = S.Client->waitFor(
      [&](const Json &M) {
        return M.value("method", "") == "textDocument/publishDiagnostics" &&
               M["params"]["uri"] == S.Uri && M["params"].value("version", -1) == Version;
      },
      std::chrono::seconds(120));
  if (!Published)
    return false;
  Count = (*Published)["params"]["diagnostics"].size();
  return true;
}

} // namespace

int main(int argc, char **argv) {
  int Edits = 15;
  std::string File = std::string(KERNEL_TIDY_SOURCE_DIR) +
                     "/test/fixtures/luisa-butterfly-reduction/max-straight-line.cpp";
  std::string Baseline = "/usr/bin/clangd-19";
  std::string Kernel = KERNEL_CLANGD_BINARY;
  for (int I = 1; I + 1 < argc; I += 2) {
    std::string Arg = argv[I];
    if (Arg == "--edits")
      Edits = std::atoi(argv[I + 1]);
    else if (Arg == "--file")
      File = argv[I + 1];
    else if (Arg == "--baseline")
      Baseline = argv[I + 1];
    else if (Arg == "--server")
      Kernel = argv[I + 1];
    else {
      std::cerr << "unknown option " << Arg << "\n";
      return 2;
    }
  }
  std::string Source = readFile(File);
  if (Source.empty()) {
    std::cerr << "cannot read " << File << "\n";
    return 2;
  }
  char Template[] = "/tmp/kernel-tidy-latency-XXXXXX";
  std::string Dir = mkdtemp(Template);
  std::string Model = std::string(KERNEL_TIDY_SOURCE_DIR) + "/src/dsl/api-model";
  std::system(("mkdir -p '" + Dir + "/xdg/clangd'").c_str());
  std::ofstream(Dir + "/.clangd") << "Diagnostics:\n  ClangTidy:\n    Add: [luisa-*]\n";

  std::vector<Server> Servers;
  for (const auto &[Name, Binary] :
       {std::pair<std::string, std::string>{"kernel-clangd", Kernel}, {"clangd-19", Baseline}}) {
    Server S;
    S.Name = Name;
    std::string Sub = Dir + "/" + Name;
    std::system(("mkdir -p '" + Sub + "'").c_str());
    std::string Path = Sub + "/kernel.cpp";
    std::ofstream(Path) << Source;
    S.Uri = fileUri(Path);
    S.Client = std::make_unique<LspClient>(
        std::vector<std::string>{Binary, "--background-index=false",
                                 "--resource-dir=/usr/lib/llvm-19/lib/clang/19"},
        std::vector<std::string>{"XDG_CONFIG_HOME=" + Dir + "/xdg"}, Sub + ".log");
    int Id = S.Client->request(
        "initialize",
        {{"processId", nullptr},
         {"rootUri", fileUri(Dir)},
         {"capabilities", {{"textDocument", {{"publishDiagnostics", {{"versionSupport", true}}}}}}},
         {"initializationOptions", {{"fallbackFlags", {"-std=c++20", "-isystem", Model}}}}});
    if (!S.Client->response(Id, std::chrono::seconds(60))) {
      std::cerr << Name << ": no initialize response (see " << Sub << ".log)\n";
      return 1;
    }
    S.Client->notify("initialized", Json::object());
    S.Client->notify("textDocument/didOpen",
                     {{"textDocument",
                       {{"uri", S.Uri}, {"languageId", "cpp"}, {"version", 1}, {"text", Source}}}});
    size_t Count = 0;
    if (!waitDiagnostics(S, 1, Count)) {
      std::cerr << Name << ": no diagnostics after didOpen\n";
      return 1;
    }
    std::cout << Name << ": " << Count << " diagnostic(s) on open\n";
    Servers.push_back(std::move(S));
  }

  std::string Text = Source;
  for (int E = 0; E < Edits; ++E) {
    Text += "// edit " + std::to_string(E) + "\n";
    for (Server &S : Servers) {
      auto Start = Clock::now();
      S.Client->notify("textDocument/didChange",
                       {{"textDocument", {{"uri", S.Uri}, {"version", E + 2}}},
                        {"contentChanges", Json::array({{{"text", Text}}})}});
      size_t Count = 0;
      if (!waitDiagnostics(S, E + 2, Count)) {
        std::cerr << S.Name << ": no diagnostics for edit " << E << "\n";
        return 1;
      }
      S.Millis.push_back(std::chrono::duration<double, std::milli>(Clock::now() - Start).count());
    }
  }
  double Medians[2];
  for (size_t I = 0; I < Servers.size(); ++I) {
    Server &S = Servers[I];
    std::vector<double> Sorted = S.Millis;
    std::sort(Sorted.begin(), Sorted.end());
    Medians[I] = Sorted[Sorted.size() / 2];
    std::printf("%-14s median %.1f ms  min %.1f ms  max %.1f ms  (%d edits)\n", S.Name.c_str(),
                Medians[I], Sorted.front(), Sorted.back(), Edits);
    S.Client->request("shutdown", nullptr);
    S.Client->notify("exit", nullptr);
    S.Client->waitExit(std::chrono::seconds(30));
  }
  std::printf("kernel-clangd / clangd-19: %+.1f%%\n", 100.0 * (Medians[0] / Medians[1] - 1));
  std::system(("rm -rf '" + Dir + "'").c_str());
  return 0;
}
