// HAN's pipelines as catalog entries (core/catalog.hpp), the host ones and the staged device
// ones (device_staged.hpp).
#include "collectives/han/device_staged.hpp"
#include "collectives/han/han.hpp"

namespace halyard::han {

namespace {

using core::Algorithm;
using core::CollArgs;
using core::Collective;
using core::SelectedAlgorithm;

Request post_bcast(const CollArgs& a, const SelectedAlgorithm& selected) {
  return ibcast(a.comm, a.buffer(), a.count, a.type, a.root, selected.han);
}

Request post_reduce(const CollArgs& a, const SelectedAlgorithm& selected) {
  return ireduce(a.comm, a.send, a.recv, a.count, a.type, a.op, a.root, selected.han);
}

Request post_allreduce(const CollArgs& a, const SelectedAlgorithm& selected) {
  return iallreduce(a.comm, a.send, a.recv, a.count, a.type, a.op, selected.han);
}

Request post_allgather(const CollArgs& a, const SelectedAlgorithm&) {
  return iallgather(a.comm, a.send, a.recv, a.count, a.type);
}

Request post_barrier(const CollArgs& a, const SelectedAlgorithm&) {
  return ibarrier(a.comm);
}

constexpr core::TreeShape kNoTree = core::TreeShape::kBinary;
// The staged device pipelines: taken by memory kind on several nodes, never named.
constexpr core::Supports kDeviceOnSeveralNodes{MemoryKind::kDevice, core::CommShapes::kSeveralNodes,
                                               false};

// HAN runs on any communicator: where it has one level (one node, or one rank per node) the
// pipeline degenerates to that level's submodule.
constexpr core::AlgorithmEntry kAlgorithms[] = {
    {Collective::kBcast, "han", Algorithm::kHan, kNoTree, {}, post_bcast},
    {Collective::kReduce, "han", Algorithm::kHan, kNoTree, {}, post_reduce},
    {Collective::kAllreduce, "han", Algorithm::kHan, kNoTree, {}, post_allreduce},
    {Collective::kAllgather, "han", Algorithm::kHan, kNoTree, {}, post_allgather},
    {Collective::kBarrier, "han", Algorithm::kHan, kNoTree, {}, post_barrier},
    {Collective::kBcast, "device:staged", Algorithm::kStagedNodes, kNoTree, kDeviceOnSeveralNodes,
     post_device_staged_bcast},
    {Collective::kReduce, "device:staged", Algorithm::kStagedNodes, kNoTree, kDeviceOnSeveralNodes,
     post_device_staged_reduce},
    {Collective::kAllreduce, "device:staged", Algorithm::kStagedNodes, kNoTree,
     kDeviceOnSeveralNodes, post_device_staged_allreduce},
};

}  // namespace

core::AlgorithmTable algorithms() {
  return kAlgorithms;
}

}  // namespace halyard::han
