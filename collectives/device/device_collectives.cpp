#include "collectives/device/device_collectives.hpp"

#include "collectives/core/in_place.hpp"
#include "collectives/device/node_operations.hpp"
#include "runtime/support/error.hpp"

namespace halyard::device {

namespace {

// The device support of `comm`, once the caller's earlier device work on the call's buffers
// has finished (DeviceSupport::wait_for_caller_work says why).
DeviceSupport& support_for_call(const Communicator& comm) {
  DeviceSupport* support = device_support_of(comm);
  if (support == nullptr) {
    throw Error(ErrorCode::kInternal, "a device collective was selected without DeviceSupport");
  }
  support->wait_for_caller_work();
  return *support;
}

// This rank's contribution: the receive buffer when the call is in place.
const void* input_of(const core::CollArgs& a) {
  return core::is_in_place(a.send) ? a.recv : a.send;
}

using core::CollArgs;
using core::SelectedAlgorithm;

Request bcast_node_ipc(const CollArgs& a, const SelectedAlgorithm&) {
  DeviceSupport& device = support_for_call(a.comm);
  NodeCopyPlan plan{a.root, all_but(a.comm, a.root), true, a.buffer(), a.bytes};
  return node_copy(a.comm, device, plan, "ibcast");
}

Request bcast_staged(const CollArgs& a, const SelectedAlgorithm&) {
  return ibcast_staged(a.comm, support_for_call(a.comm), a.buffer(), a.count, a.type, a.root);
}

Request reduce_node_ipc(const CollArgs& a, const SelectedAlgorithm&) {
  DeviceSupport& device = support_for_call(a.comm);
  return node_reduce(a.comm, device, a.root,
                     {input_of(a), a.recv, a.count, a.type, a.op, "ireduce"});
}

Request reduce_staged(const CollArgs& a, const SelectedAlgorithm&) {
  return ireduce_staged(a.comm, support_for_call(a.comm), input_of(a), a.recv, a.count, a.type,
                        a.op, a.root);
}

Request allreduce_node_ipc(const CollArgs& a, const SelectedAlgorithm&) {
  DeviceSupport& device = support_for_call(a.comm);
  return node_allreduce(a.comm, device, {input_of(a), a.recv, a.count, a.type, a.op, "iallreduce"});
}

Request allreduce_staged(const CollArgs& a, const SelectedAlgorithm&) {
  return iallreduce_staged(a.comm, support_for_call(a.comm), input_of(a), a.recv, a.count, a.type,
                           a.op);
}

using core::Algorithm;
using core::Collective;
using core::CommShapes;
constexpr core::TreeShape kNoTree = core::TreeShape::kBinary;
constexpr core::Supports kOneNode{MemoryKind::kDevice, CommShapes::kOneNode, false};
constexpr core::Supports kSeveralNodes{MemoryKind::kDevice, CommShapes::kSeveralNodes, false};

constexpr core::AlgorithmEntry kAlgorithms[] = {
    {Collective::kBcast, "device:node_ipc", Algorithm::kNodeIpc, kNoTree, kOneNode, bcast_node_ipc},
    {Collective::kBcast, "device:staged", Algorithm::kStagedNodes, kNoTree, kSeveralNodes,
     bcast_staged},
    {Collective::kReduce, "device:node_ipc", Algorithm::kNodeIpc, kNoTree, kOneNode,
     reduce_node_ipc},
    {Collective::kReduce, "device:staged", Algorithm::kStagedNodes, kNoTree, kSeveralNodes,
     reduce_staged},
    {Collective::kAllreduce, "device:node_ipc", Algorithm::kNodeIpc, kNoTree, kOneNode,
     allreduce_node_ipc},
    {Collective::kAllreduce, "device:staged", Algorithm::kStagedNodes, kNoTree, kSeveralNodes,
     allreduce_staged},
};

}  // namespace

core::AlgorithmTable algorithms() {
  return kAlgorithms;
}

}  // namespace halyard::device
