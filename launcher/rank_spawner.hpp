// Starts one rank with fork/exec: its own process group, killed if hlaunch dies, stdin from
// /dev/null, stdout and stderr into pipes that hlaunch forwards, optionally bound to CPUs.
#pragma once

#include <sched.h>
#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

namespace halyard::launcher {

struct RankCommand {
  std::string path;               // resolved executable
  std::vector<std::string> argv;  // argv[0] as the user wrote it, then the arguments
  std::vector<std::string> env;   // complete environment, "NAME=VALUE"
  std::optional<cpu_set_t> cpus;  // nullopt: inherit hlaunch's affinity
};

struct SpawnedRank {
  pid_t pid = -1;
  int stdout_fd = -1;  // read ends, owned by the caller
  int stderr_fd = -1;
};

// Forks and execs. Throws Error(kInternal) when the pipes or the fork fail; a failing exec is
// reported by the child itself on its stderr, and it exits with status 127.
SpawnedRank spawn_rank(const RankCommand& command);

}  // namespace halyard::launcher
