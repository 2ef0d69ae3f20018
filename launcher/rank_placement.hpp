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

}  // namespace halyard::launcher
