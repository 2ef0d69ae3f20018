// A job-test rank: checks the placement hlaunch gave it and the topology table.
//   placement_rank NUM_NODES BINDING ROW0 ROW1 ...   with ROWr = "node:local_rank:local_size"
// BINDING is "bound" (every rank reports a core) or "unbound" (every core is -1).
#include <array>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>

#include "runtime/bootstrap/bootstrap_client.hpp"
#include "runtime/bootstrap/launch_info.hpp"
#include "runtime/bootstrap/topology.hpp"
#include "runtime/support/error.hpp"

int main(int argc, char** argv) {
  using namespace halyard;
  auto info = LaunchInfo::from_environment();
  if (!info || argc != 3 + info->size) {
    std::fprintf(stderr, "usage: hlaunch -n N placement_rank NUM_NODES bound|unbound ROW...\n");
    return 2;
  }
  int failures = 0;
  auto expect = [&](const std::string& what, long got, long want) {
    if (got != want) {
      std::fprintf(stderr, "rank %d: %s is %ld, expected %ld\n", info->rank, what.c_str(), got,
                   want);
      ++failures;
    }
  };
  auto row_of = [&](int rank) {
    std::string row = argv[3 + rank];
    int node = 0, local = 0, local_size = 0;
    std::sscanf(row.c_str(), "%d:%d:%d", &node, &local, &local_size);
    return std::array<int, 3>{node, local, local_size};
  };
  auto mine = row_of(info->rank);
  expect("HALYARD_NUM_NODES", info->num_nodes, std::atoi(argv[1]));
  expect("HALYARD_NODE_ID", info->node_id, mine[0]);
  expect("HALYARD_LOCAL_RANK", info->local_rank, mine[1]);
  expect("HALYARD_LOCAL_SIZE", info->local_size, mine[2]);
  bool bound = std::string(argv[2]) == "bound";
  try {
    auto client = BootstrapClient::connect(*info);
    TopologyTable table = TopologyTable::exchange(*client);
    expect("table size", table.size(), info->size);
    std::set<int> nodes;
    for (int r = 0; r < table.size(); ++r) {
      const TopologyRow& row = table[r];
      expect("node id of rank " + std::to_string(r), row.node_id, row_of(r)[0]);
      if (bound) {
        expect("core of rank " + std::to_string(r) + " >= 0", row.core >= 0, 1);
      } else {
        expect("core of unbound rank " + std::to_string(r), row.core, -1);
      }
      nodes.insert(row.node_id);
      if (row.hostname != table[0].hostname) {
        std::fprintf(stderr, "rank %d: hostnames differ on one host\n", info->rank);
        ++failures;
      }
    }
    expect("distinct node ids", static_cast<long>(nodes.size()), info->num_nodes);
    const TopologyRow& me = table[info->rank];
    std::printf("rank %d: node %d local %d/%d core %s\n", info->rank, me.node_id, info->local_rank,
                info->local_size, me.core >= 0 ? "bound" : "unbound");
    client->finalize();
  } catch (const Error& e) {
    std::fprintf(stderr, "rank %d: %s\n", info->rank, e.what());
    return 1;
  }
  return failures == 0 ? 0 : 1;
}
