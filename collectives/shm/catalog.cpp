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
  return channel_of(node) != nullptr;
}

Request post_bound(CollArgs args) {
  args.bytes = args.count * datatype_size(args.type);
  const auto* binding = args.comm.peek_attachment<ChannelBinding>();
  if (binding != nullptr && binding->channel) return binding->channel->start(args);
  return fallback(args);
}

}  // namespace halyard::shm
