// StepMachine: the engine behind every flat algorithm in collectives/base.
//
// A flat algorithm is a sequence of steps; each step posts a few sends and receives (the
// ADAPT building block: non-blocking p2p with a completion callback). The callback of the last
// operation of a step runs the next step, so nothing ever waits: the state machine advances
// from completions, and the collective's Request completes when there is no step left.
// Steps that only compute (a local reduction) post nothing and the machine moves straight on.
//
// The machine keeps itself alive: every callback holds a shared_ptr to it. A p2p failure does
// not stop the operations already posted (their buffers belong to the caller, so we must not
// report completion while a transport may still write into them); the machine stops posting,
// lets the step drain, and completes the collective with the first failure.
#pragma once

#include <cstddef>
#include <memory>
#include <utility>

#include "runtime/communicator.hpp"
#include "runtime/error.hpp"
#include "runtime/pooled.hpp"
#include "runtime/request.hpp"

namespace halyard::base {

class StepMachine : public std::enable_shared_from_this<StepMachine> {
 public:
  StepMachine(const Communicator& comm, int tag);
  virtual ~StepMachine() = default;
  StepMachine(const StepMachine&) = delete;
  StepMachine& operator=(const StepMachine&) = delete;

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
  // an operation of the current step; its failure fails the collective.
  void await(const Request& request);

  const Communicator& comm() const noexcept { return comm_; }
  int rank() const noexcept { return rank_; }
  int size() const noexcept { return size_; }
  int tag() const noexcept { return tag_; }

 private:
  static Request start(const std::shared_ptr<StepMachine>& machine);

  // Counts one finished operation of the step (a failure or a short receive fails the
  // collective) and, after the last one, runs the next step: at once for sends and awaited
  // requests (their callbacks run from the loop's deferred phase), deferred for receives,
  // which report from inside the transport's progress.
  void operation_done(const Status& status, std::size_t expected_bytes, bool is_receive);
  void advance();
  void finish(Status status);

  Communicator comm_;
  int tag_;
  int rank_;
  int size_;
  Request request_;
  Status failure_;
  int outstanding_ = 0;
  bool advancing_ = false;
  bool finished_ = false;
};

}  // namespace halyard::base
