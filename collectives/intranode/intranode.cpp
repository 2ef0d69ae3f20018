// Entry points of the intra-node primitives: the flavour each call runs, and
// the plan (who writes, who reads, where data goes) each flavour's engine carries out.
#include "collectives/intranode/intranode.hpp"

#include <atomic>
#include <cassert>
#include <cstring>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "collectives/base/byte_span.hpp"
#include "collectives/core/collective_tag.hpp"
#include "collectives/core/in_place.hpp"
#include "collectives/intranode/cma_pull.hpp"
#include "collectives/intranode/cma_slice_reduce.hpp"
#include "collectives/intranode/scratch_exchange.hpp"
#include "runtime/node_memory.hpp"
#include "runtime/support/log.hpp"

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

// Every member on this rank's node: what HAN's node communicators are by construction.
bool is_node_communicator(const Communicator& node) {
  for (int r = 0; r < node.size(); ++r) {
    if (!node.same_node(node.rank(), r)) return false;
  }
  return true;
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
  // Internal invariants: callers (HAN's submodules, tests) pass a node communicator and a
  // Flavour; the caller's arguments were validated once at the public entry.
  assert(node.valid() && is_node_communicator(node));
  assert(flavour == Flavour::kSm || flavour == Flavour::kCma);
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
                        void* recv, std::size_t count, Datatype type, Op op, int root,
                        Layouts layouts) {
  std::size_t bytes = count * datatype_size(type);
  if (call.flavour == Flavour::kCma) {
    SliceReducePlan plan{contribution, recv, count, type, op, root, {}, {}};
    if (layouts.send != nullptr) plan.send_layout = *layouts.send;
    if (layouts.recv != nullptr) plan.recv_layout = *layouts.recv;
    return start_cma_slice_reduce(node, *call.memory, std::move(plan),
                                  SliceReduceTags{call.tags[0], call.tags[1], call.tags[2]});
  }
  if (layouts.send != nullptr || layouts.recv != nullptr) {
    throw Error(ErrorCode::kInternal, "intranode: buffer layouts reached the sm flavour");
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
  if (!comm.valid() || !is_node_communicator(comm)) return false;
  return comm.size() == 1 || node_memory_of(comm) != nullptr;
}

Flavour effective_flavour(const Communicator& comm, Flavour requested) {
  return choose_flavour(node_memory_of(comm), requested);
}

Request ibcast(const Communicator& node, void* buffer, std::size_t count, Datatype type, int root,
               Flavour flavour) {
  constexpr std::string_view kOp = "intranode::ibcast";
  const std::size_t bytes = count * datatype_size(type);
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
  bool is_root = node.rank() == root;
  const std::size_t bytes = count * datatype_size(type);
  Call call = prepare(node, flavour, kOp);
  if (is_root && !core::is_in_place(send) && bytes > 0) {
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
  const std::size_t bytes = count * datatype_size(type);
  Call call = prepare(node, flavour, kOp);
  void* own = base::byte_at(recv, static_cast<std::size_t>(call.rank) * bytes);
  if (!core::is_in_place(send) && bytes > 0) std::memmove(own, send, bytes);
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
                Datatype type, Op op, int root, Flavour flavour, Layouts layouts) {
  constexpr std::string_view kOp = "intranode::ireduce";
  bool is_root = node.rank() == root;
  const std::size_t bytes = count * datatype_size(type);
  Call call = prepare(node, flavour, kOp);
  const void* contribution = core::is_in_place(send) ? recv : send;
  if (core::is_in_place(send)) layouts.send = layouts.recv;
  if (bytes == 0) return done(node);
  assert(call.size > 1 || (layouts.send == nullptr && layouts.recv == nullptr));
  if (call.size == 1) {
    if (contribution != recv) std::memmove(recv, contribution, bytes);
    return done(node);
  }
  return start_reduction(node, call, contribution, is_root ? recv : nullptr, count, type, op, root,
                         {layouts.send, is_root ? layouts.recv : nullptr});
}

Request iallreduce(const Communicator& node, const void* send, void* recv, std::size_t count,
                   Datatype type, Op op, Flavour flavour, Layouts layouts) {
  constexpr std::string_view kOp = "intranode::iallreduce";
  const std::size_t bytes = count * datatype_size(type);
  Call call = prepare(node, flavour, kOp);
  const void* contribution = core::is_in_place(send) ? recv : send;
  if (core::is_in_place(send)) layouts.send = layouts.recv;
  if (bytes == 0) return done(node);
  assert(call.size > 1 || (layouts.send == nullptr && layouts.recv == nullptr));
  if (call.size == 1) {
    if (contribution != recv) std::memmove(recv, contribution, bytes);
    return done(node);
  }
  return start_reduction(node, call, contribution, recv, count, type, op, -1, layouts);
}

}  // namespace halyard::intranode
