#include "runtime/matching_engine.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "runtime/event_loop.hpp"

namespace halyard {

bool MatchingEngine::matches(const PostedReceive& r, const Envelope& e) {
  if (r.source != kAnySource && r.source != e.source) return false;
  if (r.tag == kAnyTag) return is_user_tag(e.tag);
  return r.tag == e.tag;
}

// One matched message on its way into a receive buffer. A single allocation holds everything
// the delivery needs, so the transport's completion captures one pointer and fits in
// std::function's inline storage (no allocation for the completion, none for a shared_ptr).
// The cost: a transport that drops a completion unrun (only at teardown) leaks its Delivery.
struct MatchingEngine::Delivery {
  MatchingEngine* engine;
  EventLoop* loop;
  std::unique_ptr<IncomingMessage> message;
  Envelope env;
  std::size_t capacity;
  Completion done;
};

void MatchingEngine::deliver(std::unique_ptr<IncomingMessage> message, PostedReceive receive) {
  auto* d =
      new Delivery{this, &loop_, std::move(message), {}, receive.capacity, std::move(receive.done)};
  d->env = d->message->envelope();
  auto completion = [d](const Status& transport_status) {
    Status s = transport_status;
    s.source = d->env.source;
    s.tag = d->env.tag;
    s.bytes = std::min<std::uint64_t>(d->env.size, d->capacity);
    if (s.code == ErrorCode::kTruncated) {
      s.message = "message of " + std::to_string(d->env.size) + " bytes (tag " +
                  std::to_string(d->env.tag) + ") truncated to the receive buffer of " +
                  std::to_string(d->capacity) + " bytes";
    }
    // The message stays alive until its completion has run, and is released from the loop,
    // not here: the transport may be running a std::function stored in the message itself
    // (see delivery_guard.hpp). Handing it to the loop before running `done` also keeps that
    // true when `done` throws.
    if (s.code == ErrorCode::kTransport && d->engine->delivery_failure_) {
      d->engine->delivery_failure_(d->env.source, s);
    }
    Completion done = std::move(d->done);
    d->loop->defer([released = std::unique_ptr<Delivery>(d)] {});
    done(s);
  };
  try {
    d->message->deliver(receive.buffer, receive.capacity, completion);
  } catch (...) {
    delete d;  // the transport refused the delivery, so the completion will never run
    throw;
  }
}

MatchingEngine::ReceiveId MatchingEngine::post(std::uint32_t context, int source, int tag,
                                               void* buffer, std::size_t capacity,
                                               Completion done) {
  ReceiveId id = next_id_++;
  PostedReceive receive{id, source, tag, buffer, capacity, std::move(done)};
  ContextQueues& q = contexts_[context];
  for (auto it = q.unexpected.begin(); it != q.unexpected.end(); ++it) {
    if (!matches(receive, (*it)->envelope())) continue;
    std::unique_ptr<IncomingMessage> message = std::move(*it);
    q.unexpected.erase(it);
    deliver(std::move(message), std::move(receive));
    return id;
  }
  q.posted.push_back(std::move(receive));
  ++posted_count_;
  return id;
}

void MatchingEngine::arrive(std::unique_ptr<IncomingMessage> message) {
  const Envelope& env = message->envelope();
  ContextQueues& q = contexts_[env.context];
  for (auto it = q.posted.begin(); it != q.posted.end(); ++it) {
    if (!matches(*it, env)) continue;
    PostedReceive receive = std::move(*it);
    q.posted.erase(it);
    --posted_count_;
    if (message->deliverable_while_announced()) {
      // The transport allows it: copy straight into the posted buffer now instead of paying
      // a deferred pass (and, for shm, a copy of the payload out of the ring).
      deliver(std::move(message), std::move(receive));
      return;
    }
    // We are inside the transport's progress(): deliver from the loop instead.
    loop_.defer([this, m = std::move(message), r = std::move(receive)]() mutable {
      deliver(std::move(m), std::move(r));
    });
    return;
  }
  q.unexpected.push_back(std::move(message));
}

bool MatchingEngine::cancel(ReceiveId id) {
  for (auto& [context, q] : contexts_) {
    auto it = std::find_if(q.posted.begin(), q.posted.end(),
                           [id](const PostedReceive& r) { return r.id == id; });
    if (it == q.posted.end()) continue;
    q.posted.erase(it);
    --posted_count_;
    return true;
  }
  return false;
}

void MatchingEngine::fail_all(const Status& status) {
  // Move them all out first: a failure callback may post new receives.
  std::vector<PostedReceive> failed;
  for (auto& [context, q] : contexts_) {
    for (auto& r : q.posted) failed.push_back(std::move(r));
    q.posted.clear();
  }
  posted_count_ = 0;
  for (auto& r : failed) r.done(status);
}

std::size_t MatchingEngine::posted_count() const {
  return posted_count_;
}

std::vector<int> MatchingEngine::posted_sources() const {
  std::vector<int> sources;
  for (const auto& [context, q] : contexts_) {
    for (const auto& r : q.posted) sources.push_back(r.source);
  }
  return sources;
}

std::size_t MatchingEngine::unexpected_count() const {
  std::size_t n = 0;
  for (const auto& [context, q] : contexts_) n += q.unexpected.size();
  return n;
}

std::size_t MatchingEngine::unexpected_count(std::uint32_t context) const {
  auto it = contexts_.find(context);
  return it == contexts_.end() ? 0 : it->second.unexpected.size();
}

}  // namespace halyard
