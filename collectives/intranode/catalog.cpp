// The intra-node primitives as catalog entries (core/catalog.hpp): intranode:sm and
// intranode:cma for bcast, reduce, allreduce, gather and allgather, on communicators whose
// members all share one node. HALYARD_<COLL>_ALG and the decision table may name them; the
// selection refuses them on a communicator that spans several nodes (select/selection.cpp).
#include "collectives/intranode/intranode.hpp"
#include "collectives/intranode/slot_lanes.hpp"

namespace halyard::intranode {

namespace {

using core::Algorithm;
using core::CollArgs;
using core::Collective;
using core::SelectedAlgorithm;

// Marks a communicator whose first call through these entries asked for a scratch lane.
struct LaneAsked {};

// The sm flavour (and cma where CMA is refused) writes into a lane of every member's scratch
// slot. Communicators without a lane of their own share lane 0, and primitives on overlapping
// ones must then start in the same order on every rank, a rule MPI does not impose on
// nonblocking collectives of different communicators. So the first call on a communicator
// reserves it a lane, as HAN does for each hierarchy: a blocking agreement among its members
// (like HAN's first call, the first call on a communicator must come in the same order on all
// ranks relative to other blocking collectives), released with the communicator. When every
// lane is taken it shares lane 0 under the rule above; asking again would cost an agreement per
// call, so it asks once.
void reserve_lane_on_first_call(const Communicator& comm) {
  if (comm.size() == 1 || comm.attachment<LaneAsked>()) return;
  reserve_lane(comm);
  comm.attach(std::make_shared<LaneAsked>());
}

template <Flavour F>
Request post_bcast(const CollArgs& a, const SelectedAlgorithm&) {
  reserve_lane_on_first_call(a.comm);
  return ibcast(a.comm, a.buffer(), a.count, a.type, a.root, F);
}

template <Flavour F>
Request post_reduce(const CollArgs& a, const SelectedAlgorithm&) {
  reserve_lane_on_first_call(a.comm);
  return ireduce(a.comm, a.send, a.recv, a.count, a.type, a.op, a.root, F,
                 {a.send_layout, a.recv_layout});
}

template <Flavour F>
Request post_allreduce(const CollArgs& a, const SelectedAlgorithm&) {
  reserve_lane_on_first_call(a.comm);
  return iallreduce(a.comm, a.send, a.recv, a.count, a.type, a.op, F,
                    {a.send_layout, a.recv_layout});
}

// The cma reductions pack and unpack non-contiguous buffers inside their own chunked copies
// (cma_slice_reduce.hpp) where CMA works (the sm flavour it would fall back to does not) and on
// host memory; one member has nothing to reduce and is left to the staged copy.
bool cma_takes_layouts(const CollArgs& a) {
  return a.comm.size() > 1 && a.memory == MemoryKind::kHost &&
         effective_flavour(a.comm, Flavour::kCma) == Flavour::kCma;
}

template <Flavour F>
Request post_gather(const CollArgs& a, const SelectedAlgorithm&) {
  reserve_lane_on_first_call(a.comm);
  return igather(a.comm, a.send, a.recv, a.count, a.type, a.root, F);
}

template <Flavour F>
Request post_allgather(const CollArgs& a, const SelectedAlgorithm&) {
  reserve_lane_on_first_call(a.comm);
  return iallgather(a.comm, a.send, a.recv, a.count, a.type, F);
}

constexpr core::TreeShape kNoTree = core::TreeShape::kBinary;
constexpr core::Supports kOneNode{MemoryKind::kHost, core::CommShapes::kOneNode, true};
constexpr core::Supports kOneNodeLaidOut{
    MemoryKind::kHost, core::CommShapes::kOneNode, true, false, false, cma_takes_layouts};
constexpr Algorithm kSm = Algorithm::kIntranodeSm;
constexpr Algorithm kCma = Algorithm::kIntranodeCma;

constexpr core::AlgorithmEntry kAlgorithms[] = {
    {Collective::kBcast, "intranode:sm", kSm, kNoTree, kOneNode, post_bcast<Flavour::kSm>},
    {Collective::kBcast, "intranode:cma", kCma, kNoTree, kOneNode, post_bcast<Flavour::kCma>},
    {Collective::kReduce, "intranode:sm", kSm, kNoTree, kOneNode, post_reduce<Flavour::kSm>},
    {Collective::kReduce, "intranode:cma", kCma, kNoTree, kOneNodeLaidOut,
     post_reduce<Flavour::kCma>},
    {Collective::kAllreduce, "intranode:sm", kSm, kNoTree, kOneNode, post_allreduce<Flavour::kSm>},
    {Collective::kAllreduce, "intranode:cma", kCma, kNoTree, kOneNodeLaidOut,
     post_allreduce<Flavour::kCma>},
    {Collective::kGather, "intranode:sm", kSm, kNoTree, kOneNode, post_gather<Flavour::kSm>},
    {Collective::kGather, "intranode:cma", kCma, kNoTree, kOneNode, post_gather<Flavour::kCma>},
    {Collective::kAllgather, "intranode:sm", kSm, kNoTree, kOneNode, post_allgather<Flavour::kSm>},
    {Collective::kAllgather, "intranode:cma", kCma, kNoTree, kOneNode,
     post_allgather<Flavour::kCma>},
};

}  // namespace

core::AlgorithmTable algorithms() {
  return kAlgorithms;
}

}  // namespace halyard::intranode
