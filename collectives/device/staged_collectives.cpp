// The staged (multi-node) device collectives, as HAN task pipelines on HAN's hierarchy (node
// groups and their leaders; collectives/han). Inside a node: node_operations.hpp over CUDA IPC.
// Between nodes: each leader stages the node's data in one pinned host buffer (one crossing of
// PCIe per direction per node, ADAPT section 4) and runs HAN's inter-node submodule on it; the
// inter-node reductions run on the leaders' CPUs.
//
// Tasks on h.node_queue take the node communicator's tags in queue order, so every rank of a
// node adds the same node tasks in the same order, even those it is not involved in. The
// staging buffer is captured by every task that touches it, so it lives until the last one ends.
#include <memory>

#include "collectives/collectives.hpp"
#include "collectives/device/device_collectives.hpp"
#include "collectives/device/node_operations.hpp"
#include "collectives/han/hierarchy.hpp"
#include "collectives/han/submodules.hpp"
#include "collectives/han/task_graph.hpp"

namespace halyard::device {

namespace {

using han::Pipeline;
using han::Task;

// One staged call as its tasks see it: this rank's place in the hierarchy and the leader's
// staging buffer. Shared by the tasks, so it (and the buffer) lives until the last one ends.
struct Staged {
  han::Hierarchy& h;
  DeviceSupport& device;
  Communicator node;
  Communicator leaders;
  bool leader;
  bool inter;  // this rank is a leader and there is more than one group
  std::size_t bytes;
  PinnedBuffer staging;  // the leaders' pinned copy of the whole message

