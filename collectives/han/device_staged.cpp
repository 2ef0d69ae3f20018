// The staged (multi-node) device collectives, as HAN task pipelines on HAN's hierarchy (node
// groups and their leaders). Inside a node: the device family's node operations over CUDA IPC
// (collectives/device/node_operations.hpp).
// Between nodes: each leader stages the node's data in one pinned host buffer (one crossing of
// PCIe per direction per node, ADAPT section 4) and runs HAN's inter-node submodule on it; the
// inter-node reductions run on the leaders' CPUs.
//
// Tasks on h.node_queue take the node communicator's tags in queue order, so every rank of a
// node adds the same node tasks in the same order, even those it is not involved in. The
// staging buffer is captured by every task that touches it, so it lives until the last one ends.
//
// Failures: inside a node they travel in the node operations' notices and tokens. Between
// nodes, the host collectives on the staging buffers would carry garbage without complaint, so
// the leaders agree on a health flag (an allreduce of one int, minimum) before the last node
// step, and a leader whose call failed anywhere fails that step for its whole node.
#include <memory>

#include "collectives/han/device_staged.hpp"

#include "collectives/base/base.hpp"
#include "collectives/core/in_place.hpp"
#include "collectives/device/device_call.hpp"
#include "collectives/device/node_operations.hpp"
#include "collectives/han/hierarchy.hpp"
#include "collectives/han/submodules.hpp"
#include "collectives/han/task_pipeline.hpp"

namespace halyard::han {

namespace {

using device::all_but;
using device::node_copy;
using device::node_reduce;
using device::NodeCopyPlan;
using device::NodeReduction;

// One staged call as its tasks see it: this rank's place in the hierarchy and the leader's
// staging buffer. Shared by the tasks, so it (and the buffer) lives until the last one ends.
struct Staged {
  std::shared_ptr<Hierarchy> h;  // kept: the application may free comm while this runs
  DeviceSupport& device;
  Communicator node;
  Communicator leaders;
  bool leader;
  bool inter;  // this rank is a leader and there is more than one group
  std::size_t bytes;
  PinnedBuffer staging;  // the leaders' pinned copy of the whole message
  // 1 while this rank's part went well; after agree_on_health() on leaders: every leader's.
  std::int32_t healthy = 1;

