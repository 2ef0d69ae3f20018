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

// What every staged collective needs to know about this rank's place in the hierarchy.
struct Placement {
  han::Hierarchy& h;
  Communicator node;
  Communicator leaders;
  bool leader;
  bool inter;  // this rank is a leader and there is more than one group
  std::size_t bytes;
};

Placement place(const Communicator& comm, std::size_t count, Datatype type) {
  han::Hierarchy& h = han::hierarchy_of(comm);  // first: creating it is collective
  const bool leader = h.is_leader();
  return {h, h.node, h.leader, leader, leader && h.leader.size() > 1, count * datatype_size(type)};
}

// The leaders' rank of the leader of comm rank `rank`'s group.
int inter_rank_of(const Communicator& comm, const Placement& p, int rank) {
  return p.leaders.rank_of_world(comm.world_rank(p.h.group_leader(rank)));
}

PinnedBuffer staging_for(DeviceSupport& device, const Placement& p) {
  return p.leader && p.bytes > 0 ? device.pinned(p.bytes) : nullptr;
}

}  // namespace

Request ibcast_staged(const Communicator& comm, DeviceSupport& device, void* buffer,
                      std::size_t count, Datatype type, int root) {
  Placement p = place(comm, count, type);
  PinnedBuffer staging = staging_for(device, p);
  DeviceSupport* dev = &device;
  const Communicator node = p.node;
  const Communicator leaders = p.leaders;
  const std::size_t bytes = p.bytes;
  const bool root_group = p.h.same_group(comm.rank(), root);
  Pipeline pipeline(comm.loop());
  std::shared_ptr<Task> to_host;
  if (root_group) {
    // The root's group first gets the data from the root; its leader then stages it.
    const int node_root = node.rank_of_world(comm.world_rank(root));
    auto intra = pipeline.add(p.h.node_queue, [=] {
      return node_copy(node, *dev, {node_root, all_but(node, node_root), true, buffer, bytes},
                       "ibcast");
    });
    if (p.inter) {
      to_host =
          pipeline.add(p.h.transfer_queue, [=] { return dev->copy(staging.get(), buffer, bytes); });
      Pipeline::depend(to_host, intra);
    }
  }
  std::shared_ptr<Task> across;
  if (p.inter) {
    const int inter_root = inter_rank_of(comm, p, root);
    across = pipeline.add(p.h.leader_queue, [=] {
      return han::inter_bcast(han::config(), leaders, staging.get(), bytes, Datatype::kUint8,
                              inter_root);
    });
    Pipeline::depend(across, to_host);
  }
  if (!root_group) {
    std::shared_ptr<Task> to_device;
    if (p.inter) {
      to_device =
          pipeline.add(p.h.transfer_queue, [=] { return dev->copy(buffer, staging.get(), bytes); });
      Pipeline::depend(to_device, across);
    }
    auto intra = pipeline.add(p.h.node_queue, [=] {
      return node_copy(node, *dev, {0, all_but(node, 0), true, buffer, bytes}, "ibcast");
    });
    Pipeline::depend(intra, to_device);
  }
  return pipeline.launch();
}

Request ireduce_staged(const Communicator& comm, DeviceSupport& device, const void* input,
                       void* recv, std::size_t count, Datatype type, Op op, int root) {
  Placement p = place(comm, count, type);
  PinnedBuffer staging = staging_for(device, p);
  DeviceSupport* dev = &device;
  const Communicator node = p.node;
  const Communicator leaders = p.leaders;
  const std::size_t bytes = p.bytes;
  Pipeline pipeline(comm.loop());
  // Each group reduces into its leader's staging buffer (the kernel writes pinned memory).
  auto intra = pipeline.add(p.h.node_queue, [=] {
    return node_reduce(node, *dev, 0, input, staging.get(), count, type, op, "ireduce");
  });
  std::shared_ptr<Task> across;
  const bool at_inter_root = p.inter && p.leaders.rank() == inter_rank_of(comm, p, root);
  if (p.inter) {
    const int inter_root = inter_rank_of(comm, p, root);
    across = pipeline.add(p.h.leader_queue, [=] {
      void* result = at_inter_root ? staging.get() : nullptr;
      const void* mine = at_inter_root ? kInPlace : staging.get();
      return han::inter_reduce(han::config(), leaders, mine, result, count, type, op, inter_root);
    });
    Pipeline::depend(across, intra);
  }
  if (!p.h.same_group(comm.rank(), root)) return pipeline.launch();
  const int root_leader = p.h.group_leader(root);
  if (root_leader == root) {
    if (comm.rank() == root) {
      auto to_device =
          pipeline.add(p.h.transfer_queue, [=] { return dev->copy(recv, staging.get(), bytes); });
      Pipeline::depend(to_device, across ? across : intra);
    }
    return pipeline.launch();
  }
  // The root is not its group's leader: the leader writes the result into the root's mapped
  // receive buffer. Every rank of the group takes part in the tag sequence.
  const int node_root = node.rank_of_world(comm.world_rank(root));
  void* local = p.leader ? static_cast<void*>(staging.get()) : recv;
  auto hand_over = pipeline.add(p.h.node_queue, [=] {
    return node_copy(node, *dev, {node_root, {0}, false, local, bytes}, "ireduce");
  });
  if (p.leader) Pipeline::depend(hand_over, across ? across : intra);
  return pipeline.launch();
}

Request iallreduce_staged(const Communicator& comm, DeviceSupport& device, const void* input,
                          void* recv, std::size_t count, Datatype type, Op op) {
  Placement p = place(comm, count, type);
  PinnedBuffer staging = staging_for(device, p);
  DeviceSupport* dev = &device;
  const Communicator node = p.node;
  const Communicator leaders = p.leaders;
  const std::size_t bytes = p.bytes;
  Pipeline pipeline(comm.loop());
  auto intra_reduce = pipeline.add(p.h.node_queue, [=] {
    return node_reduce(node, *dev, 0, input, staging.get(), count, type, op, "iallreduce");
  });
  std::shared_ptr<Task> to_device;
  if (p.leader) {
    std::shared_ptr<Task> across;
    if (p.inter) {
      across = pipeline.add(p.h.leader_queue, [=] {
        return han::inter_allreduce_in_place(leaders, staging.get(), count, type, op);
      });
      Pipeline::depend(across, intra_reduce);
    }
    to_device =
        pipeline.add(p.h.transfer_queue, [=] { return dev->copy(recv, staging.get(), bytes); });
    Pipeline::depend(to_device, across ? across : intra_reduce);
  }
  auto intra_bcast = pipeline.add(p.h.node_queue, [=] {
    return node_copy(node, *dev, {0, all_but(node, 0), true, recv, bytes}, "iallreduce");
  });
  Pipeline::depend(intra_bcast, to_device);
  return pipeline.launch();
}

}  // namespace halyard::device
