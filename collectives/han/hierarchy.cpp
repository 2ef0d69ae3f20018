#include "collectives/han/hierarchy.hpp"

#include <map>
#include <memory>
#include <utility>

namespace halyard::han {

namespace {

// Keyed by (event loop, context): a context id is unique per runtime, and the loop tells two
// runtimes of one process apart. Intentionally leaked: a Communicator must not outlive its
// Runtime, and destroying the cache at process exit could run after the Runtime is gone.
using Key = std::pair<const EventLoop*, std::uint32_t>;
std::map<Key, std::unique_ptr<Hierarchy>>& cache() {
  static auto* map = new std::map<Key, std::unique_ptr<Hierarchy>>();
  return *map;
}

}  // namespace

Hierarchy& hierarchy_of(const Communicator& comm) {
  Key key{&comm.loop(), comm.context()};
  auto& map = cache();
  auto it = map.find(key);
  if (it != map.end()) return *it->second;
  auto h = std::make_unique<Hierarchy>();
  h->node = comm.node_comm();
  h->leader = comm.leader_comm();
  return *map.emplace(key, std::move(h)).first->second;
}

int node_leader_of(const Communicator& comm, int rank) {
  for (int r = 0; r <= rank; ++r) {
    if (comm.same_node(r, rank)) return r;
  }
  return rank;
}

}  // namespace halyard::han
