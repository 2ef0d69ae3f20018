#include "shim/intercomm_chain.hpp"

#include <exception>
#include <memory>
#include <utility>

namespace halyard::mpi_shim {

namespace {

class Chain : public std::enable_shared_from_this<Chain> {
 public:
  Chain(Request done, std::vector<ChainStep> steps)
      : done_(std::move(done)), steps_(std::move(steps)) {}

  // Runs steps until one is still in flight; `in_call` rethrows a failure to the MPI call.
  void advance(bool in_call) {
    try {
      while (next_ < steps_.size()) {
        Started started = steps_[next_++]();
        if (!started.request.done()) {
          started.request.on_complete(
              [self = shared_from_this(), step = std::move(started.complete)](const Status& s) {
                if (self->finished_step(s, step)) self->advance(false);
              });
          return;
        }
        if (!finished_step(started.request.status(), started.complete)) return;
      }
      done_.complete({});
    } catch (const std::exception& e) {
      done_.complete(Status::failure(ErrorCode::kInternal, e.what()));
      if (in_call) throw;
    }
  }

 private:
  // Runs a step's completion; false (and the chain failed) when the step failed.
  bool finished_step(const Status& status, const CompletionStep& step) {
    if (!status.ok()) {
      done_.complete(status);
      return false;
    }
    try {
      if (step) step(status);
    } catch (const std::exception& e) {
      done_.complete(Status::failure(ErrorCode::kInternal, e.what()));
      return false;
    }
    return true;
  }

  Request done_;
  std::vector<ChainStep> steps_;
  std::size_t next_ = 0;
};

}  // namespace

Started start_chain(const Communicator& bridge, std::vector<ChainStep> steps,
                    CompletionStep finish) {
  Request done = Request::make_pending_drained(bridge.loop());
  std::make_shared<Chain>(done, std::move(steps))->advance(true);
  return {done, std::move(finish)};
}

}  // namespace halyard::mpi_shim
