#include "launcher/job_guardian.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <vector>

#include "runtime/support/error.hpp"

namespace halyard::launcher {
namespace {

// Runs in the forked child: only async-signal-safe calls (hlaunch has other threads), and no
// allocation: `groups` was sized before the fork.
[[noreturn]] void guard(int channel, pid_t* groups, int capacity) {
  // Ctrl-C reaches the whole foreground group; the guardian stays to clean up after it.
  ::signal(SIGINT, SIG_IGN);
  ::signal(SIGTERM, SIG_IGN);
  ::signal(SIGHUP, SIG_IGN);
  int devnull = ::open("/dev/null", O_RDWR);
  // Nothing of hlaunch's stays open here: a pipe reader of hlaunch's output must see its end.
  for (int fd = 0; fd < 3; ++fd) ::dup2(devnull, fd);
  ::dup2(channel, 3);
  ::close_range(4, ~0u, 0);
  int count = 0;
  while (true) {
    int record = 0;
    ssize_t n = ::read(3, &record, sizeof record);
    if (n < 0 && errno == EINTR) continue;
    if (n != static_cast<ssize_t>(sizeof record)) break;  // hlaunch is gone
    if (record > 0 && count < capacity) {
      groups[count++] = record;
    } else if (record < 0) {
      for (int i = 0; i < count; ++i) {
        if (groups[i] == -record) groups[i] = groups[--count];
      }
    }
  }
  for (int i = 0; i < count; ++i) ::kill(-groups[i], SIGKILL);
  ::_exit(0);
}

}  // namespace

JobGuardian::JobGuardian(int max_groups) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    throw Error(ErrorCode::kInternal, "cannot create the job guardian's pipe");
  }
  std::vector<pid_t> groups(static_cast<std::size_t>(max_groups));
  pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[1]);
    guard(fds[0], groups.data(), max_groups);
  }
  ::close(fds[0]);
  if (pid < 0) {
    ::close(fds[1]);
    throw Error(ErrorCode::kInternal, "cannot fork the job guardian");
  }
  channel_ = fds[1];
  // Its exit is not waited for: with SIGCHLD handled by Asio, reap() collects only the ranks'
  // and agents' pids, so the guardian's zombie goes with hlaunch.
}

JobGuardian::~JobGuardian() {
  if (channel_ >= 0) ::close(channel_);
}

void JobGuardian::watch(pid_t pgid) {
  send(static_cast<int>(pgid));
}

void JobGuardian::forget(pid_t pgid) {
  send(-static_cast<int>(pgid));
}

void JobGuardian::send(int record) {
  // A 4-byte write to a pipe is atomic; a guardian that died (EPIPE) changes nothing for hlaunch.
  ssize_t ignored = ::write(channel_, &record, sizeof record);
  (void)ignored;
}

}  // namespace halyard::launcher
