// A small process that outlives hlaunch by a moment: when hlaunch ends in any way, kill -9
// included, it kills what is left in the ranks' process groups. Each rank dies with hlaunch by
// itself (PR_SET_PDEATHSIG, rank_spawner.hpp), but the processes a rank started would go on:
// they are in the rank's process group, and after hlaunch is gone nobody else knows that group.
// (A process that leaves its rank's group, setsid, escapes: docs/reliability.md.)
#pragma once

#include <sys/types.h>

namespace halyard::launcher {

class JobGuardian {
 public:
  // Forks the guardian; it watches at most `max_groups` process groups.
  explicit JobGuardian(int max_groups);
  // Closing the channel is the guardian's cue: it kills the groups still watched and exits.
  ~JobGuardian();
  JobGuardian(const JobGuardian&) = delete;
  JobGuardian& operator=(const JobGuardian&) = delete;

  // Starts watching the process group `pgid` (a rank's, right after spawn_rank).
  void watch(pid_t pgid);
  // Stops watching it (the rank was reaped; its group id may be reused from now on).
  void forget(pid_t pgid);

 private:
  void send(int record);
  int channel_ = -1;  // write end of the pipe the guardian reads
};

}  // namespace halyard::launcher
