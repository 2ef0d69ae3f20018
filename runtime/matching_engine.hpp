// MatchingEngine: MPI matching of arrivals against posted receives, for every transport.
//
// Per communicator context it keeps the posted-receive queue (in post order) and the
// unexpected queue (arrivals nobody asked for yet, in arrival order). An arrival takes the
// first posted receive it matches; a new receive takes the first unexpected message it
// matches. Because transports announce arrivals in per-pair send order and both queues are
// scanned in order, messages between one pair with one tag match in the order they were sent.
//
// Sources here are WORLD ranks (what the Envelope carries); the communicator translates.
// kAnyTag matches user tags (>= 0) only; library tags must be named exactly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "runtime/tags.hpp"
#include "runtime/transport.hpp"

namespace halyard {

class EventLoop;

// Envelope.flags bit of a synchronous send (MPI_Ssend): the sender waits to hear that a receive
// matched its message. The engine reports every such match (on_synchronous_match); the bits
// above kSynchronousIdShift carry the sender's id of that send, echoed in the acknowledgement.
inline constexpr std::uint32_t kEnvelopeSynchronous = 1u << 3;
inline constexpr int kSynchronousIdShift = 8;

class MatchingEngine {
 public:
  using ReceiveId = std::uint64_t;

  explicit MatchingEngine(EventLoop& loop) : loop_(loop) {}
  MatchingEngine(const MatchingEngine&) = delete;
  MatchingEngine& operator=(const MatchingEngine&) = delete;

  // Posts a receive of up to `capacity` bytes into `buffer` from world rank `source` (or
  // kAnySource) with `tag` (or kAnyTag). `done` gets the outcome: source = sender's world rank,
  // tag = its tag, bytes = bytes written; kTruncated if the message was larger than capacity.
  // When the matched payload is already in hand (IncomingMessage::deliver_now), `done` runs at
  // once, inside post() or arrive(): it must only record the outcome (complete a Request, whose
  // own callbacks are deferred), never run user code.
  ReceiveId post(std::uint32_t context, int source, int tag, void* buffer, std::size_t capacity,
                 Completion done);

  // A transport's arrival. A match is delivered from the loop's deferred phase, so deliver()
  // never runs inside the transport's progress(), unless the message says that is safe
  // (IncomingMessage::deliverable_while_announced), when it is delivered at once.
  void arrive(std::unique_ptr<IncomingMessage> message);

  // An eager arrival offered before it becomes a message object (EagerMatcher): when a posted
  // receive matches, copies the payload into it, runs its `done` at once and returns true;
  // false (touching nothing) when no posted receive matches.
  bool take_eager(const Envelope& env, const EagerPayload& payload);

  // Removes a posted, still unmatched receive; false when it was matched already.
  bool cancel(ReceiveId id);

  // Probing (MPI_Probe, MPI_Mprobe). peek(): the envelope of the unexpected message on `context`
  // that a receive (source, tag) posted now would take, left in place; nullopt when there is
  // none. take(): the same message, taken out of the queue, so that no receive can match it any
  // more; it counts as matched (a synchronous sender hears so). deliver_taken() moves a taken
  // message into `buffer` as a matched receive would, with the same outcome in `done`.
  std::optional<Envelope> peek(std::uint32_t context, int source, int tag);
  std::unique_ptr<IncomingMessage> take(std::uint32_t context, int source, int tag);
  void deliver_taken(std::unique_ptr<IncomingMessage> message, void* buffer, std::size_t capacity,
                     Completion done);

  // Runs with the envelope of every matched message that carries kEnvelopeSynchronous, at the
  // match (possibly inside a transport's progress(): it must only defer work to the loop).
  using SynchronousMatchHandler = std::function<void(const Envelope& env)>;
  void on_synchronous_match(SynchronousMatchHandler handler) {
    synchronous_match_ = std::move(handler);
  }

  // Withdraws every receive posted on `context` with exactly `tag` that no message has matched
  // yet, and completes each with `status` once all are out of the queue (a completion may post).
  // A receive already matched is being delivered: its completion comes as usual, later. Returns
  // how many were withdrawn. Must not run inside a receive's completion (take_eager() runs
  // those where they lie in the queue).
  std::size_t cancel_unmatched(std::uint32_t context, int tag, const Status& status);

