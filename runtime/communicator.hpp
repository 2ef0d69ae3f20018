// Communicator: a group of ranks with its own matching context (MPI's communicator).
//
// A cheap handle (copies share one state). Point-to-point operations take and report ranks of
// this communicator; the communicator maps them to world ranks for the transports. Every
// communicator has its own context id, so messages of two communicators never match each
// other even with equal tags. A default-constructed communicator, or what split() returns to a
// rank with a negative color, is empty: valid() is false and every operation but valid()
// throws Error(kInvalidArgument).
//
// Tags: user operations take tags >= 0 (and kAnyTag for receives). The *_internal variants
// take library tags (< kAnyTag, see tags.hpp): collectives use them on the same context, and
// they never match user receives.
//
// Attachments: the layers above keep their per-communicator state on the communicator
// (attachment<T>() / attach<T>()), released when its last handle goes; see attachments.hpp.
//
// A communicator must not outlive the Runtime that made it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "runtime/active_messages.hpp"
#include "runtime/attachments.hpp"
#include "runtime/bootstrap/topology.hpp"
#include "runtime/request.hpp"
#include "runtime/tags.hpp"

namespace halyard {

class EventLoop;
class FlightRecorder;
class PointToPoint;
struct RuntimeServices;

// A message that a matched probe (Communicator::mprobe) took out of matching: no receive can
// match it any more, only Communicator::mrecv() receives it. Move-only; dropping it unreceived
// drops the message.
struct MatchedMessage {
  Status status;  // source (communicator rank), tag, bytes: the message's full size
  std::unique_ptr<IncomingMessage> message;
};

// A user receive that MPI_Cancel may withdraw (Communicator::irecv_cancellable).
struct CancellableReceive {
  Request request;
  std::uint64_t id = 0;  // the matching engine's receive id; 0 when it failed at once
};

class Communicator {
 public:
  Communicator() = default;

  // The world communicator of a process (used by Runtime).
  static Communicator make_world(PointToPoint& p2p, std::shared_ptr<const TopologyTable> topology,
                                 std::shared_ptr<RuntimeServices> services);

  bool valid() const noexcept { return state_ != nullptr; }
  explicit operator bool() const noexcept { return valid(); }

  int rank() const;
  int size() const;
  // World rank of communicator rank `rank`.
  int world_rank(int rank) const;
  // Communicator rank of world rank `world`, or -1 when it is not a member.
  int rank_of_world(int world) const;
  std::uint32_t context() const;
  // Numbers this rank's collective calls on this communicator (0, 1, ...), from which the
  // collective layer derives its tags. Kept per communicator state, not per process, so that
  // runtimes sharing a process (in-process tests) do not share counters. Call with the loop
  // held (EventLoop::Access) when a progress thread runs.
  std::uint32_t next_collective_call() const;
  // The flight recorder's view of the next public collective call on this communicator:
  // the runtime's recorder (null when it keeps none: then nothing is counted), the
  // communicator's context id and size, and the call's number (1, 2, ...; the same call has the
  // same number on every member), all in one call (the recorder's per-call cost). Call with the
  // loop held like next_collective_call().
  struct RecordedCall {
    FlightRecorder* recorder = nullptr;
    std::uint32_t context = 0;
    std::uint32_t size = 0;
    std::uint64_t number = 0;
  };
  RecordedCall next_recorded_call() const noexcept;
  // Receives posted on this communicator (user and library) that no message has matched yet.
  // Once every operation on the communicator has completed it is 0: a receive that outlives
  // its operation would match a later message with the same tag (Open MPI reports the same
  // quantity as the length of its posted-receive queue).
  std::size_t posted_receives() const;

  // The job's topology table (indexed by WORLD rank) and the row of a communicator rank.
  const TopologyTable& topology() const;
  const TopologyRow& topology_of(int rank) const;
  bool same_node(int rank_a, int rank_b) const;
  // How the members spread over nodes (distinct node_ids; the most members on one node).
  // Counted once when the communicator is made: collective selection asks on every call.
  int node_count() const;
  int max_ranks_per_node() const;

