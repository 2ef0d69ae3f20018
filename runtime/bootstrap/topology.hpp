// Where every rank runs: the table hlaunch's ranks publish after binding, read with hwloc.
#pragma once

#include <string>
#include <vector>

namespace halyard {

class BootstrapClient;

struct TopologyRow {
  std::string hostname;
  int node_id = 0;  // emulated node id under --vnodes; ranks with equal node_id share memory
  int package = 0;  // hwloc logical index of the package (socket) of the bound core
  int numa = 0;     // hwloc logical index of the NUMA domain
  int core = 0;     // hwloc logical index of the core; -1 when the rank is not bound
  // The CPUs the rank may run on (its affinity within the cgroup's), as an OS index list such
  // as "0-3,8"; empty when unknown (a table built by hand).
  std::string cpus;
};

class TopologyTable {
 public:
  TopologyTable() = default;
  explicit TopologyTable(std::vector<TopologyRow> rows) : rows_(std::move(rows)) {}

  // This process's row, read with hwloc (after hlaunch bound it).
  static TopologyRow probe_self(int node_id);
  // Publishes this rank's row, fences, and reads every rank's row: collective over the job.
  static TopologyTable exchange(BootstrapClient& client);

  int size() const { return static_cast<int>(rows_.size()); }
  const TopologyRow& operator[](int rank) const { return rows_.at(static_cast<std::size_t>(rank)); }
  const std::vector<TopologyRow>& rows() const { return rows_; }
  bool same_node(int a, int b) const { return (*this)[a].node_id == (*this)[b].node_id; }
  // Ranks of the job on the machine that runs `rank` (all its emulated nodes together): the
  // ranks that share its CPUs.
  int ranks_on_host(int rank) const;
  // Distinct CPUs that those ranks may run on together (the union of their `cpus`; the host's
  // online CPUs where some row does not say): whether each can keep a CPU busy (spin, copy)
  // without starving another. Fewer than online under taskset or a container's cpuset.
  long cpus_on_host(int rank) const;

 private:
  std::vector<TopologyRow> rows_;
};

}  // namespace halyard
