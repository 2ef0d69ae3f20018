// The flat algorithms as catalog entries (core/catalog.hpp): each post() unpacks the validated
// call into the algorithm's own arguments.
#include "collectives/base/base.hpp"

namespace halyard::base {

namespace {

using core::Algorithm;
using core::AlgorithmEntry;
using core::CollArgs;
using core::Collective;
using core::SelectedAlgorithm;

template <Request (*Rooted)(const Communicator&, void*, std::size_t, Datatype, int)>
Request post_bcast(const CollArgs& a, const SelectedAlgorithm&) {
  return Rooted(a.comm, a.buffer(), a.count, a.type, a.root);
}

template <Request (*Reduce)(const Communicator&, const void*, void*, std::size_t, Datatype, Op,
                            int)>
Request post_reduce(const CollArgs& a, const SelectedAlgorithm&) {
  return Reduce(a.comm, a.send, a.recv, a.count, a.type, a.op, a.root);
}

template <Request (*Allreduce)(const Communicator&, const void*, void*, std::size_t, Datatype, Op)>
Request post_allreduce(const CollArgs& a, const SelectedAlgorithm&) {
  return Allreduce(a.comm, a.send, a.recv, a.count, a.type, a.op);
}

template <Request (*Blocks)(const Communicator&, const void*, void*, std::size_t, Datatype)>
Request post_blocks(const CollArgs& a, const SelectedAlgorithm&) {
  return Blocks(a.comm, a.send, a.recv, a.count, a.type);
}

template <Request (*RootedBlocks)(const Communicator&, const void*, void*, std::size_t, Datatype,
                                  int)>
Request post_rooted_blocks(const CollArgs& a, const SelectedAlgorithm&) {
  return RootedBlocks(a.comm, a.send, a.recv, a.count, a.type, a.root);
}

Request post_barrier(const CollArgs& a, const SelectedAlgorithm&) {
  return ibarrier_dissemination(a.comm);
}

Request post_gatherv(const CollArgs& a, const SelectedAlgorithm&) {
  return igatherv_linear(a.comm, a.send, a.count, a.recv, a.counts, a.displacements, a.type,
                         a.root);
}

Request post_scatterv(const CollArgs& a, const SelectedAlgorithm&) {
  return iscatterv_linear(a.comm, a.send, a.counts, a.displacements, a.recv, a.count, a.type,
                          a.root);
}

Request post_allgatherv(const CollArgs& a, const SelectedAlgorithm&) {
  return iallgatherv_ring(a.comm, a.send, a.count, a.recv, a.counts, a.displacements, a.type);
}

Request post_alltoallv(const CollArgs& a, const SelectedAlgorithm&) {
  return ialltoallv_pairwise(a.comm, a.send, a.send_counts, a.send_displacements, a.recv, a.counts,
                             a.displacements, a.type);
}

template <Request (*ReduceScatter)(const Communicator&, const void*, void*, const std::size_t*,
                                   Datatype, Op)>
Request post_reduce_scatter(const CollArgs& a, const SelectedAlgorithm&) {
  return ReduceScatter(a.comm, a.send, a.recv, a.counts, a.type, a.op);
}

constexpr core::TreeShape kNoTree = core::TreeShape::kBinary;

// In documentation order per collective (docs/collectives.md).
constexpr AlgorithmEntry kAlgorithms[] = {
    {Collective::kBcast, "base:linear", Algorithm::kLinear, kNoTree, {}, post_bcast<ibcast_linear>},
    {Collective::kBcast,
     "base:binomial",
     Algorithm::kBinomial,
     kNoTree,
     {},
     post_bcast<ibcast_binomial>},
    {Collective::kReduce,
     "base:linear",
     Algorithm::kLinear,
     kNoTree,
     {.custom_ops = true, .rank_order = true},
     post_reduce<ireduce_linear>},
    {Collective::kReduce,
     "base:binomial",
     Algorithm::kBinomial,
     kNoTree,
     {.custom_ops = true, .rank_order = true},
     post_reduce<ireduce_binomial>},
    {Collective::kAllreduce,
     "base:ring",
     Algorithm::kRing,
     kNoTree,
     {},
     post_allreduce<iallreduce_ring>},
    {Collective::kAllreduce,
     "base:recursive_doubling",
     Algorithm::kRecursiveDoubling,
     kNoTree,
     {.custom_ops = true, .rank_order = true},
     post_allreduce<iallreduce_recursive_doubling>},
    {Collective::kAllreduce,
     "base:rabenseifner",
     Algorithm::kRabenseifner,
     kNoTree,
     {},
     post_allreduce<iallreduce_rabenseifner>},
    {Collective::kAllgather,
     "base:ring",
     Algorithm::kRing,
     kNoTree,
     {},
     post_blocks<iallgather_ring>},
    {Collective::kAllgather,
     "base:bruck",
     Algorithm::kBruck,
     kNoTree,
     {},
     post_blocks<iallgather_bruck>},
    {Collective::kBarrier,
     "base:dissemination",
     Algorithm::kDissemination,
     kNoTree,
     {},
     post_barrier},
    {Collective::kGather,
     "base:linear",
     Algorithm::kLinear,
     kNoTree,
     {},
     post_rooted_blocks<igather_linear>},
    {Collective::kScatter,
     "base:linear",
     Algorithm::kLinear,
     kNoTree,
     {},
     post_rooted_blocks<iscatter_linear>},
    {Collective::kAlltoall,
     "base:pairwise",
     Algorithm::kPairwise,
     kNoTree,
     {},
     post_blocks<ialltoall_pairwise>},
    {Collective::kAlltoall,
     "base:bruck",
     Algorithm::kBruck,
     kNoTree,
     {},
     post_blocks<ialltoall_bruck>},
    {Collective::kGatherv, "base:linear", Algorithm::kLinear, kNoTree, {}, post_gatherv},
    {Collective::kScatterv, "base:linear", Algorithm::kLinear, kNoTree, {}, post_scatterv},
    {Collective::kAllgatherv, "base:ring", Algorithm::kRing, kNoTree, {}, post_allgatherv},
    {Collective::kAlltoallv, "base:pairwise", Algorithm::kPairwise, kNoTree, {}, post_alltoallv},
    {Collective::kReduceScatterBlock,
     "base:ring",
     Algorithm::kRing,
     kNoTree,
     {.custom_ops = true},
     post_allreduce<ireduce_scatter_block_ring>},
    {Collective::kReduceScatterBlock,
     "base:pairwise",
     Algorithm::kPairwise,
     kNoTree,
     {.custom_ops = true, .rank_order = true},
     post_allreduce<ireduce_scatter_block_pairwise>},
    {Collective::kReduceScatter,
     "base:ring",
     Algorithm::kRing,
     kNoTree,
     {.custom_ops = true},
     post_reduce_scatter<ireduce_scatter_ring>},
    {Collective::kReduceScatter,
     "base:pairwise",
     Algorithm::kPairwise,
     kNoTree,
     {.custom_ops = true, .rank_order = true},
     post_reduce_scatter<ireduce_scatter_pairwise>},
    {Collective::kScan,
     "base:recursive_doubling",
     Algorithm::kRecursiveDoubling,
     kNoTree,
     {.custom_ops = true, .rank_order = true},
     post_allreduce<iscan_recursive_doubling>},
    {Collective::kExscan,
     "base:recursive_doubling",
     Algorithm::kRecursiveDoubling,
     kNoTree,
     {.custom_ops = true, .rank_order = true},
     post_allreduce<iexscan_recursive_doubling>},
};

}  // namespace

core::AlgorithmTable algorithms() {
  return kAlgorithms;
}

}  // namespace halyard::base
