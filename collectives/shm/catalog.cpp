// The shm engine as catalog entries (core/catalog.hpp), and where it cannot run, the p2p
// algorithm each call falls back on.
#include <memory>

#include "collectives/base/base.hpp"
#include "collectives/shm/channel.hpp"
#include "collectives/shm/channel_table.hpp"
#include "collectives/shm/shm.hpp"
#include "runtime/node_memory.hpp"

namespace halyard::shm {

namespace {

using core::Algorithm;
using core::CollArgs;
using core::Collective;
using core::SelectedAlgorithm;

// A communicator's channel, attached to it at its first call (null: the engine cannot run on
// it, decided alike on every member).
struct ChannelBinding {
  std::shared_ptr<Channel> channel;
};

bool whole_comm_on_this_node(const Communicator& comm, const NodeMemory& memory) {
  for (int r = 0; r < comm.size(); ++r) {
    if (!memory.on_this_node(comm.world_rank(r))) return false;
  }
  return true;
}

Channel* channel_of(const Communicator& comm) {
  if (auto* binding = comm.peek_attachment<ChannelBinding>()) return binding->channel.get();
  std::shared_ptr<Channel> channel;
  NodeMemory* memory = node_memory_of(comm);
  if (memory != nullptr && comm.size() > 1 && whole_comm_on_this_node(comm, *memory)) {
    channel = ChannelTable::agree(comm, *memory);
  }
  return comm.attach(std::make_shared<ChannelBinding>(ChannelBinding{std::move(channel)}))
      ->channel.get();
}

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
    default:
      return base::iallreduce_recursive_doubling(a.comm, a.send, a.recv, a.count, a.type, a.op);
  }
}

Request post(const CollArgs& a, const SelectedAlgorithm&) {
  if (Channel* channel = channel_of(a.comm)) return channel->start(a);
  return fallback(a);
}

constexpr core::TreeShape kNoTree = core::TreeShape::kBinary;
constexpr core::Supports kOneNode{MemoryKind::kHost, core::CommShapes::kOneNode, true};

constexpr core::AlgorithmEntry entry(Collective collective) {
  return {collective, "shm", Algorithm::kShm, kNoTree, kOneNode, post};
}

constexpr core::AlgorithmEntry kAlgorithms[] = {
    entry(Collective::kBarrier),       entry(Collective::kBcast),
    entry(Collective::kReduce),        entry(Collective::kAllreduce),
    entry(Collective::kAllgather),     entry(Collective::kGather),
    entry(Collective::kScatter),       entry(Collective::kReduceScatterBlock),
    entry(Collective::kReduceScatter), entry(Collective::kGatherv),
    entry(Collective::kScatterv),      entry(Collective::kAllgatherv),
};

}  // namespace

core::AlgorithmTable algorithms() {
  return kAlgorithms;
}

bool bind_channel(const Communicator& node) {
  return channel_of(node) != nullptr;
}

Request post_bound(CollArgs args) {
  args.bytes = args.count * datatype_size(args.type);
  const auto* binding = args.comm.peek_attachment<ChannelBinding>();
  if (binding != nullptr && binding->channel) return binding->channel->start(args);
  return fallback(args);
}

}  // namespace halyard::shm
