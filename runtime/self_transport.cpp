#include "runtime/self_transport.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "runtime/support/copy_bytes.hpp"

namespace halyard {

class SelfTransport::Message final : public IncomingMessage {
 public:
  Message(SelfTransport& owner, const Envelope& env, const void* buf, Completion sender_done)
      : IncomingMessage(env), owner_(owner) {
    if (env.size <= kEagerLimit) {
      const auto* bytes = static_cast<const std::byte*>(buf);
      copy_.assign(bytes, bytes + env.size);
      source_ = copy_.data();
      owner_.complete_later(std::move(sender_done), Status{});
    } else {
      source_ = buf;
      sender_done_ = std::make_shared<Completion>(std::move(sender_done));
      owner_.hold(sender_done_);
    }
  }

  // deliver() only copies and queues completions for a later progress(), so it is safe
  // inside the handler that announces the message.
  bool deliverable_while_announced() const override { return true; }

  void deliver(void* dst, std::size_t capacity, Completion done) override {
    const std::size_t size = envelope().size;
    const std::size_t n = std::min(size, capacity);
    if (n > 0) copy_bytes(dst, source_, n);
    Status status;
    status.bytes = n;
    if (capacity < size) {
      status = Status::failure(ErrorCode::kTruncated, "message of " + std::to_string(size) +
                                                          " bytes truncated to " +
                                                          std::to_string(capacity) + " bytes");
      status.bytes = n;
    }
    // The sender's side completes with success even when the receiver truncated.
    if (sender_done_ && *sender_done_) owner_.complete_later(std::move(*sender_done_), Status{});
    owner_.complete_later(std::move(done), std::move(status));
  }

 private:
  SelfTransport& owner_;
  std::vector<std::byte> copy_;
  const void* source_ = nullptr;
  std::shared_ptr<Completion> sender_done_;  // large messages only (see held_sends_)
};

void SelfTransport::hold(const std::shared_ptr<Completion>& sender_done) {
  if (held_sends_.size() >= prune_held_at_) {
    std::erase_if(held_sends_, [](const std::weak_ptr<Completion>& h) { return h.expired(); });
    prune_held_at_ = std::max<std::size_t>(64, 2 * held_sends_.size());
  }
  held_sends_.push_back(sender_done);
}

void SelfTransport::withdraw_sends() {
  for (const std::weak_ptr<Completion>& held : held_sends_) {
    std::shared_ptr<Completion> done = held.lock();
    if (done && *done) {
      complete_later(
          std::move(*done),
          Status::failure(ErrorCode::kCancelled, "self: send withdrawn after the process failed"));
    }
  }
  held_sends_.clear();
}

void SelfTransport::send(int peer, const Envelope& env, const void* buf, Completion done) {
  if (peer != rank_) {
    throw Error(ErrorCode::kInternal, "self transport asked to send to rank " +
                                          std::to_string(peer) + ", it serves rank " +
                                          std::to_string(rank_) + " only");
  }
  arrivals_.push_back(std::make_unique<Message>(*this, env, buf, std::move(done)));
  has_work_.store(true, std::memory_order_relaxed);
}

void SelfTransport::complete_later(Completion done, Status status) {
  if (done) completions_.push_back({std::move(done), std::move(status)});
  has_work_.store(true, std::memory_order_relaxed);
}

int SelfTransport::progress() {
  // Every pass of every rank's loop comes here, nearly always to find nothing: empty() compares
  // two pointers where a deque's size() computes a distance across its blocks.
  if (completions_.empty() && arrivals_.empty()) return 0;
  // Take only what is queued now; what these calls queue waits for the next pass.
  std::size_t completions = completions_.size();
  std::size_t arrivals = arrivals_.size();
  int events = 0;
  for (std::size_t i = 0; i < completions; ++i) {
    PendingCompletion c = std::move(completions_.front());
    completions_.pop_front();
    c.done(c.status);
    ++events;
  }
  for (std::size_t i = 0; i < arrivals; ++i) {
    std::unique_ptr<IncomingMessage> m = std::move(arrivals_.front());
    arrivals_.pop_front();
    handler_(std::move(m));
    ++events;
  }
  has_work_.store(!completions_.empty() || !arrivals_.empty(), std::memory_order_relaxed);
  return events;
}

}  // namespace halyard
