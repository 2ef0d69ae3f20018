#include "runtime/communicator.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <string>
#include <tuple>
#include <utility>

#include "runtime/device_support.hpp"
#include "runtime/event_loop.hpp"
#include "runtime/point_to_point.hpp"
#include "runtime/runtime_services.hpp"
#include "runtime/support/pooled.hpp"

namespace halyard {

struct Communicator::State {
  ~State() {
    // First, while the whole state is still there: attachments may hold other communicators
    // (HAN's levels), whose states go with them.
    attachments.clear();
    // Handlers of a dead communicator must not keep running (nor keep its ranks alive), and
    // its empty matching queues must not stay behind.
    if (!runtime_alive.expired()) {
      EventLoop::Access access(p2p->loop());
      p2p->active_messages().unregister_context(context);
      p2p->matching().forget_context(context);
    }
  }

  PointToPoint* p2p = nullptr;
  std::weak_ptr<const void> runtime_alive;
  std::shared_ptr<RuntimeServices> services;
  std::shared_ptr<const TopologyTable> topology;
  std::uint32_t context = 0;
  std::uint32_t collective_calls = 0;  // next_collective_call()
  std::uint64_t recorded_calls = 0;    // next_recorded_call()
  int rank = -1;
  std::vector<int> world_ranks;    // communicator rank -> world rank
  std::vector<int> rank_of_world;  // world rank -> communicator rank, -1 if not a member
  int node_count = 1;
  int max_ranks_per_node = 1;

  // Mutable: attaching does not change what the communicator is.
  mutable Attachments attachments;

  // Turns a receive's sender from a world rank into a rank of this communicator.
  void to_comm_source(Status& status) const;
};

namespace {

[[noreturn]] void invalid(const char* operation, const std::string& what) {
  throw Error(ErrorCode::kInvalidArgument, std::string(operation) + ": " + what);
}

void require_user_tag(const char* operation, int tag) {
  if (!is_user_tag(tag))
    invalid(operation, "tag " + std::to_string(tag) + " is negative (user tags are >= 0)");
}

void require_library_tag(const char* operation, int tag) {
  if (!is_library_tag(tag))
    invalid(operation, "tag " + std::to_string(tag) + " is not a library tag (< kAnyTag)");
}

void require_receive_tag(const char* operation, int tag) {
  if (!is_user_tag(tag) && tag != kAnyTag) {
    invalid(operation,
            "tag " + std::to_string(tag) + " is negative and not kAnyTag (user tags are >= 0)");
  }
}

// A blocking receive's outcome, written by its completion while recv() waits for `done`.
struct BlockingReceive : Pooled<BlockingReceive> {
  bool done = false;
  bool abandoned = false;  // recv() left by an exception mid-delivery: the completion frees it
  Status status;

