// EventLoop: deferred callbacks, timers, sources, back-off to a blocking wait on a source's fd,
// and the HALYARD_WAIT setting.
#include <gtest/gtest.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <thread>
#include <vector>

#include "runtime/event_loop.hpp"
#include "runtime/request.hpp"

namespace halyard {
namespace {

TEST(EventLoop, DeferredCallbacksRunInOrderOnThePass) {
  EventLoop loop(WaitPolicy::kSpin);
  std::vector<int> order;
  loop.defer([&] { order.push_back(1); });
  loop.defer([&] { order.push_back(2); });
  EXPECT_TRUE(order.empty());
  EXPECT_EQ(loop.poll(), 2);
  EXPECT_EQ(order, (std::vector<int>{1, 2}));
  EXPECT_EQ(loop.poll(), 0);
}

TEST(EventLoop, WorkDeferredByADeferredCallbackWaitsForTheNextPass) {
  EventLoop loop(WaitPolicy::kSpin);
  int runs = 0;
  loop.defer([&] {
    ++runs;
    loop.defer([&] { ++runs; });
  });
  loop.poll();
  EXPECT_EQ(runs, 1);
  loop.poll();
  EXPECT_EQ(runs, 2);
}

TEST(EventLoop, TimersRunInDeadlineOrderAndCanBeCancelled) {
  EventLoop loop(WaitPolicy::kBlock);
  std::vector<int> order;
  loop.add_timer(std::chrono::milliseconds(6), [&] { order.push_back(3); });
  auto cancelled = loop.add_timer(std::chrono::milliseconds(1), [&] { order.push_back(99); });
  loop.add_timer(std::chrono::milliseconds(2), [&] { order.push_back(2); });
  loop.add_timer(std::chrono::milliseconds(0), [&] { order.push_back(1); });
  EXPECT_TRUE(loop.cancel_timer(cancelled));
  EXPECT_FALSE(loop.cancel_timer(cancelled));
  loop.run_until([&] { return order.size() == 3; });
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3}));
}

