//===--- LspClient.cpp - A minimal LSP client over a child's stdio --------===//

#include "test/unit/LspClient.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

namespace kernel_tidy::test {

using Clock = std::chrono::steady_clock;

LspClient::LspClient(const std::vector<std::string> &Argv, const std::vector<std::string> &Env,
                     const std::string &StderrPath) {
  int In[2], Out[2];
  if (::pipe(In) != 0 || ::pipe(Out) != 0)
    return;
  std::vector<std::string> Environment(Env);
  for (char **E = environ; *E; ++E)
    Environment.push_back(*E); // Later duplicates lose: Env wins.
  std::vector<char *> Args, Envp;
  for (const std::string &A : Argv)
    Args.push_back(const_cast<char *>(A.c_str()));
  Args.push_back(nullptr);
  for (const std::string &E : Environment)
    Envp.push_back(const_cast<char *>(E.c_str()));
  Envp.push_back(nullptr);
  Pid = ::fork();
  if (Pid == 0) {
    ::dup2(In[0], STDIN_FILENO);
    ::dup2(Out[1], STDOUT_FILENO);
    int Err = ::open(StderrPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (Err >= 0)
      ::dup2(Err, STDERR_FILENO);
    ::close(In[0]);
    ::close(In[1]);
    ::close(Out[0]);
    ::close(Out[1]);
    ::execve(Args[0], Args.data(), Envp.data());
    ::_exit(127);
  }
  ::close(In[0]);
  ::close(Out[1]);
  ToServer = In[1];
  FromServer = Out[0];
  // A server that dies must not kill the client with SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);
}

LspClient::~LspClient() {
  if (Pid > 0)
    waitExit(std::chrono::milliseconds(0));
  if (ToServer >= 0)
    ::close(ToServer);
  if (FromServer >= 0)
    ::close(FromServer);
}

void LspClient::send(const Json &Message) {
  std::string Body = Message.dump();
  sendRaw("Content-Length: " + std::to_string(Body.size()) + "\r\n\r\n" + Body);
}

void LspClient::sendRaw(const std::string &Data) {
  const char *P = Data.data();
  size_t Left = Data.size();
  while (Left > 0 && ToServer >= 0) {
    ssize_t N = ::write(ToServer, P, Left);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return;
    P += N;
    Left -= N;
  }
}

int LspClient::request(const std::string &Method, Json Params) {
  int Id = NextId++;
  send({{"jsonrpc", "2.0"}, {"id", Id}, {"method", Method}, {"params", std::move(Params)}});
  return Id;
}

void LspClient::notify(const std::string &Method, Json Params) {
  send({{"jsonrpc", "2.0"}, {"method", Method}, {"params", std::move(Params)}});
}

bool LspClient::readSome(Clock::time_point Deadline) {
  for (;;) {
    auto Left = std::chrono::duration_cast<std::chrono::milliseconds>(Deadline - Clock::now());
    if (Left.count() <= 0)
      return false;
    pollfd P{FromServer, POLLIN, 0};
    int R = ::poll(&P, 1, static_cast<int>(Left.count()));
    if (R < 0 && errno == EINTR)
      continue;
    if (R <= 0)
      return false;
    char Chunk[1 << 16];
    ssize_t N = ::read(FromServer, Chunk, sizeof(Chunk));
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false; // The server closed its output.
    Buffer.append(Chunk, N);
    return true;
  }
}

std::optional<LspClient::Json> LspClient::readMessage(Clock::time_point Deadline) {
  for (;;) {
    size_t HeaderEnd = Buffer.find("\r\n\r\n");
    if (HeaderEnd != std::string::npos) {
      std::string Headers = Buffer.substr(0, HeaderEnd);
      std::transform(Headers.begin(), Headers.end(), Headers.begin(), ::tolower);
      size_t At = Headers.find("content-length:");
      if (At == std::string::npos)
        return std::nullopt;
      size_t Length = std::stoul(Headers.substr(At + 15));
      size_t Start = HeaderEnd + 4;
      if (Buffer.size() >= Start + Length) {
        std::string Body = Buffer.substr(Start, Length);
        Buffer.erase(0, Start + Length);
        return Json::parse(Body, nullptr, /*allow_exceptions=*/false);
      }
    }
    if (!readSome(Deadline))
      return std::nullopt;
  }
}

std::optional<LspClient::Json> LspClient::response(int Id, std::chrono::milliseconds Timeout) {
  auto Deadline = Clock::now() + Timeout;
  for (auto It = Kept.begin(); It != Kept.end(); ++It)
    if (!It->contains("method") && It->value("id", Json()) == Id) {
      Json Found = *It;
      Kept.erase(It);
      return Found;
    }
  while (auto Message = readMessage(Deadline)) {
    if (!Message->contains("method") && Message->value("id", Json()) == Id)
      return Message;
    // Server requests (e.g. window/workDoneProgress/create) need an answer.
    if (Message->contains("method") && Message->contains("id"))
      send({{"jsonrpc", "2.0"}, {"id", (*Message)["id"]}, {"result", nullptr}});
    Kept.push_back(std::move(*Message));
  }
  return std::nullopt;
}

std::optional<LspClient::Json> LspClient::waitFor(const std::function<bool(const Json &)> &Match,
                                                  std::chrono::milliseconds Timeout) {
  auto Deadline = Clock::now() + Timeout;
  for (auto It = Kept.begin(); It != Kept.end(); ++It)
    if (Match(*It)) {
      Json Found = *It;
      Kept.erase(It);
      return Found;
    }
  while (auto Message = readMessage(Deadline)) {
    if (Message->contains("method") && Message->contains("id"))
      send({{"jsonrpc", "2.0"}, {"id", (*Message)["id"]}, {"result", nullptr}});
    if (Match(*Message))
      return Message;
    Kept.push_back(std::move(*Message));
  }
  return std::nullopt;
}

int LspClient::waitExit(std::chrono::milliseconds Timeout, bool CloseInput) {
  if (CloseInput && ToServer >= 0) {
    ::close(ToServer);
    ToServer = -1;
  }
  if (Pid <= 0)
    return -1;
  auto Deadline = Clock::now() + Timeout;
  int Status = 0;
  for (;;) {
    pid_t R = ::waitpid(Pid, &Status, WNOHANG);
    if (R == Pid)
      break;
    if (R < 0 || Clock::now() >= Deadline) {
      ::kill(Pid, SIGKILL);
      ::waitpid(Pid, &Status, 0);
      Pid = -1;
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  Pid = -1;
  return WIFEXITED(Status) ? WEXITSTATUS(Status) : 128 + WTERMSIG(Status);
}

static size_t offsetOf(const std::string &Text, const nlohmann::json &Position) {
  size_t Line = Position["line"], Character = Position["character"];
  size_t Offset = 0;
  for (size_t L = 0; L < Line && Offset < Text.size(); ++L) {
    size_t Newline = Text.find('\n', Offset);
    Offset = Newline == std::string::npos ? Text.size() : Newline + 1;
  }
  return std::min(Offset + Character, Text.size());
}

std::string applyWorkspaceEdit(const std::string &Text, const nlohmann::json &Edit,
                               const std::string &Uri) {
  nlohmann::json Edits = nlohmann::json::array();
  if (Edit.contains("changes") && Edit["changes"].contains(Uri))
    Edits = Edit["changes"][Uri];
  if (Edit.contains("documentChanges"))
    for (const auto &Change : Edit["documentChanges"])
      if (Change["textDocument"]["uri"] == Uri)
        for (const auto &E : Change["edits"])
          Edits.push_back(E);
  std::vector<std::pair<size_t, size_t>> Ranges;
  std::vector<std::string> NewTexts;
  for (const auto &E : Edits) {
    Ranges.push_back({offsetOf(Text, E["range"]["start"]), offsetOf(Text, E["range"]["end"])});
    NewTexts.push_back(E["newText"]);
  }
  std::vector<size_t> Order(Ranges.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  // LSP edits refer to the original text: apply from the end.
  std::stable_sort(Order.begin(), Order.end(),
                   [&](size_t A, size_t B) { return Ranges[A].first > Ranges[B].first; });
  std::string Result = Text;
  for (size_t I : Order)
    Result.replace(Ranges[I].first, Ranges[I].second - Ranges[I].first, NewTexts[I]);
  return Result;
}

std::string fileUri(const std::string &Path) { return "file://" + Path; }

} // namespace kernel_tidy::test