  void* staged() const { return staging.get(); }
  bool failed_elsewhere() const { return healthy == 0; }
};

std::shared_ptr<Staged> stage(const Communicator& comm, DeviceSupport& device, std::size_t count,
                              Datatype type) {
  // First: creating it is collective.
  std::shared_ptr<Hierarchy> h = shared_hierarchy_of(comm);
  const bool leader = h->is_leader();
  const std::size_t bytes = count * datatype_size(type);
  return std::make_shared<Staged>(Staged{h, device, h->node, h->leader, leader,
                                         leader && h->leader.size() > 1, bytes,
                                         leader && bytes > 0 ? device.pinned(bytes) : nullptr});
}

// The leaders' rank of the leader of comm rank `rank`'s group.
int inter_rank_of(const Communicator& comm, const Staged& s, int rank) {
  return s.leaders.rank_of_world(comm.world_rank(s.h->group_leader(rank)));
}

// `request`, noting a failure in the call's health flag.
Request noting_failure(const std::shared_ptr<Staged>& s, Request request) {
  request.on_complete([s](const Status& status) {
    if (!status.ok()) s->healthy = 0;
  });
  return request;
}

// The leaders' agreement on the call's health (leaders only), after `after`.
std::shared_ptr<Task> agree_on_health(Pipeline& pipeline, const std::shared_ptr<Staged>& s,
                                      const std::shared_ptr<Task>& after) {
  if (!s->inter) return after;
  auto agree = pipeline.add(s->h->leader_queue, [s] {
    return base::iallreduce_recursive_doubling(s->leaders, kInPlace, &s->healthy, 1,
                                               Datatype::kInt32, Op::kMin);
  });
  Pipeline::depend(agree, after);
  return agree;
}

// A device copy on the transfer queue, failing at once when the call already failed.
std::shared_ptr<Task> staging_copy(Pipeline& pipeline, const std::shared_ptr<Staged>& s,
                                   void* destination, const void* source) {
  return pipeline.add(s->h->transfer_queue, [s, destination, source] {
    if (s->failed_elsewhere()) {
      return Request::make_completed(
          s->node.loop(),
          Status::failure(ErrorCode::kTransport, "device collective failed on another node"));
    }
    return noting_failure(s, s->device.copy(destination, source, s->bytes));
  });
}

// Every group reduces into its leader's staging buffer: the kernel writes the pinned memory
// directly, so the data crosses PCIe once.
std::shared_ptr<Task> reduce_into_staging(Pipeline& pipeline, const std::shared_ptr<Staged>& s,
                                          const NodeReduction& reduction) {
  return pipeline.add(s->h->node_queue, [s, reduction] {
    NodeReduction into_staging = reduction;
    into_staging.out = s->staged();
    return noting_failure(s, node_reduce(s->node, s->device, 0, into_staging));
  });
}

Request ibcast_staged(const Communicator& comm, DeviceSupport& device, void* buffer,
                      std::size_t count, Datatype type, int root) {
  auto s = stage(comm, device, count, type);
  const bool root_group = s->h->same_group(comm.rank(), root);
  Pipeline pipeline(comm);
  std::shared_ptr<Task> to_host;
  if (root_group) {
    // The root's group first gets the data from the root; its leader then stages it.
    const int node_root = s->node.rank_of_world(comm.world_rank(root));
    auto intra = pipeline.add(s->h->node_queue, [s, node_root, buffer] {
      NodeCopyPlan plan{node_root, all_but(s->node, node_root), true, buffer, s->bytes};
      return noting_failure(s, node_copy(s->node, s->device, plan, "ibcast"));
    });
    if (s->inter) {
      to_host = staging_copy(pipeline, s, s->staged(), buffer);
      Pipeline::depend(to_host, intra);
    }
  }
  std::shared_ptr<Task> across;
  if (s->inter) {
    const int inter_root = inter_rank_of(comm, *s, root);
    across = pipeline.add(s->h->leader_queue, [s, inter_root] {
      return noting_failure(s, inter_bcast(config(), s->leaders, s->staged(), s->bytes,
                                           Datatype::kUint8, inter_root));
    });
    Pipeline::depend(across, to_host);
  }
  auto healthy = agree_on_health(pipeline, s, across);
  if (!root_group) {
    std::shared_ptr<Task> to_device;
    if (s->inter) {
      to_device = staging_copy(pipeline, s, buffer, s->staged());
      Pipeline::depend(to_device, healthy);
    }
    auto intra = pipeline.add(s->h->node_queue, [s, buffer] {
      NodeCopyPlan plan{0, all_but(s->node, 0), true, buffer, s->bytes, s->failed_elsewhere()};
      return node_copy(s->node, s->device, plan, "ibcast");
    });
    Pipeline::depend(intra, to_device);
  }
  return pipeline.launch();
}

Request ireduce_staged(const Communicator& comm, DeviceSupport& device, const void* input,
                       void* recv, std::size_t count, Datatype type, Op op, int root) {
  auto s = stage(comm, device, count, type);
  Pipeline pipeline(comm);
  auto intra = reduce_into_staging(pipeline, s, {input, nullptr, count, type, op, "ireduce"});
  std::shared_ptr<Task> across;
  if (s->inter) {
    const int inter_root = inter_rank_of(comm, *s, root);
    const bool at_root = s->leaders.rank() == inter_root;
    across = pipeline.add(s->h->leader_queue, [s, inter_root, at_root, count, type, op] {
      const void* mine = at_root ? kInPlace : s->staged();
      void* result = at_root ? s->staged() : nullptr;
      return noting_failure(
          s, inter_reduce(config(), s->leaders, mine, result, count, type, op, inter_root));
    });
    Pipeline::depend(across, intra);
  }
  const auto result_ready = agree_on_health(pipeline, s, across ? across : intra);
  if (!s->h->same_group(comm.rank(), root)) return pipeline.launch();
  if (s->h->group_leader(root) == root) {
    if (comm.rank() == root) {
      auto to_device = staging_copy(pipeline, s, recv, s->staged());
      Pipeline::depend(to_device, result_ready);
    }
    return pipeline.launch();
  }
  // The root is not its group's leader: the leader writes the result into the root's mapped
  // receive buffer. Every rank of the group takes part in the tag sequence.
  const int node_root = s->node.rank_of_world(comm.world_rank(root));
  void* local = s->leader ? s->staged() : recv;
  auto hand_over = pipeline.add(s->h->node_queue, [s, node_root, local] {
    NodeCopyPlan plan{node_root, {0}, false, local, s->bytes, s->leader && s->failed_elsewhere()};
    return node_copy(s->node, s->device, plan, "ireduce");
  });
  if (s->leader) Pipeline::depend(hand_over, result_ready);
  return pipeline.launch();
}

Request iallreduce_staged(const Communicator& comm, DeviceSupport& device, const void* input,
                          void* recv, std::size_t count, Datatype type, Op op) {
  auto s = stage(comm, device, count, type);
  Pipeline pipeline(comm);
  auto intra_reduce =
      reduce_into_staging(pipeline, s, {input, nullptr, count, type, op, "iallreduce"});
  std::shared_ptr<Task> to_device;
  if (s->leader) {
    std::shared_ptr<Task> across;
    if (s->inter) {
      across = pipeline.add(s->h->leader_queue, [s, count, type, op] {
        return noting_failure(s,
                              inter_allreduce_in_place(s->leaders, s->staged(), count, type, op));
      });
      Pipeline::depend(across, intra_reduce);
    }
    to_device = staging_copy(pipeline, s, recv, s->staged());
    Pipeline::depend(to_device, agree_on_health(pipeline, s, across ? across : intra_reduce));
  }
  auto intra_bcast = pipeline.add(s->h->node_queue, [s, recv] {
    NodeCopyPlan plan{0, all_but(s->node, 0), true, recv, s->bytes, s->failed_elsewhere()};
    return node_copy(s->node, s->device, plan, "iallreduce");
  });
  Pipeline::depend(intra_bcast, to_device);
  return pipeline.launch();
}

}  // namespace

Request post_device_staged_bcast(const core::CollArgs& a, const core::SelectedAlgorithm&) {
  return ibcast_staged(a.comm, device::support_for_call(a.comm), a.buffer(), a.count, a.type,
                       a.root);
}

Request post_device_staged_reduce(const core::CollArgs& a, const core::SelectedAlgorithm&) {
  return ireduce_staged(a.comm, device::support_for_call(a.comm), device::contribution_of(a),
                        a.recv, a.count, a.type, a.op, a.root);
}

Request post_device_staged_allreduce(const core::CollArgs& a, const core::SelectedAlgorithm&) {
  return iallreduce_staged(a.comm, device::support_for_call(a.comm), device::contribution_of(a),
                           a.recv, a.count, a.type, a.op);
}

}  // namespace halyard::han