// A source that reports one event each time its eventfd was written, and counts how often the
// loop got ready to sleep on it.
class EventFdSource final : public CompletionSource {
 public:
  EventFdSource() : fd_(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {}
  ~EventFdSource() override { ::close(fd_); }
  void signal() {
    std::uint64_t one = 1;
    ASSERT_EQ(::write(fd_, &one, sizeof(one)), 8);
  }
  int progress() override {
    std::uint64_t n = 0;
    if (::read(fd_, &n, sizeof(n)) != 8) return 0;
    events += static_cast<int>(n);
    return static_cast<int>(n);
  }
  int wait_fd() override { return fd_; }
  bool prepare_to_block() override {
    ++prepared;
    return true;
  }
  std::atomic<int> events{0};
  std::atomic<int> prepared{0};

 private:
  int fd_;
};

TEST(EventLoop, BlockPolicySleepsOnTheWaitFdAndWakesWhenItIsWritten) {
  EventLoop loop(WaitPolicy::kBlock);
  EventFdSource source;
  loop.add_source(source);
  std::atomic<bool> blocked{false};
  std::thread writer([&] {
    // Only signal once the loop has reached the blocking stage at least once.
    while (source.prepared.load() == 0) std::this_thread::yield();
    blocked = true;
    source.signal();
  });
  loop.run_until([&] { return source.events.load() == 1; });
  writer.join();
  EXPECT_TRUE(blocked.load());
  EXPECT_EQ(source.events.load(), 1);
}

TEST(EventLoop, SpinPolicyNeverPreparesToBlock) {
  EventLoop loop(WaitPolicy::kSpin);
  EventFdSource source;
  loop.add_source(source);
  int passes = 0;
  loop.run_until([&] { return ++passes > 5 * (EventLoop::kSpinPasses + EventLoop::kYieldPasses); });
  EXPECT_EQ(source.prepared.load(), 0);
}

TEST(EventLoop, YieldPolicyNeverPreparesToBlock) {
  EventLoop loop(WaitPolicy::kYield);
  EventFdSource source;
  loop.add_source(source);
  int passes = 0;
  loop.run_until([&] { return ++passes > 2 * (EventLoop::kSpinPasses + EventLoop::kYieldPasses); });
  EXPECT_EQ(source.prepared.load(), 0);
}

TEST(EventLoop, BusyPollBudgetPollsThatLongBeforeItSleeps) {
  EventLoop loop(WaitPolicy::kBlock);
  loop.set_busy_poll(std::chrono::milliseconds(50));
  EventFdSource source;
  loop.add_source(source);
  // Far more idle passes than the pass counts of the back-off, all within the budget: the
  // loop never prepares to sleep.
  const auto started = EventLoop::Clock::now();
  int passes = 0;
  loop.run_until([&] {
    return ++passes > 20 * (EventLoop::kSpinPasses + EventLoop::kYieldPasses) &&
           EventLoop::Clock::now() - started > std::chrono::milliseconds(5);
  });
  if (EventLoop::Clock::now() - started < std::chrono::milliseconds(40)) {
    EXPECT_EQ(source.prepared.load(), 0);
  }
  // Past the budget it sleeps on the wait fd as before.
  std::thread writer([&] {
    while (source.prepared.load() == 0) std::this_thread::yield();
    source.signal();
  });
  loop.run_until([&] { return source.events.load() == 1; });
  writer.join();
  EXPECT_GE(EventLoop::Clock::now() - started, std::chrono::milliseconds(50));
}

TEST(EventLoop, BusyPollBudgetFromEnvironment) {
  ::unsetenv("HALYARD_WAIT_SPIN_US");
  EXPECT_EQ(busy_poll_from_environment(2, 2), std::chrono::microseconds(1000));
  // Ranks that outnumber the CPUs must sleep to let each other run.
  EXPECT_EQ(busy_poll_from_environment(8, 2), std::chrono::microseconds(0));
  ::setenv("HALYARD_WAIT_SPIN_US", "250", 1);
  EXPECT_EQ(busy_poll_from_environment(16, 16), std::chrono::microseconds(250));
  EXPECT_EQ(busy_poll_from_environment(17, 16), std::chrono::microseconds(0));
  ::setenv("HALYARD_WAIT_SPIN_US", "-1", 1);
  EXPECT_THROW(busy_poll_from_environment(1, 2), Error);
  ::setenv("HALYARD_WAIT_SPIN_US", "soon", 1);
  EXPECT_THROW(busy_poll_from_environment(1, 2), Error);
  ::unsetenv("HALYARD_WAIT_SPIN_US");
}

// A source without a wait fd still progresses while the loop blocks (bounded sleeps).
class CountdownSource final : public CompletionSource {
 public:
  explicit CountdownSource(int polls) : left(polls) {}
  int progress() override {
    if (left > 0) --left;
    return 0;  // reports nothing, so the loop backs off all the way
  }
  bool prepare_to_block() override { return true; }
  int left;
};

TEST(EventLoop, SourcesWithoutAWaitFdAreStillPolledWhileBlocking) {
  EventLoop loop(WaitPolicy::kBlock);
  CountdownSource source(EventLoop::kSpinPasses + EventLoop::kYieldPasses + 20);
  loop.add_source(source);
  loop.run_until([&] { return source.left == 0; });
  EXPECT_EQ(source.left, 0);
}

TEST(EventLoop, RemovedSourcesAreNotPolled) {
  EventLoop loop(WaitPolicy::kSpin);
  CountdownSource source(100);
  auto id = loop.add_source(source);
  loop.poll();
  EXPECT_EQ(source.left, 99);
  loop.remove_source(id);
  loop.poll();
  EXPECT_EQ(source.left, 99);
}

TEST(EventLoop, RunUntilFromInsideACallbackIsRefused) {
  EventLoop loop(WaitPolicy::kSpin);
  std::string message;
  loop.defer([&] {
    try {
      loop.run_until([] { return true; });
    } catch (const Error& e) {
      message = e.what();
    }
  });
  loop.poll();
  EXPECT_EQ(message,
            "EventLoop: cannot wait from inside a completion callback; attach a callback with "
            "on_complete() instead");
}

TEST(EventLoop, WaitPolicyFromEnvironment) {
  ::setenv("HALYARD_WAIT", "spin", 1);
  EXPECT_EQ(wait_policy_from_environment(), WaitPolicy::kSpin);
  ::setenv("HALYARD_WAIT", "YIELD", 1);
  EXPECT_EQ(wait_policy_from_environment(), WaitPolicy::kYield);
  ::unsetenv("HALYARD_WAIT");
  EXPECT_EQ(wait_policy_from_environment(), WaitPolicy::kBlock);
  ::setenv("HALYARD_WAIT", "sleep", 1);
  EXPECT_THROW(wait_policy_from_environment(), Error);
  ::unsetenv("HALYARD_WAIT");
}

TEST(EventLoop, DiscardPendingWorkDropsCallbacksAndTimers) {
  EventLoop loop(WaitPolicy::kSpin);
  bool ran = false;
  loop.defer([&] { ran = true; });
  loop.add_timer(std::chrono::nanoseconds(0), [&] { ran = true; });
  loop.discard_pending_work();
  loop.poll();
  EXPECT_FALSE(ran);
}

}  // namespace
}  // namespace halyard
