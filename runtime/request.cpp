#include "runtime/request.hpp"

#include <atomic>
#include <cstdint>
#include <utility>
#include <vector>

#include "runtime/event_loop.hpp"
#include "runtime/support/pooled.hpp"

namespace halyard {

struct RequestState final : PendingOperation, Pooled<RequestState> {
  explicit RequestState(EventLoop& l) : loop(&l) {}
  ~RequestState() override {
    // Still pending: a handle dropped before completion. With a progress thread the loop may
    // be failing this very state (fail_all_pending), so untrack under the lock.
    if (EventLoop* tracker = tracking_loop()) {
      EventLoop::Access access(*tracker);
      tracker->untrack(*this);
    }
  }

  void fail(const Status& s) override {
    // With a progress thread, the last handle may be dropped on another thread while the loop
    // fails everything pending: a state already on its way out is left to its destructor.
    if (!try_retain()) return;
    Ref self(this, kAdopt);
    finish(s);
  }

  void retain() noexcept { refs.fetch_add(1, std::memory_order_relaxed); }
  bool try_retain() noexcept {
    std::uint32_t n = refs.load(std::memory_order_relaxed);
    while (n != 0) {
      if (refs.compare_exchange_weak(n, n + 1, std::memory_order_acquire)) return true;
    }
    return false;
  }
  void release() noexcept {
    if (refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }

  // Caller holds the loop (its thread, or the lock when a progress thread runs).
  bool finish(Status s) {
    if (done.load(std::memory_order_relaxed)) return false;
    status = std::move(s);
    // Release: a thread that sees done (without the lock) sees the status too.
    done.store(true, std::memory_order_release);
    if (EventLoop* tracker = tracking_loop())
      tracker->untrack(*this);
    else
      loop->count_finished();  // a send's completion is progress too (the watchdog's measure)
    if (has_waiter) loop->lock()->notify_waiters();
    if (!first_callback) return true;
    // Run the callbacks from the loop, never inside complete(): the completer may be holding
    // locks or be in the middle of updating its own state.
    loop->defer([self = Ref(this)] {
      RequestState& state = *self.state;
      Completion first = std::move(state.first_callback);
      std::vector<Completion> more = std::move(state.more_callbacks);
      first(state.status);
      for (const auto& cb : more) cb(state.status);
    });
    return true;
  }

  void add_callback(Completion callback) {
    if (!first_callback)
      first_callback = std::move(callback);
    else
      more_callbacks.push_back(std::move(callback));
  }

  // A reference held by a deferred callback: dropped when the callback is destroyed, whether
  // it ran, threw or was discarded at teardown.
  struct Adopt {};
  static constexpr Adopt kAdopt{};
  struct Ref {
    explicit Ref(RequestState* s) noexcept : state(s) { state->retain(); }
    Ref(RequestState* s, Adopt) noexcept : state(s) {}
    Ref(Ref&& other) noexcept : state(other.state) { other.state = nullptr; }
    Ref(const Ref&) = delete;
    Ref& operator=(const Ref&) = delete;
    Ref& operator=(Ref&&) = delete;
    ~Ref() {
      if (state != nullptr) state->release();
    }
    RequestState* state;
  };

  std::atomic<std::uint32_t> refs{1};
  EventLoop* loop;
  std::atomic<bool> done{false};
  bool has_waiter = false;       // an application thread sleeps in wait() (progress thread only)
  WaitDriver* driver = nullptr;  // make_pending_drained(loop, driver)
  Status status;
  // Most requests get at most one callback: it is kept inline, the rest in the vector.
  Completion first_callback;
  std::vector<Completion> more_callbacks;
};

namespace {
const Status kNullRequestStatus{};
}  // namespace

Request::Request(const Request& other) noexcept : state_(other.state_) {
  if (state_ != nullptr) state_->retain();
}

Request& Request::operator=(const Request& other) noexcept {
  if (other.state_ != nullptr) other.state_->retain();
  if (state_ != nullptr) state_->release();
  state_ = other.state_;
  return *this;
}

Request& Request::operator=(Request&& other) noexcept {
  if (this != &other) {
    if (state_ != nullptr) state_->release();
    state_ = other.state_;
    other.state_ = nullptr;
  }
  return *this;
}

void Request::release() noexcept {
  state_->release();
}

Request Request::make_pending(EventLoop& loop) {
  auto* state = new RequestState(loop);
  EventLoop::Access access(loop);
  loop.track(*state);
  return Request(state);
}

Request Request::make_pending_drained(EventLoop& loop) {
  // Not tracked, so the loop's wholesale failure never reaches it.
  return Request(new RequestState(loop));
}

Request Request::make_pending_drained(EventLoop& loop, WaitDriver& driver) {
  auto* state = new RequestState(loop);
  state->driver = &driver;
  return Request(state);
}

Request Request::make_completed(EventLoop& loop, Status status) {
  auto* state = new RequestState(loop);
  state->status = std::move(status);
  state->done.store(true, std::memory_order_relaxed);
  return Request(state);
}

bool Request::done() const noexcept {
  return state_ == nullptr || state_->done.load(std::memory_order_acquire);
}

const Status& Request::status() const noexcept {
  return state_ == nullptr ? kNullRequestStatus : state_->status;
}

const Status* Request::status_if_done() const noexcept {
  if (state_ == nullptr) return &kNullRequestStatus;
  return state_->done.load(std::memory_order_acquire) ? &state_->status : nullptr;
}

void Request::on_complete(Completion callback) const {
  if (!callback) return;
  if (state_ == nullptr) {
    throw Error(ErrorCode::kInvalidArgument, "Request::on_complete: the request is null");
  }
  EventLoop::Access access(*state_->loop);
  if (!state_->done.load(std::memory_order_relaxed)) {
    state_->add_callback(std::move(callback));
    return;
  }
  // Keep the state alive: the callback must see the status even if every handle is dropped.
  state_->loop->defer(
      [self = RequestState::Ref(state_), cb = std::move(callback)]() { cb(self.state->status); });
}

bool Request::test() const {
  if (done()) return true;
  // Inside a callback the loop is already mid-pass: polling again would re-enter the
  // transports, so test() only looks. A progress thread makes the progress itself.
  EventLoop& loop = *state_->loop;
  if (!loop.driven() && !loop.in_pass()) loop.poll();
  return done();
}

Status Request::wait_pending() const {
  if (done()) return state_->status;
  EventLoop& loop = *state_->loop;
  if (!loop.driven() || loop.in_pass()) {
    if (state_->driver != nullptr && !loop.in_pass()) {
      state_->driver->drive(*this);
      if (done()) return state_->status;
    }
    loop.run_until([this] { return state_->done.load(std::memory_order_relaxed); });
    return state_->status;
  }
  // Progress thread: sleep until finish() notifies this request's waiters.
  EventLoop::Access access(loop);
  state_->has_waiter = true;
  loop.lock()->wait_until([this] { return state_->done.load(std::memory_order_relaxed); }, false);
  return state_->status;
}

Status Request::wait_ok() const {
  if (state_ == nullptr) return {};  // a null request is complete and ok
  Status s = wait();
  s.raise_if_failed();
  return s;
}

bool Request::complete(Status status) const {
  if (state_ == nullptr) {
    throw Error(ErrorCode::kInvalidArgument, "Request::complete: the request is null");
  }
  EventLoop::Access access(*state_->loop);
  return state_->finish(std::move(status));
}

EventLoop* Request::loop() const noexcept {
  return state_ == nullptr ? nullptr : state_->loop;
}

Status wait_all(std::span<const Request> requests) {
  Status first_failure;
  for (const Request& r : requests) {
    Status s = r.wait();
    if (!s.ok() && first_failure.ok()) first_failure = s;
  }
  return first_failure;
}

Request when_all(EventLoop& loop, std::span<const Request> requests) {
  // The joint's count is shared with callbacks that a progress thread runs.
  EventLoop::Access access(loop);
  Request all = Request::make_pending(loop);
  struct Joint {
    std::size_t left;
    Status first_failure;
  };
  auto joint = std::make_shared<Joint>(Joint{requests.size() + 1, Status{}});
  auto arrive = [joint, all](const Status& s) {
    if (!s.ok() && joint->first_failure.ok()) joint->first_failure = s;
    if (--joint->left == 0) all.complete(joint->first_failure);
  };
  for (const Request& r : requests) {
    if (r.valid())
      r.on_complete(arrive);
    else
      arrive(Status{});
  }
  // The extra count keeps `all` pending until every callback is attached.
  arrive(Status{});
  return all;
}

}  // namespace halyard