  EventLoop& loop() const;
  // The failure this process is in (a peer died, as hlaunch's notice said, or the collective
  // watchdog gave up: PointToPoint::fail), or null while there is none. It is the root cause
  // of whatever else failed since.
  const Status* process_failure() const;
  // The services of the runtime this communicator belongs to (runtime_services.hpp).
  RuntimeServices& services() const;
  // The T attached to this communicator, or null. Each communicator has its own (a dup starts
  // with none); they are released when the last handle of this communicator goes.
  template <class T>
  std::shared_ptr<T> attachment() const {
    return attachments("attachment").find<T>();
  }
  // The same without a reference, for a call's hot path: valid while this communicator lives.
  template <class T>
  T* peek_attachment() const {
    return attachments("attachment").peek<T>();
  }
  // Attaches `object` as this communicator's T unless one is attached already; returns the T
  // that is attached. A caller that needs the object past the communicator's life (a call in
  // flight) keeps the returned shared_ptr.
  template <class T>
  std::shared_ptr<T> attach(std::shared_ptr<T> object) const {
    return attachments("attach").attach<T>(std::move(object));
  }
  // The loop, or null for an empty communicator or a finalized runtime (never throws).
  EventLoop* loop_if_alive() const noexcept;

  // Non-blocking point-to-point. `callback` (optional) runs from the event loop when the
  // request completes. Receives report the sender's communicator rank in status.source and
  // the received size in status.bytes; a message larger than `bytes` completes the receive
  // with kTruncated (the sender still succeeds). `peer` may be kAnySource and `tag` kAnyTag
  // for receives. Throws Error(kInvalidArgument) for a bad peer, tag or a null buffer with
  // bytes > 0.
  Request isend(int peer, int tag, const void* buffer, std::size_t bytes,
                Completion callback = {}) const;
  Request irecv(int peer, int tag, void* buffer, std::size_t bytes, Completion callback = {}) const;

  // A synchronous send (MPI_Ssend): completes only once a receive has matched the message
  // (the receiver's matching engine acknowledges the match) and the send itself is done.
  Request issend(int peer, int tag, const void* buffer, std::size_t bytes,
                 Completion callback = {}) const;
  // irecv() that cancel_receive() can withdraw: true when no message had matched it yet (its
  // request then completes with kCancelled), false when one had (it completes as usual).
  CancellableReceive irecv_cancellable(int peer, int tag, void* buffer, std::size_t bytes) const;
  bool cancel_receive(const CancellableReceive& receive) const;

  // Probing (MPI_Probe / MPI_Iprobe), with a receive's peer and tag rules. iprobe() makes one
  // pass of the loop, then reports what a receive posted now would get from the first message
  // it would match (source, tag, bytes: the whole size), leaving the message for a receive;
  // nullopt when none has arrived. probe() runs the loop until one has.
  std::optional<Status> iprobe(int peer, int tag) const;
  Status probe(int peer, int tag) const;
  // Matched probes (MPI_Improbe / MPI_Mprobe): the same, but the message is taken out of
  // matching, so that no other receive or probe sees it; mrecv() then receives it (the
  // request completes as irecv()'s would, truncation included).
  std::optional<MatchedMessage> improbe(int peer, int tag) const;
  MatchedMessage mprobe(int peer, int tag) const;
  Request mrecv(MatchedMessage message, void* buffer, std::size_t bytes,
                Completion callback = {}) const;

  // Blocking conveniences; throw Error when the operation fails.
  void send(int peer, int tag, const void* buffer, std::size_t bytes) const;
  Status recv(int peer, int tag, void* buffer, std::size_t bytes) const;

