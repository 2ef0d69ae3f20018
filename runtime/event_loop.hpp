// EventLoop: the one place where a process makes progress (DESIGN.md, "The event loop").
//
// A pass polls every registered completion source (transports, the peer-failure notice fd,
// anything with progress() and a wait fd), runs the timers that are due, then runs the
// callbacks deferred so far. Deferring is how completion callbacks stay out of the calls that
// posted them: Request callbacks, matched deliveries and active-message handlers are all
// deferred, so user code never runs inside a transport's progress().
//
// When nothing progresses, run_until() backs off: it spins some passes, then sched_yield()s,
// then sleeps in poll(2) on the sources' wait fds with a bounded timeout, so that 8 ranks on 2
// cores still progress and sources without a wait fd are still polled.
// HALYARD_WAIT=spin|yield|block (default block) selects how far it backs off. Where every rank
// of the host has a CPU of its own, nobody needs the CPU a waiting rank gives up, while waking
// it costs the sender a system call and the sleeper a scheduler wake-up (tens of microseconds
// in a collective's critical path): there the loop keeps polling for a busy-poll budget
// (HALYARD_WAIT_SPIN_US) before it sleeps, as MPI and NCCL poll.
//
// Single-threaded by default: one thread drives the loop (the bootstrap client's reader thread
// only writes an eventfd that a source here watches), and nothing on its path locks.
// A shared loop has a LoopLock: with a progress thread (runtime/progress_thread.hpp), or when
// several application threads use the runtime at once (Runtime::share_loop()). Every entry
// point that application threads use (posting, attaching callbacks, completing, waiting)
// holds the lock through EventLoop::Access, which is one pointer test when there is no lock.
// Who runs the passes: the progress thread when there is one (the loop is driven(); waiting
// threads sleep until its passes complete what they wait for), else every waiting thread
// itself, one pass at a time under the lock (drive_step()). Callbacks run on the thread whose
// pass finds them.
#pragma once

#include <poll.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "runtime/loop_lock.hpp"
#include "runtime/support/error.hpp"
#include "runtime/support/small_task.hpp"

namespace halyard {

class EventLoop;
class Request;
class Transport;

// Something the loop polls.
class CompletionSource {
 public:
  virtual ~CompletionSource() = default;
  // Drops deferred callbacks and timers without running them (teardown: they may hold objects
  // of transports about to be destroyed).
  void discard_pending_work();

  // One non-blocking pass; returns how many events it handled (0: nothing happened).
  virtual int progress() = 0;
  // A fd that becomes readable when progress() may have work; -1 if there is none.
  virtual int wait_fd() { return -1; }
  // Called before the loop sleeps; false means there is work already (do not sleep).
  virtual bool prepare_to_block() { return wait_fd() >= 0; }
  // Optional: a flag that is true whenever progress() may have work. The loop then skips the
  // call while it reads false: an idle pass is the floor of every receive's latency.
  virtual const std::atomic<bool>* work_flag() { return nullptr; }
};

// An operation the loop can fail wholesale (a pending Request). Intrusively linked so that
// tracking costs no allocation.
class PendingOperation {
 public:
  virtual void fail(const Status& status) = 0;

 protected:
  PendingOperation() = default;
  PendingOperation(const PendingOperation&) = delete;
  PendingOperation& operator=(const PendingOperation&) = delete;
  virtual ~PendingOperation() = default;
  EventLoop* tracking_loop() const noexcept { return loop_.load(std::memory_order_relaxed); }

 private:
  friend class EventLoop;
  // Written under the loop's lock; read without it by a request's destructor.
  std::atomic<EventLoop*> loop_{nullptr};
  PendingOperation* prev_ = nullptr;
  PendingOperation* next_ = nullptr;
};

enum class WaitPolicy { kSpin, kYield, kBlock };

// Reads HALYARD_WAIT (spin|yield|block, default block).
WaitPolicy wait_policy_from_environment();

// How long run_until() keeps polling an idle loop before it sleeps: HALYARD_WAIT_SPIN_US
// (default 1000) where the host's ranks have a CPU each, 0 where they outnumber the CPUs they
// may run on together (TopologyTable::cpus_on_host; they must sleep to let each other run).
// Throws Error(kInvalidArgument) for a malformed value.
std::chrono::microseconds busy_poll_from_environment(int ranks_on_host, long host_cpus);

class EventLoop {
 public:
  using Clock = std::chrono::steady_clock;
  using SourceId = std::uint64_t;
  using TimerId = std::uint64_t;