  void* staged() const { return staging.get(); }
};

std::shared_ptr<const Staged> stage(const Communicator& comm, DeviceSupport& device,
                                    std::size_t count, Datatype type) {
  han::Hierarchy& h = han::hierarchy_of(comm);  // first: creating it is collective
  const bool leader = h.is_leader();
  const std::size_t bytes = count * datatype_size(type);
  return std::make_shared<const Staged>(
      Staged{h, device, h.node, h.leader, leader, leader && h.leader.size() > 1, bytes,
             leader && bytes > 0 ? device.pinned(bytes) : nullptr});
}

// The leaders' rank of the leader of comm rank `rank`'s group.
int inter_rank_of(const Communicator& comm, const Staged& s, int rank) {
  return s.leaders.rank_of_world(comm.world_rank(s.h.group_leader(rank)));
}

// Every group reduces into its leader's staging buffer: the kernel writes the pinned memory
// directly, so the data crosses PCIe once.
std::shared_ptr<Task> reduce_into_staging(Pipeline& pipeline,
                                          const std::shared_ptr<const Staged>& s,
                                          const NodeReduction& reduction) {
  return pipeline.add(s->h.node_queue, [s, reduction] {
    NodeReduction into_staging = reduction;
    into_staging.out = s->staged();
    return node_reduce(s->node, s->device, 0, into_staging);
  });
}

}  // namespace

Request ibcast_staged(const Communicator& comm, DeviceSupport& device, void* buffer,
                      std::size_t count, Datatype type, int root) {
  auto s = stage(comm, device, count, type);
  const bool root_group = s->h.same_group(comm.rank(), root);
  Pipeline pipeline(comm.loop());
  std::shared_ptr<Task> to_host;
  if (root_group) {
    // The root's group first gets the data from the root; its leader then stages it.
    const int node_root = s->node.rank_of_world(comm.world_rank(root));
    auto intra = pipeline.add(s->h.node_queue, [s, node_root, buffer] {
      return node_copy(s->node, s->device,
                       {node_root, all_but(s->node, node_root), true, buffer, s->bytes}, "ibcast");
    });
    if (s->inter) {
      to_host = pipeline.add(s->h.transfer_queue,
                             [s, buffer] { return s->device.copy(s->staged(), buffer, s->bytes); });
      Pipeline::depend(to_host, intra);
    }
  }
  std::shared_ptr<Task> across;
  if (s->inter) {
    const int inter_root = inter_rank_of(comm, *s, root);
    across = pipeline.add(s->h.leader_queue, [s, inter_root] {
      return han::inter_bcast(han::config(), s->leaders, s->staged(), s->bytes, Datatype::kUint8,
                              inter_root);
    });
    Pipeline::depend(across, to_host);
  }
  if (!root_group) {
    std::shared_ptr<Task> to_device;
    if (s->inter) {
      to_device = pipeline.add(s->h.transfer_queue, [s, buffer] {
        return s->device.copy(buffer, s->staged(), s->bytes);
      });
      Pipeline::depend(to_device, across);
    }
    auto intra = pipeline.add(s->h.node_queue, [s, buffer] {
      return node_copy(s->node, s->device, {0, all_but(s->node, 0), true, buffer, s->bytes},
                       "ibcast");
    });
    Pipeline::depend(intra, to_device);
  }
  return pipeline.launch();
}

Request ireduce_staged(const Communicator& comm, DeviceSupport& device, const void* input,
                       void* recv, std::size_t count, Datatype type, Op op, int root) {
  auto s = stage(comm, device, count, type);
  Pipeline pipeline(comm.loop());
  auto intra = reduce_into_staging(pipeline, s, {input, nullptr, count, type, op, "ireduce"});
  std::shared_ptr<Task> across;
  if (s->inter) {
    const int inter_root = inter_rank_of(comm, *s, root);
    const bool at_root = s->leaders.rank() == inter_root;
    across = pipeline.add(s->h.leader_queue, [s, inter_root, at_root, count, type, op] {
      const void* mine = at_root ? kInPlace : s->staged();
      void* result = at_root ? s->staged() : nullptr;
      return han::inter_reduce(han::config(), s->leaders, mine, result, count, type, op,
                               inter_root);
    });
    Pipeline::depend(across, intra);
  }
  const std::shared_ptr<Task> result_ready = across ? across : intra;
  if (!s->h.same_group(comm.rank(), root)) return pipeline.launch();
  if (s->h.group_leader(root) == root) {
    if (comm.rank() == root) {
      auto to_device = pipeline.add(
          s->h.transfer_queue, [s, recv] { return s->device.copy(recv, s->staged(), s->bytes); });
      Pipeline::depend(to_device, result_ready);
    }
    return pipeline.launch();
  }
  // The root is not its group's leader: the leader writes the result into the root's mapped
  // receive buffer. Every rank of the group takes part in the tag sequence.
  const int node_root = s->node.rank_of_world(comm.world_rank(root));
  void* local = s->leader ? s->staged() : recv;
  auto hand_over = pipeline.add(s->h.node_queue, [s, node_root, local] {
    return node_copy(s->node, s->device, {node_root, {0}, false, local, s->bytes}, "ireduce");
  });
  if (s->leader) Pipeline::depend(hand_over, result_ready);
  return pipeline.launch();
}

Request iallreduce_staged(const Communicator& comm, DeviceSupport& device, const void* input,
                          void* recv, std::size_t count, Datatype type, Op op) {
  auto s = stage(comm, device, count, type);
  Pipeline pipeline(comm.loop());
  auto intra_reduce =
      reduce_into_staging(pipeline, s, {input, nullptr, count, type, op, "iallreduce"});
  std::shared_ptr<Task> to_device;
  if (s->leader) {
    std::shared_ptr<Task> across;
    if (s->inter) {
      across = pipeline.add(s->h.leader_queue, [s, count, type, op] {
        return han::inter_allreduce_in_place(s->leaders, s->staged(), count, type, op);
      });
      Pipeline::depend(across, intra_reduce);
    }
    to_device = pipeline.add(s->h.transfer_queue,
                             [s, recv] { return s->device.copy(recv, s->staged(), s->bytes); });
    Pipeline::depend(to_device, across ? across : intra_reduce);
  }
  auto intra_bcast = pipeline.add(s->h.node_queue, [s, recv] {
    return node_copy(s->node, s->device, {0, all_but(s->node, 0), true, recv, s->bytes},
                     "iallreduce");
  });
  Pipeline::depend(intra_bcast, to_device);
  return pipeline.launch();
}

}  // namespace halyard::device
