#include "collectives/intranode/notice_machine.hpp"

#include <exception>
#include <string>
#include <utility>

namespace halyard::intranode {

NoticeMachine::NoticeMachine(const Communicator& comm, NodeMemory& memory)
    : comm_(comm), memory_(memory), loop_(comm.loop()), rank_(comm.rank()), size_(comm.size()) {}

Request NoticeMachine::launch(const std::shared_ptr<NoticeMachine>& machine) {
  machine->request_ = Request::make_pending(machine->loop_);
  Request request = machine->request_;
  machine->stepping_ = true;
  machine->start();
  machine->stepping_ = false;
  machine->step();
  return request;
}

void NoticeMachine::notify(int peer, int tag, std::uint64_t first, std::uint64_t second) {
  Notice sent_now;
  sent_now.first = first;
  sent_now.second = second;
  sent_now.failed = failed() ? 1 : 0;
  // A notice is small: the transport nearly always takes it whole, with nothing to wait for.
  if (comm_.try_send_internal(peer, tag, &sent_now, sizeof sent_now)) return;
  Notice& notice = outbox_.emplace_back(sent_now);
  ++outstanding_;
  auto self = shared_from_this();
  comm_.isend_internal(peer, tag, &notice, sizeof notice,
                       [self](const Status& status) { self->operation_done(status); });
}

void NoticeMachine::expect(int peer, int tag, std::size_t count,
                           std::function<void(const Notice&)> on_each) {
  if (count == 0) return;
  receive_next(peer, tag, std::make_shared<std::size_t>(count),
               std::make_shared<std::function<void(const Notice&)>>(std::move(on_each)));
}

void NoticeMachine::receive_next(int peer, int tag, std::shared_ptr<std::size_t> remaining,
                                 std::shared_ptr<std::function<void(const Notice&)>> on_each) {
  auto notice = std::make_shared<Notice>();
  ++outstanding_;
  auto self = shared_from_this();
  comm_.irecv_internal(
      peer, tag, notice.get(), sizeof(Notice),
      [self, peer, tag, notice, remaining, on_each](const Status& status) {
        --self->outstanding_;
        if (!status.ok() || status.bytes != sizeof(Notice)) {
          self->p2p_broken_ = true;
          self->record_failure(status.ok()
                                   ? Status::failure(ErrorCode::kInternal,
                                                     "intra-node notice of " +
                                                         std::to_string(status.bytes) + " bytes")
                                   : status);
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

void NoticeMachine::operation_done(const Status& status) {
  --outstanding_;
  if (!status.ok()) {
    p2p_broken_ = true;
    record_failure(status);
  }
  step();
}

void NoticeMachine::schedule() {
  if (scheduled_) return;
  scheduled_ = true;
  auto self = shared_from_this();
  loop_.defer([self] {
    self->scheduled_ = false;
    self->step();
  });
}

void NoticeMachine::record_failure(Status status) {
  if (failure_.ok()) failure_ = std::move(status);
}

void NoticeMachine::step() {
  if (completed_ || stepping_) return;
  stepping_ = true;
  if (!p2p_broken_) {
    try {
      advance();
    } catch (const Error& error) {
      record_failure(Status::failure(error.code(), error.what()));
      p2p_broken_ = true;
    } catch (const std::exception& error) {
      record_failure(Status::failure(ErrorCode::kInternal, error.what()));
      p2p_broken_ = true;
    }
  }
  stepping_ = false;
  if (outstanding_ == 0 && (p2p_broken_ || finished())) {
    completed_ = true;
    release();
    request_.complete(failure_);
  }
}

}  // namespace halyard::intranode
