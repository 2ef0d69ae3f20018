// Prints where each rank of a job runs: `hlaunch -n 4 --vnodes 2 halyard_topology_example`.
//
// Each rank reads its own row with hwloc (after hlaunch bound it), the rows are exchanged
// through hlaunch's bootstrap server, and rank 0 prints the whole table.
#include <cstdio>
#include <string>

#include "runtime/bootstrap/bootstrap_client.hpp"
#include "runtime/bootstrap/launch_info.hpp"
#include "runtime/bootstrap/topology.hpp"
#include "runtime/support/error.hpp"

namespace {

std::string describe(const halyard::TopologyRow& row) {
  return "host " + row.hostname + ", node " + std::to_string(row.node_id) + ", package " +
         std::to_string(row.package) + ", numa " + std::to_string(row.numa) + ", core " +
         (row.core >= 0 ? std::to_string(row.core) : std::string("unbound"));
}

}  // namespace

int main() {
  using namespace halyard;
  auto info = LaunchInfo::from_environment();
  if (!info) {
    // Outside hlaunch there is one rank and nobody to exchange with.
    std::printf("rank 0/1: %s\n", describe(TopologyTable::probe_self(0)).c_str());
    return 0;
  }
  try {
    auto client = BootstrapClient::connect(*info);
    TopologyTable table = TopologyTable::exchange(*client);
    std::printf("rank %d/%d (local %d/%d): %s\n", info->rank, info->size, info->local_rank,
                info->local_size, describe(table[info->rank]).c_str());
    std::fflush(stdout);
    // Rank 0 prints the table after everyone printed its own line.
    client->barrier();
    if (info->rank == 0) {
      std::printf("topology of job %s: %d ranks on %d node(s)\n", info->job_id.c_str(),
                  table.size(), info->num_nodes);
      std::printf("%6s %-20s %5s %8s %5s %5s\n", "rank", "host", "node", "package", "numa", "core");
      for (int r = 0; r < table.size(); ++r) {
        const TopologyRow& row = table[r];
        std::printf("%6d %-20s %5d %8d %5d %5s\n", r, row.hostname.c_str(), row.node_id,
                    row.package, row.numa, row.core >= 0 ? std::to_string(row.core).c_str() : "-");
      }
    }
    client->finalize();  // without it hlaunch would count this rank's exit as a failure
  } catch (const Error& e) {
    std::fprintf(stderr, "rank %d: %s\n", info->rank, e.what());
    return 1;
  }
  return 0;
}
