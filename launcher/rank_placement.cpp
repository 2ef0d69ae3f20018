#include "launcher/rank_placement.hpp"

#include <string>

#include "runtime/support/error.hpp"

namespace halyard::launcher {

std::vector<RankPlacement> place_ranks(int num_ranks, int num_nodes, MapBy map_by) {
  if (num_ranks < 1) {
    throw Error(ErrorCode::kInvalidArgument,
                "num_ranks must be at least 1, got " + std::to_string(num_ranks));
  }
  if (num_nodes < 1 || num_nodes > num_ranks) {
    throw Error(ErrorCode::kInvalidArgument, "num_nodes must be between 1 and num_ranks (" +
                                                 std::to_string(num_ranks) + "), got " +
                                                 std::to_string(num_nodes));
  }
  std::vector<RankPlacement> placement(static_cast<std::size_t>(num_ranks));
  int base = num_ranks / num_nodes;
  int extra = num_ranks % num_nodes;
  int rank = 0;
  if (map_by == MapBy::kSlot) {
    for (int node = 0; node < num_nodes; ++node) {
      int count = base + (node < extra ? 1 : 0);
      for (int local = 0; local < count; ++local, ++rank) {
        placement[static_cast<std::size_t>(rank)] = {node, local, count};
      }
    }
  } else {
    for (; rank < num_ranks; ++rank) {
      int node = rank % num_nodes;
      int count = base + (node < extra ? 1 : 0);
      placement[static_cast<std::size_t>(rank)] = {node, rank / num_nodes, count};
    }
  }
  return placement;
}

std::vector<RankPlacement> place_ranks_on_hosts(int num_ranks, const std::vector<int>& slots,
                                                MapBy map_by) {
  long total = 0;
  for (int s : slots) total += s;
  if (num_ranks < 1 || num_ranks > total) {
    throw Error(ErrorCode::kInvalidArgument,
                std::to_string(num_ranks) + " ranks do not fit the " + std::to_string(total) +
                    " slots of the hosts (give more slots, e.g. --host a:8 or slots=8 in the "
                    "hostfile)");
  }
  std::vector<RankPlacement> placement(static_cast<std::size_t>(num_ranks));
  std::vector<int> used(slots.size(), 0);
  std::size_t host = 0;
  for (int rank = 0; rank < num_ranks; ++rank) {
    if (map_by == MapBy::kSlot) {
      while (used[host] == slots[host]) ++host;
    } else {
      while (used[host % slots.size()] == slots[host % slots.size()]) ++host;
      host %= slots.size();
    }
    placement[static_cast<std::size_t>(rank)] = {static_cast<int>(host), used[host]++, 0};
    if (map_by == MapBy::kNode) ++host;
  }
  for (auto& p : placement) p.local_size = used[static_cast<std::size_t>(p.node_id)];
  return placement;
}

}  // namespace halyard::launcher
