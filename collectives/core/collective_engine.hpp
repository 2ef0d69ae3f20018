// CollectiveEngine: the one completion contract of every collective engine (StepMachine,
// NoticeMachine, HAN's task pipeline, ADAPT's event-driven trees, the device step machine).
//
// 1. The collective's Request completes only once nothing the engine posted is outstanding:
//    every p2p send and receive, child collective, awaited request or device work it tracked
//    has finished, or was cancelled and has drained. Until then the caller's buffers may still
//    be written or read, so reporting earlier would let the caller reuse them too soon.
// 2. The first failure is kept; later ones (often consequences of the first) are ignored.
//    When the process itself has failed by then (Communicator::process_failure: a peer's
//    death, the watchdog), that is reported instead: it is the root cause, and what the engine
//    saw first can be its consequence (a node peer that heard of a death first, withdrew and
//    exited, so that a CMA read of its buffer failed with EFAULT or ESRCH).
// 3. abort() stops the engine: it posts nothing more, withdraws its receives that no message
//    has matched yet (they complete with kCancelled), waits for what cannot be withdrawn (a
//    matched receive being delivered, a send, a child), then completes with the first failure.
//    record_failure() keeps a failure without stopping, for protocols that must play to the end
//    (a flagged notice, HAN's later tasks that keep every rank's tag order).
// 4. The engine keeps itself alive: every completion it waits for holds a shared reference
//    (keep_alive()), so it lives until the last of them has run, whoever holds the Request.
//
// Tracking costs a counter per operation: no allocation, no std::function on the data path.
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <span>

#include "runtime/communicator.hpp"
#include "runtime/request.hpp"
#include "runtime/support/error.hpp"

namespace halyard::core {

class CollectiveEngine : public std::enable_shared_from_this<CollectiveEngine> {
 public:
  virtual ~CollectiveEngine() = default;
  CollectiveEngine(const CollectiveEngine&) = delete;
  CollectiveEngine& operator=(const CollectiveEngine&) = delete;

  // Whether the request has completed (or will, once launched, as a completed one).
  bool completed() const noexcept { return completed_; }
  int outstanding() const noexcept { return outstanding_; }

 protected:
  // `comm`: where the engine posts. `receive_tag`: the library tag of the receives it owns and
  // withdraws on abort (0: none, as for HAN's pipeline, whose children are collectives).
  explicit CollectiveEngine(const Communicator& comm, int receive_tag = 0);

  // Another tag of this engine's receives (an intra-node primitive uses up to three).
  void own_receive_tag(int tag);

  // The collective's Request, once the engine has run its first, synchronous part: a completed
  // request (which the loop need not track) when it finished already, else a pending one.
  Request launched();

  // One more operation the request waits for (before posting it).
  void track() noexcept { ++outstanding_; }
  // One tracked operation finished; a failure aborts the engine. (Inline: once per message.)
  void settle(const Status& status) {
    --outstanding_;
    if (!status.ok()) [[unlikely]] {
      abort(status);
    }
  }
  // One tracked operation finished; a failure is recorded but the engine carries on.
  void settle_carrying_on(const Status& status) {
    --outstanding_;
    if (!status.ok()) [[unlikely]] {
      record_failure(status);
    }
  }

  // Keeps the first failure; the engine goes on.
  void record_failure(Status status);
  // Keeps the first failure and stops the engine: nothing more is posted, its unmatched
  // receives are withdrawn (from the loop's deferred phase: this may run inside a receive's
  // completion, where the receive queue must not change), the rest drains.
  void abort(Status status);

  bool failed() const noexcept { return !failure_.ok(); }
  bool stopping() const noexcept { return stopping_; }
  const Status& failure() const noexcept { return failure_; }

  // Completes the request with the first failure (or success) when nothing is outstanding and
  // either the algorithm's work is done or the engine is stopping. Returns completed().
  // (Inline: runs after every operation; completing is out of line.)
  bool try_complete(bool work_done) {
    if (completed_ || outstanding_ != 0 || !(work_done || stopping_)) return completed_;
    complete();
    return true;
  }

  // Runs once, just before the request completes: give back what the engine holds.
  virtual void release() {}

  // A shared reference to the engine as its own type, for the completions it waits for.
  template <class Engine>
  static std::shared_ptr<Engine> keep_alive(Engine* engine) {
    return std::static_pointer_cast<Engine>(engine->shared_from_this());
  }

  const Communicator& comm() const noexcept { return comm_; }

 private:
  void withdraw_receives();
  void complete();

  static constexpr std::size_t kMaxReceiveTags = 4;

  Communicator comm_;
  Request request_;  // made by launched() unless the engine completed before
  Status failure_;
  int outstanding_ = 0;
  bool stopping_ = false;
  bool completed_ = false;
  bool launched_ = false;
  std::array<int, kMaxReceiveTags> receive_tags_;  // the first receive_tag_count_ are set
  std::size_t receive_tag_count_ = 0;
};

// The contract for collectives that wait on the caller's thread (ADAPT's Blocking and Waitall
// variants): after `failure`, withdraw the unmatched receives on `tag`, wait for `outstanding`
// (matched receives being delivered, sends), and return `failure` (or the process's failure:
// rule 2).
Status drain_after_failure(const Communicator& comm, int tag, std::span<const Request> outstanding,
                           Status failure);

}  // namespace halyard::core
