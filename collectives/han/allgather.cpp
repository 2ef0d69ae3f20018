// HAN allgather: sg gathers each node's blocks into its leader (packed in node order); for every
// node j, ib(j) bcasts node j's packed blocks from its leader to the other leaders, sb(j) bcasts
// them inside each node, and a local unpack puts them at their ranks' places in recv. Node j's
// intra bcast overlaps the inter bcast of node j+1.
//
// Nodes may have different sizes and need not hold consecutive ranks (--map-by node), which is
// why blocks travel packed per node and are unpacked locally rather than with a flat allgather
// among leaders (that would need equal block sizes).
#include <cstring>
#include <memory>
#include <vector>

#include "collectives/base/byte_span.hpp"
#include "collectives/core/in_place.hpp"
#include "collectives/han/han.hpp"
#include "collectives/han/hierarchy.hpp"
#include "collectives/han/submodules.hpp"
#include "collectives/han/task_pipeline.hpp"

namespace halyard::han {

namespace {

// The comm ranks of every group, groups in leader order (= order of their lowest rank).
std::vector<std::vector<int>> nodes_of(const Communicator& comm, const Hierarchy& h) {
  std::vector<std::vector<int>> nodes;
  std::vector<int> leader_index(static_cast<std::size_t>(comm.size()), -1);
  for (int r = 0; r < comm.size(); ++r) {
    int leader = h.group_leader(r);
    if (leader == r) {
      leader_index[static_cast<std::size_t>(r)] = static_cast<int>(nodes.size());
      nodes.emplace_back();
    }
    nodes[static_cast<std::size_t>(leader_index[static_cast<std::size_t>(leader)])].push_back(r);
  }
  return nodes;
}

}  // namespace

Request iallgather(const Communicator& comm, const void* send, void* recv, std::size_t count,
                   Datatype type) {
  Hierarchy& h = hierarchy_of(comm);  // first: creating it is collective, even for count 0
  const Config& c = config();
  const IntraModule intra_module = h.intra;
  Pipeline pipeline(comm);
  const std::size_t block = count * datatype_size(type);
  if (block == 0) return pipeline.launch();
  const int me = comm.rank();
  const std::vector<std::vector<int>> nodes = nodes_of(comm, h);
  const bool leader = h.is_leader();
  const bool inter = leader && h.leader.size() > 1;
  const bool intra = h.node.size() > 1;
  const int my_node = [&] {
    for (std::size_t j = 0; j < nodes.size(); ++j) {
      for (int r : nodes[j]) {
        if (r == me) return static_cast<int>(j);
      }
    }
    return -1;
  }();
  const void* mine = core::is_in_place(send) ? base::byte_at(static_cast<const void*>(recv),
                                                             static_cast<std::size_t>(me) * block)
                                             : send;

  // Packed blocks of every node, node after node; kept alive by the tasks.
  std::vector<std::size_t> offset(nodes.size() + 1, 0);
  for (std::size_t j = 0; j < nodes.size(); ++j) {
    offset[j + 1] = offset[j] + nodes[j].size() * block;
  }
  auto packed = std::make_shared<std::vector<std::byte>>(offset.back());
  std::byte* own = packed->data() + offset[static_cast<std::size_t>(my_node)];
  const Communicator node = h.node;
  const Communicator leaders = h.leader;

  std::shared_ptr<Task> gathered;
  if (intra) {
    gathered = pipeline.add(h.node_queue, [intra_module, node, mine, own, count, type, packed] {
      return intra_gather(intra_module, node, mine, own, count, type, 0);
    });
  } else {
    std::memcpy(own, mine, block);
  }
  for (std::size_t j = 0; j < nodes.size(); ++j) {
    std::byte* src = packed->data() + offset[j];
    const std::size_t n = nodes[j].size() * count;
    const bool own_node = static_cast<int>(j) == my_node;
    std::shared_ptr<Task> ready = own_node ? gathered : nullptr;  // this leader holds node j
    if (inter) {
      auto ib = pipeline.add(h.leader_queue, [&c, leaders, src, n, type, j, packed] {
        return inter_bcast(c, leaders, src, n, type, static_cast<int>(j));
      });
      if (own_node) Pipeline::depend(ib, gathered);  // the root of ib(j) sends what it gathered
      ready = ib;
    }
    if (intra) {
      auto sb = pipeline.add(h.node_queue, [intra_module, node, src, n, type, packed] {
        return intra_bcast(intra_module, node, src, n, type, 0);
      });
      if (leader) Pipeline::depend(sb, ready);
      ready = sb;
    }
    auto unpack = pipeline.add(h.transfer_queue, [ranks = nodes[j], src, recv, block, packed] {
      for (std::size_t k = 0; k < ranks.size(); ++k) {
        std::memcpy(base::byte_at(recv, static_cast<std::size_t>(ranks[k]) * block),
                    src + k * block, block);
      }
      return Request{};
    });
    Pipeline::depend(unpack, ready);
  }
  return pipeline.launch();
}

}  // namespace halyard::han
