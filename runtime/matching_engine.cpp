#include "runtime/matching_engine.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/event_loop.hpp"
#include "runtime/support/pooled.hpp"

namespace halyard {

bool MatchingEngine::matches(int source, int tag, const Envelope& e) {
  if (source != kAnySource && source != e.source) return false;
  if (tag == kAnyTag) return is_user_tag(e.tag);
  return tag == e.tag;
}

bool MatchingEngine::matches(const PostedReceive& r, const Envelope& e) {
  return matches(r.source, r.tag, e);
}

// One matched message on its way into a receive buffer. A single allocation holds everything
// the delivery needs, drawn from a per-thread pool, so the transport's completion captures one
// pointer and fits in Completion's inline storage (no allocation per delivery).
// The cost: a transport that drops a completion unrun (only at teardown) leaks its Delivery.
struct MatchingEngine::Delivery : Pooled<Delivery> {
  MatchingEngine* engine = nullptr;
  EventLoop* loop = nullptr;
  std::unique_ptr<IncomingMessage> message;
  Envelope env;
  std::size_t capacity = 0;
  Completion done;
};

Status MatchingEngine::receive_status(const Status& transport_status, const Envelope& env,
                                      std::size_t capacity) {
  Status s = transport_status;
  s.source = env.source;
  s.tag = env.tag;
  s.bytes = std::min<std::uint64_t>(env.size, capacity);
  if (s.code == ErrorCode::kTruncated) {
    s.message = "message of " + std::to_string(env.size) + " bytes (tag " +
                std::to_string(env.tag) + ") truncated to the receive buffer of " +
                std::to_string(capacity) + " bytes";
  }
  return s;
}

void MatchingEngine::deliver(std::unique_ptr<IncomingMessage> message, PostedReceive receive) {
  if (failure_) {
    // Matched before the failure, not started: the buffer stays as it is, and the sender
    // stops waiting for a read.
    message->decline();
    receive.done(*failure_);
    return;
  }
  if (std::optional<Status> now = message->deliver_now(receive.buffer, receive.capacity)) {
    // The small-message path: no Delivery, no deferred pass, no completion queued.
    Status s = receive_status(*now, message->envelope(), receive.capacity);
    message.reset();
    receive.done(s);
    return;
  }
  auto* d = new Delivery;
  d->engine = this;
  d->loop = &loop_;
  d->message = std::move(message);
  d->env = d->message->envelope();
  d->capacity = receive.capacity;
  d->done = std::move(receive.done);
  ++deliveries_in_flight_;
  auto completion = [d](const Status& transport_status) {
    Status s = receive_status(transport_status, d->env, d->capacity);
    // The message stays alive until its completion has run, and is released from the loop,
    // not here: the transport may be running a std::function stored in the message itself
    // (see delivery_guard.hpp). Handing it to the loop before running `done` also keeps that
    // true when `done` throws.
    if (s.code == ErrorCode::kTransport && d->engine->delivery_failure_) {
      d->engine->delivery_failure_(d->env.source, s);
    }
    MatchingEngine& engine = *d->engine;
    // A receive pending when the process failed reports the failure, whatever the transport
    // made of it: every pending operation fails alike (docs/reliability.md).
    if (engine.failure_) s = *engine.failure_;
    Completion done = std::move(d->done);
    d->loop->defer([released = std::unique_ptr<Delivery>(d)] {});
    // Before `done`, which may throw; `drained` runs from the loop, so after `done` anyway.
    engine.delivery_ended();
    done(s);
  };
  try {
    d->message->deliver(receive.buffer, receive.capacity, completion);
  } catch (...) {
    delete d;  // the transport refused the delivery, so the completion will never run
    delivery_ended();
    throw;
  }
}

void MatchingEngine::delivery_ended() {
  if (--deliveries_in_flight_ > 0 || !drained_) return;
  // From the loop: we may be inside a transport's progress().
  loop_.defer([drained = std::move(drained_)] { drained(); });
  drained_ = nullptr;
}

MatchingEngine::ReceiveId MatchingEngine::post(std::uint32_t context, int source, int tag,
                                               void* buffer, std::size_t capacity,
                                               Completion done) {
  ReceiveId id = next_id_++;
  PostedReceive receive{id, source, tag, buffer, capacity, std::move(done)};
  ContextQueues& q = queues(context);
  if (!q.unexpected.empty()) {
    auto it = find_unexpected(q, source, tag);
    if (it != q.unexpected.end()) {
      std::unique_ptr<IncomingMessage> message = std::move(*it);
      q.unexpected.erase(it);
      matched(message->envelope());
      deliver(std::move(message), std::move(receive));
      return id;
    }
  }
  q.posted.push_back(std::move(receive));
  ++posted_count_;
  return id;
}

void MatchingEngine::forget_context(std::uint32_t context) {
  auto it = contexts_.find(context);
  if (it == contexts_.end() || !it->second.posted.empty() || !it->second.unexpected.empty()) return;
  if (last_queues_ == &it->second) last_queues_ = nullptr;
  contexts_.erase(it);
}

MatchingEngine::ContextQueues& MatchingEngine::remember_queues(std::uint32_t context) {
  last_queues_ = &contexts_[context];  // map nodes never move, so the pointer stays valid
  last_context_ = context;
  return *last_queues_;
}

void MatchingEngine::arrive(std::unique_ptr<IncomingMessage> message) {
  if (failure_) {
    message->decline();  // no receive can match it any more
    return;
  }
  const Envelope& env = message->envelope();
  ContextQueues& q = queues(env.context);
  for (auto it = q.posted.begin(); it != q.posted.end(); ++it) {
    if (!matches(*it, env)) continue;
    PostedReceive receive = std::move(*it);
    if (it == q.posted.begin())
      q.posted.pop_front();  // the common case, and much cheaper than erase()
    else
      q.posted.erase(it);
    --posted_count_;
    matched(env);
    if (message->deliverable_while_announced()) {
      // The transport allows it: copy straight into the posted buffer now instead of paying
      // a deferred pass (and, for shm, a copy of the payload out of the ring).
      deliver(std::move(message), std::move(receive));
      return;
    }
    // We are inside the transport's progress(): deliver from the loop instead. Until then it
    // counts as in flight: the receive is no longer posted, so fail_all() does not see it.
    ++deliveries_in_flight_;
    loop_.defer([this, m = std::move(message), r = std::move(receive)]() mutable {
      struct Ended {
        MatchingEngine& engine;
        ~Ended() { engine.delivery_ended(); }
      } ended{*this};
      deliver(std::move(m), std::move(r));
    });
    return;
  }
  q.unexpected.push_back(std::move(message));
}

bool MatchingEngine::take_eager(const Envelope& env, const EagerPayload& payload) {
  ContextQueues& q = queues(env.context);
  for (auto it = q.posted.begin(); it != q.posted.end(); ++it) {
    if (!matches(*it, env)) continue;
    matched(env);
    const std::size_t n = std::min<std::uint64_t>(env.size, it->capacity);
    if (n > 0) payload.copy_to(it->buffer, n);
    Status s;
    if (n < env.size) {
      Status truncated;
      truncated.code = ErrorCode::kTruncated;
      s = receive_status(truncated, env, it->capacity);
    } else {
      s.source = env.source;
      s.tag = env.tag;
      s.bytes = n;
    }
    --posted_count_;
    if (it == q.posted.begin()) {
      // The common case: run `done` where it lies, then drop the entry (also if it throws).
      // Safe because a completion run from here only records the outcome (see post()): it
      // neither posts nor cancels receives.
      struct PopFront {
        std::deque<PostedReceive>& posted;
        ~PopFront() { posted.pop_front(); }
      } pop{q.posted};
      it->done(s);
      return true;
    }
    Completion done = std::move(it->done);
    q.posted.erase(it);
    done(s);
    return true;
  }
  return false;
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

std::deque<std::unique_ptr<IncomingMessage>>::iterator MatchingEngine::find_unexpected(
    ContextQueues& q, int source, int tag) {
  return std::find_if(q.unexpected.begin(), q.unexpected.end(),
                      [&](const auto& m) { return matches(source, tag, m->envelope()); });
}

std::optional<Envelope> MatchingEngine::peek(std::uint32_t context, int source, int tag) {
  ContextQueues& q = queues(context);
  auto it = find_unexpected(q, source, tag);
  if (it == q.unexpected.end()) return std::nullopt;
  return (*it)->envelope();
}

std::unique_ptr<IncomingMessage> MatchingEngine::take(std::uint32_t context, int source, int tag) {
  ContextQueues& q = queues(context);
  auto it = find_unexpected(q, source, tag);
  if (it == q.unexpected.end()) return nullptr;
  std::unique_ptr<IncomingMessage> message = std::move(*it);
  q.unexpected.erase(it);
  matched(message->envelope());
  return message;
}

void MatchingEngine::deliver_taken(std::unique_ptr<IncomingMessage> message, void* buffer,
                                   std::size_t capacity, Completion done) {
  const Envelope& env = message->envelope();
  deliver(std::move(message),
          PostedReceive{0, env.source, env.tag, buffer, capacity, std::move(done)});
}

std::size_t MatchingEngine::cancel_unmatched(std::uint32_t context, int tag, const Status& status) {
  auto it = contexts_.find(context);
  if (it == contexts_.end()) return 0;
  std::deque<PostedReceive>& posted = it->second.posted;
  std::vector<PostedReceive> withdrawn;
  for (auto r = posted.begin(); r != posted.end();) {
    if (r->tag != tag) {
      ++r;
      continue;
    }
    withdrawn.push_back(std::move(*r));
    r = posted.erase(r);
  }
  posted_count_ -= withdrawn.size();
  for (PostedReceive& r : withdrawn) r.done(status);
  return withdrawn.size();
}

void MatchingEngine::fail_all(const Status& status, std::function<void()> drained) {
  if (failure_) return;
  failure_ = status;
  // Move them all out first: a failure callback may post new receives.
  std::vector<PostedReceive> failed;
  for (auto& [context, q] : contexts_) {
    for (auto& r : q.posted) failed.push_back(std::move(r));
    q.posted.clear();
  }
  posted_count_ = 0;
  for (auto& r : failed) r.done(status);
  // No receive can match what waits unexpected any more: its senders stop waiting for reads.
  for (auto& [context, q] : contexts_) {
    for (auto& message : q.unexpected) message->decline();
    q.unexpected.clear();
  }
  if (!drained) return;
  if (deliveries_in_flight_ == 0)
    drained();
  else
    drained_ = std::move(drained);
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

std::size_t MatchingEngine::posted_count(std::uint32_t context) const {
  auto it = contexts_.find(context);
  return it == contexts_.end() ? 0 : it->second.posted.size();
}

std::size_t MatchingEngine::unexpected_count(std::uint32_t context) const {
  auto it = contexts_.find(context);
  return it == contexts_.end() ? 0 : it->second.unexpected.size();
}

}  // namespace halyard
