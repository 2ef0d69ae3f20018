// HAN reduce: per segment i, sr(i) reduces each node into its leader, ir(i) reduces the leaders'
// partial results to the leader of the root's node, and, when the root is not that leader, a
// point-to-point hand-over xf(i) moves the segment from that leader to the root. Segments
// pipeline as in allreduce: sr(i+1) runs while ir(i) crosses the network.
//
// Leaders other than the root have no receive buffer of their own, so they accumulate in a
// scratch buffer owned by the call.
#include <cstring>
#include <memory>
#include <vector>

#include "collectives/base/byte_span.hpp"
#include "collectives/core/collective_tag.hpp"
#include "collectives/core/in_place.hpp"
#include "collectives/han/han.hpp"
#include "collectives/han/hierarchy.hpp"
#include "collectives/han/segments.hpp"
#include "collectives/han/submodules.hpp"
#include "collectives/han/task_pipeline.hpp"

namespace halyard::han {

Request ireduce(const Communicator& comm, const void* send, void* recv, std::size_t count,
                Datatype type, Op op, int root, const Tuning& tuning) {
  Hierarchy& h = hierarchy_of(comm);  // first: creating it is collective, even for count 0
  // Copied: the tasks outlive this frame.
  const Config c = tuning.empty() ? config() : config_for(tuning);
  const IntraModule intra_module = h.intra_for(c);
  // Taken at call time on every rank, so the hand-over's tag matches without a message.
  const int tag = next_collective_tag(comm);
  Pipeline pipeline(comm);
  Segments segs(count, datatype_size(type), c.segment_for(count * datatype_size(type)));
  const int me = comm.rank();
  const bool is_root = me == root;
  const bool leader = h.is_leader();
  const bool inter = leader && h.leader.size() > 1;
  const bool intra = h.node.size() > 1;
  const int root_leader = h.group_leader(root);
  const bool hand_over = root_leader != root;
  const int inter_root = inter ? h.leader.rank_of_world(comm.world_rank(root_leader)) : -1;
  const bool root_in_place = is_root && core::is_in_place(send);
  const Communicator node = h.node;
  const Communicator leaders = h.leader;

  // Where this leader accumulates: the root's recv, or scratch kept alive by the tasks.
  std::shared_ptr<std::vector<std::byte>> scratch;
  void* acc = nullptr;
  if (leader) {
    if (is_root) {
      acc = recv;
    } else {
      scratch = std::make_shared<std::vector<std::byte>>(count * segs.element_size);
      acc = scratch->data();
    }
    if (!intra && !root_in_place && count > 0) std::memcpy(acc, send, count * segs.element_size);
  }

  for (std::size_t i = 0; i < segs.size(); ++i) {
    const std::size_t off = segs.byte_offset(i);
    const std::size_t n = segs.length(i);
    const std::size_t bytes = n * segs.element_size;
    std::byte* acc_seg = leader ? base::byte_at(acc, off) : nullptr;
    std::shared_ptr<Task> sr, ir;
    if (intra) {
      const void* in =
          root_in_place ? (leader ? kInPlace : base::byte_at(recv, off)) : base::byte_at(send, off);
      sr = pipeline.add(h.node_queue, [intra_module, node, in, acc_seg, n, type, op, scratch] {
        return intra_reduce(intra_module, node, in, acc_seg, n, type, op, 0);
      });
    }
    if (inter) {
      const bool at_root = h.leader.rank() == inter_root;
      const void* in = at_root ? kInPlace : static_cast<const void*>(acc_seg);
      void* dst = at_root ? acc_seg : nullptr;
      ir = pipeline.add(h.leader_queue, [c, leaders, in, dst, n, type, op, inter_root, scratch] {
        return inter_reduce(c, leaders, in, dst, n, type, op, inter_root);
      });
      Pipeline::depend(ir, sr);
    }
    if (hand_over && me == root_leader) {
      auto xf = pipeline.add(h.transfer_queue, [comm, root, tag, acc_seg, bytes, scratch] {
        return comm.isend_internal(root, tag, acc_seg, bytes);
      });
      Pipeline::depend(xf, ir ? ir : sr);
    } else if (hand_over && is_root) {
      std::byte* out = base::byte_at(recv, off);
      auto xf = pipeline.add(h.transfer_queue, [comm, root_leader, tag, out, bytes] {
        return comm.irecv_internal(root_leader, tag, out, bytes);
      });
      Pipeline::depend(xf, sr);  // in place, sr(i) still reads this segment of recv
    }
  }
  return pipeline.launch();
}

}  // namespace halyard::han
