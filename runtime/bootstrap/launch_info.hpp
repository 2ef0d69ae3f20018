// What hlaunch tells each rank through its environment (docs/launcher.md lists the variables).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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
  //
  // A rank that srun started (with the variables `hlaunch --serve-bootstrap` printed exported,
  // and no HALYARD_RANK) takes its place from Slurm instead: SLURM_PROCID, SLURM_NTASKS,
  // SLURM_LOCALID, SLURM_NODEID, SLURM_NNODES, SLURM_STEP_TASKS_PER_NODE; the job id defaults
  // to "slurm-JOB.STEP".
  static std::optional<LaunchInfo> from_environment();
};

// Slurm's compressed counts, "2(x3),1" -> 2 2 2 1 (SLURM_TASKS_PER_NODE); nullopt when
// malformed.
std::optional<std::vector<int>> expand_slurm_counts(std::string_view text);

}  // namespace halyard
