// The shm engine as catalog entries (core/catalog.hpp), and where it cannot run, the p2p
// algorithm each call falls back on.
#include <memory>

#include "collectives/base/base.hpp"
#include "collectives/shm/channel.hpp"
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
    case Collective::kScatter:
      return base::iscatter_linear(a.comm, a.send, a.recv, a.count, a.type, a.root);
    case Collective::kGatherv:
      return base::igatherv_linear(a.comm, a.send, a.count, a.recv, a.counts, a.displacements,
                                   a.type, a.root);
    case Collective::kScatterv:
      return base::iscatterv_linear(a.comm, a.send, a.counts, a.displacements, a.recv, a.count,
                                    a.type, a.root);
    case Collective::kAllgatherv:
      return base::iallgatherv_ring(a.comm, a.send, a.count, a.recv, a.counts, a.displacements,
                                    a.type);
    case Collective::kReduceScatterBlock:
      return base::ireduce_scatter_block_ring(a.comm, a.send, a.recv, a.count, a.type, a.op);
    case Collective::kReduceScatter:
      return base::ireduce_scatter_ring(a.comm, a.send, a.recv, a.counts, a.type, a.op);
    case Collective::kAlltoall:
      return base::ialltoall_pairwise(a.comm, a.send, a.recv, a.count, a.type);
    case Collective::kAlltoallv:
      return base::ialltoallv_pairwise(a.comm, a.send, a.send_counts, a.send_displacements, a.recv,
                                       a.counts, a.displacements, a.type);
    default:
      return base::iallreduce_recursive_doubling(a.comm, a.send, a.recv, a.count, a.type, a.op);
  }
}

Request post(const CollArgs& a, const SelectedAlgorithm&) {
  ChannelBinding& binding = ChannelBinding::of(a.comm);
  // The usual call, once the channel is agreed: straight onto it.
  if (Channel* channel = binding.agreed_channel()) return channel->start(a);
  return binding.start(a, fallback);
}

// Allreduce and reduce pack a derived datatype straight into the cells and write each reduced
// piece through the recv layout (channel.hpp, CallLayouts, Channel::takes_layouts), once the
// communicator's channel is agreed: a call that would wait for the agreement, or take the p2p
// fallback, is staged instead.
bool channel_takes_layouts(const CollArgs& a) {
  if (a.comm.size() < 2 || a.memory != MemoryKind::kHost) return false;
  const ChannelBinding* binding = ChannelBinding::find(a.comm);
  const Channel* channel = binding != nullptr ? binding->agreed_channel() : nullptr;
  return channel != nullptr && channel->takes_layouts(a);
}

constexpr core::TreeShape kNoTree = core::TreeShape::kBinary;
constexpr core::Supports kOneNode{MemoryKind::kHost, core::CommShapes::kOneNode, true};
constexpr core::Supports kOneNodeLaidOut{
    MemoryKind::kHost, core::CommShapes::kOneNode, true, false, false, channel_takes_layouts};

constexpr core::AlgorithmEntry entry(Collective collective) {
  return {collective,
          "shm",
          Algorithm::kShm,
          kNoTree,
          collective == Collective::kAllreduce || collective == Collective::kReduce
              ? kOneNodeLaidOut
              : kOneNode,
          post};
}

constexpr core::AlgorithmEntry kAlgorithms[] = {
    entry(Collective::kBarrier),       entry(Collective::kBcast),
    entry(Collective::kReduce),        entry(Collective::kAllreduce),
    entry(Collective::kAllgather),     entry(Collective::kGather),
    entry(Collective::kScatter),       entry(Collective::kReduceScatterBlock),
    entry(Collective::kReduceScatter), entry(Collective::kGatherv),
    entry(Collective::kScatterv),      entry(Collective::kAllgatherv),
    entry(Collective::kAlltoall),      entry(Collective::kAlltoallv),
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
