// Which (emulated) node each rank lands on, and its rank among that node's ranks.
#pragma once

#include <vector>

namespace halyard::launcher {

enum class MapBy {
  kSlot,  // fill node 0, then node 1, ...: block distribution, earlier nodes take the remainder
  kNode,  // rank r goes to node r % nodes: round-robin
};

struct RankPlacement {
  int node_id = 0;
  int local_rank = 0;
  int local_size = 1;
};

// One entry per rank. Requires 1 <= num_nodes <= num_ranks (checked by hlaunch's options).
std::vector<RankPlacement> place_ranks(int num_ranks, int num_nodes, MapBy map_by);

// Places ranks on hosts that offer `slots[h]` slots each; node_id is the host's index. `slot`
// fills host 0's slots, then host 1's, ...; `node` deals ranks round-robin over the hosts that
// still have a free slot. Hosts left without a rank simply get none. Throws
// Error(kInvalidArgument) when the ranks outnumber the slots.
std::vector<RankPlacement> place_ranks_on_hosts(int num_ranks, const std::vector<int>& slots,
                                                MapBy map_by);

}  // namespace halyard::launcher
