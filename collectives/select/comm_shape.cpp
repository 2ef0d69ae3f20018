#include "collectives/select/comm_shape.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <utility>

#include "runtime/event_loop.hpp"

namespace halyard::select {

namespace {

CommShape compute(const Communicator& comm) {
  std::map<int, int> per_node;
  for (int r = 0; r < comm.size(); ++r) ++per_node[comm.topology_of(r).node_id];
  CommShape shape{comm.size(), static_cast<int>(per_node.size()), 0};
  for (const auto& [node, members] : per_node) {
    shape.max_ranks_per_node = std::max(shape.max_ranks_per_node, members);
  }
  return shape;
}

}  // namespace

CommShape shape_of(const Communicator& comm) {
  // Keyed like HAN's hierarchies: a context id is unique per runtime, the loop's serial tells
  // runtimes of one process (in-process tests, one thread each) apart, hence the mutex.
  using Key = std::pair<std::uint64_t, std::uint32_t>;
  static std::mutex mutex;
  static auto* cache = new std::map<Key, CommShape>();  // leaked, like the hierarchies
  Key key{comm.loop().serial(), comm.context()};
  std::lock_guard lock(mutex);
  auto it = cache->find(key);
  if (it != cache->end()) return it->second;
  return cache->emplace(key, compute(comm)).first->second;
}

}  // namespace halyard::select
