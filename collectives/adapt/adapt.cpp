// Entry points of ADAPT: the catalog table, the call plan (tree links, segments, tag), and the
// choice of variant.
#include "collectives/adapt/adapt.hpp"

#include <array>
#include <iterator>
#include <string_view>

#include "collectives/adapt/call_plan.hpp"
#include "collectives/adapt/topo_tree.hpp"
#include "collectives/core/collective_tag.hpp"
#include "collectives/core/in_place.hpp"

namespace halyard::adapt {
namespace {

CallPlan make_plan(const Communicator& comm, std::size_t count, Datatype type, int root,
                   const Params& params) {
  // Every rank draws the tag, even for an empty message, so the counters stay in step.
  CallPlan plan;
  plan.comm = comm;
  plan.tag = next_collective_tag(comm);
  Tree tree = build_tree(comm, root, params);
  const auto me = static_cast<std::size_t>(comm.rank());
  plan.parent = tree.parent[me];
  plan.children = std::move(tree.children[me]);
  plan.segments = Segmentation::make(count, datatype_size(type), params.segment_bytes);
  plan.sends_in_flight = params.sends_in_flight;
  plan.recvs_in_flight = params.recvs_in_flight;
  return plan;
}

Request post_bcast(const core::CollArgs& a, const core::SelectedAlgorithm& selected) {
  return ibcast(a.comm, a.buffer(), a.count, a.type, a.root,
                params_for(core::Collective::kBcast, selected));
}

Request post_reduce(const core::CollArgs& a, const core::SelectedAlgorithm& selected) {
  return ireduce(a.comm, a.send, a.recv, a.count, a.type, a.op, a.root,
                 params_for(core::Collective::kReduce, selected));
}

// adapt:<tree> in documentation order; bcast and reduce have every tree.
struct NamedTree {
  core::TreeShape tree;
  std::string_view name;
};
constexpr NamedTree kTrees[] = {
    {core::TreeShape::kChain, "adapt:chain"},       {core::TreeShape::kBinary, "adapt:binary"},
    {core::TreeShape::kBinomial, "adapt:binomial"}, {core::TreeShape::kKnomial, "adapt:knomial"},
    {core::TreeShape::kTopo, "adapt:topo"},
};
constexpr std::size_t kTreeCount = std::size(kTrees);

constexpr std::array<core::AlgorithmEntry, 2 * kTreeCount> make_entries() {
  std::array<core::AlgorithmEntry, 2 * kTreeCount> entries{};
  for (std::size_t i = 0; i < kTreeCount; ++i) {
    entries[i] = {core::Collective::kBcast,
                  kTrees[i].name,
                  core::Algorithm::kAdapt,
                  kTrees[i].tree,
                  {},
                  post_bcast};
    entries[kTreeCount + i] = {core::Collective::kReduce,
                               kTrees[i].name,
                               core::Algorithm::kAdapt,
                               kTrees[i].tree,
                               {},
                               post_reduce};
  }
  return entries;
}

constexpr std::array<core::AlgorithmEntry, 2 * kTreeCount> kAlgorithms = make_entries();

}  // namespace

core::AlgorithmTable algorithms() {
  return kAlgorithms;
}

Request ibcast(const Communicator& comm, void* buffer, std::size_t count, Datatype type, int root,
               const Params& params) {
  CallPlan plan = make_plan(comm, count, type, root, params);
  auto* bytes = static_cast<std::byte*>(buffer);
  switch (params.variant) {
    case Variant::kBlocking:
      return Request::make_completed(comm.loop(), bcast_blocking(plan, bytes));
    case Variant::kWaitall:
      return Request::make_completed(comm.loop(), bcast_waitall(plan, bytes));
    case Variant::kEventDriven:
      break;
  }
  return bcast_event_driven(plan, bytes);
}

Request ireduce(const Communicator& comm, const void* send, void* recv, std::size_t count,
                Datatype type, Op op, int root, const Params& params) {
  const bool at_root = comm.rank() == root;
  ReduceOperands operands;
  operands.type = type;
  operands.op = op;
  operands.recv = at_root ? static_cast<std::byte*>(recv) : nullptr;
  operands.own = core::is_in_place(send) ? operands.recv : static_cast<const std::byte*>(send);

  CallPlan plan = make_plan(comm, count, type, root, params);
  switch (params.variant) {
    case Variant::kBlocking:
      return Request::make_completed(comm.loop(), reduce_blocking(plan, operands));
    case Variant::kWaitall:
      return Request::make_completed(comm.loop(), reduce_waitall(plan, operands));
    case Variant::kEventDriven:
      break;
  }
  return reduce_event_driven(plan, operands);
}

}  // namespace halyard::adapt
