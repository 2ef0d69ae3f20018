#include "collectives/han/hierarchy.hpp"

#include <map>
#include <memory>
#include <utility>

#include "collectives/intranode/slot_lanes.hpp"
#include "collectives/shm/shm.hpp"

namespace halyard::han {

namespace {

// The NUMA domain of every world rank, as HAN sees it (the topology's, or the testing aid's).
std::vector<int> numa_domains(const Communicator& comm, const Config& c) {
  const TopologyTable& table = comm.topology();
  std::vector<int> domain(static_cast<std::size_t>(table.size()));
  std::map<int, int> seen_on_node;  // node id -> ranks of that node met so far (world order)
  for (int w = 0; w < table.size(); ++w) {
    int index = seen_on_node[table[w].node_id]++;
    domain[static_cast<std::size_t>(w)] =
        c.test_numa_domains > 0 ? index % c.test_numa_domains : table[w].numa;
  }
  return domain;
}

// The group of comm rank r: its node, or its (node, NUMA domain). Leaders are the lowest comm
// rank of each group.
std::vector<int> group_leaders(const Communicator& comm, const Config& c) {
  const int n = comm.size();
  std::vector<int> domain;
  if (c.leaders == LeaderLevel::kNuma) domain = numa_domains(comm, c);
  auto same_group = [&](int a, int b) {
    if (!comm.same_node(a, b)) return false;
    if (domain.empty()) return true;
    return domain[static_cast<std::size_t>(comm.world_rank(a))] ==
           domain[static_cast<std::size_t>(comm.world_rank(b))];
  };
  std::vector<int> leader(static_cast<std::size_t>(n), -1);
  std::vector<int> leaders;
  for (int r = 0; r < n; ++r) {
    for (int l : leaders) {
      if (same_group(l, r)) {
        leader[static_cast<std::size_t>(r)] = l;
        break;
      }
    }
    if (leader[static_cast<std::size_t>(r)] < 0) {
      leader[static_cast<std::size_t>(r)] = r;
      leaders.push_back(r);
    }
  }
  return leader;
}

std::shared_ptr<Hierarchy> make_hierarchy(const Communicator& comm) {
  const Config& c = config();
  auto h = std::make_shared<Hierarchy>();
  h->leader_of = group_leaders(comm, c);
  const int me = comm.rank();
  const int my_leader = h->group_leader(me);
  h->node = comm.split(my_leader, me);
  h->leader = comm.split(my_leader == me ? 0 : -1, me);
  h->intra = c.intra;
  // sm (and cma, which falls back to sm where CMA is refused) writes into scratch slots: give
  // this group communicator a lane of its own so that HAN calls on other communicators of the
  // same node never wait for its slot. Without a free lane, the p2p submodule is always safe.
  if (c.intra != IntraModule::kBase && h->node.size() > 1 && !intranode::reserve_lane(h->node)) {
    h->intra = IntraModule::kBase;
  }
  // Small pieces (and the barrier's fan-in and fan-out) run on the shm engine: its channel is
  // agreed now, while a blocking collective may run (HAN's tasks start from callbacks).
  const bool shm_wanted = c.intra == IntraModule::kAuto || c.intra == IntraModule::kShm;
  if (shm_wanted && h->node.size() > 1) h->shm_channel = shm::bind_channel(h->node);
  return h;
}

}  // namespace

std::shared_ptr<Hierarchy> shared_hierarchy_of(const Communicator& comm) {
  if (std::shared_ptr<Hierarchy> attached = comm.attachment<Hierarchy>()) return attached;
  // Made before attaching: it is collective (splits) and waits for the other ranks.
  return comm.attach(make_hierarchy(comm));
}

Hierarchy& hierarchy_of(const Communicator& comm) {
  return *shared_hierarchy_of(comm);
}

}  // namespace halyard::han
