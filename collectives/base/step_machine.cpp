#include "collectives/base/step_machine.hpp"

#include <exception>
#include <string>

#include "runtime/event_loop.hpp"

namespace halyard::base {

StepMachine::StepMachine(const Communicator& comm, int tag)
    : comm_(comm), tag_(tag), rank_(comm.rank()), size_(comm.size()) {}

Request StepMachine::start(const std::shared_ptr<StepMachine>& machine) {
  machine->advance();
  EventLoop& loop = machine->comm_.loop();
  // Finished already (a broadcast root, a reduction leaf: every send went out whole): a
  // completed request, which the loop need not track.
  if (machine->finished_) return Request::make_completed(loop, std::move(machine->failure_));
  machine->request_ = Request::make_pending(loop);
  return machine->request_;
}

void StepMachine::send(int peer, const void* buffer, std::size_t bytes) {
  // Sent whole already: a send's only outcome is success, so there is nothing to wait for.
  if (comm_.try_send_internal(peer, tag_, buffer, bytes)) return;
  ++outstanding_;
  auto self = shared_from_this();
  comm_.isend_internal(peer, tag_, buffer, bytes, [self, bytes](const Status& status) {
    self->operation_done(status, bytes, false);
  });
}

void StepMachine::recv(int peer, void* buffer, std::size_t bytes) {
  ++outstanding_;
  // No Request per receive: the machine only counts its operations.
  auto self = shared_from_this();
  comm_.receive_internal(peer, tag_, buffer, bytes, [self, bytes](const Status& status) {
    self->operation_done(status, bytes, true);
  });
}

void StepMachine::await(const Request& request) {
  ++outstanding_;
  auto self = shared_from_this();
  request.on_complete([self](const Status& status) { self->operation_done(status, 0, false); });
}

void StepMachine::operation_done(const Status& status, std::size_t expected_bytes,
                                 bool is_receive) {
  --outstanding_;
  if (failure_.ok()) {
    if (!status.ok()) {
      failure_ = status;
    } else if (is_receive && status.bytes != expected_bytes) {
      // A short message: the ranks called the collective with different counts.
      // receive_internal reports the sender's world rank.
      failure_ = Status::failure(
          ErrorCode::kInvalidArgument,
          "collective received " + std::to_string(status.bytes) + " bytes from rank " +
              std::to_string(comm_.rank_of_world(status.source)) + " where " +
              std::to_string(expected_bytes) + " were expected: ranks passed different counts");
    }
  }
  if (outstanding_ != 0) return;
  if (is_receive && comm_.loop().in_pass()) {
    // A receive reports from inside the transport's progress: the next step is posted from
    // the loop's deferred phase (of this same pass), never from inside the transport.
    comm_.loop().defer([self = shared_from_this()] { self->advance(); });
    return;
  }
  advance();  // sends and awaited requests report from the deferred phase already
}

void StepMachine::advance() {
  // Steps that post nothing loop here instead of recursing; advancing_ guards against a
  // re-entry (callbacks are deferred by the loop, but stay safe if that ever changes).
  if (advancing_ || finished_) return;
  advancing_ = true;
  while (outstanding_ == 0 && !finished_) {
    if (!failure_.ok()) {
      finish(failure_);
      break;
    }
    bool more = false;
    try {
      more = post_next_step();
    } catch (const Error& error) {
      failure_ = Status::failure(error.code(), error.what());
      continue;  // let what this step already posted drain, then report
    } catch (const std::exception& error) {
      failure_ = Status::failure(ErrorCode::kInternal, error.what());
      continue;
    }
    if (!more) {
      if (outstanding_ == 0) {
        finish(Status{});
      } else {
        failure_ = Status::failure(ErrorCode::kInternal,
                                   "collective step machine finished with operations in flight");
      }
    }
  }
  advancing_ = false;
}

void StepMachine::finish(Status status) {
  finished_ = true;
  if (request_.valid()) {
    request_.complete(std::move(status));
  } else {
    failure_ = std::move(status);  // still inside start(): it makes the request from this
  }
}

}  // namespace halyard::base
