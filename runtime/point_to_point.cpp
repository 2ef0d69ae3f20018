#include "runtime/point_to_point.hpp"

#include <algorithm>
#include <string>

#include "runtime/event_loop.hpp"
#include "runtime/router.hpp"
#include "runtime/support/log.hpp"
#include "runtime/support/pooled.hpp"

namespace halyard {

struct PointToPoint::SendInFlight : Pooled<SendInFlight> {
  SendInFlight(PointToPoint* p, int world_peer, Completion d)
      : p2p(p), peer(world_peer), done(std::move(d)) {}
  PointToPoint* p2p;
  int peer;
  Completion done;
};

// A synchronous send completes when both its transport send and the receiver's acknowledgement
// are in, or at the first failure.
struct PointToPoint::SynchronousSend {
  Completion done;
  int outstanding = 2;
  void finish(const Status& s) {
    if (!done) return;
    if (!s.ok() || --outstanding == 0) {
      Completion run = std::move(done);
      done = nullptr;
      run(s);
    }
  }
};

PointToPoint::PointToPoint(EventLoop& loop, Router& router)
    : loop_(loop),
      router_(router),
      matching_(loop),
      active_messages_(
          loop,
          [this](int peer, const Envelope& env, const void* buffer, Completion done) {
            send(peer, env, buffer, std::move(done));
          },
          ActiveMessages::eager_limit_from_environment()) {
  matching_.on_delivery_failure(
      [this](int world_source, const Status& s) { peer_unreachable(world_source, s); });
  matching_.on_synchronous_match([this](const Envelope& env) { acknowledge_match(env); });
}

IncomingHandler PointToPoint::incoming_handler() {
  return [this](std::unique_ptr<IncomingMessage> message) { on_incoming(std::move(message)); };
}

void PointToPoint::on_incoming(std::unique_ptr<IncomingMessage> message) {
  if (take_acknowledgement(message->envelope())) return;
  if ((message->envelope().flags & kEnvelopeAmAny) != 0) {
    active_messages_.arrive(std::move(message));
  } else {
    matching_.arrive(std::move(message));
  }
}

bool PointToPoint::offer_eager(const Envelope& envelope, const EagerPayload& payload) {
  if ((envelope.flags & kEnvelopeAmAny) != 0) return false;
  return take_acknowledgement(envelope) || matching_.take_eager(envelope, payload);
}

void PointToPoint::send_synchronous(int world_peer, Envelope env, const void* buffer,
                                    Completion done) {
  const std::uint32_t id = next_synchronous_id_;
  next_synchronous_id_ = (next_synchronous_id_ + 1) & (~0u >> kSynchronousIdShift);
  auto pending = std::make_shared<SynchronousSend>();
  pending->done = std::move(done);
  synchronous_sends_[id] = pending;
  env.flags |= kEnvelopeSynchronous | (id << kSynchronousIdShift);
  send(world_peer, env, buffer, [this, pending, id](const Status& s) {
    if (!s.ok()) synchronous_sends_.erase(id);  // no acknowledgement will come
    pending->finish(s);
  });
}

void PointToPoint::acknowledge_match(const Envelope& env) {
  Envelope ack;
  ack.context = env.context;
  ack.flags = kEnvelopeSynchronousAck | (env.flags & ~((1u << kSynchronousIdShift) - 1));
  const int sender = env.source;
  loop_.defer([this, ack, sender] { send(sender, ack, nullptr, {}); });
}

bool PointToPoint::take_acknowledgement(const Envelope& env) {
  if ((env.flags & kEnvelopeSynchronousAck) == 0) [[likely]]
    return false;
  auto it = synchronous_sends_.find(env.flags >> kSynchronousIdShift);
  if (it != synchronous_sends_.end()) {
    std::shared_ptr<SynchronousSend> pending = std::move(it->second);
    synchronous_sends_.erase(it);
    pending->finish(Status{});
  }
  return true;
}

void PointToPoint::send(int world_peer, Envelope env, const void* buffer, Completion done) {
  if (failure_) {
    loop_.defer([done = std::move(done), s = *failure_] {
      if (done) done(s);
    });
    return;
  }
  env.source = world_rank();
  Transport& transport = router_.route(world_peer);
  // The caller's completion waits in a pooled holder, so the transport's completion captures
  // one pointer and fits inline (no allocation per send). A transport that drops a completion
  // unrun (only at teardown) leaks its holder.
  auto* in_flight = new SendInFlight{this, world_peer, std::move(done)};
  ++sends_in_flight_;
  try {
    transport.send(world_peer, env, buffer, [in_flight](const Status& s) {
      std::unique_ptr<SendInFlight> owned(in_flight);
      PointToPoint& self = *owned->p2p;
      --self.sends_in_flight_;
      if (s.code == ErrorCode::kTransport) self.peer_unreachable(owned->peer, s);
      // A send pending when the process failed reports the failure, as receives do.
      if (owned->done) owned->done(self.failure_ ? *self.failure_ : s);
    });
  } catch (...) {
    --sends_in_flight_;  // never started: finalize must not wait for it
    delete in_flight;
    throw;
  }
}

bool PointToPoint::send_now(int world_peer, Envelope env, const void* buffer) {
  if (failure_) return false;
  env.source = world_rank();
  return router_.route(world_peer).send_now(world_peer, env, buffer);
}

MatchingEngine::ReceiveId PointToPoint::receive(std::uint32_t context, int world_source, int tag,
                                                void* buffer, std::size_t capacity,
                                                Completion done) {
  if (failure_) {
    loop_.defer([done = std::move(done), s = *failure_] { done(s); });
    return 0;
  }
  return matching_.post(context, world_source, tag, buffer, capacity, std::move(done));
}

void PointToPoint::fail(const Status& status, int failed_peer) {
  const bool first = !failure_;
  if (first) {
    failure_ = status;
    log::error("{}", status.message);
    matching_.fail_all(status, [this, status] { loop_.fail_all_pending(status); });
    // Sends are not among what fail_all_pending() completes (Communicator::start_send): each
    // completes through its transport once no receiver can read its buffer any more.
    for (const auto& transport : router_.transports()) transport->withdraw_sends();
  }
  // A second dead peer (or the notice after the transport noticed) ends its transfers too.
  if (failed_peer >= 0 && failed_peer < world_size() && failed_peer != world_rank()) {
    router_.route(failed_peer).peer_failed(failed_peer);
  }
}

void PointToPoint::peer_unreachable(int world_peer, const Status& transport_error) {
  // Detection from the data plane, for when the transport notices before hlaunch's notice
  // arrives: a send the transport could not deliver means the peer is gone or cut off, and
  // the job cannot go on without it. Not proof that its process is gone, so its transport
  // keeps its transfers until hlaunch's notice says so (fail() with the rank).
  fail(Status::failure(ErrorCode::kPeerFailed, "peer failed: rank " + std::to_string(world_peer) +
                                                   " is unreachable (" + transport_error.message +
                                                   ")"));
}

void PointToPoint::reserve_contexts_below(std::uint32_t bound) {
  next_context_ = std::max(next_context_, bound);
}

int PointToPoint::world_rank() const noexcept {
  return router_.world_rank();
}
int PointToPoint::world_size() const noexcept {
  return router_.world_size();
}

}  // namespace halyard
