// Request lifecycle: pending -> complete, deferred callbacks, first completion wins, waits,
// null requests, when_all, and failing everything still pending.
#include <gtest/gtest.h>

#include <vector>

#include "runtime/event_loop.hpp"
#include "runtime/request.hpp"

namespace halyard {
namespace {

TEST(Request, PendingUntilCompleted) {
  EventLoop loop(WaitPolicy::kSpin);
  Request r = Request::make_pending(loop);
  EXPECT_TRUE(r.valid());
  EXPECT_FALSE(r.done());
  EXPECT_FALSE(r.test());
  Status s;
  s.bytes = 42;
  EXPECT_TRUE(r.complete(s));
  EXPECT_TRUE(r.done());
  EXPECT_TRUE(r.status().ok());
  EXPECT_EQ(r.status().bytes, 42u);
}

TEST(Request, CallbacksRunFromTheLoopNotInsideComplete) {
  EventLoop loop(WaitPolicy::kSpin);
  Request r = Request::make_pending(loop);
  std::vector<int> order;
  r.on_complete([&](const Status& s) {
    EXPECT_EQ(s.code, ErrorCode::kTransport);
    order.push_back(1);
  });
  r.on_complete([&](const Status&) { order.push_back(2); });
  r.complete(Status::failure(ErrorCode::kTransport, "link down"));
  EXPECT_TRUE(order.empty());
  loop.poll();
  EXPECT_EQ(order, (std::vector<int>{1, 2}));
}

TEST(Request, OnCompleteAfterDoneIsDeferred) {
  EventLoop loop(WaitPolicy::kSpin);
  Request r = Request::make_completed(loop, Status{});
  bool ran = false;
  r.on_complete([&](const Status& s) {
    EXPECT_TRUE(s.ok());
    ran = true;
  });
  EXPECT_FALSE(ran);
  loop.poll();
  EXPECT_TRUE(ran);
}

TEST(Request, FirstCompletionWins) {
  EventLoop loop(WaitPolicy::kSpin);
  Request r = Request::make_pending(loop);
  EXPECT_TRUE(r.complete(Status::failure(ErrorCode::kPeerFailed, "rank 3 died")));
  EXPECT_FALSE(r.complete(Status{}));
  EXPECT_EQ(r.status().code, ErrorCode::kPeerFailed);
  EXPECT_EQ(r.status().message, "rank 3 died");
}

TEST(Request, WaitRunsTheLoopUntilDone) {
  EventLoop loop(WaitPolicy::kBlock);
  Request r = Request::make_pending(loop);
  loop.add_timer(std::chrono::milliseconds(2), [&] { r.complete(Status{}); });
  Status s = r.wait();
  EXPECT_TRUE(s.ok());
  EXPECT_TRUE(r.done());
}

TEST(Request, WaitOkThrowsTheFailure) {
  EventLoop loop(WaitPolicy::kSpin);
  Request r = Request::make_pending(loop);
  loop.defer([&] { r.complete(Status::failure(ErrorCode::kTruncated, "too big")); });
  try {
    r.wait_ok();
    FAIL() << "wait_ok did not throw";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kTruncated);
    EXPECT_STREQ(e.what(), "too big");
  }
}

TEST(Request, NullRequestIsDoneAndOk) {
  Request r;
  EXPECT_FALSE(r.valid());
  EXPECT_TRUE(r.done());
  EXPECT_TRUE(r.wait().ok());
  EXPECT_EQ(r.loop(), nullptr);
  EXPECT_THROW(r.complete(Status{}), Error);
}

TEST(Request, WaitInsideACallbackIsRefused) {
  EventLoop loop(WaitPolicy::kSpin);
  Request outer = Request::make_pending(loop);
  Request inner = Request::make_pending(loop);
  bool refused = false;
  outer.on_complete([&](const Status&) {
    try {
      inner.wait();
    } catch (const Error& e) {
      refused = e.code() == ErrorCode::kInvalidArgument;
    }
  });
  outer.complete(Status{});
  loop.poll();
  EXPECT_TRUE(refused);
}

TEST(Request, WhenAllCompletesAfterTheLastWithTheFirstFailure) {
  EventLoop loop(WaitPolicy::kSpin);
  std::vector<Request> parts{Request::make_pending(loop), Request::make_pending(loop),
                             Request::make_pending(loop), Request()};
  Request all = when_all(loop, parts);
  parts[1].complete(Status::failure(ErrorCode::kTransport, "first"));
  parts[0].complete(Status{});
  loop.poll();
  EXPECT_FALSE(all.done());
  parts[2].complete(Status::failure(ErrorCode::kTimeout, "second"));
  loop.poll();
  ASSERT_TRUE(all.done());
  EXPECT_EQ(all.status().code, ErrorCode::kTransport);
  EXPECT_EQ(all.status().message, "first");
}

TEST(Request, WhenAllOfNothingIsDone) {
  EventLoop loop(WaitPolicy::kSpin);
  Request all = when_all(loop, {});
  EXPECT_TRUE(all.done());
  EXPECT_TRUE(all.status().ok());
}

TEST(Request, WaitAllReturnsTheFirstFailure) {
  EventLoop loop(WaitPolicy::kSpin);
  std::vector<Request> rs{Request::make_pending(loop), Request::make_pending(loop)};
  rs[0].complete(Status{});
  rs[1].complete(Status::failure(ErrorCode::kCancelled, "cancelled"));
  Status s = wait_all(rs);
  EXPECT_EQ(s.code, ErrorCode::kCancelled);
}

TEST(Request, FailAllPendingFailsOnlyPendingOnes) {
  EventLoop loop(WaitPolicy::kSpin);
  Request done = Request::make_pending(loop);
  done.complete(Status{});
  Request a = Request::make_pending(loop);
  Request b = Request::make_pending(loop);
  EXPECT_EQ(loop.pending_count(), 2u);
  int callbacks = 0;
  b.on_complete([&](const Status& s) {
    EXPECT_EQ(s.code, ErrorCode::kPeerFailed);
    ++callbacks;
  });
  loop.fail_all_pending(Status::failure(ErrorCode::kPeerFailed, "rank 1 exited"));
  EXPECT_EQ(loop.pending_count(), 0u);
  EXPECT_TRUE(done.status().ok());
  EXPECT_EQ(a.status().code, ErrorCode::kPeerFailed);
  EXPECT_EQ(a.status().message, "rank 1 exited");
  loop.poll();
  EXPECT_EQ(callbacks, 1);
}

// A collective engine's request: the loop's wholesale failure leaves it to its producer, who
// completes it once its children have drained.
TEST(Request, DrainedRequestIsLeftToItsProducer) {
  EventLoop loop(WaitPolicy::kSpin);
  Request engine = Request::make_pending_drained(loop);
  EXPECT_EQ(loop.pending_count(), 0u);
  loop.fail_all_pending(Status::failure(ErrorCode::kPeerFailed, "rank 1 exited"));
  EXPECT_FALSE(engine.done());
  EXPECT_TRUE(engine.complete(Status::failure(ErrorCode::kPeerFailed, "children drained")));
  EXPECT_EQ(engine.status().message, "children drained");
}

// A driver that ends the operation at its first drive() (with a failure of its own), or gives up.
class CountingDriver final : public WaitDriver {
 public:
  explicit CountingDriver(bool ends) : ends_(ends) {}
  void drive(const Request& request) override {
    ++drives;
    if (ends_) request.complete(Status::failure(ErrorCode::kTruncated, "ended by the driver"));
  }
  int drives = 0;

