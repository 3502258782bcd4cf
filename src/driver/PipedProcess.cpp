//===--- PipedProcess.cpp - A child process that answers lines over pipes -===//

#include "src/driver/PipedProcess.h"

#include "src/driver/AtomicFile.h"
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

namespace kernel_tidy {
namespace {

constexpr size_t StderrTail = 2000;

void closeFd(int &FD) {
  if (FD >= 0)
    ::close(FD);
  FD = -1;
}

/// Reads what is there on \p FD into \p Out: false at the end of the stream
/// (or an error other than "nothing yet").
bool readAvailable(int FD, std::string &Out) {
  char Buffer[65536];
  ssize_t Got = ::read(FD, Buffer, sizeof(Buffer));
  if (Got > 0) {
    Out.append(Buffer, static_cast<size_t>(Got));
    return true;
  }
  return Got < 0 && (errno == EINTR || errno == EAGAIN);
}

constexpr int CancelPollMs = 10;

int msUntil(std::chrono::steady_clock::time_point Deadline) {
  auto Left = std::chrono::duration_cast<std::chrono::milliseconds>(
      Deadline - std::chrono::steady_clock::now());
  return static_cast<int>(std::max<int64_t>(0, std::min<int64_t>(Left.count(), 60000)));
}

} // namespace

PipedProcess::PipedProcess() = default;
PipedProcess::~PipedProcess() { stop(); }

std::string PipedProcess::start(const std::string &Program, const std::vector<std::string> &Args) {
  stop();
  // Close-on-exec everywhere: another worker's child must not inherit these
  // ends, or it would keep this child's input open after the driver is gone.
  int In[2], Out[2], Err[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, In) != 0)
    return std::string("cannot create a socket: ") + std::strerror(errno);
  if (::pipe2(Out, O_CLOEXEC) != 0 || ::pipe2(Err, O_CLOEXEC) != 0) {
    std::string Error = std::string("cannot create a pipe: ") + std::strerror(errno);
    ::close(In[0]);
    ::close(In[1]);
    return Error;
  }
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_adddup2(&Actions, In[1], 0);
  posix_spawn_file_actions_adddup2(&Actions, Out[1], 1);
  posix_spawn_file_actions_adddup2(&Actions, Err[1], 2);
  std::vector<char *> Argv;
  for (const std::string &Arg : Args)
    Argv.push_back(const_cast<char *>(Arg.c_str()));
  Argv.push_back(nullptr);
  pid_t Child = -1;
  int Failed = ::posix_spawn(&Child, Program.c_str(), &Actions, nullptr, Argv.data(), environ);
  posix_spawn_file_actions_destroy(&Actions);
  ::close(In[1]);
  ::close(Out[1]);
  ::close(Err[1]);
  if (Failed != 0) {
    ::close(In[0]);
    ::close(Out[0]);
    ::close(Err[0]);
    return std::strerror(Failed);
  }
  Pid = Child;
  KillOnSignal = std::make_unique<SignalKill>(Pid);
  ToChild = In[0];
  FromChild = Out[0];
  ErrFromChild = Err[0];
  for (int FD : {ToChild, FromChild, ErrFromChild})
    ::fcntl(FD, F_SETFL, ::fcntl(FD, F_GETFL) | O_NONBLOCK);
  Pending.clear();
  ErrTail.clear();
  return "";
}

void PipedProcess::stop() {
  if (Pid > 0) {
    ::kill(Pid, SIGKILL);
    while (::waitpid(Pid, nullptr, 0) < 0 && errno == EINTR) {
    }
  }
  Pid = -1;
  KillOnSignal.reset();
  closeFd(ToChild);
  closeFd(FromChild);
  closeFd(ErrFromChild);
}

