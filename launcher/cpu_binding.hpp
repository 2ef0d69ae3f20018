// Where hlaunch binds each rank: computed with hwloc in hlaunch, applied in the forked child
// with sched_setaffinity (a plain system call, safe between fork and exec).
#pragma once

#include <sched.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "launcher/rank_placement.hpp"

namespace halyard::launcher {

enum class BindTo { kNone, kCore, kNuma, kPackage };

// "none", "core", "numa", "package".
std::string bind_to_name(BindTo bind);
// The reverse; throws Error(kInvalidArgument) for anything else.
BindTo bind_to_from_name(const std::string& name);

// The host's processing units as hwloc sees them, limited to those hlaunch itself may run on (its
// CPU affinity, as taskset or a batch system set it, within the cgroup's cpuset): cores, NUMA
// domains and packages with a usable CPU; a rank bound to one gets only its usable CPUs.
class HostTopology {
 public:
  HostTopology();
  ~HostTopology();
  HostTopology(const HostTopology&) = delete;
  HostTopology& operator=(const HostTopology&) = delete;

  int cores() const;  // with a usable CPU
  // The usable CPUs as "count (OS index list)", e.g. "4 (0-3)": what --info reports.
  std::string usable_cpus() const;

  // mpirun's default: one core per rank while they fit, no binding once oversubscribed.
  BindTo default_binding(int num_ranks) const;

  // The CPU set of each rank, or nullopt for "leave unbound". Ranks are laid out node by node
  // (node 0's local ranks first), so each emulated node's ranks sit on neighbouring cores; with
  // more ranks than objects the objects are reused round-robin.
  std::vector<std::optional<cpu_set_t>> binding_sets(
      BindTo bind, const std::vector<RankPlacement>& placement) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace halyard::launcher
