// HAN barrier: fan-in inside each group (every member tells its leader it has arrived), a
// barrier among the leaders (base dissemination), fan-out inside each group (the leader tells
// every member to leave). Three tasks in a chain; nothing waits inside a callback.
//
// Fan-in and fan-out run on the group's shm channel where it has one (collectives/shm: a
// zero-byte reduce to the leader and bcast from it, flags only), else as zero-byte p2p
// messages: a barrier moves no data, so the sm/cma submodules have nothing to offer here.
#include <memory>
#include <vector>

#include "collectives/base/base.hpp"
#include "collectives/core/collective_tag.hpp"
#include "collectives/han/han.hpp"
#include "collectives/han/hierarchy.hpp"
#include "collectives/han/task_pipeline.hpp"
#include "collectives/shm/shm.hpp"

namespace halyard::han {

namespace {

// Zero-byte notes between the group's leader (rank 0) and every other member: towards the
// leader (fan-in) or from it (fan-out). The tag (or the channel's call) is taken when the task
// starts, in the group queue's order, so it agrees on every member.
Request group_fan(const Communicator& node, bool towards_leader, bool shm_channel) {
  if (shm_channel) {
    const core::Collective collective =
        towards_leader ? core::Collective::kReduce : core::Collective::kBcast;
    return shm::post_bound(
        {collective, node, nullptr, nullptr, 0, {}, {}, Datatype::kUint8, Op::kSum, 0});
  }
  const int tag = next_collective_tag(node);
  std::vector<Request> notes;
  if (node.rank() == 0) {
    for (int r = 1; r < node.size(); ++r) {
      notes.push_back(towards_leader ? node.irecv_internal(r, tag, nullptr, 0)
                                     : node.isend_internal(r, tag, nullptr, 0));
    }
  } else {
    notes.push_back(towards_leader ? node.isend_internal(0, tag, nullptr, 0)
                                   : node.irecv_internal(0, tag, nullptr, 0));
  }
  return when_all(node.loop(), notes);
}

}  // namespace

Request ibarrier(const Communicator& comm) {
  Hierarchy& h = hierarchy_of(comm);
  Pipeline pipeline(comm);
  const Communicator node = h.node;
  const Communicator leaders = h.leader;
  const bool shm = h.shm_channel && h.intra != IntraModule::kBase;
  std::shared_ptr<Task> fan_in, among_leaders;
  if (node.size() > 1) {
    fan_in = pipeline.add(h.node_queue, [node, shm] { return group_fan(node, true, shm); });
  }
  if (h.is_leader() && leaders.size() > 1) {
    among_leaders =
        pipeline.add(h.leader_queue, [leaders] { return base::ibarrier_dissemination(leaders); });
    Pipeline::depend(among_leaders, fan_in);
  }
  if (node.size() > 1) {
    auto fan_out = pipeline.add(h.node_queue, [node, shm] { return group_fan(node, false, shm); });
    // Members wait for the leader's note; only the leader waits for the levels above.
    Pipeline::depend(fan_out, among_leaders ? among_leaders : fan_in);
  }
  return pipeline.launch();
}

}  // namespace halyard::han
