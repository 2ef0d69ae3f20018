// The self entries (self.hpp): one post() per collective, each the copy its definition leaves
// when the communicator has one member (rank 0, which is also every root). The data are packed
// elements of args.type (the entries take no layouts: the MPI shim stages derived types around
// them), counts and displacements in elements.
#include "collectives/self/self.hpp"

#include "collectives/core/in_place.hpp"
#include "runtime/datatypes/datatype.hpp"
#include "runtime/support/copy_bytes.hpp"

namespace halyard::self {

namespace {

using core::Algorithm;
using core::CollArgs;
using core::Collective;
using core::is_in_place;
using core::SelectedAlgorithm;

// The call is complete when post() returns: a blocking caller only waits on it, and a null
// request is a completed one without the cost of one (as the shm engine answers).
Request completed(const CollArgs& a) {
  return a.null_when_ended() ? Request() : Request::make_completed(a.comm.loop(), Status{});
}

// Copies `count` elements from element `from` of `send` to element `to` of `recv`, unless the
// call is in place (the data are already where they belong).
Request copied(const CollArgs& a, const void* send, std::size_t from, void* recv, std::size_t to,
               std::size_t count) {
  const std::size_t size = datatype_size(a.type);
  if (count != 0 && !is_in_place(send) && !is_in_place(recv)) {
    copy_bytes(static_cast<std::byte*>(recv) + to * size,
               static_cast<const std::byte*>(send) + from * size, count * size);
  }
  return completed(a);
}

// barrier, bcast (the root's buffer is the only one), exscan (rank 0's recv stays untouched).
Request post_nothing(const CollArgs& a, const SelectedAlgorithm&) {
  return completed(a);
}

// reduce, allreduce, scan (the reduction of one contribution is itself), allgather, gather,
// scatter, alltoall, reduce_scatter_block: `count` elements from send to recv. In place (send
// for the all-ranks ones and the root's gather, recv for the root's scatter), nothing moves.
Request post_block(const CollArgs& a, const SelectedAlgorithm&) {
  return copied(a, a.send, 0, a.recv, 0, a.count);
}

// reduce_scatter: block 0 has counts[0] elements at the start of send; in place it is already at
// the start of recv.
Request post_reduce_scatter(const CollArgs& a, const SelectedAlgorithm&) {
  return copied(a, a.send, 0, a.recv, 0, a.counts[0]);
}

// gatherv and allgatherv: this rank's `count` elements go to its place in recv.
Request post_gathered_v(const CollArgs& a, const SelectedAlgorithm&) {
  return copied(a, a.send, 0, a.recv, a.displacements[0], a.count);
}

// scatterv: block 0 of send, as counts/displacements place it, becomes recv.
Request post_scatterv(const CollArgs& a, const SelectedAlgorithm&) {
  return copied(a, a.send, a.displacements[0], a.recv, 0, a.count);
}

// alltoallv: block 0 of send goes to block 0 of recv; in place it is sent from recv to itself.
Request post_alltoallv(const CollArgs& a, const SelectedAlgorithm&) {
  return copied(a, a.send, a.send_displacements == nullptr ? 0 : a.send_displacements[0], a.recv,
                a.displacements[0], a.counts[0]);
}

constexpr core::TreeShape kNoTree = core::TreeShape::kBinary;
// Host memory, one member; a copy is every op's result and rank order is trivially kept.
constexpr core::Supports kOneMember{MemoryKind::kHost, core::CommShapes::kOneMember, false, true,
                                    true};
constexpr Algorithm kSelf = Algorithm::kSelf;

constexpr core::AlgorithmEntry kAlgorithms[] = {
    {Collective::kBarrier, "self", kSelf, kNoTree, kOneMember, post_nothing},
    {Collective::kBcast, "self", kSelf, kNoTree, kOneMember, post_nothing},
    {Collective::kExscan, "self", kSelf, kNoTree, kOneMember, post_nothing},
    {Collective::kReduce, "self", kSelf, kNoTree, kOneMember, post_block},
    {Collective::kAllreduce, "self", kSelf, kNoTree, kOneMember, post_block},
    {Collective::kScan, "self", kSelf, kNoTree, kOneMember, post_block},
    {Collective::kAllgather, "self", kSelf, kNoTree, kOneMember, post_block},
    {Collective::kGather, "self", kSelf, kNoTree, kOneMember, post_block},
    {Collective::kScatter, "self", kSelf, kNoTree, kOneMember, post_block},
    {Collective::kAlltoall, "self", kSelf, kNoTree, kOneMember, post_block},
    {Collective::kReduceScatterBlock, "self", kSelf, kNoTree, kOneMember, post_block},
    {Collective::kReduceScatter, "self", kSelf, kNoTree, kOneMember, post_reduce_scatter},
    {Collective::kGatherv, "self", kSelf, kNoTree, kOneMember, post_gathered_v},
    {Collective::kAllgatherv, "self", kSelf, kNoTree, kOneMember, post_gathered_v},
    {Collective::kScatterv, "self", kSelf, kNoTree, kOneMember, post_scatterv},
    {Collective::kAlltoallv, "self", kSelf, kNoTree, kOneMember, post_alltoallv},
};
static_assert(std::size(kAlgorithms) == core::kCollectiveCount);

}  // namespace

core::AlgorithmTable algorithms() {
  return kAlgorithms;
}

}  // namespace halyard::self
