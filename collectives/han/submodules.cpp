#include "collectives/han/submodules.hpp"

#include "collectives/adapt/adapt.hpp"
#include "collectives/base/base.hpp"
#include "collectives/core/in_place.hpp"
#include "collectives/intranode/intranode.hpp"
#include "collectives/shm/shm.hpp"

namespace halyard::han {

namespace {

using core::Collective;

intranode::Flavour flavour(IntraModule module) {
  return module == IntraModule::kSm ? intranode::Flavour::kSm : intranode::Flavour::kCma;
}

// kAuto resolved for one piece of `bytes` (every member of the node decides alike).
IntraModule resolve(IntraModule module, std::size_t count, Datatype type) {
  if (module != IntraModule::kAuto) return module;
  return count * datatype_size(type) <= kSmallIntraBytes ? IntraModule::kShm : IntraModule::kCma;
}

// ADAPT cuts a HAN segment further (ibs / irs), so that the leaders' tree pipelines inside the
// segment too. ADAPT's one home for parameters (adapt/params.hpp) fills in what HAN leaves at 0
// (segment, N, M) and the radix and variant, as for a flat ADAPT call.
adapt::Params adapt_params(const Config& c, adapt::TreeShape tree, std::size_t segment) {
  return adapt::params_for({tree, segment, c.sends_in_flight, c.recvs_in_flight});
}

}  // namespace

Request intra_bcast(IntraModule module, const Communicator& node, void* buffer, std::size_t count,
                    Datatype type, int root) {
  module = resolve(module, count, type);
  if (module == IntraModule::kBase) return base::ibcast_binomial(node, buffer, count, type, root);
  if (module == IntraModule::kShm) {
    return shm::post_bound(
        {Collective::kBcast, node, buffer, buffer, count, {}, {}, type, {}, root});
  }
  return intranode::ibcast(node, buffer, count, type, root, flavour(module));
}

Request intra_reduce(IntraModule module, const Communicator& node, const void* send, void* recv,
                     std::size_t count, Datatype type, Op op, int root) {
  module = resolve(module, count, type);
  if (module == IntraModule::kBase) {
    return base::ireduce_binomial(node, send, recv, count, type, op, root);
  }
  if (module == IntraModule::kShm) {
    return shm::post_bound({Collective::kReduce, node, send, recv, count, {}, {}, type, op, root});
  }
  return intranode::ireduce(node, send, recv, count, type, op, root, flavour(module));
}

Request intra_gather(IntraModule module, const Communicator& node, const void* send, void* recv,
                     std::size_t count, Datatype type, int root) {
  module = resolve(module, count, type);
  if (module == IntraModule::kBase)
    return base::igather_linear(node, send, recv, count, type, root);
  if (module == IntraModule::kShm) {
    return shm::post_bound({Collective::kGather, node, send, recv, count, {}, {}, type, {}, root});
  }
  return intranode::igather(node, send, recv, count, type, root, flavour(module));
}

Request inter_bcast(const Config& c, const Communicator& leaders, void* buffer, std::size_t count,
                    Datatype type, int root) {
  if (c.inter == InterModule::kBase) {
    return base::ibcast_binomial(leaders, buffer, count, type, root);
  }
  return adapt::ibcast(leaders, buffer, count, type, root,
                       adapt_params(c, c.inter_tree, c.inter_bcast_segment));
}

Request inter_allreduce_in_place(const Communicator& leaders, void* buffer, std::size_t count,
                                 Datatype type, Op op) {
  // Small vectors: fewest rounds; large: Rabenseifner's reduce-scatter + allgather (the
  // threshold of the flat allreduce's built-in rule, docs/collectives.md).
  if (count * datatype_size(type) <= base::kRecursiveDoublingMaxBytes) {
    return base::iallreduce_recursive_doubling(leaders, kInPlace, buffer, count, type, op);
  }
  return base::iallreduce_rabenseifner(leaders, kInPlace, buffer, count, type, op);
}

Request inter_reduce(const Config& c, const Communicator& leaders, const void* send, void* recv,
                     std::size_t count, Datatype type, Op op, int root) {
  if (c.inter == InterModule::kBase) {
    return base::ireduce_binomial(leaders, send, recv, count, type, op, root);
  }
  return adapt::ireduce(leaders, send, recv, count, type, op, root,
                        adapt_params(c, c.inter_reduce_tree, c.inter_reduce_segment));
}

}  // namespace halyard::han
