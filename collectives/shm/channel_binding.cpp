#include "collectives/shm/channel_binding.hpp"

#include <utility>

#include "collectives/base/base.hpp"
#include "collectives/core/in_place.hpp"
#include "collectives/shm/channel.hpp"
#include "collectives/shm/channel_table.hpp"
#include "runtime/event_loop.hpp"

namespace halyard::shm {

namespace {

bool whole_comm_on_this_node(const Communicator& comm, const NodeMemory& memory) {
  for (int r = 0; r < comm.size(); ++r) {
    if (!memory.on_this_node(comm.world_rank(r))) return false;
  }
  return true;
}

std::vector<std::size_t> copy_of(const std::size_t* per_rank, int ranks) {
  if (per_rank == nullptr) return {};
  return {per_rank, per_rank + ranks};
}

// Whether the call reads its per-rank counts and displacements on this rank: gatherv and
// scatterv only at the root (elsewhere they may point anywhere).
bool per_rank_arrays_read(const core::CollArgs& a) {
  const bool rooted_v =
      a.collective == core::Collective::kGatherv || a.collective == core::Collective::kScatterv;
  return !rooted_v || a.is_root();
}

const std::size_t* pointer_to(const std::vector<std::size_t>& kept) {
  return kept.empty() ? nullptr : kept.data();
}

}  // namespace

ChannelBinding* ChannelBinding::find(const Communicator& comm) {
  return comm.peek_attachment<ChannelBinding>();
}

ChannelBinding& ChannelBinding::of(const Communicator& comm) {
  if (ChannelBinding* bound = find(comm)) return *bound;
  // Posting the agreement and attaching are one step for the progress thread's callbacks.
  EventLoop::Access access(comm.loop());
  if (ChannelBinding* bound = find(comm)) return *bound;
  auto binding = comm.attach(std::make_shared<ChannelBinding>());
  NodeMemory* memory = node_memory_of(comm);
  if (memory != nullptr && comm.size() > 1 && whole_comm_on_this_node(comm, *memory)) {
    try {
      binding->post_agreement(comm, memory);
    } catch (const Error& e) {
      // The process failed before this first call (a peer died): the call and every later one
      // fail with it through their requests, like the calls of a channel after the failure.
      binding->conclude(comm, *memory, Status::failure(e.code(), e.what()));
    }
  } else {
    binding->agreed_.store(true, std::memory_order_release);  // no channel: the p2p fallback
  }
  return *binding;
}

void ChannelBinding::post_agreement(const Communicator& comm, NodeMemory* memory) {
  std::shared_ptr<ChannelTable> table = ChannelTable::of(comm);
  state_ = table->open_agreement();
  Request agreement = base::iallreduce_recursive_doubling(
      comm, kInPlace, state_.data(), state_.size(), Datatype::kUint64, Op::kMax);
  // The callback holds a copy of the communicator only until it runs (the binding is attached
  // to the communicator: holding it for longer would keep it alive for ever).
  agreement.on_complete([self = shared_from_this(), comm, memory](const Status& agreed) {
    self->conclude(comm, *memory, agreed);
  });
}

void ChannelBinding::conclude(const Communicator& comm, NodeMemory& memory, const Status& agreed) {
  // Every agreement opened (state_ holds its proposal) is concluded or abandoned here, once.
  if (agreed.ok()) {
    channel_ = ChannelTable::of(comm)->conclude_agreement(comm, memory, state_);
  } else {
    if (!state_.empty()) ChannelTable::of(comm)->abandon_agreement();
    failure_ = Status::failure(agreed.code,
                               "shm: agreeing on a collective channel failed: " + agreed.message);
  }
  state_ = {};
  agreed_.store(true, std::memory_order_release);
  // In call order: each starts as it would have, had the agreement been over when it came.
  std::deque<std::unique_ptr<Waiting>> waiting = std::move(waiting_);
  for (const auto& call : waiting) {
    try {
      Request started = start_now(call->args, call->fallback);
      if (!started.valid()) {
        call->request.complete(Status{});  // ended at once
        continue;
      }
      started.on_complete([outer = call->request](const Status& s) { outer.complete(s); });
    } catch (const Error& e) {
      // What the call would have thrown to its caller (the process failed meanwhile, ...).
      call->request.complete(Status::failure(e.code(), e.what()));
    }
  }
}

Request ChannelBinding::start_now(const core::CollArgs& args, Fallback fallback) {
  if (!failure_.ok()) return Request::make_completed(args.comm.loop(), failure_);
  return channel_ ? channel_->start(args) : fallback(args);
}

// The same call on kept copies (a CollArgs refers to its communicator and per-rank arrays); it
// starts from a callback, where nobody waits for it inline.
ChannelBinding::Waiting::Waiting(const core::CollArgs& a, Fallback f)
    : comm(a.comm),
      counts(copy_of(per_rank_arrays_read(a) ? a.counts : nullptr, a.comm.size())),
      displacements(copy_of(per_rank_arrays_read(a) ? a.displacements : nullptr, a.comm.size())),
      send_counts(copy_of(a.send_counts, a.comm.size())),
      send_displacements(copy_of(a.send_displacements, a.comm.size())),
      args{a.collective,
           comm,
           a.send,
           a.recv,
           a.count,
           pointer_to(counts),
           pointer_to(displacements),
           a.type,
           a.op,
           a.root,
           pointer_to(send_counts),
           pointer_to(send_displacements),
           /*blocking=*/false,
           /*takes_null_request=*/false,
           a.memory,
           a.bytes},
      fallback(f),
      request(Request::make_pending(a.comm.loop())) {}

Request ChannelBinding::start(const core::CollArgs& args, Fallback fallback) {
  if (agreed_.load(std::memory_order_acquire)) return start_now(args, fallback);
  EventLoop::Access access(args.comm.loop());
  if (agreed_.load(std::memory_order_relaxed)) return start_now(args, fallback);
  waiting_.push_back(std::make_unique<Waiting>(args, fallback));
  return waiting_.back()->request;
}

Channel* ChannelBinding::wait_agreed(const Communicator& comm) {
  if (!agreed_.load(std::memory_order_acquire)) {
    if (comm.loop().in_pass()) {
      throw Error(ErrorCode::kUnsupported,
                  "shm: binding a channel waits for the members' agreement and must not be "
                  "called from inside a completion callback");
    }
    comm.loop().run_until([this] { return agreed_.load(std::memory_order_acquire); });
  }
  failure_.raise_if_failed();
  return channel_.get();
}

}  // namespace halyard::shm
