// The shm engine as catalog entries (core/catalog.hpp), and where it cannot run, the p2p
// algorithm each call falls back on.
#include <memory>

#include "collectives/base/base.hpp"
#include "collectives/shm/channel_binding.hpp"
#include "collectives/shm/shm.hpp"

namespace halyard::shm {

namespace {

using core::Algorithm;
using core::CollArgs;
using core::Collective;
using core::SelectedAlgorithm;

Request fallback(const CollArgs& a) {
  switch (a.collective) {
    case Collective::kBarrier:
      return base::ibarrier_dissemination(a.comm);
    case Collective::kBcast:
      return base::ibcast_binomial(a.comm, a.buffer(), a.count, a.type, a.root);
    case Collective::kReduce:
      return base::ireduce_binomial(a.comm, a.send, a.recv, a.count, a.type, a.op, a.root);
    case Collective::kGather:
      return base::igather_linear(a.comm, a.send, a.recv, a.count, a.type, a.root);
    case Collective::kAllgather:
      return base::iallgather_ring(a.comm, a.send, a.recv, a.count, a.type);
    default:
      return base::iallreduce_recursive_doubling(a.comm, a.send, a.recv, a.count, a.type, a.op);
  }
}

Request post(const CollArgs& a, const SelectedAlgorithm&) {
  return ChannelBinding::of(a.comm).start(a, fallback);
}

constexpr core::TreeShape kNoTree = core::TreeShape::kBinary;
constexpr core::Supports kOneNode{MemoryKind::kHost, core::CommShapes::kOneNode, true};

constexpr core::AlgorithmEntry kAlgorithms[] = {
    {Collective::kBarrier, "shm", Algorithm::kShm, kNoTree, kOneNode, post},
    {Collective::kBcast, "shm", Algorithm::kShm, kNoTree, kOneNode, post},
    {Collective::kReduce, "shm", Algorithm::kShm, kNoTree, kOneNode, post},
    {Collective::kAllreduce, "shm", Algorithm::kShm, kNoTree, kOneNode, post},
    {Collective::kAllgather, "shm", Algorithm::kShm, kNoTree, kOneNode, post},
    {Collective::kGather, "shm", Algorithm::kShm, kNoTree, kOneNode, post},
};

}  // namespace

core::AlgorithmTable algorithms() {
  return kAlgorithms;
}

bool bind_channel(const Communicator& node) {
  return ChannelBinding::of(node).wait_agreed(node) != nullptr;
}

Request post_bound(CollArgs args) {
  args.bytes = args.count * datatype_size(args.type);
  ChannelBinding* binding = ChannelBinding::find(args.comm);
  if (binding == nullptr) return fallback(args);
  return binding->start(args, fallback);
}

}  // namespace halyard::shm
