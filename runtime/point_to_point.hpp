// PointToPoint: the process's message layer between communicators and transports.
//
// It routes sends to the right transport (Router), takes every transport's arrivals and hands
// them to the MatchingEngine (tagged messages) or to ActiveMessages (flagged envelopes), keeps
// count of sends in flight (so finalize can drain them), and holds the process's failure state:
// once a peer fails, every pending and every later operation completes with kPeerFailed.
//
// Ranks here are world ranks; Communicator translates. Not thread-safe (see EventLoop).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>

#include "runtime/active_messages.hpp"
#include "runtime/context_proposals.hpp"
#include "runtime/matching_engine.hpp"
#include "runtime/request.hpp"
#include "runtime/transport.hpp"

namespace halyard {

class EventLoop;
class Router;

// Envelope.flags bits the runtime uses; transports pass them through untouched.
inline constexpr std::uint32_t kEnvelopeActiveMessage = 1u << 0;
inline constexpr std::uint32_t kEnvelopeAmRendezvousHeader = 1u << 1;
inline constexpr std::uint32_t kEnvelopeAmRendezvousPayload = 1u << 2;
inline constexpr std::uint32_t kEnvelopeAmAny =
    kEnvelopeActiveMessage | kEnvelopeAmRendezvousHeader | kEnvelopeAmRendezvousPayload;
// (1u << 3 is kEnvelopeSynchronous, matching_engine.hpp.) The zero-byte acknowledgement of a
// synchronous send's match; its id bits are the send's. Never matched: PointToPoint takes it.
inline constexpr std::uint32_t kEnvelopeSynchronousAck = 1u << 4;

class PointToPoint final : public EagerMatcher {
 public:
  PointToPoint(EventLoop& loop, Router& router);
  PointToPoint(const PointToPoint&) = delete;
  PointToPoint& operator=(const PointToPoint&) = delete;

  // The handler every transport must be given (set_incoming_handler) before connect().
  IncomingHandler incoming_handler();
  void on_incoming(std::unique_ptr<IncomingMessage> message);
  // EagerMatcher, for every transport (set_eager_matcher): tagged messages only; active
  // messages take the IncomingHandler path.
  bool offer_eager(const Envelope& envelope, const EagerPayload& payload) override;

  // Sends `env.size` bytes to `world_peer` (env.source is filled in). `done` runs from the
  // transport's progress; on failure state it runs from the loop with that failure.
  void send(int world_peer, Envelope env, const void* buffer, Completion done);
  // A synchronous send (MPI_Ssend): `done` runs once the transport has sent the message and
  // the receiver has matched it (its matching engine acknowledges), or with the first failure.
  void send_synchronous(int world_peer, Envelope env, const void* buffer, Completion done);
  // Transport::send_now through the route to `world_peer`: true when the message was handed
  // over whole (no completion will run); false when send() must be used (also on failure
  // state, so that send() reports it).
  bool send_now(int world_peer, Envelope env, const void* buffer);
  // Posts a receive on the matching engine; status.source in `done` is a world rank. Returns
  // its id for MatchingEngine::cancel(), or 0 when it failed at once (failure state: `done`
  // runs from the loop).
  MatchingEngine::ReceiveId receive(std::uint32_t context, int world_source, int tag, void* buffer,
                                    std::size_t capacity, Completion done);

  // Fails every pending operation with `status` and every later one too (a peer failed, or
  // the collective watchdog gave up). `failed_peer` is the world rank that died, -1 when none
  // is known: its transport ends what it was moving for that peer (Transport::peer_failed).
  //
  // No byte after the error: a receive completes (with `status`) only once nothing can write
  // into its buffer any more. Posted receives fail at once; a receive a transport is
  // delivering fails when the transport has finished or cancelled that delivery; only then
  // does the loop fail the requests still pending (EventLoop::fail_all_pending), so a
  // collective's request never completes before the receives it posted.
  void fail(const Status& status, int failed_peer = -1);
  const std::optional<Status>& failure() const noexcept { return failure_; }
  // A transport failed to reach `world_peer`: fail() with kPeerFailed naming it.
  void peer_unreachable(int world_peer, const Status& transport_error);

  std::size_t sends_in_flight() const noexcept { return sends_in_flight_; }

  // Context ids: every id this process used is below next_context(); a new communicator takes
  // the maximum of its members' next_context() and everyone moves past it (see Communicator).
  std::uint32_t next_context() const noexcept { return next_context_; }
  void reserve_contexts_below(std::uint32_t bound);
  // Which creation in flight may propose a context (several threads create communicators).
  ContextProposals& context_proposals() noexcept { return context_proposals_; }

  // Expires when this object is destroyed; communicators check it before touching it.
  std::weak_ptr<const void> lifetime() const noexcept { return lifetime_; }

  int world_rank() const noexcept;
  int world_size() const noexcept;
  EventLoop& loop() noexcept { return loop_; }
  MatchingEngine& matching() noexcept { return matching_; }
  ActiveMessages& active_messages() noexcept { return active_messages_; }

 private:
  struct SendInFlight;
  struct SynchronousSend;

  // The matching engine matched a synchronous sender's message: tell the sender (from the
  // loop, since the match may be inside a transport's progress()).
  void acknowledge_match(const Envelope& env);
  // True when `env` is a synchronous send's acknowledgement, which is then consumed.
  bool take_acknowledgement(const Envelope& env);

  EventLoop& loop_;
  Router& router_;
  MatchingEngine matching_;
  ActiveMessages active_messages_;
  std::optional<Status> failure_;
  std::size_t sends_in_flight_ = 0;
  std::uint32_t next_context_ = 1;  // 0 is the world communicator's
  ContextProposals context_proposals_;
  // Synchronous sends waiting for their acknowledgement, by id (24 bits, wrapping).
  std::unordered_map<std::uint32_t, std::shared_ptr<SynchronousSend>> synchronous_sends_;
  std::uint32_t next_synchronous_id_ = 0;
  std::shared_ptr<const void> lifetime_ = std::make_shared<int>(0);
};

}  // namespace halyard