  void record(const Status& outcome) {
    if (!outcome.ok()) {
      status = outcome;
      return;
    }
    // The common case, without copying the (empty) message text.
    status.bytes = outcome.bytes;
    status.source = outcome.source;
    status.tag = outcome.tag;
  }
};

// Distinct nodes among `world_ranks` and the most of them on one node.
std::pair<int, int> count_nodes(const std::vector<int>& world_ranks, const TopologyTable* table) {
  const int size = static_cast<int>(world_ranks.size());
  if (table == nullptr) return {1, std::max(size, 1)};
  std::map<int, int> per_node;
  for (int world : world_ranks) ++per_node[(*table)[world].node_id];
  int most = 1;
  for (const auto& [node, members] : per_node) most = std::max(most, members);
  return {std::max(1, static_cast<int>(per_node.size())), most};
}

}  // namespace

// What each rank contributes when a communicator is created.
struct Communicator::CreationItem {
  std::int32_t color;
  std::int32_t key;
  std::uint32_t next_context;
  std::uint32_t reserved;
};

Communicator Communicator::make_world(PointToPoint& p2p,
                                      std::shared_ptr<const TopologyTable> topology,
                                      std::shared_ptr<RuntimeServices> services) {
  auto s = std::make_shared<State>();
  s->p2p = &p2p;
  s->runtime_alive = p2p.lifetime();
  s->services = std::move(services);
  s->topology = std::move(topology);
  s->context = 0;
  s->rank = p2p.world_rank();
  s->world_ranks.resize(static_cast<std::size_t>(p2p.world_size()));
  std::iota(s->world_ranks.begin(), s->world_ranks.end(), 0);
  s->rank_of_world = s->world_ranks;
  std::tie(s->node_count, s->max_ranks_per_node) = count_nodes(s->world_ranks, s->topology.get());
  return Communicator(std::move(s));
}

namespace {
[[noreturn, gnu::cold, gnu::noinline]] void unusable(const char* operation, bool empty) {
  invalid(operation,
          empty ? "the communicator is empty (not a member)" : "the runtime was finalized");
}
}  // namespace

const Communicator::State& Communicator::checked(const char* operation) const {
  // Every operation starts here: the messages are built out of line, off the fast path.
  if (state_ == nullptr) [[unlikely]]
    unusable(operation, true);
  if (state_->runtime_alive.expired()) [[unlikely]]
    unusable(operation, false);
  return *state_;
}

int Communicator::rank() const {
  return checked("rank").rank;
}
int Communicator::size() const {
  return static_cast<int>(checked("size").world_ranks.size());
}

int Communicator::world_rank(int rank) const {
  const State& s = checked("world_rank");
  if (rank < 0 || rank >= static_cast<int>(s.world_ranks.size())) {
    invalid("world_rank", "rank " + std::to_string(rank) + " is not a rank of this communicator");
  }
  return s.world_ranks[static_cast<std::size_t>(rank)];
}

int Communicator::rank_of_world(int world) const {
  const State& s = checked("rank_of_world");
  if (world < 0 || world >= static_cast<int>(s.rank_of_world.size())) return -1;
  return s.rank_of_world[static_cast<std::size_t>(world)];
}

std::uint32_t Communicator::context() const {
  return checked("context").context;
}
std::size_t Communicator::posted_receives() const {
  const State& s = checked("posted_receives");
  EventLoop::Access access(s.p2p->loop());
  return s.p2p->matching().posted_count(s.context);
}
Communicator::RecordedCall Communicator::next_recorded_call() const noexcept {
  if (state_ == nullptr) return {};
  State& s = *state_;
  FlightRecorder* recorder = s.services->recorder.load(std::memory_order_relaxed);
  if (recorder == nullptr) return {};
  return {recorder, s.context, static_cast<std::uint32_t>(s.world_ranks.size()),
          ++s.recorded_calls};
}

std::uint32_t Communicator::next_collective_call() const {
  checked("next_collective_call");
  return state_->collective_calls++;
}
const TopologyTable& Communicator::topology() const {
  return *checked("topology").topology;
}
const TopologyRow& Communicator::topology_of(int rank) const {
  return topology()[world_rank(rank)];
}
bool Communicator::same_node(int rank_a, int rank_b) const {
  return topology().same_node(world_rank(rank_a), world_rank(rank_b));
}
int Communicator::node_count() const {
  return checked("node_count").node_count;
}
int Communicator::max_ranks_per_node() const {
  return checked("max_ranks_per_node").max_ranks_per_node;
}
EventLoop& Communicator::loop() const {
  return checked("loop").p2p->loop();
}
const Status* Communicator::process_failure() const {
  const std::optional<Status>& failure = checked("process_failure").p2p->failure();
  return failure ? &*failure : nullptr;
}
RuntimeServices& Communicator::services() const {
  return *checked("services").services;
}
Attachments& Communicator::attachments(const char* operation) const {
  return checked(operation).attachments;
}
EventLoop* Communicator::loop_if_alive() const noexcept {
  if (state_ == nullptr || state_->runtime_alive.expired()) return nullptr;
  return &state_->p2p->loop();
}

int Communicator::prepare_send(const char* operation, int peer, int tag, const void* buffer,
                               std::size_t bytes, Envelope& env) const {
  const State& s = checked(operation);
  if (peer < 0 || peer >= static_cast<int>(s.world_ranks.size())) {
    invalid(operation, "peer " + std::to_string(peer) +
                           " is not a rank of this communicator (size " +
                           std::to_string(s.world_ranks.size()) + ")");
  }
  if (buffer == nullptr && bytes > 0) {
    invalid(operation, "buffer is null but bytes is " + std::to_string(bytes));
  }
  env.context = s.context;
  env.tag = tag;
  env.size = bytes;
  return s.world_ranks[static_cast<std::size_t>(peer)];
}

Request Communicator::post_send(const char* operation, int peer, int tag, const void* buffer,
                                std::size_t bytes, Completion callback) const {
  Envelope env;
  const int world_peer = prepare_send(operation, peer, tag, buffer, bytes, env);
  const State& s = *state_;
  EventLoop::Access access(s.p2p->loop());
  if (s.p2p->send_now(world_peer, env, buffer)) {
    // Handed over whole (an eager message with room for it): complete without a pass.
    Status sent;
    sent.bytes = bytes;
    Request request = Request::make_completed(s.p2p->loop(), std::move(sent));
    request.on_complete(std::move(callback));
    return request;
  }
  return start_send(world_peer, env, buffer, std::move(callback));
}

Request Communicator::start_send(int world_peer, const Envelope& env, const void* buffer,
                                 Completion callback, bool synchronous) const {
  const State& s = *state_;
  // Drained: when the process fails, a live receiver may still be reading the buffer, so the
  // request completes when the transport says so (Transport::withdraw_sends), not wholesale.
  Request request = Request::make_pending_drained(s.p2p->loop());
  request.on_complete(std::move(callback));
  Completion done = [request, bytes = env.size](const Status& st) {
    Status out = st;
    if (out.ok()) out.bytes = bytes;
    request.complete(std::move(out));
  };
  if (synchronous)
    s.p2p->send_synchronous(world_peer, env, buffer, std::move(done));
  else
    s.p2p->send(world_peer, env, buffer, std::move(done));
  return request;
}

int Communicator::prepare_recv(const char* operation, int peer, const void* buffer,
                               std::size_t bytes) const {
  const State& s = checked(operation);
  if (peer != kAnySource && (peer < 0 || peer >= static_cast<int>(s.world_ranks.size()))) {
    invalid(operation, "peer " + std::to_string(peer) +
                           " is not a rank of this communicator (size " +
                           std::to_string(s.world_ranks.size()) + ") nor kAnySource");
  }
  if (buffer == nullptr && bytes > 0) {
    invalid(operation, "buffer is null but bytes is " + std::to_string(bytes));
  }
  return peer == kAnySource ? kAnySource : s.world_ranks[static_cast<std::size_t>(peer)];
}

void Communicator::State::to_comm_source(Status& status) const {
  if (status.source >= 0 && status.source < static_cast<int>(rank_of_world.size())) {
    status.source = rank_of_world[static_cast<std::size_t>(status.source)];
  }
}

Completion Communicator::completing(Request request) const {
  return [request = std::move(request), state = state_](const Status& st) {
    Status out = st;
    state->to_comm_source(out);
    request.complete(std::move(out));
  };
}

Request Communicator::post_recv(const char* operation, int peer, int tag, void* buffer,
                                std::size_t bytes, Completion callback,
                                std::uint64_t* receive_id) const {
  const int world_source = prepare_recv(operation, peer, buffer, bytes);
  const State& s = *state_;
  EventLoop::Access access(s.p2p->loop());
  Request request = Request::make_pending(s.p2p->loop());
  request.on_complete(std::move(callback));
  const MatchingEngine::ReceiveId id =
      s.p2p->receive(s.context, world_source, tag, buffer, bytes, completing(request));
  if (receive_id != nullptr) *receive_id = id;
  return request;
}

Request Communicator::isend(int peer, int tag, const void* buffer, std::size_t bytes,
                            Completion callback) const {
  require_user_tag("isend", tag);
  refuse_device_buffer(*this, buffer, "isend");
  return post_send("isend", peer, tag, buffer, bytes, std::move(callback));
}

Request Communicator::irecv(int peer, int tag, void* buffer, std::size_t bytes,
                            Completion callback) const {
  require_receive_tag("irecv", tag);
  refuse_device_buffer(*this, buffer, "irecv");
  return post_recv("irecv", peer, tag, buffer, bytes, std::move(callback));
}

Request Communicator::issend(int peer, int tag, const void* buffer, std::size_t bytes,
                             Completion callback) const {
  require_user_tag("issend", tag);
  refuse_device_buffer(*this, buffer, "issend");
  Envelope env;
  const int world_peer = prepare_send("issend", peer, tag, buffer, bytes, env);
  EventLoop::Access access(state_->p2p->loop());
  return start_send(world_peer, env, buffer, std::move(callback), true);
}

CancellableReceive Communicator::irecv_cancellable(int peer, int tag, void* buffer,
                                                   std::size_t bytes) const {
  require_receive_tag("irecv_cancellable", tag);
  refuse_device_buffer(*this, buffer, "irecv_cancellable");
  CancellableReceive receive;
  receive.request = post_recv("irecv_cancellable", peer, tag, buffer, bytes, {}, &receive.id);
  return receive;
}

bool Communicator::cancel_receive(const CancellableReceive& receive) const {
  const State& s = checked("cancel_receive");
  EventLoop::Access access(s.p2p->loop());
  if (receive.id == 0 || !s.p2p->matching().cancel(receive.id)) return false;
  receive.request.complete(Status::failure(ErrorCode::kCancelled, "receive cancelled"));
  return true;
}

std::optional<MatchedMessage> Communicator::find_message(const char* operation, int peer, int tag,
                                                         bool take) const {
  require_receive_tag(operation, tag);
  const int world_source = prepare_recv(operation, peer, nullptr, 0);
  const State& s = *state_;
  EventLoop::Access access(s.p2p->loop());
  MatchingEngine& matching = s.p2p->matching();
  MatchedMessage found;
  std::optional<Envelope> env;
  if (take) {
    found.message = matching.take(s.context, world_source, tag);
    if (found.message) env = found.message->envelope();
  } else {
    env = matching.peek(s.context, world_source, tag);
  }
  if (!env) return std::nullopt;
  found.status.source = env->source;
  found.status.tag = env->tag;
  found.status.bytes = env->size;
  s.to_comm_source(found.status);
  return found;
}

std::optional<Status> Communicator::iprobe(int peer, int tag) const {
  checked("iprobe").p2p->loop().poll();
  std::optional<MatchedMessage> found = find_message("iprobe", peer, tag, false);
  if (!found) return std::nullopt;
  return found->status;
}

Status Communicator::probe(int peer, int tag) const {
  std::optional<MatchedMessage> found = find_message("probe", peer, tag, false);
  if (!found)
    loop().run_until([&] { return (found = find_message("probe", peer, tag, false)).has_value(); });
  return found->status;
}

std::optional<MatchedMessage> Communicator::improbe(int peer, int tag) const {
  checked("improbe").p2p->loop().poll();
  return find_message("improbe", peer, tag, true);
}

MatchedMessage Communicator::mprobe(int peer, int tag) const {
  std::optional<MatchedMessage> found = find_message("mprobe", peer, tag, true);
  if (!found)
    loop().run_until([&] { return (found = find_message("mprobe", peer, tag, true)).has_value(); });
  return std::move(*found);
}
Request Communicator::mrecv(MatchedMessage message, void* buffer, std::size_t bytes,
                            Completion callback) const {
  const State& s = checked("mrecv");
  refuse_device_buffer(*this, buffer, "mrecv");
  if (!message.message) invalid("mrecv", "the message was received already or never matched");
  if (buffer == nullptr && bytes > 0) {
    invalid("mrecv", "buffer is null but bytes is " + std::to_string(bytes));
  }
  EventLoop::Access access(s.p2p->loop());
  Request request = Request::make_pending(s.p2p->loop());
  request.on_complete(std::move(callback));
  s.p2p->matching().deliver_taken(std::move(message.message), buffer, bytes, completing(request));
  return request;
}

void Communicator::send(int peer, int tag, const void* buffer, std::size_t bytes) const {
  require_user_tag("send", tag);
  refuse_device_buffer(*this, buffer, "send");
  // A message handed over whole needs no request at all.
  Envelope env;
  const int world_peer = prepare_send("send", peer, tag, buffer, bytes, env);
  EventLoop::Access access(state_->p2p->loop());
  if (state_->p2p->send_now(world_peer, env, buffer)) return;
  start_send(world_peer, env, buffer, {}).wait_ok();
}

Status Communicator::recv(int peer, int tag, void* buffer, std::size_t bytes) const {
  require_receive_tag("recv", tag);
  refuse_device_buffer(*this, buffer, "recv");
  const int world_source = prepare_recv("recv", peer, buffer, bytes);
  const State& s = *state_;
  EventLoop& loop = s.p2p->loop();
  // A shared loop (progress thread, several application threads) waits through the request,
  // which handles the lock; inside a callback the request path reports the nested wait.
  if (loop.threaded() || loop.in_pass()) return irecv(peer, tag, buffer, bytes).wait_ok();

  // The latency path: no Request (no tracking, no reference counts), just a flag to wait for.
  auto* pending = new BlockingReceive;
  const State* state = &s;
  auto record = [pending, state](const Status& st) {
    if (pending->abandoned) {
      delete pending;
      return;
    }
    pending->record(st);
    state->to_comm_source(pending->status);
    pending->done = true;
  };
  const MatchingEngine::ReceiveId id =
      s.p2p->receive(s.context, world_source, tag, buffer, bytes, record);
  try {
    loop.run_until([pending] { return pending->done; });
  } catch (...) {
    // A receive that can still be withdrawn is; one already being delivered finishes later and
    // its completion frees what it writes to.
    if (pending->done || (id != 0 && s.p2p->matching().cancel(id)))
      delete pending;
    else
      pending->abandoned = true;
    throw;
  }
  Status status = std::move(pending->status);
  delete pending;
  status.raise_if_failed();
  return status;
}

Request Communicator::isend_internal(int peer, int tag, const void* buffer, std::size_t bytes,
                                     Completion callback) const {
  require_library_tag("isend_internal", tag);
  return post_send("isend_internal", peer, tag, buffer, bytes, std::move(callback));
}

bool Communicator::try_send_internal(int peer, int tag, const void* buffer,
                                     std::size_t bytes) const {
  require_library_tag("try_send_internal", tag);
  Envelope env;
  const int world_peer = prepare_send("try_send_internal", peer, tag, buffer, bytes, env);
  EventLoop::Access access(state_->p2p->loop());
  return state_->p2p->send_now(world_peer, env, buffer);
}

void Communicator::receive_internal(int peer, int tag, void* buffer, std::size_t bytes,
                                    Completion record) const {
  require_library_tag("receive_internal", tag);
  const int world_source = prepare_recv("receive_internal", peer, buffer, bytes);
  const State& s = *state_;
  EventLoop::Access access(s.p2p->loop());
  s.p2p->receive(s.context, world_source, tag, buffer, bytes, std::move(record));
}

std::size_t Communicator::cancel_internal_receives(int tag) const {
  require_library_tag("cancel_internal_receives", tag);
  const State& s = checked("cancel_internal_receives");
  EventLoop::Access access(s.p2p->loop());
  return s.p2p->matching().cancel_unmatched(
      s.context, tag,
      Status::failure(ErrorCode::kCancelled,
                      "receive (tag " + std::to_string(tag) + ") cancelled: its operation failed"));
}

Request Communicator::irecv_internal(int peer, int tag, void* buffer, std::size_t bytes,
                                     Completion callback) const {
  require_library_tag("irecv_internal", tag);
  return post_recv("irecv_internal", peer, tag, buffer, bytes, std::move(callback));
}

std::uint32_t Communicator::exchange_creation_items(std::span<const int> participants,
                                                    std::vector<CreationItem>& items,
                                                    CreationItem mine) const {
  const State& s = checked("exchange_creation_items");
  ContextProposals& proposals = s.p2p->context_proposals();
  struct InFlight {
    ContextProposals& proposals;
    std::uint32_t parent;
    bool proposing = false;
    InFlight(ContextProposals& p, std::uint32_t c) : proposals(p), parent(c) { p.begin(c); }
    ~InFlight() {
      if (proposing) proposals.end_round();
      proposals.end(parent);
    }
  } in_flight(proposals, s.context);
  constexpr std::uint32_t kAbstain = 0;  // the world's context, never proposed
  for (;;) {
    // Creations from several threads: one proposes per process and round
    // (runtime/context_proposals.hpp); a round with an abstention is repeated.
    in_flight.proposing = proposals.try_propose(s.context);
    mine.next_context = in_flight.proposing ? s.p2p->next_context() : kAbstain;
    // A linear allgather over the participants, on a library tag: creation is rare and small,
    // and collectives are built on top of communicators.
    items.assign(participants.size(), mine);
    std::vector<Request> requests;
    requests.reserve(2 * participants.size());
    for (std::size_t i = 0; i < participants.size(); ++i) {
      int r = participants[i];
      if (r == s.rank) continue;
      requests.push_back(irecv_internal(r, kCommCreateTag, &items[i], sizeof(CreationItem)));
      requests.push_back(isend_internal(r, kCommCreateTag, &mine, sizeof(CreationItem)));
    }
    Status st = wait_all(requests);
    if (!st.ok()) throw Error(st.code, "exchanging creation items failed: " + st.message);

    // Every participant's used contexts lie below its next_context, so the maximum is free on
    // all of them. Communicators from one split share it: their groups are disjoint.
    std::uint32_t context = 0;
    bool abstained = false;
    for (const auto& item : items) {
      context = std::max(context, item.next_context);
      abstained = abstained || item.next_context == kAbstain;
    }
    if (abstained) {
      if (in_flight.proposing) proposals.end_round();
      in_flight.proposing = false;
      continue;
    }
    s.p2p->reserve_contexts_below(context + 1);
    return context;
  }
}

Communicator Communicator::with_members(const std::vector<int>& members,
                                        std::uint32_t context) const {
  const State& s = checked("with_members");
  auto out = std::make_shared<State>();
  out->p2p = s.p2p;
  out->runtime_alive = s.runtime_alive;
  out->services = s.services;
  out->topology = s.topology;
  out->context = context;
  out->rank_of_world.assign(s.rank_of_world.size(), -1);
  for (int r : members) {
    int world = s.world_ranks[static_cast<std::size_t>(r)];
    out->rank_of_world[static_cast<std::size_t>(world)] = static_cast<int>(out->world_ranks.size());
    if (r == s.rank) out->rank = static_cast<int>(out->world_ranks.size());
    out->world_ranks.push_back(world);
  }
  std::tie(out->node_count, out->max_ranks_per_node) =
      count_nodes(out->world_ranks, out->topology.get());
  return Communicator(std::move(out));
}

Communicator Communicator::split(int color, int key) const {
  const State& s = checked("split");
  // The context counter is the loop's state; the wait below lets the lock go while it sleeps.
  EventLoop::Access access(s.p2p->loop());
  const int n = static_cast<int>(s.world_ranks.size());
  std::vector<int> everyone(static_cast<std::size_t>(n));
  std::iota(everyone.begin(), everyone.end(), 0);
  std::vector<CreationItem> items;
  std::uint32_t context = exchange_creation_items(everyone, items, CreationItem{color, key, 0, 0});
  if (color < 0) return Communicator();

  std::vector<int> members;  // ranks of this communicator, ordered by (key, rank)
  for (int r = 0; r < n; ++r) {
    if (items[static_cast<std::size_t>(r)].color == color) members.push_back(r);
  }
  std::stable_sort(members.begin(), members.end(), [&](int a, int b) {
    return items[static_cast<std::size_t>(a)].key < items[static_cast<std::size_t>(b)].key;
  });
  return with_members(members, context);
}

Communicator Communicator::subset(const std::vector<int>& members) const {
  const State& s = checked("subset");
  std::vector<int> participants = members;
  std::sort(participants.begin(), participants.end());
  if (std::adjacent_find(participants.begin(), participants.end()) != participants.end() ||
      participants.empty() || participants.front() < 0 ||
      participants.back() >= static_cast<int>(s.world_ranks.size())) {
    invalid("subset", "members must be distinct ranks of this communicator");
  }
  if (!std::binary_search(participants.begin(), participants.end(), s.rank)) {
    invalid("subset", "this rank is not among the members");
  }
  EventLoop::Access access(s.p2p->loop());
  std::vector<CreationItem> items;
  std::uint32_t context = exchange_creation_items(participants, items, CreationItem{0, 0, 0, 0});
  return with_members(members, context);
}

Communicator Communicator::dup() const {
  return split(0, rank());
}

Communicator Communicator::node_comm() const {
  int me = rank();
  return split(topology_of(me).node_id, me);
}

Communicator Communicator::leader_comm() const {
  int me = rank();
  int first_on_node = me;
  for (int r = 0; r < me; ++r) {
    if (same_node(r, me)) {
      first_on_node = r;
      break;
    }
  }
  return split(first_on_node == me ? 0 : -1, me);
}

void Communicator::register_am_handler(int id, AmHandler handler, AmDestination destination) const {
  const State& s = checked("register_am_handler");
  if (!handler) invalid("register_am_handler", "handler is empty");
  EventLoop::Access access(s.p2p->loop());
  // Handlers see communicator ranks; the weak reference avoids keeping the state alive.
  std::weak_ptr<State> weak = state_;
  auto to_rank = [weak](int world) {
    auto st = weak.lock();
    if (!st || world < 0 || world >= static_cast<int>(st->rank_of_world.size())) return -1;
    return st->rank_of_world[static_cast<std::size_t>(world)];
  };
  AmHandler wrapped = [to_rank, h = std::move(handler)](int source,
                                                        std::span<const std::byte> header,
                                                        std::span<const std::byte> payload) {
    h(to_rank(source), header, payload);
  };
  AmDestination wrapped_destination;
  if (destination) {
    wrapped_destination = [to_rank, d = std::move(destination)](
                              int source, std::span<const std::byte> header, std::size_t bytes) {
      return d(to_rank(source), header, bytes);
    };
  }
  s.p2p->active_messages().register_handler(s.context, id, std::move(wrapped),
                                            std::move(wrapped_destination));
}

void Communicator::unregister_am_handler(int id) const {
  const State& s = checked("unregister_am_handler");
  EventLoop::Access access(s.p2p->loop());
  s.p2p->active_messages().unregister_handler(s.context, id);
}

Request Communicator::am_send(int peer, int id, std::span<const std::byte> header,
                              std::span<const std::byte> payload, Completion callback) const {
  const State& s = checked("am_send");
  if (peer < 0 || peer >= static_cast<int>(s.world_ranks.size())) {
    invalid("am_send", "peer " + std::to_string(peer) +
                           " is not a rank of this communicator (size " +
                           std::to_string(s.world_ranks.size()) + ")");
  }
  if (id < 0) invalid("am_send", "id " + std::to_string(id) + " is negative");
  EventLoop::Access access(s.p2p->loop());
  Request request = Request::make_pending(s.p2p->loop());
  request.on_complete(std::move(callback));
  s.p2p->active_messages().send(s.context, s.world_ranks[static_cast<std::size_t>(peer)], id,
                                header, payload,
                                [request](const Status& st) { request.complete(st); });
  return request;
}

}  // namespace halyard
