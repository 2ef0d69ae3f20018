// A transport between "ranks" that are threads of one test process, for the runtime's unit
// tests: the same contract as ofi/shm (arrivals announced from progress(), receiver-driven
// delivery) without any network.
//
// Messages up to kEagerLimit are copied at send(); larger ones stay in the sender's buffer
// until the receiver calls deliver(), like a rendezvous, and the sender completes only then.
// Each rank's endpoint has a mailbox (mutex + eventfd), so a rank asleep in its event loop
// wakes when a peer posts to it.
#pragma once

#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "runtime/transport.hpp"

namespace halyard::testing {

class InProcessFabric {
 public:
  static constexpr std::size_t kEagerLimit = 1024;

  explicit InProcessFabric(int size) {
    for (int r = 0; r < size; ++r) boxes_.push_back(std::make_shared<Mailbox>());
  }

  std::unique_ptr<Transport> make_endpoint(int rank);

  // How many deliveries went straight from a sender's buffer (the rendezvous path).
  int rendezvous_deliveries() const { return rendezvous_deliveries_.load(); }

 private:
  struct Mailbox {
    Mailbox() : event_fd(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {}
    ~Mailbox() { ::close(event_fd); }
    void post(std::function<void()> work) {
      {
        std::lock_guard lock(mutex);
        queue.push_back(std::move(work));
      }
      std::uint64_t one = 1;
      [[maybe_unused]] auto n = ::write(event_fd, &one, sizeof(one));
    }
    std::mutex mutex;
    std::deque<std::function<void()>> queue;  // arrivals and completions, in post order
    int event_fd;
    IncomingHandler handler;
  };

  class Message;
  class MessageHandle;
  class Endpoint;

  std::vector<std::shared_ptr<Mailbox>> boxes_;
  std::atomic<int> rendezvous_deliveries_{0};
};

class InProcessFabric::Message final : public IncomingMessage {
 public:
  Message(InProcessFabric& fabric, const Envelope& env, const void* buf,
          std::shared_ptr<Mailbox> sender, std::shared_ptr<Mailbox> receiver,
          Completion sender_done)
      : IncomingMessage(env),
        fabric_(fabric),
        sender_(std::move(sender)),
        receiver_(std::move(receiver)) {
    if (env.size <= kEagerLimit) {
      const auto* p = static_cast<const std::byte*>(buf);
      copy_.assign(p, p + env.size);
      source_ = copy_.data();
      sender_->post([done = std::move(sender_done)] { done(Status{}); });
    } else {
      source_ = buf;
      sender_done_ = std::move(sender_done);
    }
  }

  void deliver(void* dst, std::size_t capacity, Completion done) override {
    const std::size_t size = envelope().size;
    const std::size_t n = std::min(size, capacity);
    if (n > 0) std::memcpy(dst, source_, n);
    if (sender_done_) {
      fabric_.rendezvous_deliveries_.fetch_add(1);
      sender_->post([d = std::move(sender_done_)] { d(Status{}); });
    }
    Status status;
    if (capacity < size) status = Status::failure(ErrorCode::kTruncated, "truncated");
    status.bytes = n;
    receiver_->post([d = std::move(done), status] { d(status); });
  }

 private:
  InProcessFabric& fabric_;
  std::shared_ptr<Mailbox> sender_;
  std::shared_ptr<Mailbox> receiver_;
  std::vector<std::byte> copy_;
  const void* source_ = nullptr;
  Completion sender_done_;
};

// The arrival handed to the runtime: a unique owner that forwards to the shared Message (the
// mailbox queue holds copyable closures only).
class InProcessFabric::MessageHandle final : public IncomingMessage {
 public:
  explicit MessageHandle(std::shared_ptr<Message> m)
      : IncomingMessage(m->envelope()), m_(std::move(m)) {}
  void deliver(void* dst, std::size_t capacity, Completion done) override {
    m_->deliver(dst, capacity, std::move(done));
  }

 private:
  std::shared_ptr<Message> m_;
};

class InProcessFabric::Endpoint final : public Transport {
 public:
  Endpoint(InProcessFabric& fabric, int rank)
      : fabric_(fabric), box_(fabric.boxes_.at(static_cast<std::size_t>(rank))) {}

  std::string_view name() const override { return "in-process"; }
  void publish(BootstrapClient&) override {}
  void connect(BootstrapClient&, const TopologyTable&) override {}
  // Read only on this rank's thread (from progress()), so no lock is needed.
  void set_incoming_handler(IncomingHandler handler) override {
    box_->handler = std::move(handler);
  }

  void send(int peer, const Envelope& env, const void* buf, Completion done) override {
    auto receiver = fabric_.boxes_.at(static_cast<std::size_t>(peer));
    auto message = std::make_shared<Message>(fabric_, env, buf, box_, receiver, std::move(done));
    Mailbox* target = receiver.get();
    receiver->post([target, message] {
      target->handler(std::unique_ptr<IncomingMessage>(new MessageHandle(message)));
    });
  }

  int progress() override {
    std::deque<std::function<void()>> work;
    {
      std::lock_guard lock(box_->mutex);
      work.swap(box_->queue);
    }
    for (auto& w : work) w();
    return static_cast<int>(work.size());
  }

  int wait_fd() override { return box_->event_fd; }
  bool prepare_to_block() override {
    std::uint64_t count = 0;
    [[maybe_unused]] auto n = ::read(box_->event_fd, &count, sizeof(count));
    std::lock_guard lock(box_->mutex);
    return box_->queue.empty();
  }

 private:
  InProcessFabric& fabric_;
  std::shared_ptr<Mailbox> box_;
};

inline std::unique_ptr<Transport> InProcessFabric::make_endpoint(int rank) {
  return std::make_unique<Endpoint>(*this, rank);
}

}  // namespace halyard::testing
