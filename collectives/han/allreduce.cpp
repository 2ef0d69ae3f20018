// HAN allreduce (dissertation Figure 5.14). Per segment i: sr(i) reduces the node's
// contributions into the leader's recv, ir(i) combines the leaders' partial results (by default
// or with HALYARD_HAN_INTER=base one flat allreduce; with adapt a reduce to leader 0, then a
// bcast back: two inter tasks), sb(i) brings the result to the node.
//
// Tasks are queued per level in the order of the figure's steps, sr(t) before sb(t-1) on the
// node and ir-reduce(t) before ir-bcast(t-1) among leaders, so that while segment t-1 is in the
// inter-node phase segment t is already being reduced inside the node.
#include <cstring>
#include <memory>
#include <vector>

#include "collectives/base/byte_span.hpp"
#include "collectives/core/in_place.hpp"
#include "collectives/han/han.hpp"
#include "collectives/han/hierarchy.hpp"
#include "collectives/han/segments.hpp"
#include "collectives/han/stages.hpp"
#include "collectives/han/submodules.hpp"
#include "collectives/han/task_pipeline.hpp"

namespace halyard::han {

Request iallreduce(const Communicator& comm, const void* send, void* recv, std::size_t count,
                   Datatype type, Op op, const Tuning& tuning) {
  Hierarchy& h = hierarchy_of(comm);  // first: creating it is collective, even for count 0
  // Copied: the tasks outlive this frame.
  const Config c = tuning.empty() ? config() : config_for(tuning);
  const IntraModule intra_module = h.intra_for(c);
  Pipeline pipeline(comm);
  Segments segs(count, datatype_size(type), c.segment_for(count * datatype_size(type)));
  const bool in_place = core::is_in_place(send);
  const bool leader = h.is_leader();
  const bool inter = leader && h.leader.size() > 1;
  const bool intra = h.node.size() > 1;
  const bool inter_root = inter && h.leader.rank() == 0;
  // The stages (stages.hpp): sr, ira, sb, or sr, ir, ib, sb when adapt's trees were chosen.
  const bool one_step_inter = leaders_allreduce_in_one_step(c);
  const Communicator node = h.node;
  const Communicator leaders = h.leader;
  // Alone on the node there is no intra reduce to move the contribution into recv.
  if (!intra && !in_place && count > 0) std::memcpy(recv, send, count * segs.element_size);

  const std::size_t u = segs.size();
  std::vector<std::shared_ptr<Task>> sr(u), ir_reduce(u);
  for (std::size_t t = 0; t <= u; ++t) {
    if (t < u) {
      std::byte* out = base::byte_at(recv, segs.byte_offset(t));
      std::size_t n = segs.length(t);
      if (intra) {
        // The leader (node rank 0) may reduce in place; others give their own segment.
        const void* in = leader && in_place ? kInPlace
                         : in_place         ? static_cast<const void*>(out)
                                            : base::byte_at(send, segs.byte_offset(t));
        void* dst = leader ? out : nullptr;
        sr[t] = pipeline.add(h.node_queue, [intra_module, node, in, dst, n, type, op] {
          return intra_reduce(intra_module, node, in, dst, n, type, op, 0);
        });
      }
      if (inter && one_step_inter) {
        ir_reduce[t] = pipeline.add(h.leader_queue, [leaders, out, n, type, op] {
          return inter_allreduce_in_place(leaders, out, n, type, op);
        });
        Pipeline::depend(ir_reduce[t], sr[t]);
      } else if (inter) {
        const void* in = inter_root ? kInPlace : static_cast<const void*>(out);
        void* dst = inter_root ? out : nullptr;
        ir_reduce[t] = pipeline.add(h.leader_queue, [c, leaders, in, dst, n, type, op] {
          return inter_reduce(c, leaders, in, dst, n, type, op, 0);
        });
        Pipeline::depend(ir_reduce[t], sr[t]);
      }
    }
    if (t >= 1) {
      std::size_t s = t - 1;
      std::byte* out = base::byte_at(recv, segs.byte_offset(s));
      std::size_t n = segs.length(s);
      std::shared_ptr<Task> ready = sr[s];  // what the leader's result of segment s waits for
      if (inter && one_step_inter) {
        ready = ir_reduce[s];
      } else if (inter) {
        ready = pipeline.add(h.leader_queue, [c, leaders, out, n, type] {
          return inter_bcast(c, leaders, out, n, type, 0);
        });
        Pipeline::depend(ready, ir_reduce[s]);
      }
      if (intra) {
        auto sb = pipeline.add(h.node_queue, [intra_module, node, out, n, type] {
          return intra_bcast(intra_module, node, out, n, type, 0);
        });
        if (leader) Pipeline::depend(sb, ready);
      }
    }
  }
  return pipeline.launch();
}

}  // namespace halyard::han