  // Back-off steps: passes without events before yielding, then before blocking.
  static constexpr int kSpinPasses = 128;
  static constexpr int kYieldPasses = 32;
  // Spinning passes where the host's ranks outnumber their CPUs: the message a waiting rank
  // polls for usually comes from a rank that needs this very CPU to send it, so every pass spun
  // delays it (8 ranks on 2 cores: 4-byte allreduce 19-20 us with 128 passes, 14-15 with 16;
  // 4 ranks: 4 B-4 KiB reduce and the barrier 13-36% faster with 1 than with 16,
  // docs/runtime-core.md). One pass: a flag that arrived during the call's own steps is seen
  // without a yield.
  static constexpr int kSharedCpuSpinPasses = 1;
  // A yield that kept this thread off its CPU for longer gave it to another process's whole
  // time slice (a CPU-bound neighbour: the job's own ranks hand it back within microseconds).
  // The rest of the yield phase would do that again at every pass, so the loop sleeps at once:
  // a peer's wake-up gets the CPU back sooner than the neighbour's next slice would.
  static constexpr std::chrono::microseconds kYieldedAway{500};
  // Longest sleep in poll(2); bounded so sources without a wait fd still get polled.
  static constexpr std::chrono::microseconds kMaxBlock{1000};

  EventLoop();
  explicit EventLoop(WaitPolicy policy);
  ~EventLoop();
  EventLoop(const EventLoop&) = delete;
  EventLoop& operator=(const EventLoop&) = delete;

  WaitPolicy policy() const noexcept { return policy_; }
  // The busy-poll budget of run_until() under WaitPolicy::kBlock (0: back off by pass counts
  // only, the default).
  void set_busy_poll(std::chrono::microseconds budget) noexcept { busy_poll_ = budget; }
  std::chrono::microseconds busy_poll() const noexcept { return busy_poll_; }
  // Whether this rank shares its CPUs with other ranks of the job (more ranks on the host than
  // CPUs they may use): run_until() then spins kSharedCpuSpinPasses before yielding.
  void set_cpu_shared(bool shared) noexcept { cpu_shared_ = shared; }
  bool cpu_shared() const noexcept { return cpu_shared_; }
  int spin_passes() const noexcept { return cpu_shared_ ? kSharedCpuSpinPasses : kSpinPasses; }
  // Holds the loop's lock for its scope while a progress thread runs (re-entrant); does
  // nothing otherwise. Every entry point an application thread may call takes one.
  class Access {
   public:
    explicit Access(EventLoop& loop) : lock_(loop.lock_) {
      if (lock_ != nullptr) lock_->lock();
    }
    // A null loop (an invalid communicator) takes nothing.
    explicit Access(EventLoop* loop) : lock_(loop != nullptr ? loop->lock_ : nullptr) {
      if (lock_ != nullptr) lock_->lock();
    }
    ~Access() {
      if (lock_ != nullptr) lock_->unlock();
    }
    Access(const Access&) = delete;
    Access& operator=(const Access&) = delete;

   private:
    LoopLock* lock_;
  };

  // The lock of a shared loop; null when the loop is single-threaded. Installed and removed
  // (by ProgressThread, Runtime::share_loop()) while no other thread uses the loop.
  LoopLock* lock() const noexcept { return lock_; }
  bool threaded() const noexcept { return lock_ != nullptr; }
  void set_lock(LoopLock* lock) noexcept { lock_ = lock; }
  // A progress thread runs the passes (set by it while no other thread uses the loop): waiting
  // threads sleep instead of polling.
  bool driven() const noexcept { return driven_; }
  void set_driven(bool driven) noexcept { driven_ = driven; }

  // Sources are not owned: remove them before destroying them.
  SourceId add_source(CompletionSource& source);
  SourceId add_source(Transport& transport);
  void remove_source(SourceId id);

  // Runs `fn` on a later pass of the loop (the current one if called from a source's
  // progress or a timer; the next one if called from a deferred callback). Small captures are
  // stored without allocating (SmallTask).
  void defer(SmallTask fn);

