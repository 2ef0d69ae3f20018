#include "collectives/intranode/notice_machine.hpp"

#include <exception>
#include <string>
#include <utility>

namespace halyard::intranode {

NoticeMachine::NoticeMachine(const Communicator& comm, NodeMemory& memory)
    : CollectiveEngine(comm),
      memory_(memory),
      loop_(comm.loop()),
      rank_(comm.rank()),
      size_(comm.size()) {}

Request NoticeMachine::launch(const std::shared_ptr<NoticeMachine>& machine) {
  machine->stepping_ = true;
  try {
    machine->start();
  } catch (...) {
    // Nothing may stay posted into the caller's buffers behind an exception: let what start()
    // posted drain from the loop, and hand the error to the caller.
    machine->stepping_ = false;
    machine->abort(Status::failure(ErrorCode::kInternal, "intra-node primitive failed to start"));
    throw;
  }
  machine->stepping_ = false;
  machine->step();
  return machine->launched();
}

void NoticeMachine::notify(int peer, int tag, std::uint64_t first, std::uint64_t second) {
  Notice sent_now;
  sent_now.first = first;
  sent_now.second = second;
  sent_now.failed = failed() ? 1 : 0;
  // A notice is small: the transport nearly always takes it whole, with nothing to wait for.
  if (comm().try_send_internal(peer, tag, &sent_now, sizeof sent_now)) return;
  Notice& notice = outbox_.emplace_back(sent_now);
  track();
  comm().isend_internal(peer, tag, &notice, sizeof notice,
                        [self = keep_alive(this)](const Status& status) {
                          self->settle(status);
                          self->step();
                        });
}

void NoticeMachine::expect(int peer, int tag, std::size_t count,
                           std::function<void(const Notice&)> on_each) {
  if (count == 0) return;
  own_receive_tag(tag);  // withdrawn if the machine aborts
  receive_next(peer, tag, std::make_shared<std::size_t>(count),
               std::make_shared<std::function<void(const Notice&)>>(std::move(on_each)));
}

void NoticeMachine::receive_next(int peer, int tag, std::shared_ptr<std::size_t> remaining,
                                 std::shared_ptr<std::function<void(const Notice&)>> on_each) {
  auto notice = std::make_shared<Notice>();
  track();
  comm().irecv_internal(
      peer, tag, notice.get(), sizeof(Notice),
      [self = keep_alive(this), peer, tag, notice, remaining, on_each](const Status& status) {
        self->settle(status);
        if (status.ok() && status.bytes != sizeof(Notice)) {
          self->abort(
              Status::failure(ErrorCode::kInternal,
                              "intra-node notice of " + std::to_string(status.bytes) + " bytes"));
        }
        if (self->stopping()) {
          self->step();
          return;
        }
        if (notice->failed != 0) {
          self->record_failure(Status::failure(
              ErrorCode::kTransport,
              "intra-node collective: the part of rank " + std::to_string(peer) + " failed"));
        }
        // Post the next receive before handling this one, so the stream never stalls.
        if (--*remaining > 0) self->receive_next(peer, tag, remaining, on_each);
        (*on_each)(*notice);
        self->step();
      });
}

void NoticeMachine::schedule() {
  if (scheduled_) return;
  scheduled_ = true;
  loop_.defer([self = keep_alive(this)] {
    self->scheduled_ = false;
    self->step();
  });
}

void NoticeMachine::step() {
  if (completed() || stepping_) return;
  stepping_ = true;
  if (!stopping()) {
    try {
      advance();
    } catch (const Error& error) {
      abort(Status::failure(error.code(), error.what()));
    } catch (const std::exception& error) {
      abort(Status::failure(ErrorCode::kInternal, error.what()));
    }
  }
  stepping_ = false;
  try_complete(finished());
}

}  // namespace halyard::intranode
