// Entry points of the intra-node primitives: argument checks, the flavour each call runs, and
// the plan (who writes, who reads, where data goes) each flavour's engine carries out.
#include "collectives/intranode/intranode.hpp"

#include <atomic>
#include <cstring>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "collectives/base/arguments.hpp"
#include "collectives/base/byte_span.hpp"
#include "collectives/collective_tag.hpp"
#include "collectives/intranode/cma_pull.hpp"
#include "collectives/intranode/cma_slice_reduce.hpp"
#include "collectives/intranode/scratch_exchange.hpp"
#include "runtime/log.hpp"
#include "runtime/node_memory.hpp"

namespace halyard::intranode {

namespace {

// What every primitive settles before it starts.
struct Call {
  NodeMemory* memory = nullptr;  // null only for a communicator of one rank
  Flavour flavour = Flavour::kSm;
  int rank = 0;
  int size = 1;
  // Three tags, taken on every rank for every call (whatever the flavour or count), so the tags
  // of later collectives on this communicator agree.
  int tags[3] = {0, 0, 0};
};

[[noreturn]] void invalid(std::string_view operation, const std::string& what) {
  throw Error(ErrorCode::kInvalidArgument, std::string(operation) + ": " + what);
}

void check_node_communicator(const Communicator& node, std::string_view operation) {
  base::check_communicator(node, operation);
  for (int r = 0; r < node.size(); ++r) {
    if (!node.same_node(node.rank(), r)) {
      invalid(operation, "node is not a node communicator: rank " + std::to_string(r) +
                             " is on node " + std::to_string(node.topology_of(r).node_id) +
                             ", this rank on node " +
                             std::to_string(node.topology_of(node.rank()).node_id));
    }
  }
}

Flavour choose_flavour(NodeMemory* memory, Flavour requested) {
  if (requested != Flavour::kCma || memory == nullptr || memory->single_copy_usable()) {
    return requested;
  }
  static std::atomic<bool> said{false};
  if (!said.exchange(true)) {
    log::debug("intranode: CMA is not usable on this node; the cma primitives run as sm");
  }
  return Flavour::kSm;
}

Call prepare(const Communicator& node, Flavour flavour, std::string_view operation) {
  check_node_communicator(node, operation);
  if (flavour != Flavour::kSm && flavour != Flavour::kCma) {
    invalid(operation,
            "flavour " + std::to_string(static_cast<int>(flavour)) + " is not a Flavour");
  }
  Call call;
  call.rank = node.rank();
  call.size = node.size();
  call.memory = node_memory_of(node);
  if (call.size > 1 && call.memory == nullptr) {
    throw Error(ErrorCode::kUnsupported, std::string(operation) +
                                             ": this runtime has no node memory (the shm transport "
                                             "is off or not built)");
  }
  call.flavour = choose_flavour(call.memory, flavour);
  for (int& tag : call.tags) tag = next_collective_tag(node);
  return call;
}

std::vector<int> all_but(const Call& call, int excluded) {
  std::vector<int> ranks;
  for (int r = 0; r < call.size; ++r) {
    if (r != excluded) ranks.push_back(r);
  }
  return ranks;
}

std::vector<int> everyone(const Call& call) {
  std::vector<int> ranks(static_cast<std::size_t>(call.size));
  std::iota(ranks.begin(), ranks.end(), 0);
  return ranks;
}

std::vector<void*> blocks_of(void* recv, std::size_t bytes, const std::vector<int>& ranks) {
  std::vector<void*> blocks;
  for (int r : ranks) blocks.push_back(base::byte_at(recv, static_cast<std::size_t>(r) * bytes));
  return blocks;
}

Request done(const Communicator& node) {
  return Request::make_completed(node.loop(), Status{});
}

Request start_sm(const Communicator& node, const Call& call, ScratchPlan plan) {
  return start_scratch_exchange(node, *call.memory, std::move(plan), call.tags[0], call.tags[1]);
}

Request start_cma(const Communicator& node, const Call& call, PullPlan plan) {
  return start_cma_pull(node, *call.memory, std::move(plan), call.tags[0], call.tags[1]);
}

Request start_reduction(const Communicator& node, const Call& call, const void* contribution,
                        void* recv, std::size_t count, Datatype type, Op op, int root) {
  std::size_t bytes = count * datatype_size(type);
  if (call.flavour == Flavour::kCma) {
    SliceReducePlan plan{contribution, recv, count, type, op, root};
    return start_cma_slice_reduce(node, *call.memory, plan,
                                  SliceReduceTags{call.tags[0], call.tags[1], call.tags[2]});
  }
  ScratchPlan plan;
  plan.bytes = bytes;
  plan.type = type;
  plan.combine = true;
  plan.op = op;
  plan.source = contribution;
  plan.readers = root < 0 ? everyone(call) : std::vector<int>{root};
  if (root < 0 || root == call.rank) {
    plan.writers = everyone(call);
    plan.destinations = {recv};
  }
  return start_sm(node, call, std::move(plan));
}

}  // namespace

std::string_view flavour_name(Flavour flavour) {
  switch (flavour) {
    case Flavour::kSm:
      return "sm";
    case Flavour::kCma:
      return "cma";
  }
  return "invalid";
}

bool available(const Communicator& comm) {
  if (!comm.valid()) return false;
  for (int r = 0; r < comm.size(); ++r) {
    if (!comm.same_node(comm.rank(), r)) return false;
  }
  return comm.size() == 1 || node_memory_of(comm) != nullptr;
}

Flavour effective_flavour(const Communicator& comm, Flavour requested) {
  return choose_flavour(node_memory_of(comm), requested);
}

Request ibcast(const Communicator& node, void* buffer, std::size_t count, Datatype type, int root,
               Flavour flavour) {
  constexpr std::string_view kOp = "intranode::ibcast";
  base::check_communicator(node, kOp);
  base::check_root(node, root, kOp);
  base::check_datatype(type, kOp);
  base::check_buffer(buffer, count, "buffer", kOp, false);
  std::size_t bytes = base::checked_bytes(count, type, 1, kOp);
  Call call = prepare(node, flavour, kOp);
  if (bytes == 0 || call.size == 1) return done(node);
  bool is_root = call.rank == root;
  if (call.flavour == Flavour::kCma) {
    PullPlan plan;
    plan.bytes = bytes;
    if (is_root) {
      plan.provided = buffer;
      plan.pullers = all_but(call, root);
    } else {
      plan.providers = {root};
      plan.destinations = {buffer};
    }
    return start_cma(node, call, std::move(plan));
  }
  ScratchPlan plan;
  plan.bytes = bytes;
  if (is_root) {
    plan.source = buffer;
    plan.readers = all_but(call, root);
  } else {
    plan.writers = {root};
    plan.destinations = {buffer};
  }
  return start_sm(node, call, std::move(plan));
}

Request igather(const Communicator& node, const void* send, void* recv, std::size_t count,
                Datatype type, int root, Flavour flavour) {
  constexpr std::string_view kOp = "intranode::igather";
  base::check_communicator(node, kOp);
  base::check_root(node, root, kOp);
  base::check_datatype(type, kOp);
  bool is_root = node.rank() == root;
  base::check_buffer(send, count, "send", kOp, is_root);
  if (is_root) base::check_buffer(recv, count, "recv", kOp, false);
  std::size_t bytes = base::checked_bytes(count, type, static_cast<std::size_t>(node.size()), kOp) /
                      static_cast<std::size_t>(node.size());
  Call call = prepare(node, flavour, kOp);
  if (is_root && !base::is_in_place(send) && bytes > 0) {
    std::memmove(base::byte_at(recv, static_cast<std::size_t>(root) * bytes), send, bytes);
  }
  if (bytes == 0 || call.size == 1) return done(node);
  std::vector<int> others = all_but(call, root);
  if (call.flavour == Flavour::kCma) {
    PullPlan plan;
    plan.bytes = bytes;
    if (is_root) {
      plan.providers = others;
      plan.destinations = blocks_of(recv, bytes, others);
    } else {
      plan.provided = send;
      plan.pullers = {root};
    }
    return start_cma(node, call, std::move(plan));
  }
  ScratchPlan plan;
  plan.bytes = bytes;
  if (is_root) {
    plan.writers = others;
    plan.destinations = blocks_of(recv, bytes, others);
  } else {
    plan.source = send;
    plan.readers = {root};
  }
  return start_sm(node, call, std::move(plan));
}

Request iallgather(const Communicator& node, const void* send, void* recv, std::size_t count,
                   Datatype type, Flavour flavour) {
  constexpr std::string_view kOp = "intranode::iallgather";
  base::check_communicator(node, kOp);
  base::check_datatype(type, kOp);
  base::check_buffer(send, count, "send", kOp, true);
  base::check_buffer(recv, count, "recv", kOp, false);
  std::size_t bytes = base::checked_bytes(count, type, static_cast<std::size_t>(node.size()), kOp) /
                      static_cast<std::size_t>(node.size());
  Call call = prepare(node, flavour, kOp);
  void* own = base::byte_at(recv, static_cast<std::size_t>(call.rank) * bytes);
  if (!base::is_in_place(send) && bytes > 0) std::memmove(own, send, bytes);
  if (bytes == 0 || call.size == 1) return done(node);
  std::vector<int> others = all_but(call, call.rank);
  if (call.flavour == Flavour::kCma) {
    PullPlan plan;
    plan.bytes = bytes;
    plan.provided = own;
    plan.pullers = others;
    plan.providers = others;
    plan.destinations = blocks_of(recv, bytes, others);
    return start_cma(node, call, std::move(plan));
  }
  ScratchPlan plan;
  plan.bytes = bytes;
  plan.source = own;
  plan.readers = others;
  plan.writers = others;
  plan.destinations = blocks_of(recv, bytes, others);
  return start_sm(node, call, std::move(plan));
}

Request ireduce(const Communicator& node, const void* send, void* recv, std::size_t count,
                Datatype type, Op op, int root, Flavour flavour) {
  constexpr std::string_view kOp = "intranode::ireduce";
  base::check_communicator(node, kOp);
  base::check_root(node, root, kOp);
  base::check_reduction(op, type, kOp);
  bool is_root = node.rank() == root;
  base::check_buffer(send, count, "send", kOp, is_root);
  if (is_root) base::check_buffer(recv, count, "recv", kOp, false);
  std::size_t bytes = base::checked_bytes(count, type, 1, kOp);
  Call call = prepare(node, flavour, kOp);
  const void* contribution = base::is_in_place(send) ? recv : send;
  if (bytes == 0) return done(node);
  if (call.size == 1) {
    if (contribution != recv) std::memmove(recv, contribution, bytes);
    return done(node);
  }
  return start_reduction(node, call, contribution, is_root ? recv : nullptr, count, type, op, root);
}

Request iallreduce(const Communicator& node, const void* send, void* recv, std::size_t count,
                   Datatype type, Op op, Flavour flavour) {
  constexpr std::string_view kOp = "intranode::iallreduce";
  base::check_communicator(node, kOp);
  base::check_reduction(op, type, kOp);
  base::check_buffer(send, count, "send", kOp, true);
  base::check_buffer(recv, count, "recv", kOp, false);
  std::size_t bytes = base::checked_bytes(count, type, 1, kOp);
  Call call = prepare(node, flavour, kOp);
  const void* contribution = base::is_in_place(send) ? recv : send;
  if (bytes == 0) return done(node);
  if (call.size == 1) {
    if (contribution != recv) std::memmove(recv, contribution, bytes);
    return done(node);
  }
  return start_reduction(node, call, contribution, recv, count, type, op, -1);
}

}  // namespace halyard::intranode