 private:
  bool ends_;
};

// A waiter lets the request's driver run the operation before any loop pass: the driver's own
// outcome is the wait's, and the loop never ran (the deferred task is still there).
TEST(Request, WaitLetsTheDriverEndTheOperation) {
  EventLoop loop(WaitPolicy::kSpin);
  CountingDriver driver(/*ends=*/true);
  Request r = Request::make_pending_drained(loop, driver);
  bool loop_ran = false;
  loop.defer([&] { loop_ran = true; });
  const Status s = r.wait();
  EXPECT_EQ(driver.drives, 1);
  EXPECT_EQ(s.code, ErrorCode::kTruncated);
  EXPECT_EQ(s.message, "ended by the driver");
  EXPECT_FALSE(loop_ran);
}

// A driver that gives up leaves the request to the loop's passes; a completed request is never
// driven.
TEST(Request, WaitFallsBackToTheLoopWhenTheDriverGivesUp) {
  EventLoop loop(WaitPolicy::kSpin);
  CountingDriver driver(/*ends=*/false);
  Request r = Request::make_pending_drained(loop, driver);
  loop.defer([&] { r.complete(Status{}); });
  EXPECT_TRUE(r.wait().ok());
  EXPECT_EQ(driver.drives, 1);
  EXPECT_TRUE(r.wait().ok());
  EXPECT_EQ(driver.drives, 1);
}

TEST(Request, DroppedPendingRequestLeavesTheRegistry) {
  EventLoop loop(WaitPolicy::kSpin);
  {
    Request r = Request::make_pending(loop);
    EXPECT_EQ(loop.pending_count(), 1u);
  }
  EXPECT_EQ(loop.pending_count(), 0u);
}

}  // namespace
}  // namespace halyard
