// ProgressThread: a thread that drives an EventLoop while the application computes
// (HALYARD_PROGRESS_THREAD=1, or Runtime::start_progress_thread()), so non-blocking
// collectives advance without the application calling into the library: the overlap of
// communication and computation that the MVAPICH2 co-design paper measures.
//
// While it runs, the loop has a LoopLock (runtime/loop_lock.hpp): its own, or the one already
// there when application threads share the loop (Runtime::share_loop()). The thread runs
// passes with the lock held, hands it to application threads that post or complete
// operations, and backs off like run_until() does (EventLoop::drive_step(); HALYARD_WAIT: spin,
// then sched_yield, then sleep in ppoll(2) on the sources' wait fds and the lock's wake
// eventfd), so an idle progress thread costs no core. Completion callbacks run on this thread;
// application threads that wait sleep on a condition variable until the completion wakes them.
//
// stop() (and the destructor) ends the thread and removes the lock it installed; afterwards
// the loop is single-threaded again (or shared, driven by its waiting threads). Start and stop
// from the thread that owns the runtime, while no other application thread uses it.
#pragma once

#include <memory>
#include <thread>

#include "runtime/event_loop.hpp"
#include "runtime/loop_lock.hpp"

namespace halyard {

class ProgressThread {
 public:
  // Installs a lock unless the loop has one, and starts the thread.
  explicit ProgressThread(EventLoop& loop);
  ~ProgressThread();
  ProgressThread(const ProgressThread&) = delete;
  ProgressThread& operator=(const ProgressThread&) = delete;

  // Idempotent. Must not be called from a callback (that would join the calling thread).
  void stop();

  std::thread::native_handle_type native_handle() { return thread_.native_handle(); }

  // HALYARD_PROGRESS_THREAD: 0 (default) or 1. Throws Error(kInvalidArgument) otherwise.
  static bool enabled_from_environment();

 private:
  void run();

  EventLoop& loop_;
  std::unique_ptr<LoopLock> own_lock_;  // null when the loop was shared already
  LoopLock* lock_;
  bool stop_requested_ = false;  // under lock_
  std::thread thread_;
};

}  // namespace halyard
