#include "collectives/core/collective_engine.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "runtime/event_loop.hpp"
#include "runtime/tags.hpp"

namespace halyard::core {

CollectiveEngine::CollectiveEngine(const Communicator& comm, int receive_tag) : comm_(comm) {
  // Once per call: a plain store, not own_receive_tag()'s search.
  if (is_library_tag(receive_tag)) receive_tags_[receive_tag_count_++] = receive_tag;
}

void CollectiveEngine::own_receive_tag(int tag) {
  auto owned = receive_tags_.begin() + static_cast<std::ptrdiff_t>(receive_tag_count_);
  if (std::find(receive_tags_.begin(), owned, tag) != owned) return;
  if (receive_tag_count_ == kMaxReceiveTags) {
    throw Error(ErrorCode::kInternal, "a collective engine owns more than " +
                                          std::to_string(kMaxReceiveTags) + " receive tags");
  }
  receive_tags_[receive_tag_count_++] = tag;
}

Request CollectiveEngine::launched() {
  launched_ = true;
  EventLoop& loop = comm_.loop();
  if (completed_) return Request::make_completed(loop, failure_);
  // Not failed wholesale by the loop when the process fails (PointToPoint::fail): the engine
  // learns of it from its own operations and completes only once none of them can still touch
  // the call's buffers (node-memory copies and device work included, not only p2p).
  request_ = Request::make_pending_drained(loop);
  return request_;
}

void CollectiveEngine::record_failure(Status status) {
  if (failure_.ok()) failure_ = std::move(status);
}

void CollectiveEngine::abort(Status status) {
  record_failure(std::move(status));
  if (stopping_) return;
  stopping_ = true;
  if (receive_tag_count_ == 0 || completed_) return;
  comm_.loop().defer([self = keep_alive(this)] { self->withdraw_receives(); });
}

void CollectiveEngine::withdraw_receives() {
  // Each withdrawn receive completes with kCancelled through the engine's own completion,
  // which settles it like any other operation.
  for (std::size_t i = 0; i < receive_tag_count_; ++i) {
    comm_.cancel_internal_receives(receive_tags_[i]);
  }
}

void CollectiveEngine::complete() {
  completed_ = true;
  if (failed()) {
    if (const Status* cause = comm_.process_failure()) failure_ = *cause;
  }
  release();
  // Before launched() the request does not exist yet: launched() makes a completed one.
  if (launched_) request_.complete(failure_);
}

Status drain_after_failure(const Communicator& comm, int tag, std::span<const Request> outstanding,
                           Status failure) {
  comm.cancel_internal_receives(tag);
  wait_all(outstanding);
  if (const Status* cause = comm.process_failure()) return *cause;  // the root cause (rule 2)
  return failure;
}

}  // namespace halyard::core
