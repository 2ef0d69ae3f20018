#include "runtime/loop_lock.hpp"

#include <sched.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>

#include "runtime/sleep_on_fds.hpp"
#include "runtime/support/error.hpp"

namespace halyard {

LoopLock::LoopLock() {
  wake_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (wake_fd_ < 0) {
    throw Error(ErrorCode::kInternal,
                std::string("eventfd for the progress thread: ") + std::strerror(errno));
  }
}

LoopLock::~LoopLock() {
  if (wake_fd_ >= 0) ::close(wake_fd_);
}

void LoopLock::lock() {
  if (held_by_me()) {
    ++depth_;
    return;
  }
  contenders_.fetch_add(1, std::memory_order_relaxed);
  mutex_.lock();
  contenders_.fetch_sub(1, std::memory_order_relaxed);
  owner_.store(std::this_thread::get_id(), std::memory_order_relaxed);
  depth_ = 1;
}

void LoopLock::unlock() {
  if (--depth_ > 0) return;
  owner_.store(std::thread::id(), std::memory_order_relaxed);
  mutex_.unlock();
}

int LoopLock::release_all() {
  const int depth = depth_;
  depth_ = 0;
  owner_.store(std::thread::id(), std::memory_order_relaxed);
  mutex_.unlock();
  return depth;
}

void LoopLock::reacquire(int depth) {
  mutex_.lock();
  owner_.store(std::this_thread::get_id(), std::memory_order_relaxed);
  depth_ = depth;
}

void LoopLock::yield_to_contenders() {
  if (contenders() == 0) return;
  const int depth = release_all();
  // std::mutex is not fair: without stepping aside, this thread would take the lock back
  // before the woken contender runs. A bounded number of yields keeps a contender that is
  // itself descheduled from stalling progress.
  for (int i = 0; i < 64 && contenders() > 0; ++i) ::sched_yield();
  reacquire(depth);
}

void LoopLock::yield_cpu() {
  const int depth = release_all();
  ::sched_yield();
  reacquire(depth);
}

void LoopLock::notify_waiters() {
  waiters_cv_.notify_all();
}

void LoopLock::notify_after_pass() {
  if (pass_waiters_ > 0) waiters_cv_.notify_all();
}

void LoopLock::wake_sleeper() {
  if (sleepers_ == 0 || wake_pending_) return;
  wake_pending_ = true;  // one write is enough until the last sleeper drains it
  std::uint64_t one = 1;
  [[maybe_unused]] ssize_t n = ::write(wake_fd_, &one, sizeof(one));
}

void LoopLock::sleep(std::vector<pollfd>& fds, std::chrono::nanoseconds timeout) {
  fds.push_back({wake_fd_, POLLIN, 0});
  ++sleepers_;
  const int depth = release_all();
  sleep_on_fds(fds, timeout, "event loop driver");
  reacquire(depth);
  // The eventfd stays readable until drained, so every sleeper sees a wake; the last one out
  // drains it (a thread that sleeps meanwhile at worst wakes once for nothing).
  if (--sleepers_ == 0 && wake_pending_) {
    std::uint64_t count = 0;
    [[maybe_unused]] ssize_t n = ::read(wake_fd_, &count, sizeof(count));
    wake_pending_ = false;
  }
}

}  // namespace halyard
