// Reading a Slurm allocation: the compressed host lists of SLURM_JOB_NODELIST and the task
// counts of SLURM_TASKS_PER_NODE, turned into hlaunch's host entries.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "launcher/host_list.hpp"

namespace halyard::launcher {

// "n[01-03,07],gpu1,r[1-2]-n[1-2]" -> n01 n02 n03 n07 gpu1 r1-n1 r1-n2 r2-n1 r2-n2. Ranges keep
// their zero padding; several bracket groups in one name expand as a product, left to right.
// Throws UsageError naming the list when a bracket or range is malformed.
std::vector<std::string> expand_nodelist(std::string_view list);

// "2(x3),1" -> 2 2 2 1.
std::vector<int> expand_tasks_per_node(std::string_view text);

// The hosts of the allocation this process runs in: SLURM_JOB_NODELIST (or SLURM_NODELIST)
// with SLURM_TASKS_PER_NODE as slots (1 per node when it is missing). Throws UsageError when
// the variables are missing or disagree.
std::vector<HostEntry> slurm_hosts_from_environment();

}  // namespace halyard::launcher
