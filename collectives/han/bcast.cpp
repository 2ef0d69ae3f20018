// HAN bcast (dissertation Figure 5.6). Per segment i, leaders run ib(i) (bcast among node
// leaders) and every node runs sb(i) (bcast inside the node from its leader); sb(i) of a node
// waits only for ib(i) of its own leader, so sb(i) overlaps ib(i+1), ...
//
// Root anywhere: the root acts as the source of its own node. On the root's node sb(i) is rooted
// at the root itself and needs no inter-node input; if the root is not its node's leader, the
// leader's ib(i) waits for sb(i) to have delivered segment i to it. This costs no extra message
// and keeps the leader communicator fixed (the lowest rank per node).
#include <memory>
#include <vector>

#include "collectives/base/byte_span.hpp"
#include "collectives/han/han.hpp"
#include "collectives/han/hierarchy.hpp"
#include "collectives/han/segments.hpp"
#include "collectives/han/submodules.hpp"
#include "collectives/han/task_pipeline.hpp"

namespace halyard::han {

namespace {

// Inter-node segments a leader keeps in flight: enough to overlap, few enough that a huge
// message does not post thousands of trees at once.
constexpr std::size_t kInterWindow = 4;

}  // namespace

Request ibcast(const Communicator& comm, void* buffer, std::size_t count, Datatype type, int root,
               const Tuning& tuning) {
  Hierarchy& h = hierarchy_of(comm);  // first: creating it is collective, even for count 0
  // Copied: the tasks outlive this frame.
  const Config c = tuning.empty() ? config() : config_for(tuning);
  const IntraModule intra_module = h.intra_for(c);
  Pipeline pipeline(comm);
  Segments segs(count, datatype_size(type), c.segment_for(count * datatype_size(type)));
  const int me = comm.rank();
  const bool on_root_node = h.same_group(me, root);
  const int node_root = on_root_node ? h.node.rank_of_world(comm.world_rank(root)) : 0;
  const bool inter = h.is_leader() && h.leader.size() > 1;
  const bool intra = h.node.size() > 1;
  const int leader_root =
      inter ? h.leader.rank_of_world(comm.world_rank(h.group_leader(root))) : -1;
  const Communicator node = h.node;
  const Communicator leaders = h.leader;

  std::vector<std::shared_ptr<Task>> ib(segs.size());
  for (std::size_t i = 0; i < segs.size(); ++i) {
    void* seg = base::byte_at(buffer, segs.byte_offset(i));
    std::size_t n = segs.length(i);
    std::shared_ptr<Task> sb;
    if (inter) {
      ib[i] = pipeline.add(h.leader_queue, [c, leaders, seg, n, type, leader_root] {
        return inter_bcast(c, leaders, seg, n, type, leader_root);
      });
      if (i >= kInterWindow) Pipeline::depend(ib[i], ib[i - kInterWindow]);
    }
    if (intra) {
      sb = pipeline.add(h.node_queue, [intra_module, node, seg, n, type, node_root] {
        return intra_bcast(intra_module, node, seg, n, type, node_root);
      });
    }
    if (on_root_node) {
      if (me != root) Pipeline::depend(ib[i], sb);  // leader forwards what the root gave it
    } else {
      Pipeline::depend(sb, ib[i]);  // ib[i] is null on non-leaders: no edge
    }
  }
  return pipeline.launch();
}

}  // namespace halyard::han
