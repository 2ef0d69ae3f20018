#include "collectives/base/step_machine.hpp"

#include <exception>
#include <string>

#include "runtime/event_loop.hpp"

namespace halyard::base {

StepMachine::StepMachine(const Communicator& comm, int tag)
    : CollectiveEngine(comm, tag), tag_(tag), rank_(comm.rank()), size_(comm.size()) {}

Request StepMachine::start(const std::shared_ptr<StepMachine>& machine) {
  machine->advance();
  // Finished already (a broadcast root, a reduction leaf: every send went out whole): a
  // completed request, which the loop need not track.
  return machine->launched();
}

void StepMachine::send(int peer, const void* buffer, std::size_t bytes) {
  // Sent whole already: a send's only outcome is success, so there is nothing to wait for.
  if (comm().try_send_internal(peer, tag_, buffer, bytes)) return;
  track();
  comm().isend_internal(peer, tag_, buffer, bytes, [self = keep_alive(this)](const Status& status) {
    self->settle(status);
    self->advance_if_drained();
  });
}

void StepMachine::recv(int peer, void* buffer, std::size_t bytes) {
  track();
  // No Request per receive: the machine only counts its operations.
  comm().receive_internal(peer, tag_, buffer, bytes,
                          [self = keep_alive(this), bytes](const Status& status) {
                            self->receive_done(status, bytes);
                          });
}

void StepMachine::await(const Request& request, OnFailure on_failure) {
  track();
  request.on_complete([self = keep_alive(this), on_failure](const Status& status) {
    if (on_failure == OnFailure::kAbort) {
      self->settle(status);
    } else {
      self->settle_carrying_on(status);
    }
    self->advance_if_drained();
  });
}

void StepMachine::receive_done(const Status& status, std::size_t expected_bytes) {
  settle(status);
  if (status.ok() && status.bytes != expected_bytes) {
    // A short message: the ranks called the collective with different counts.
    // receive_internal reports the sender's world rank.
    abort(Status::failure(
        ErrorCode::kInvalidArgument,
        "collective received " + std::to_string(status.bytes) + " bytes from rank " +
            std::to_string(comm().rank_of_world(status.source)) + " where " +
            std::to_string(expected_bytes) + " were expected: ranks passed different counts"));
  }
  if (outstanding() != 0) return;
  if (comm().loop().in_pass()) {
    // A receive reports from inside the transport's progress: the next step is posted from
    // the loop's deferred phase (of this same pass), never from inside the transport.
    comm().loop().defer([self = keep_alive(this)] { self->advance(); });
    return;
  }
  advance();
}

void StepMachine::advance_if_drained() {
  // Sends and awaited requests report from the loop's deferred phase already.
  if (outstanding() == 0) advance();
}

void StepMachine::advance() {
  // Steps that post nothing loop here instead of recursing; advancing_ guards against a
  // re-entry (callbacks are deferred by the loop, but stay safe if that ever changes).
  if (advancing_ || completed()) return;
  advancing_ = true;
  while (outstanding() == 0 && !completed()) {
    if (stopping()) {
      try_complete(false);  // what the failed step posted has drained
      break;
    }
    bool more = false;
    try {
      more = post_next_step();
    } catch (const Error& error) {
      abort(Status::failure(error.code(), error.what()));
      continue;  // let what this step already posted drain, then report
    } catch (const std::exception& error) {
      abort(Status::failure(ErrorCode::kInternal, error.what()));
      continue;
    }
    if (!more) {
      if (outstanding() == 0) {
        try_complete(true);
      } else {
        abort(Status::failure(ErrorCode::kInternal,
                              "collective step machine finished with operations in flight"));
      }
    }
  }
  advancing_ = false;
}

}  // namespace halyard::base