  // A peer failed (or the process timed out): completes every posted receive with `status`,
  // declines the unexpected messages (IncomingMessage::decline) and every later arrival, and
  // stops delivering. From then on a matched receive whose delivery has not started
  // completes with `status` without any byte moved, and one whose delivery a transport is
  // running completes with `status` when the transport has finished or cancelled it (see
  // Transport::peer_failed). `drained` runs once no delivery is left in flight, at once when
  // there is none: from then on no receive buffer changes. Later calls only keep the first
  // status.
  void fail_all(const Status& status, std::function<void()> drained = {});
  // Matched receives whose payload is not yet in (a deferred or running delivery).
  std::size_t deliveries_in_flight() const noexcept { return deliveries_in_flight_; }

  // Called (before the receive's own completion) when a transport fails to deliver a matched
  // message with kTransport, with the sender's world rank: a dead sender shows up here.
  using DeliveryFailureHandler = std::function<void(int world_source, const Status& status)>;
  void on_delivery_failure(DeliveryFailureHandler handler) {
    delivery_failure_ = std::move(handler);
  }

  std::size_t posted_count() const;
  std::size_t posted_count(std::uint32_t context) const;
  // The world source (or kAnySource) of every posted receive still unmatched, in no order and
  // with repeats: what a stalled process waits for (the collective watchdog's report).
  std::vector<int> posted_sources() const;
  std::size_t unexpected_count() const;
  std::size_t unexpected_count(std::uint32_t context) const;

  // Drops the queues of `context` (a freed communicator's) when nothing is left in them, so a
  // program that makes and frees communicators keeps flat memory (two deques per context, about
  // 1.2 KiB). A context with posted receives or unexpected messages keeps its queues.
  void forget_context(std::uint32_t context);

 private:
  struct PostedReceive {
    ReceiveId id;
    int source;
    int tag;
    void* buffer;
    std::size_t capacity;
    Completion done;
  };
  // Deques, not lists: the common match is at the front, and a deque reuses its blocks, so
  // posting and matching cost no allocation per entry in the steady state.
  struct ContextQueues {
    std::deque<PostedReceive> posted;
    std::deque<std::unique_ptr<IncomingMessage>> unexpected;
  };
  struct Delivery;

  static bool matches(const PostedReceive& r, const Envelope& e);
  static bool matches(int source, int tag, const Envelope& e);
  // Every match goes through here: tells a synchronous sender (one branch for the others).
  void matched(const Envelope& env) {
    if ((env.flags & kEnvelopeSynchronous) != 0) [[unlikely]]
      synchronous_match_(env);
  }
  // The first unexpected message of `context` a receive (source, tag) would take.
  std::deque<std::unique_ptr<IncomingMessage>>::iterator find_unexpected(ContextQueues& q,
                                                                         int source, int tag);
  // A delivery in flight ended: after a failure, the last one runs `drained_`.
  void delivery_ended();
  // Delivers `message` into `receive`: at once when the payload is in hand, else through the
  // transport's deliver().
  void deliver(std::unique_ptr<IncomingMessage> message, PostedReceive receive);
  // The receive's final status from the transport's: sender, tag, bytes, truncation text.
  static Status receive_status(const Status& transport_status, const Envelope& env,
                               std::size_t capacity);

  // The queues of `context`, created on first use; remembers the last one looked up, since
  // traffic tends to stay on one communicator.
  ContextQueues& queues(std::uint32_t context) {
    if (last_queues_ == nullptr || last_context_ != context) [[unlikely]]
      return remember_queues(context);
    return *last_queues_;
  }
  ContextQueues& remember_queues(std::uint32_t context);

  EventLoop& loop_;
  DeliveryFailureHandler delivery_failure_;
  SynchronousMatchHandler synchronous_match_ = [](const Envelope&) {};
  std::unordered_map<std::uint32_t, ContextQueues> contexts_;
  ContextQueues* last_queues_ = nullptr;
  std::uint32_t last_context_ = 0;
  // Kept as a count, not an id -> context map: cancel() is rare and may scan, while a map
  // entry per posted receive cost an allocation on every receive.
  std::size_t posted_count_ = 0;
  ReceiveId next_id_ = 1;
  std::size_t deliveries_in_flight_ = 0;
  std::optional<Status> failure_;  // set by fail_all()
  std::function<void()> drained_;
};

}  // namespace halyard
