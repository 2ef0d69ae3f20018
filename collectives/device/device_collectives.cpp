#include "collectives/device/device_collectives.hpp"

#include "collectives/device/device_call.hpp"
#include "collectives/device/node_operations.hpp"

namespace halyard::device {

namespace {

using core::CollArgs;
using core::SelectedAlgorithm;

Request bcast_node_ipc(const CollArgs& a, const SelectedAlgorithm&) {
  DeviceSupport& device = support_for_call(a.comm);
  NodeCopyPlan plan{a.root, all_but(a.comm, a.root), true, a.buffer(), a.bytes};
  return node_copy(a.comm, device, plan, "ibcast");
}

Request reduce_node_ipc(const CollArgs& a, const SelectedAlgorithm&) {
  DeviceSupport& device = support_for_call(a.comm);
  return node_reduce(a.comm, device, a.root,
                     {contribution_of(a), a.recv, a.count, a.type, a.op, "ireduce"});
}

Request allreduce_node_ipc(const CollArgs& a, const SelectedAlgorithm&) {
  DeviceSupport& device = support_for_call(a.comm);
  return node_allreduce(a.comm, device,
                        {contribution_of(a), a.recv, a.count, a.type, a.op, "iallreduce"});
}

using core::Algorithm;
using core::Collective;
constexpr core::TreeShape kNoTree = core::TreeShape::kBinary;
constexpr core::Supports kOneNode{MemoryKind::kDevice, core::CommShapes::kOneNode, false};

constexpr core::AlgorithmEntry kAlgorithms[] = {
    {Collective::kBcast, "device:node_ipc", Algorithm::kNodeIpc, kNoTree, kOneNode, bcast_node_ipc},
    {Collective::kReduce, "device:node_ipc", Algorithm::kNodeIpc, kNoTree, kOneNode,
     reduce_node_ipc},
    {Collective::kAllreduce, "device:node_ipc", Algorithm::kNodeIpc, kNoTree, kOneNode,
     allreduce_node_ipc},
};

}  // namespace

core::AlgorithmTable algorithms() {
  return kAlgorithms;
}

}  // namespace halyard::device
