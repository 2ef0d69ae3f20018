#include "runtime/request.hpp"

#include <utility>

#include "runtime/event_loop.hpp"

namespace halyard {

struct RequestState final : PendingOperation {
  explicit RequestState(EventLoop& l) : loop(&l) {}
  ~RequestState() override {
    if (EventLoop* tracker = tracking_loop()) tracker->untrack(*this);
  }

  void fail(const Status& s) override { finish(s); }

  bool finish(Status s) {
    if (done) return false;
    done = true;
    status = std::move(s);
    if (EventLoop* tracker = tracking_loop()) tracker->untrack(*this);
    if (callbacks.empty()) return true;
    // Run the callbacks from the loop, never inside complete(): the completer may be holding
    // locks or be in the middle of updating its own state.
    loop->defer([cbs = std::move(callbacks), st = status]() {
      for (const auto& cb : cbs) cb(st);
    });
    callbacks.clear();
    return true;
  }

  EventLoop* loop;
  bool done = false;
  Status status;
  std::vector<Completion> callbacks;
};

namespace {
const Status kNullRequestStatus{};
}  // namespace

Request Request::make_pending(EventLoop& loop) {
  auto state = std::make_shared<RequestState>(loop);
  loop.track(*state);
  return Request(std::move(state));
}

Request Request::make_completed(EventLoop& loop, Status status) {
  auto state = std::make_shared<RequestState>(loop);
  state->done = true;
  state->status = std::move(status);
  return Request(std::move(state));
}

bool Request::done() const noexcept {
  return state_ == nullptr || state_->done;
}

const Status& Request::status() const noexcept {
  return state_ == nullptr ? kNullRequestStatus : state_->status;
}

void Request::on_complete(Completion callback) const {
  if (!callback) return;
  if (state_ == nullptr) {
    throw Error(ErrorCode::kInvalidArgument, "Request::on_complete: the request is null");
  }
  if (!state_->done) {
    state_->callbacks.push_back(std::move(callback));
    return;
  }
  // Keep the state alive: the callback must see the status even if every handle is dropped.
  state_->loop->defer([state = state_, cb = std::move(callback)]() { cb(state->status); });
}

bool Request::test() const {
  if (done()) return true;
  // Inside a callback the loop is already mid-pass: polling again would re-enter the
  // transports, so test() only looks.
  if (!state_->loop->in_pass()) state_->loop->poll();
  return done();
}

Status Request::wait() const {
  if (state_ == nullptr) return kNullRequestStatus;
  if (!state_->done) state_->loop->run_until([this] { return state_->done; });
  return state_->status;
}

Status Request::wait_ok() const {
  Status s = wait();
  s.raise_if_failed();
  return s;
}

bool Request::complete(Status status) const {
  if (state_ == nullptr) {
    throw Error(ErrorCode::kInvalidArgument, "Request::complete: the request is null");
  }
  return state_->finish(std::move(status));
}

EventLoop* Request::loop() const noexcept {
  return state_ == nullptr ? nullptr : state_->loop;
}

Status wait_all(std::span<const Request> requests) {
  Status first_failure;
  for (const Request& r : requests) {
    Status s = r.wait();
    if (!s.ok() && first_failure.ok()) first_failure = s;
  }
  return first_failure;
}

Request when_all(EventLoop& loop, std::span<const Request> requests) {
  Request all = Request::make_pending(loop);
  struct Joint {
    std::size_t left;
    Status first_failure;
  };
  auto joint = std::make_shared<Joint>(Joint{requests.size() + 1, Status{}});
  auto arrive = [joint, all](const Status& s) {
    if (!s.ok() && joint->first_failure.ok()) joint->first_failure = s;
    if (--joint->left == 0) all.complete(joint->first_failure);
  };
  for (const Request& r : requests) {
    if (r.valid())
      r.on_complete(arrive);
    else
      arrive(Status{});
  }
  // The extra count keeps `all` pending until every callback is attached.
  arrive(Status{});
  return all;
}

}  // namespace halyard
