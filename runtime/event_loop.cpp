#include "runtime/event_loop.hpp"

#include <poll.h>
#include <sched.h>

#include <algorithm>

#include "runtime/request.hpp"
#include "runtime/sleep_on_fds.hpp"
#include "runtime/support/config.hpp"
#include "runtime/transport.hpp"

namespace halyard {

// Transport has the same progress/wait shape as CompletionSource but is a separate contract
// (transports must not depend on the loop), so the loop adapts it.
class EventLoop::TransportSource final : public CompletionSource {
 public:
  explicit TransportSource(Transport& t) : transport_(t) {}
  int progress() override { return transport_.progress(); }
  int wait_fd() override { return transport_.wait_fd(); }
  bool prepare_to_block() override { return transport_.prepare_to_block(); }
  const std::atomic<bool>* work_flag() override { return transport_.work_flag(); }

 private:
  Transport& transport_;
};

WaitPolicy wait_policy_from_environment() {
  std::string v = config::env_choice("HALYARD_WAIT", {"spin", "yield", "block"}, "block");
  if (v == "spin") return WaitPolicy::kSpin;
  if (v == "yield") return WaitPolicy::kYield;
  return WaitPolicy::kBlock;
}

std::chrono::microseconds busy_poll_from_environment(int ranks_on_host, long host_cpus) {
  std::int64_t budget = config::env_int("HALYARD_WAIT_SPIN_US", 1000);
  if (budget < 0) {
    throw Error(ErrorCode::kInvalidArgument,
                "HALYARD_WAIT_SPIN_US=" + std::to_string(budget) + ": must be at least 0");
  }
  if (host_cpus > 0 && ranks_on_host > host_cpus) return std::chrono::microseconds{0};
  return std::chrono::microseconds{budget};
}

EventLoop::EventLoop() : EventLoop(wait_policy_from_environment()) {}

EventLoop::EventLoop(WaitPolicy policy) : policy_(policy) {}

EventLoop::~EventLoop() {
  // Requests may outlive the loop (a handle kept by the application); detach them so their
  // destructors do not touch a dead loop.
  while (pending_head_ != nullptr) untrack(*pending_head_);
}

EventLoop::SourceId EventLoop::add_source(CompletionSource& source) {
  Access access(*this);
  SourceId id = next_source_id_++;
  sources_.push_back({id, &source, nullptr, source.work_flag()});
  return id;
}

EventLoop::SourceId EventLoop::add_source(Transport& transport) {
  Access access(*this);
  auto adapter = std::make_unique<TransportSource>(transport);
  SourceId id = add_source(*adapter);
  sources_.back().transport = &transport;
  transport_sources_.emplace(id, std::move(adapter));
  return id;
}

void EventLoop::remove_source(SourceId id) {
  Access access(*this);
  for (auto& slot : sources_) {
    if (slot.id == id) {
      // A pass may be iterating sources_: blank the slot now, erase it outside the pass.
      slot.source = nullptr;
      slot.transport = nullptr;
      sources_dirty_ = true;
    }
  }
  if (pass_depth_ == 0) compact_sources();
}

void EventLoop::compact_sources() {
  if (!sources_dirty_) return;
  std::erase_if(sources_, [](const SourceSlot& s) { return s.source == nullptr; });
  std::erase_if(transport_sources_, [this](const auto& entry) {
    return std::none_of(sources_.begin(), sources_.end(),
                        [&](const SourceSlot& s) { return s.id == entry.first; });
  });
  sources_dirty_ = false;
}

void EventLoop::defer(SmallTask fn) {
  Access access(*this);
  deferred_.push_back(std::move(fn));
}

EventLoop::TimerId EventLoop::add_timer(std::chrono::nanoseconds delay, std::function<void()> fn) {
  Access access(*this);
  TimerId id = next_timer_id_++;
  Clock::time_point deadline = Clock::now() + delay;
  timers_.emplace(std::make_pair(deadline, id), std::move(fn));
  timer_deadlines_.emplace(id, deadline);
  return id;
}

bool EventLoop::cancel_timer(TimerId id) {
  Access access(*this);
  auto it = timer_deadlines_.find(id);
  if (it == timer_deadlines_.end()) return false;
  timers_.erase(std::make_pair(it->second, id));
  timer_deadlines_.erase(it);
  return true;
}

void EventLoop::discard_pending_work() {
  Access access(*this);
  // Move out first: destroying a callback may defer or add again.
  auto deferred = std::move(deferred_);
  auto timers = std::move(timers_);
  deferred_.clear();
  timers_.clear();
  timer_deadlines_.clear();
}

int EventLoop::run_timers() {
  if (timers_.empty()) return 0;
  int ran = 0;
  Clock::time_point now = Clock::now();
  // Only timers due now: one added by a timer callback with zero delay waits for the next pass.
  while (!timers_.empty() && timers_.begin()->first.first <= now) {
    auto node = timers_.extract(timers_.begin());
    timer_deadlines_.erase(node.key().second);
    node.mapped()();
    ++ran;
  }
  return ran;
}

int EventLoop::run_deferred() {
  // Only what was deferred before this phase started; what these callbacks defer runs on the
  // next pass, so a callback that re-defers itself cannot starve the sources.
  std::size_t count = deferred_.size();
  int ran = 0;
  for (std::size_t i = 0; i < count && !deferred_.empty(); ++i) {
    SmallTask fn = std::move(deferred_.front());
    deferred_.pop_front();
    fn();
    ++ran;
  }
  return ran;
}

int EventLoop::poll() {
  Access access(*this);
  struct DepthGuard {
    int& depth;
    explicit DepthGuard(int& d) : depth(d) { ++depth; }
    ~DepthGuard() { --depth; }
  } guard(pass_depth_);
  int events = 0;
  for (std::size_t i = 0; i < sources_.size(); ++i) {
    const SourceSlot& slot = sources_[i];
    if (slot.work != nullptr && !slot.work->load(std::memory_order_acquire)) continue;
    if (slot.transport != nullptr)
      events += slot.transport->progress();
    else if (slot.source != nullptr)
      events += slot.source->progress();
  }
  // An idle pass is the floor of every receive's latency: the phases with nothing to do are
  // skipped without a call.
  if (!timers_.empty()) events += run_timers();
  if (!deferred_.empty()) events += run_deferred();
  if (sources_dirty_ && pass_depth_ == 1) compact_sources();
  return events;
}

std::chrono::nanoseconds EventLoop::time_to_next_timer() const {
  if (timers_.empty()) return std::chrono::nanoseconds::max();
  auto left = timers_.begin()->first.first - Clock::now();
  return std::max(std::chrono::nanoseconds(0),
                  std::chrono::duration_cast<std::chrono::nanoseconds>(left));
}

bool EventLoop::prepare_sleep(std::vector<pollfd>& fds, std::chrono::nanoseconds& timeout) {
  if (!deferred_.empty()) return false;
  timeout = std::min<std::chrono::nanoseconds>(kMaxBlock, time_to_next_timer());
  if (timeout.count() == 0) return false;
  fds.clear();
  for (const auto& slot : sources_) {
    if (slot.source == nullptr) continue;
    if (!slot.source->prepare_to_block()) return false;  // work is already there
    int fd = slot.source->wait_fd();
    if (fd >= 0) fds.push_back({fd, POLLIN, 0});
  }
  return true;
}

bool EventLoop::sleep_while_idle() {
  // Several threads may sleep at once: each on fds of its own.
  std::vector<pollfd> fds;
  std::chrono::nanoseconds timeout{};
  if (!prepare_sleep(fds, timeout)) return false;
  lock_->sleep(fds, timeout);
  return true;
}

void EventLoop::drive_step(int& idle) {
  if (poll() > 0) {
    idle = 0;
    lock_->notify_after_pass();
    lock_->wake_sleeper();
    lock_->yield_to_contenders();
    return;
  }
  ++idle;
  if (policy_ == WaitPolicy::kSpin || idle < kSpinPasses) {
    lock_->yield_to_contenders();
    return;
  }
  // A source without a wait fd (an ofi CQ opened without one) must be polled: at least let
  // every other runnable thread go first.
  if (policy_ == WaitPolicy::kYield || idle < kSpinPasses + kYieldPasses || !sleep_while_idle()) {
    lock_->yield_cpu();
  }
}

void EventLoop::block_once() {
  std::chrono::nanoseconds timeout{};
  if (!prepare_sleep(wait_fds_, timeout)) return;
  sleep_on_fds(wait_fds_, timeout, "event loop");
}

void EventLoop::run_until(const std::function<bool()>& done) {
  if (in_pass()) {
    throw Error(ErrorCode::kInvalidArgument,
                "EventLoop: cannot wait from inside a completion callback; attach a callback "
                "with on_complete() instead");
  }
  if (lock_ != nullptr) {
    // The caller may hold the lock already (at any depth): the steps below release it
    // completely whenever they wait, so other threads post and progress meanwhile.
    Access access(*this);
    if (driven_) {
      // The progress thread makes the progress: sleep until one of its passes satisfies done().
      lock_->wait_until(done, true);
      return;
    }
    // No progress thread: this waiting thread drives the loop itself, as the others that wait.
    int idle = 0;
    while (!done()) drive_step(idle);
    return;
  }
  int idle = 0;
  Clock::time_point busy_until{};
  const int spin_passes = this->spin_passes();
  while (!done()) {
    if (poll() > 0) {
      idle = 0;
      continue;
    }
    ++idle;
    if (policy_ == WaitPolicy::kSpin || idle < spin_passes) continue;
    if (busy_poll_.count() > 0 && policy_ == WaitPolicy::kBlock) {
      // Reading the clock every 64th idle pass keeps its cost out of the polling.
      if (idle == spin_passes) busy_until = Clock::now() + busy_poll_;
      if (idle % 64 != 0 || Clock::now() < busy_until) continue;
      block_once();
      continue;
    }
    if (policy_ == WaitPolicy::kYield) {
      ::sched_yield();
      continue;
    }
    if (idle < spin_passes + kYieldPasses) {
      const Clock::time_point yielded = Clock::now();
      ::sched_yield();
      if (Clock::now() - yielded > kYieldedAway) idle = spin_passes + kYieldPasses;
      continue;
    }
    block_once();
  }
}

Status EventLoop::wait(const Request& request) {
  run_until([&] { return request.done(); });
  return request.status();
}

void EventLoop::track(PendingOperation& op) noexcept {
  op.loop_.store(this, std::memory_order_relaxed);
  op.prev_ = nullptr;
  op.next_ = pending_head_;
  if (pending_head_ != nullptr) pending_head_->prev_ = &op;
  pending_head_ = &op;
  ++pending_count_;
}

void EventLoop::untrack(PendingOperation& op) noexcept {
  if (op.loop_.load(std::memory_order_relaxed) != this) return;
  if (op.prev_ != nullptr)
    op.prev_->next_ = op.next_;
  else
    pending_head_ = op.next_;
  if (op.next_ != nullptr) op.next_->prev_ = op.prev_;
  op.prev_ = op.next_ = nullptr;
  op.loop_.store(nullptr, std::memory_order_relaxed);
  --pending_count_;
  ++finished_count_;
}

void EventLoop::fail_all_pending(const Status& status) {
  Access access(*this);
  // fail() completes the operation, which untracks it; take the head each time because a
  // failure may complete (and untrack) others too.
  while (pending_head_ != nullptr) {
    PendingOperation* op = pending_head_;
    untrack(*op);
    op->fail(status);
  }
}

}  // namespace halyard
