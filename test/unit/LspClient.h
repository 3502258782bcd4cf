//===--- LspClient.h - A minimal LSP client over a child's stdio ----------===//
//
// Starts a language server as a child process and speaks JSON-RPC with
// Content-Length framing over its standard input and output. Every read has a
// deadline, so that a hung server fails a test instead of hanging it.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_TEST_UNIT_LSPCLIENT_H
#define KERNEL_TIDY_TEST_UNIT_LSPCLIENT_H

#include <chrono>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace kernel_tidy::test {

class LspClient {
public:
  using Json = nlohmann::json;

  /// Starts \p Argv[0] with \p Argv, adding \p Env to the environment; the
  /// server's stderr goes to \p StderrPath.
  LspClient(const std::vector<std::string> &Argv, const std::vector<std::string> &Env,
            const std::string &StderrPath);
  ~LspClient();
  LspClient(const LspClient &) = delete;
  LspClient &operator=(const LspClient &) = delete;

  bool running() const { return Pid > 0; }

  /// Sends a request; returns its id.
  int request(const std::string &Method, Json Params);
  void notify(const std::string &Method, Json Params);

  /// The response to request \p Id, or nothing past the deadline. Server
  /// messages read meanwhile are kept for waitFor.
  std::optional<Json> response(int Id, std::chrono::milliseconds Timeout);

  /// The first server notification or request for which \p Match holds, read
  /// or already kept, or nothing past the deadline.
  std::optional<Json> waitFor(const std::function<bool(const Json &)> &Match,
                              std::chrono::milliseconds Timeout);

  /// Sends \p Data as it is (framing included).
  void sendRaw(const std::string &Data);

  /// Closes the server's input (unless \p CloseInput is false) and waits for
  /// it to exit; its exit code, or -1 if it was still running past the
  /// deadline (it is then killed).
  int waitExit(std::chrono::milliseconds Timeout, bool CloseInput = true);

private:
  std::optional<Json> readMessage(std::chrono::steady_clock::time_point Deadline);
  bool readSome(std::chrono::steady_clock::time_point Deadline);
  void send(const Json &Message);

  pid_t Pid = -1;
  int ToServer = -1;
  int FromServer = -1;
  int NextId = 1;
  std::string Buffer;
  std::vector<Json> Kept;
};

/// \p Text with an LSP WorkspaceEdit's edits for \p Uri applied (`changes` or
/// `documentChanges`; positions in UTF-16 code units, ASCII text assumed).
std::string applyWorkspaceEdit(const std::string &Text, const nlohmann::json &Edit,
                               const std::string &Uri);

std::string fileUri(const std::string &Path);

} // namespace kernel_tidy::test

#endif // KERNEL_TIDY_TEST_UNIT_LSPCLIENT_H
