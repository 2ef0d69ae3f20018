#include "runtime/point_to_point.hpp"

#include <algorithm>
#include <string>

#include "runtime/event_loop.hpp"
#include "runtime/log.hpp"
#include "runtime/router.hpp"

namespace halyard {

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
}

IncomingHandler PointToPoint::incoming_handler() {
  return [this](std::unique_ptr<IncomingMessage> message) { on_incoming(std::move(message)); };
}

void PointToPoint::on_incoming(std::unique_ptr<IncomingMessage> message) {
  if ((message->envelope().flags & kEnvelopeAmAny) != 0) {
    active_messages_.arrive(std::move(message));
  } else {
    matching_.arrive(std::move(message));
  }
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
  ++sends_in_flight_;
  try {
    transport.send(world_peer, env, buffer,
                   [this, world_peer, done = std::move(done)](const Status& s) {
                     --sends_in_flight_;
                     if (s.code == ErrorCode::kTransport) peer_unreachable(world_peer, s);
                     if (done) done(s);
                   });
  } catch (...) {
    --sends_in_flight_;  // never started: finalize must not wait for it
    throw;
  }
}

void PointToPoint::receive(std::uint32_t context, int world_source, int tag, void* buffer,
                           std::size_t capacity, Completion done) {
  if (failure_) {
    loop_.defer([done = std::move(done), s = *failure_] { done(s); });
    return;
  }
  matching_.post(context, world_source, tag, buffer, capacity, std::move(done));
}

void PointToPoint::fail(const Status& status) {
  if (failure_) return;
  failure_ = status;
  log::error("{}", status.message);
  matching_.fail_all(status);
  loop_.fail_all_pending(status);
}

void PointToPoint::peer_unreachable(int world_peer, const Status& transport_error) {
  // Detection from the data plane, for when the transport notices before hlaunch's notice
  // arrives: a send the transport could not deliver means the peer is gone or cut off, and
  // the job cannot go on without it.
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
