// What hlaunch tells each rank through its environment (docs/launcher.md lists the variables).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace halyard {

struct LaunchInfo {
  int rank = 0;        // HALYARD_RANK
  int size = 1;        // HALYARD_SIZE
  int local_rank = 0;  // HALYARD_LOCAL_RANK: rank among the ranks of this (emulated) node
  int local_size = 1;  // HALYARD_LOCAL_SIZE
  int node_id = 0;     // HALYARD_NODE_ID: emulated node under --vnodes, else the host's index
  int num_nodes = 1;   // HALYARD_NUM_NODES
  std::string job_id;  // HALYARD_JOB_ID: unique per job; names shared segments
  std::string server;  // HALYARD_BOOTSTRAP_ADDR: "host:port" of hlaunch's bootstrap server
  std::string token;   // HALYARD_JOB_TOKEN: proves to the server that we belong to the job

  // Reads the variables; nullopt when the process was not started by hlaunch (no
  // HALYARD_BOOTSTRAP_ADDR). Throws Error(kBootstrap) naming a variable that is malformed.
  static std::optional<LaunchInfo> from_environment();
};

}  // namespace halyard
