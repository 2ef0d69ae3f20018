#include "collectives/han/submodules.hpp"

#include "collectives/adapt/adapt.hpp"
#include "collectives/base/base.hpp"
#include "collectives/collectives.hpp"
#include "collectives/intranode/intranode.hpp"

namespace halyard::han {

namespace {

intranode::Flavour flavour(IntraModule module) {
  return module == IntraModule::kSm ? intranode::Flavour::kSm : intranode::Flavour::kCma;
}

adapt::Params adapt_params(const Config& c) {
  adapt::Params p;
  p.tree = c.inter_tree;
  // A HAN segment is already one pipeline stage; ADAPT cuts it further so that the leaders'
  // tree pipelines inside the segment too.
  return p;
}

}  // namespace

Request intra_bcast(IntraModule module, const Communicator& node, void* buffer, std::size_t count,
                    Datatype type, int root) {
  if (module == IntraModule::kBase) return base::ibcast_binomial(node, buffer, count, type, root);
  return intranode::ibcast(node, buffer, count, type, root, flavour(module));
}

Request intra_reduce(IntraModule module, const Communicator& node, const void* send, void* recv,
                     std::size_t count, Datatype type, Op op, int root) {
  if (module == IntraModule::kBase) {
    return base::ireduce_binomial(node, send, recv, count, type, op, root);
  }
  return intranode::ireduce(node, send, recv, count, type, op, root, flavour(module));
}

Request intra_gather(IntraModule module, const Communicator& node, const void* send, void* recv,
                     std::size_t count, Datatype type, int root) {
  if (module == IntraModule::kBase)
    return base::igather_linear(node, send, recv, count, type, root);
  return intranode::igather(node, send, recv, count, type, root, flavour(module));
}

Request inter_bcast(const Config& c, const Communicator& leaders, void* buffer, std::size_t count,
                    Datatype type, int root) {
  if (c.inter == InterModule::kBase) {
    return base::ibcast_binomial(leaders, buffer, count, type, root);
  }
  return adapt::ibcast(leaders, buffer, count, type, root, adapt_params(c));
}

Request inter_allreduce_in_place(const Communicator& leaders, void* buffer, std::size_t count,
                                 Datatype type, Op op) {
  return base::iallreduce_rabenseifner(leaders, kInPlace, buffer, count, type, op);
}

Request inter_reduce(const Config& c, const Communicator& leaders, const void* send, void* recv,
                     std::size_t count, Datatype type, Op op, int root) {
  if (c.inter == InterModule::kBase) {
    return base::ireduce_binomial(leaders, send, recv, count, type, op, root);
  }
  return adapt::ireduce(leaders, send, recv, count, type, op, root, adapt_params(c));
}

}  // namespace halyard::han