void PipedProcess::readStderr() {
  while (ErrFromChild >= 0) {
    size_t Before = ErrTail.size();
    if (!readAvailable(ErrFromChild, ErrTail)) {
      closeFd(ErrFromChild);
      break;
    }
    if (ErrTail.size() > 2 * StderrTail)
      ErrTail.erase(0, ErrTail.size() - StderrTail);
    if (ErrTail.size() == Before)
      break; // Nothing more for now.
  }
}

std::string PipedProcess::reap() {
  // Its output has ended; give it a moment to exit on its own, so that its
  // status (exit code, signal) can be told, then make sure it is gone.
  int Status = 0;
  pid_t Done = 0;
  for (int Try = 0; Try < 100 && (Done = ::waitpid(Pid, &Status, WNOHANG)) == 0; ++Try) {
    readStderr();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  readStderr();
  std::string How = "still running, killed";
  if (Done == Pid)
    How = WIFSIGNALED(Status) ? "signal " + std::to_string(WTERMSIG(Status))
                              : "exit " + std::to_string(WEXITSTATUS(Status));
  else
    ::kill(Pid, SIGKILL);
  if (Done != Pid)
    while (::waitpid(Pid, nullptr, 0) < 0 && errno == EINTR) {
    }
  Pid = -1;
  stop();
  return How;
}

PipedProcess::Answer PipedProcess::exchange(llvm::StringRef Request,
                                            std::chrono::steady_clock::time_point Deadline,
                                            size_t MaxLine, const std::atomic<bool> *Cancel) {
  Answer Result;
  ErrTail.clear();
  size_t Sent = 0;
  auto Finish = [&](Answer::Kind Kind) {
    Result.What = Kind;
    if (Kind == Answer::Ended) {
      Result.Status = reap();
      Result.Text = std::move(Pending); // What it wrote before it ended.
      Pending.clear();
    } else if (Kind != Answer::Line)
      stop();
    Result.Stderr = llvm::StringRef(ErrTail).take_back(StderrTail).str();
    return Result;
  };
  while (true) {
    if (size_t Break = Pending.find('\n'); Break != std::string::npos) {
      // An answer to a request it has not read yet belongs to no request.
      if (Sent < Request.size())
        return Finish(Answer::Early);
      Result.Text = Pending.substr(0, Break);
      Pending.erase(0, Break + 1);
      return Finish(Answer::Line);
    }
    if (Pending.size() > MaxLine)
      return Finish(Answer::TooLong);
    if (FromChild < 0)
      return Finish(Answer::Ended);
    if (std::chrono::steady_clock::now() >= Deadline)
      return Finish(Answer::TimedOut);
    if (Cancel && Cancel->load())
      return Finish(Answer::Cancelled);
    struct pollfd Fds[3] = {{FromChild, POLLIN, 0},
                            {ErrFromChild, POLLIN, 0},
                            {Sent < Request.size() ? ToChild : -1, POLLOUT, 0}};
    // A cancel flag is looked at every CancelPollMs.
    int Ready =
        ::poll(Fds, 3, Cancel ? std::min(msUntil(Deadline), CancelPollMs) : msUntil(Deadline));
    if (Ready < 0 && errno != EINTR)
      return Finish(Answer::Ended);
    if (Fds[2].revents & (POLLOUT | POLLERR | POLLHUP)) {
      // MSG_NOSIGNAL: a child that is gone is an answer, not a SIGPIPE.
      ssize_t Wrote =
          ::send(ToChild, Request.data() + Sent, std::min<size_t>(Request.size() - Sent, 1 << 20),
                 MSG_NOSIGNAL | MSG_DONTWAIT);
      if (Wrote > 0)
        Sent += static_cast<size_t>(Wrote);
      else if (Wrote < 0 && errno != EINTR && errno != EAGAIN)
        Sent = Request.size(); // Its input is closed: what it wrote tells why.
    }
    if (Fds[1].revents)
      readStderr();
    if (Fds[0].revents && !readAvailable(FromChild, Pending))
      closeFd(FromChild);
  }
}

} // namespace kernel_tidy
