// Request: a cheap, shared handle to the state of one asynchronous operation (a send, a
// receive, an active message, a whole collective).
//
// Producers create a pending request with Request::make_pending(loop) and finish it with
// complete(status) from whatever callback learns the outcome; consumers test(), wait() or attach
// on_complete() callbacks. Callbacks always run from the event loop's deferred phase, never
// inside complete() or on_complete() themselves, so a callback can never re-enter the code that
// posted the operation (ADAPT's rule: react to completions, never block inside one).
//
// Every pending request is known to its EventLoop, so when a peer fails the runtime can fail
// all of them (kPeerFailed) instead of leaving anything to hang; it does so once every receive
// in flight has drained (PointToPoint::fail), and leaves those made with make_pending_drained()
// to their producers.
//
// The handle is one pointer to an intrusively counted state drawn from a per-thread pool: a
// request per message costs no malloc, and a completion that captures a Request stays within
// Completion's inline storage.
#pragma once

#include <span>
#include <vector>

#include "runtime/support/error.hpp"
#include "runtime/transport.hpp"

namespace halyard {

class EventLoop;
class Request;
struct RequestState;

// A producer that can see its own operation end sooner than the event loop's passes do: the
// shm collective engine reads only its call's flags, where a pass polls every source (some
// hundreds of instructions). A request made with one lets it run the operation first when a
// thread waits for it without a progress thread (Request::wait), as a blocking call would.
class WaitDriver {
 public:
  // Runs the operation of `request` (pending) until it is done, or gives up (the loop's
  // passes then take over). Never called from inside a loop pass.
  virtual void drive(const Request& request) = 0;

 protected:
  ~WaitDriver() = default;
};

class Request {
 public:
  // A null request: valid() is false, it counts as done with an ok status (like
  // MPI_REQUEST_NULL), so waiting on it returns at once.
  Request() = default;
  Request(const Request& other) noexcept;
  Request(Request&& other) noexcept : state_(other.state_) { other.state_ = nullptr; }
  Request& operator=(const Request& other) noexcept;
  Request& operator=(Request&& other) noexcept;
  // Inline for the null request, which the engines hand blocking calls that ended at once.
  ~Request() {
    if (state_ != nullptr) release();
  }

  // A new pending request whose callbacks run on `loop`.
  static Request make_pending(EventLoop& loop);
  // A request that is already complete with `status` (its callbacks still run deferred).
  static Request make_completed(EventLoop& loop, Status status);
  // A pending request whose producer promises to complete it itself, and only once everything
  // it started (receives, sends, copies) has finished or been cancelled: a collective engine
  // that drains its children. When the process fails, EventLoop::fail_all_pending() leaves it
  // alone instead of completing it while those children may still write into the user's
  // buffers. The p2p layer keeps its side of that promise: every receive completes exactly
  // once, and only when no more bytes can land in its buffer (PointToPoint::fail).
  static Request make_pending_drained(EventLoop& loop);
  // The same, waited for through `driver` first (WaitDriver), which must outlive the time the
  // request is pending.
  static Request make_pending_drained(EventLoop& loop, WaitDriver& driver);

  bool valid() const noexcept { return state_ != nullptr; }
  // Whether both name the same operation (or both are null).
  bool same_as(const Request& other) const noexcept { return state_ == other.state_; }
  bool done() const noexcept;
  // The outcome; meaningful once done() (an ok, empty Status before).
  const Status& status() const noexcept;
  // &status() once done(), else null: both in one call.
  const Status* status_if_done() const noexcept;

  // Runs `callback` with the status once the request completes. If it is already complete
  // the callback is deferred to the loop's next pass. Callbacks run in the order attached.
  void on_complete(Completion callback) const;

  // One pass of the event loop (none when called from inside a callback), then done().
  bool test() const;
  // Runs the event loop until the request completes and returns its status. Must not be
  // called from inside a completion callback (the loop refuses nested waits).
  Status wait() const {
    if (state_ == nullptr) return {};  // a null request is complete and ok
    return wait_pending();
  }
  // Like wait(), but throws halyard::Error when the request failed.
  Status wait_ok() const;

  // Producer side: completes the request. The first completion wins; later calls are ignored
  // and return false (a request failed by a peer failure may still hear from its transport).
  bool complete(Status status) const;

  // The loop the request belongs to; nullptr for a null request.
  EventLoop* loop() const noexcept;

 private:
  // Adopts one reference to `state`.
  explicit Request(RequestState* state) noexcept : state_(state) {}
  void release() noexcept;      // drops this handle's reference to a non-null state
  Status wait_pending() const;  // wait() on a non-null state (the null one is inline: blocking
                                // collectives that ended at their post return it)
  RequestState* state_ = nullptr;
};

// Waits for every request; returns the first failure, or ok.
Status wait_all(std::span<const Request> requests);

// A request on `loop` that completes once all `requests` have; its status is the first
// failure among them (in completion order), or ok. An empty list completes at once.
Request when_all(EventLoop& loop, std::span<const Request> requests);

}  // namespace halyard
