// StepMachine: the engine behind every flat algorithm in collectives/base.
//
// A flat algorithm is a sequence of steps; each step posts a few sends and receives (the
// ADAPT building block: non-blocking p2p with a completion callback). The callback of the last
// operation of a step runs the next step, so nothing ever waits: the state machine advances
// from completions, and the collective's Request completes when there is no step left.
// Steps that only compute (a local reduction) post nothing and the machine moves straight on.
//
// Completion and failure follow the engine contract (collectives/core/collective_engine.hpp):
// a failed operation, a short receive or a step that throws aborts the machine; it posts no
// further step, withdraws its unmatched receives, lets the rest of the step drain, and
// completes the collective with the first failure.
#pragma once

#include <cstddef>
#include <memory>
#include <utility>

#include "collectives/core/collective_engine.hpp"
#include "runtime/communicator.hpp"
#include "runtime/request.hpp"
#include "runtime/support/pooled.hpp"

namespace halyard::base {

class StepMachine : public core::CollectiveEngine {
 public:
  StepMachine(const Communicator& comm, int tag);

  // Makes a Machine (its memory from a per-thread pool: one machine per collective call) and
  // runs its first steps; returns the Request of the whole collective.
  template <typename Machine, typename... Args>
  static Request launch(Args&&... args) {
    return start(
        std::allocate_shared<Machine>(PoolAllocator<Machine>{}, std::forward<Args>(args)...));
  }

 protected:
  // Posts the operations of the next step (with send/recv) and may compute on the results of
  // the previous one. Returns false when the algorithm has finished (nothing posted then).
  virtual bool post_next_step() = 0;

  // Posts a send/receive belonging to the current step. A receive must deliver exactly
  // `bytes` bytes: anything else means the ranks disagree on the count.
  void send(int peer, const void* buffer, std::size_t bytes);
  void recv(int peer, void* buffer, std::size_t bytes);
  // Counts `request` (device work, a receive the algorithm checks itself, a sub-collective) as
  // an operation of the current step; its failure fails the collective, or with
  // kRecordFailure only becomes the collective's outcome while the steps go on.
  enum class OnFailure { kAbort, kRecordFailure };
  void await(const Request& request, OnFailure on_failure = OnFailure::kAbort);

  int rank() const noexcept { return rank_; }
  int size() const noexcept { return size_; }
  int tag() const noexcept { return tag_; }

 private:
  static Request start(const std::shared_ptr<StepMachine>& machine);

  // Settles one finished operation of the step (a short receive fails the collective) and,
  // after the last one, runs the next step: at once for sends and awaited requests (their
  // callbacks run from the loop's deferred phase), deferred for receives, which report from
  // inside the transport's progress.
  void receive_done(const Status& status, std::size_t expected_bytes);
  void advance_if_drained();
  void advance();

  int tag_;
  int rank_;
  int size_;
  bool advancing_ = false;
};

}  // namespace halyard::base
