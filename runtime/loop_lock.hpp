// LoopLock: what makes an EventLoop safe to share between threads: a progress thread and
// application threads (HALYARD_PROGRESS_THREAD=1), or several application threads that call
// into the runtime at once (Runtime::share_loop(), the MPI shim's MPI_THREAD_MULTIPLE), or
// both. It exists only while the loop is shared; otherwise the loop has no lock at all and its
// single-threaded path is unchanged.
//
// The design is one lock per loop, held by whoever touches the loop's state: the progress
// thread while it runs passes, an application thread while it posts an operation, attaches a
// callback, completes a request or (without a progress thread) runs passes itself while it
// waits (EventLoop::Access, EventLoop::drive_step()). It is re-entrant for its owner, so code
// that runs both from callbacks (progress thread, lock held) and from application calls can
// take it unconditionally. A single lock rather than marshalling every call to the progress
// thread keeps the posting path short: an application thread posts its own isend or collective
// step while the progress thread waits at most one pass for the lock.
//
// Three things keep it from costing a core or starving anyone:
// - contention hand-off: the progress thread keeps the lock across idle passes but gives it up
//   as soon as an application thread is waiting for it (contenders());
// - sleeping: an idle driver (the progress thread, or an application thread waiting without
//   one) releases the lock and sleeps in ppoll(2) on the sources' wait fds plus the lock's own
//   eventfd, which another thread writes when it needs a pass or when its pass made progress
//   (so work posted, or a request completed, meanwhile is seen at once);
// - waiting: application threads that wait for a request or a predicate sleep on a condition
//   variable (a futex), releasing the lock entirely, and are woken by the completion itself
//   (notify_waiters()) or by passes that made progress (notify_after_pass()).
#pragma once

#include <poll.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace halyard {

class LoopLock {
 public:
  LoopLock();
  ~LoopLock();
  LoopLock(const LoopLock&) = delete;
  LoopLock& operator=(const LoopLock&) = delete;

  // Re-entrant acquire/release by the calling thread.
  void lock();
  void unlock();
  bool held_by_me() const noexcept {
    return owner_.load(std::memory_order_relaxed) == std::this_thread::get_id();
  }

  // Threads waiting to acquire (the progress thread hands over when this is non-zero).
  int contenders() const noexcept { return contenders_.load(std::memory_order_relaxed); }
  // Called by the lock holder (a driver) between passes: lets waiting threads in.
  void yield_to_contenders();
  // Caller holds the lock (at any depth): releases it completely, sched_yield()s, takes it back.
  void yield_cpu();

  // Caller holds the lock (at any depth): releases it completely, sleeps until `done()` is
  // true (evaluated with the lock held), then takes it back at the same depth. `on_passes`:
  // also wake after every pass that made progress, for predicates that no completion
  // notifies.
  template <class Predicate>
  void wait_until(Predicate done, bool on_passes);

  // Caller holds the lock. Wakes the threads in wait_until (a request they wait for completed).
  void notify_waiters();
  // Caller holds the lock: a pass made progress; wakes wait_until(…, on_passes = true) waiters.
  void notify_after_pass();

  // A driver, lock held: releases the lock, sleeps in ppoll(2) on `fds` plus the wake eventfd
  // for at most `timeout`, then takes the lock back. Several threads may sleep at once.
  void sleep(std::vector<pollfd>& fds, std::chrono::nanoseconds timeout);
  // Wakes the threads that sleep in sleep() (caller holds the lock).
  void wake_sleeper();

 private:
  // Caller holds the lock: releases it at every depth and returns the depth; reacquire() takes
  // it back at that depth.
  int release_all();
  void reacquire(int depth);

  std::mutex mutex_;
  std::atomic<std::thread::id> owner_{};
  int depth_ = 0;  // owner only
  std::atomic<int> contenders_{0};
  std::condition_variable waiters_cv_;
  int pass_waiters_ = 0;       // under mutex_
  int sleepers_ = 0;           // under mutex_: threads in sleep()
  bool wake_pending_ = false;  // under mutex_: wake_fd_ was written and not drained yet
  int wake_fd_ = -1;
};

template <class Predicate>
void LoopLock::wait_until(Predicate done, bool on_passes) {
  if (done()) return;
  const int depth = depth_;
  if (on_passes) ++pass_waiters_;
  std::unique_lock<std::mutex> held(mutex_, std::adopt_lock);
  do {
    depth_ = 0;
    owner_.store(std::thread::id(), std::memory_order_relaxed);
    wake_sleeper();  // what we posted before waiting may need a pass
    waiters_cv_.wait(held);
    // Ownership is back while the predicate runs, so it may use the loop like any holder.
    owner_.store(std::this_thread::get_id(), std::memory_order_relaxed);
    depth_ = depth;
  } while (!done());
  held.release();
  if (on_passes) --pass_waiters_;
}

}  // namespace halyard