  // Runs `fn` once, `delay` from now, from the loop. cancel_timer() returns false when the
  // timer already ran or never existed.
  TimerId add_timer(std::chrono::nanoseconds delay, std::function<void()> fn);
  bool cancel_timer(TimerId id);

  // Drops deferred callbacks and timers without running them (teardown: they may hold objects
  // of transports about to be destroyed).
  void discard_pending_work();

  // One non-blocking pass; returns how many events happened (source events, timers run,
  // deferred callbacks run). With a progress thread, any thread may call it (it takes the
  // lock), and the callbacks of that pass run on the caller.
  int poll();

  // Polls, backing off per the wait policy, until `done()` is true. Throws
  // Error(kInvalidArgument) when called from inside a callback the loop is running. With a
  // progress thread it polls nothing: it sleeps until a pass that made progress finds
  // `done()` true (evaluated with the lock held).
  void run_until(const std::function<bool()>& done);
  Status wait(const Request& request);

  // One step of a thread that drives a shared loop (the progress thread, or an application
  // thread that waits while none runs), lock held: a pass, then the back-off of run_until() in
  // the lock's terms: hand the lock to threads waiting for it, give up the CPU without it, or
  // sleep without it on the sources' wait fds (for at most kMaxBlock). `idle` counts the passes
  // without events so far. A pass that made progress wakes the threads that sleep or wait.
  void drive_step(int& idle);

  // True while the calling thread runs a pass of this loop (so a callback is on the stack).
  bool in_pass() const noexcept {
    if (lock_ != nullptr && !lock_->held_by_me()) return false;  // another thread's pass
    return pass_depth_ > 0;
  }

  // Pending-operation registry (used by Request): fail_all_pending() fails every operation
  // still pending, e.g. when a peer died, so that nothing waits forever.
  void track(PendingOperation& op) noexcept;
  void untrack(PendingOperation& op) noexcept;
  void fail_all_pending(const Status& status);
  std::size_t pending_count() const noexcept { return pending_count_; }
  // How many operations finished (completed, failed or dropped) so far: a count that stands
  // still while operations are pending means the process makes no progress. Untracked ones
  // (sends, which complete only through their transport) count through count_finished().
  std::uint64_t finished_count() const noexcept { return finished_count_; }
  void count_finished() noexcept { ++finished_count_; }

 private:
  struct SourceSlot {
    SourceId id;
    CompletionSource* source;
    // For a transport, also the transport itself: the pass calls its progress() directly
    // instead of through the adapter (one indirect call less per transport and pass).
    Transport* transport = nullptr;
    const std::atomic<bool>* work = nullptr;  // the source's work_flag()
  };
  class TransportSource;

  int run_timers();
  int run_deferred();
  void block_once();
  // Shared loop, lock held: sleeps like block_once() but without the lock; false when it did
  // not sleep (work is there, or a source has no wait fd).
  bool sleep_while_idle();
  // Fills `fds` and `timeout` for a sleep; false when there is work already.
  bool prepare_sleep(std::vector<pollfd>& fds, std::chrono::nanoseconds& timeout);
  void compact_sources();
  std::chrono::nanoseconds time_to_next_timer() const;

  WaitPolicy policy_;
  std::chrono::microseconds busy_poll_{0};
  bool cpu_shared_ = false;
  LoopLock* lock_ = nullptr;         // set while the loop is shared
  bool driven_ = false;              // a progress thread runs the passes
  std::vector<pollfd> wait_fds_;     // block_once()'s, single-threaded
  std::vector<SourceSlot> sources_;  // a removed slot keeps a null source until compacted
  bool sources_dirty_ = false;
  std::unordered_map<SourceId, std::unique_ptr<TransportSource>> transport_sources_;
  SourceId next_source_id_ = 1;
  std::deque<SmallTask> deferred_;
  std::map<std::pair<Clock::time_point, TimerId>, std::function<void()>> timers_;
  std::unordered_map<TimerId, Clock::time_point> timer_deadlines_;
  TimerId next_timer_id_ = 1;
  int pass_depth_ = 0;
  PendingOperation* pending_head_ = nullptr;
  std::size_t pending_count_ = 0;
  std::uint64_t finished_count_ = 0;
};

}  // namespace halyard