  // Library traffic with tags < kAnyTag (collectives, communicator creation).
  Request isend_internal(int peer, int tag, const void* buffer, std::size_t bytes,
                         Completion callback = {}) const;
  Request irecv_internal(int peer, int tag, void* buffer, std::size_t bytes,
                         Completion callback = {}) const;
  // A library receive without a Request, for state machines that only need to count their
  // operations: `record` runs as soon as the receive completes, possibly inside a transport's
  // progress(), so it must only record the outcome (never post, wait or run user code: defer
  // that to the loop). status.source is the sender's WORLD rank (rank_of_world() translates):
  // a translating wrapper would not fit `record` in Completion's inline storage.
  void receive_internal(int peer, int tag, void* buffer, std::size_t bytes,
                        Completion record) const;
  // Withdraws this communicator's library receives on `tag` that no message has matched yet:
  // each completes with kCancelled, inside this call (as a peer failure completes them). A
  // receive already matched is being delivered and completes later as usual, so a collective
  // that failed cancels its receives this way and then waits for the rest before its request
  // completes. Must not be called from a receive_internal `record`. Returns how many were
  // withdrawn.
  std::size_t cancel_internal_receives(int tag) const;
  // Hands a library message to the transport whole if it can (an eager message with room for
  // it): true means it is sent and nothing more will happen; false means nothing was sent and
  // the caller posts it with isend_internal. A collective's step saves a request, a callback
  // and a pass of the loop per message this way.
  bool try_send_internal(int peer, int tag, const void* buffer, std::size_t bytes) const;

  // Collective over this communicator (blocking). Ranks with equal `color` form a new
  // communicator, ordered by (key, rank in this one); a negative color returns an empty one.
  Communicator split(int color, int key) const;
  // Collective over `members` only (distinct ranks of this communicator, this one among them):
  // a new communicator of them, ordered as listed. Ranks outside `members` take no part, so
  // overlapping subsets made at once must be made in the same order on their common ranks.
  Communicator subset(const std::vector<int>& members) const;
  // Same group, new context.
  Communicator dup() const;
  // Collective: the members sharing this rank's node (equal node_id), in rank order.
  Communicator node_comm() const;
  // Collective: the lowest rank of each node, in rank order; empty on every other rank.
  Communicator leader_comm() const;

  // Active messages on this communicator: `handler` runs at the receiver with the sender's
  // communicator rank. See active_messages.hpp for the eager/rendezvous split.
  void register_am_handler(int id, AmHandler handler, AmDestination destination = {}) const;
  void unregister_am_handler(int id) const;
  Request am_send(int peer, int id, std::span<const std::byte> header,
                  std::span<const std::byte> payload, Completion callback = {}) const;

 private:
  struct State;
  explicit Communicator(std::shared_ptr<State> state) : state_(std::move(state)) {}

  const State& checked(const char* operation) const;
  Attachments& attachments(const char* operation) const;
  // Validates a send, fills `env` and returns the peer's world rank.
  int prepare_send(const char* operation, int peer, int tag, const void* buffer, std::size_t bytes,
                   Envelope& env) const;
  // The send path with a request that completes from the transport's progress (for a
  // synchronous one, once the receiver has acknowledged the match too).
  Request start_send(int world_peer, const Envelope& env, const void* buffer, Completion callback,
                     bool synchronous = false) const;
  Request post_send(const char* operation, int peer, int tag, const void* buffer, std::size_t bytes,
                    Completion callback) const;
  // Validates a receive and returns the source's world rank (or kAnySource).
  int prepare_recv(const char* operation, int peer, const void* buffer, std::size_t bytes) const;
  Request post_recv(const char* operation, int peer, int tag, void* buffer, std::size_t bytes,
                    Completion callback, std::uint64_t* receive_id = nullptr) const;
  // A receive's completion that reports the sender's rank in this communicator.
  Completion completing(Request request) const;
  // The first unexpected message a receive (peer, tag) would match, with a receive's status:
  // left in the queue (message stays null) or, with `take`, taken out of it.
  std::optional<MatchedMessage> find_message(const char* operation, int peer, int tag,
                                             bool take) const;
  struct CreationItem;
  // Gives every rank of `participants` (ranks of this communicator in ascending order, this one
  // among them) the others' items, in that order, and returns a context free on all of them.
  // Call with the loop held.
  std::uint32_t exchange_creation_items(std::span<const int> participants,
                                        std::vector<CreationItem>& items, CreationItem mine) const;
  // The communicator of `members` (ranks of this one, in their new order) on `context`.
  Communicator with_members(const std::vector<int>& members, std::uint32_t context) const;

  std::shared_ptr<State> state_;
};

}  // namespace halyard
