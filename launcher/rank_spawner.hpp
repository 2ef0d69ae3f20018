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
  bool stdin_pipe = false;        // stdin from a pipe hlaunch writes (agents), else /dev/null
  std::string cwd;                // change to it before exec where it exists; "" stays put
};

struct SpawnedRank {
  pid_t pid = -1;
  int stdout_fd = -1;  // read ends, owned by the caller
  int stderr_fd = -1;
  int stdin_fd = -1;  // write end when RankCommand::stdin_pipe, owned by the caller
};

// Forks and execs. Throws Error(kInternal) when the pipes or the fork fail; a failing exec is
// reported by the child itself on its stderr, and it exits with status 127.
SpawnedRank spawn_rank(const RankCommand& command);

// If the process `pid` (started by spawn_rank) has ended: kills what it left running in its
// process group, reaps it and returns its wait status; nullopt while it still runs.
std::optional<int> reap_if_ended(pid_t pid);

}  // namespace halyard::launcher
