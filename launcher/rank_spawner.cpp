#include "launcher/rank_spawner.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <csignal>
#include <cstring>

#include "runtime/support/error.hpp"

namespace halyard::launcher {
namespace {

// hlaunch changes the disposition of these (asio handlers, SIGPIPE ignored); a rank must start
// with the defaults, as if started from a shell.
constexpr std::array kSignalsToReset = {SIGINT, SIGTERM, SIGHUP, SIGCHLD, SIGPIPE, SIGQUIT};

[[noreturn]] void fail_internal(const std::string& what) {
  throw Error(ErrorCode::kInternal, what + ": " + std::strerror(errno));
}

void write_stderr(const char* text) {
  ssize_t ignored = ::write(STDERR_FILENO, text, std::strlen(text));
  (void)ignored;
}

// Runs in the child between fork and exec: only async-signal-safe calls from here on, since
// another thread of hlaunch may have held a lock at the moment of the fork.
[[noreturn]] void exec_child(const RankCommand& command, pid_t parent, int in_fd, int out_fd,
                             int err_fd, char* const* argv, char* const* envp) {
  ::setpgid(0, 0);
  // The kernel kills the rank when hlaunch dies, however it dies; a rank that reached this
  // point after hlaunch already died would miss that, hence the check.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(125);
  if (::dup2(in_fd, STDIN_FILENO) < 0 || ::dup2(out_fd, STDOUT_FILENO) < 0 ||
      ::dup2(err_fd, STDERR_FILENO) < 0) {
    ::_exit(125);
  }
  if (command.cpus) ::sched_setaffinity(0, sizeof(cpu_set_t), &*command.cpus);
  if (!command.cwd.empty() && ::chdir(command.cwd.c_str()) != 0) {
    // A directory missing on this host is no reason to fail: the rank starts where it is.
  }
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  for (int sig : kSignalsToReset) ::sigaction(sig, &dfl, nullptr);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  // Nothing of hlaunch's (listening socket, other ranks' pipes) leaks into the rank.
  ::close_range(3, ~0u, 0);
  ::execve(command.path.c_str(), argv, envp);
  int err = errno;
  write_stderr("hlaunch: cannot execute '");
  write_stderr(command.path.c_str());
  write_stderr("': ");
  write_stderr(std::strerror(err));
  write_stderr("\n");
  ::_exit(127);
}

std::vector<char*> c_strings(const std::vector<std::string>& strings) {
  std::vector<char*> out;
  out.reserve(strings.size() + 1);
  for (const auto& s : strings) out.push_back(const_cast<char*>(s.c_str()));
  out.push_back(nullptr);
  return out;
}

}  // namespace

SpawnedRank spawn_rank(const RankCommand& command) {
  // Everything the child needs is prepared before the fork.
  std::vector<char*> argv = c_strings(command.argv);
  std::vector<char*> envp = c_strings(command.env);
  int out_pipe[2];
  int err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) fail_internal("pipe2");
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
    int saved = errno;
    ::close(out_pipe[0]);
    ::close(out_pipe[1]);
    errno = saved;
    fail_internal("pipe2");
  }
  int in_pipe[2] = {-1, -1};
  if (command.stdin_pipe && ::pipe2(in_pipe, O_CLOEXEC) != 0) {
    int saved = errno;
    for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) ::close(fd);
    errno = saved;
    fail_internal("pipe2");
  }
  int in_fd = command.stdin_pipe ? in_pipe[0] : ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  pid_t parent = ::getpid();

  // Signals stay blocked across the fork so that no hlaunch handler runs in the child before
  // it resets them; the child unblocks after the reset.
  sigset_t all;
  sigset_t previous;
  sigfillset(&all);
  ::pthread_sigmask(SIG_SETMASK, &all, &previous);
  pid_t pid = ::fork();
  if (pid == 0)
    exec_child(command, parent, in_fd, out_pipe[1], err_pipe[1], argv.data(), envp.data());
  int fork_errno = errno;
  ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);

  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  if (in_fd >= 0) ::close(in_fd);
  if (pid < 0) {
    ::close(out_pipe[0]);
    ::close(err_pipe[0]);
    if (in_pipe[1] >= 0) ::close(in_pipe[1]);
    errno = fork_errno;
    fail_internal("fork");
  }
  // Also from the parent: hlaunch may signal the group before the child got to setpgid.
  ::setpgid(pid, pid);
  return {pid, out_pipe[0], err_pipe[0], in_pipe[1]};
}

std::optional<int> reap_if_ended(pid_t pid) {
  // Look without reaping first: while the process is a zombie its pid, and so its process group
  // id, cannot be reused, so killing the group hits only what it left behind in it (background
  // children), never an unrelated process.
  siginfo_t info{};
  int rc = 0;
  do {
    rc = ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT);
  } while (rc < 0 && errno == EINTR);
  if (rc != 0 || info.si_pid != pid) return std::nullopt;
  ::kill(-pid, SIGKILL);
  int status = 0;
  pid_t got = 0;
  do {
    got = ::waitpid(pid, &status, 0);
  } while (got < 0 && errno == EINTR);
  if (got != pid) return std::nullopt;
  return status;
}

}  // namespace halyard::launcher
