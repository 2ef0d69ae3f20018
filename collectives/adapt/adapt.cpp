// Entry points of ADAPT: argument checks, the call plan (tree links, segments, tag), and the
// choice of variant.
#include "collectives/adapt/adapt.hpp"

#include <string>

#include "collectives/adapt/call_plan.hpp"
#include "collectives/adapt/topo_tree.hpp"
#include "collectives/collective_tag.hpp"
#include "collectives/collectives.hpp"
#include "runtime/error.hpp"

namespace halyard::adapt {
namespace {

[[noreturn]] void invalid(const char* operation, const std::string& what) {
  throw Error(ErrorCode::kInvalidArgument, std::string("adapt::") + operation + ": " + what);
}

void check_common(const char* operation, const Communicator& comm, Datatype type, int root,
                  const Params& params) {
  if (!comm.valid()) invalid(operation, "comm is empty (this rank is not a member)");
  if (root < 0 || root >= comm.size()) {
    invalid(operation, "root " + std::to_string(root) + " is outside the communicator of size " +
                           std::to_string(comm.size()));
  }
  if (!datatype_is_valid(type)) invalid(operation, "type is not a valid Datatype");
  if (params.sends_in_flight < 1) {
    invalid(operation, "params.sends_in_flight (N) must be >= 1, got " +
                           std::to_string(params.sends_in_flight));
  }
  if (params.recvs_in_flight < 1) {
    invalid(operation, "params.recvs_in_flight (M) must be >= 1, got " +
                           std::to_string(params.recvs_in_flight));
  }
  if (params.knomial_radix < 2) {
    invalid(operation,
            "params.knomial_radix must be >= 2, got " + std::to_string(params.knomial_radix));
  }
  if (params.variant != Variant::kEventDriven && params.variant != Variant::kBlocking &&
      params.variant != Variant::kWaitall) {
    invalid(operation, "params.variant is not a valid Variant");
  }
}

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

}  // namespace

Request ibcast(const Communicator& comm, void* buffer, std::size_t count, Datatype type, int root,
               const Params& params) {
  check_common("ibcast", comm, type, root, params);
  if (buffer == nullptr && count > 0) invalid("ibcast", "buffer is null with count > 0");
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
  check_common("ireduce", comm, type, root, params);
  if (!op_is_valid(op)) invalid("ireduce", "op is not a valid Op");
  if (!op_supports(op, type)) {
    invalid("ireduce", "op " + std::string(op_name(op)) + " is not defined for type " +
                           std::string(datatype_name(type)));
  }
  const bool at_root = comm.rank() == root;
  if (send == kInPlace && !at_root)
    invalid("ireduce", "send is kInPlace on a rank other than root");
  if (count > 0) {
    if (send == nullptr) invalid("ireduce", "send is null with count > 0");
    if (at_root && recv == nullptr) invalid("ireduce", "recv is null at the root with count > 0");
  }
  ReduceOperands operands;
  operands.type = type;
  operands.op = op;
  operands.recv = at_root ? static_cast<std::byte*>(recv) : nullptr;
  operands.own = send == kInPlace ? operands.recv : static_cast<const std::byte*>(send);

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
