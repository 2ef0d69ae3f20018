// The CPUs this process may run on, as hwloc sees them: shared by the topology table a rank
// publishes and by hlaunch's binding, so that both read "usable" the same way.
#pragma once

#include <hwloc.h>

#include <string>

namespace halyard {

// The allowed CPUs of `topo` (the cgroup's cpuset) within the process's CPU affinity (taskset,
// a batch system); the allowed ones alone where the affinity cannot be read or lies outside
// them. The caller frees the bitmap (hwloc_bitmap_free).
hwloc_bitmap_t usable_cpuset(hwloc_topology_t topo);

// `set` as an OS index list ("0-3,8"), as sched_setaffinity and /proc name CPUs; empty when
// hwloc cannot print it.
std::string cpu_list(hwloc_const_bitmap_t set);

}  // namespace halyard
