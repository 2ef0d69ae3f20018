// The progress thread (runtime/progress_thread.hpp) with ranks as threads of this process
// (InProcessFabric): traffic and collectives with the thread on, a collective that completes
// while the application only computes, an idle thread that sleeps, peer failures and the
// collective watchdog reaching an application thread asleep in wait(), callbacks on the
// progress thread that post more work, and switching the thread on and off mid-job.
#include <gtest/gtest.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <thread>
#include <vector>

#include "collectives/collectives.hpp"
#include "runtime/progress_thread.hpp"
#include "tests/core/thread_job.hpp"

namespace halyard {
namespace {

using testing::run_thread_job;
using testing::ThreadJob;
using Clock = std::chrono::steady_clock;

// Element i of the block rank `from` sends to rank `to`.
std::int32_t element(int from, int to, std::size_t i) {
  return static_cast<std::int32_t>(from * 1'000'003 + to * 7919 + static_cast<int>(i % 65521));
}

// Fills send for an alltoall of `count` elements per peer.
std::vector<std::int32_t> alltoall_send(int me, int n, std::size_t count) {
  std::vector<std::int32_t> send(count * static_cast<std::size_t>(n));
  for (int to = 0; to < n; ++to) {
    for (std::size_t i = 0; i < count; ++i) send[to * count + i] = element(me, to, i);
  }
  return send;
}

// Counts elements of recv that differ from what every rank sent to `me`.
std::size_t alltoall_mismatches(const std::vector<std::int32_t>& recv, int me, int n,
                                std::size_t count) {
  std::size_t bad = 0;
  for (int from = 0; from < n; ++from) {
    for (std::size_t i = 0; i < count; ++i) bad += recv[from * count + i] != element(from, me, i);
  }
  return bad;
}

// Busy work that never calls the library; returns a value so it is not optimised away.
double compute_for(std::chrono::microseconds how_long) {
  double x = 1.0;
  const auto end = Clock::now() + how_long;
  while (Clock::now() < end) {
    for (int i = 0; i < 1000; ++i) x = x * 1.0000001 + 1e-9;
  }
  return x;
}

TEST(ProgressThread, PointToPointAndCollectivesWithTheThreadOn) {
  ThreadJob job({0, 0, 1, 1});
  run_thread_job(job, [](Runtime& rt) {
    rt.start_progress_thread();
    ASSERT_TRUE(rt.loop().threaded());
    const Communicator& w = rt.world();
    const int n = w.size(), me = w.rank();
    for (std::size_t count : {std::size_t{1}, std::size_t{70000}}) {
      std::vector<int> out(count), in(count, -1);
      std::iota(out.begin(), out.end(), me * 1000);
      Request r = w.irecv((me + n - 1) % n, 1, in.data(), count * sizeof(int));
      w.send((me + 1) % n, 1, out.data(), count * sizeof(int));
      EXPECT_TRUE(r.wait().ok());
      std::vector<int> expected(count);
      std::iota(expected.begin(), expected.end(), ((me + n - 1) % n) * 1000);
      EXPECT_EQ(in, expected);
    }
    for (std::size_t count : {std::size_t{3}, std::size_t{40000}}) {
      auto send = alltoall_send(me, n, count);
      std::vector<std::int32_t> recv(send.size(), -1);
      alltoall(w, send.data(), recv.data(), count, Datatype::kInt32);
      EXPECT_EQ(alltoall_mismatches(recv, me, n, count), 0u) << count;
    }
    // A split waits inside the lock-holding call: the wait must hand the lock over.
    Communicator half = w.split(me % 2, me);
    int sum = 0, one = 1;
    allreduce(half, &one, &sum, 1, Datatype::kInt32, Op::kSum);
    EXPECT_EQ(sum, 2);
  });
}

// The paper's claim in one test: the collective advances while the application computes and
// makes no library call at all (done() only reads a flag). Without the thread it cannot.
TEST(ProgressThread, NonBlockingAlltoallCompletesWhileTheApplicationOnlyComputes) {
  ThreadJob job({0, 0, 0});
  run_thread_job(job, [](Runtime& rt) {
    const Communicator& w = rt.world();
    const int n = w.size(), me = w.rank();
    const std::size_t count = 256 * 1024;  // 1 MiB per peer
    auto send = alltoall_send(me, n, count);
    std::vector<std::int32_t> recv(send.size(), -1);

    // Control: no thread, no calls, no progress.
    Request idle = ialltoall(w, send.data(), recv.data(), count, Datatype::kInt32);
    compute_for(std::chrono::milliseconds(100));
    EXPECT_FALSE(idle.done()) << "an alltoall completed without any progress being made";
    idle.wait_ok();
    EXPECT_EQ(alltoall_mismatches(recv, me, n, count), 0u);
    barrier(w);

    rt.start_progress_thread();
    std::fill(recv.begin(), recv.end(), -1);
    Request r = ialltoall(w, send.data(), recv.data(), count, Datatype::kInt32);
    const auto deadline = Clock::now() + std::chrono::seconds(20);
    while (!r.done() && Clock::now() < deadline) compute_for(std::chrono::microseconds(200));
    EXPECT_TRUE(r.done()) << "the progress thread did not complete the alltoall in 20 s";
    EXPECT_TRUE(r.wait().ok());
    EXPECT_EQ(alltoall_mismatches(recv, me, n, count), 0u);
  });
}

// Thread CPU time of the progress thread over an idle spell: sleeping in ppoll costs next to
// nothing, a spinning thread would use the whole spell.
TEST(ProgressThread, SleepsWhenIdle) {
  ThreadJob job({0, 0});
  run_thread_job(job, [](Runtime& rt) {
    rt.start_progress_thread();
    barrier(rt.world());
    clockid_t clock{};
    ASSERT_EQ(pthread_getcpuclockid(rt.progress_thread()->native_handle(), &clock), 0);
    auto cpu_now = [&] {
      timespec ts{};
      clock_gettime(clock, &ts);
      return std::chrono::seconds(ts.tv_sec) + std::chrono::nanoseconds(ts.tv_nsec);
    };
    std::this_thread::sleep_for(std::chrono::milliseconds(50));  // past the spin/yield phase
    const auto cpu_before = cpu_now();
    const auto wall_before = Clock::now();
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    const auto cpu = cpu_now() - cpu_before;
    const auto wall = Clock::now() - wall_before;
    std::printf("idle progress thread: %.1f%% of one core\n",
                100.0 * std::chrono::duration<double>(cpu).count() /
                    std::chrono::duration<double>(wall).count());
    EXPECT_LT(cpu * 5, wall) << "the idle progress thread used "
                             << std::chrono::duration<double>(cpu).count() << " s of CPU in "
                             << std::chrono::duration<double>(wall).count() << " s";
  });
}

// Completion callbacks run on the progress thread and may post more work from there.
TEST(ProgressThread, CallbacksRunOnTheProgressThreadAndChainWork) {
  ThreadJob job({0, 1});
  run_thread_job(job, [](Runtime& rt) {
    rt.start_progress_thread();
    const Communicator& w = rt.world();
    const int peer = 1 - w.rank();
    constexpr int kRounds = 200;
    std::vector<int> in(kRounds, -1);
    std::atomic<int> received{0};
    std::atomic<bool> off_main_thread{true};
    const auto main_id = std::this_thread::get_id();
    // Each receive's callback posts the next one: a chain driven only by the progress thread.
    std::function<void(int)> post = [&](int i) {
      w.irecv(peer, 5, &in[static_cast<std::size_t>(i)], sizeof(int), [&, i](const Status& s) {
        if (std::this_thread::get_id() == main_id) off_main_thread = false;
        EXPECT_TRUE(s.ok());
        ++received;
        if (i + 1 < kRounds) post(i + 1);
      });
    };
    post(0);
    for (int i = 0; i < kRounds; ++i) w.send(peer, 5, &i, sizeof(i));
    rt.loop().run_until([&] { return received.load() == kRounds; });
    EXPECT_TRUE(off_main_thread);
    for (int i = 0; i < kRounds; ++i) EXPECT_EQ(in[static_cast<std::size_t>(i)], i);
  });
}

TEST(ProgressThread, PeerFailureWakesAnApplicationThreadAsleepInWait) {
  ThreadJob job({0, 0});
  std::atomic<bool> posted{false};
  run_thread_job(job, [&](Runtime& rt) {
    rt.start_progress_thread();
    const Communicator& w = rt.world();
    if (w.rank() == 0) {
      int v = 0;
      Request r = w.irecv(1, 0, &v, sizeof(v));  // rank 1 never sends
      posted = true;
      Status s = r.wait();
      EXPECT_EQ(s.code, ErrorCode::kPeerFailed);
      EXPECT_EQ(w.isend(1, 0, &v, sizeof(v)).wait().code, ErrorCode::kPeerFailed);
    } else {
      while (!posted) std::this_thread::yield();
      ControlNotice notice{ControlNotice::Kind::kPeerFailed, 1, 3, "rank 1 exited with status 3"};
      job.notify(0, notice);
      job.notify(1, notice);
      rt.loop().run_until([&] { return rt.failure().has_value(); });
      EXPECT_EQ(rt.failure()->code, ErrorCode::kPeerFailed);
    }
  });
}

TEST(ProgressThread, WatchdogFailsAStalledCollectiveWhileTheApplicationWaits) {
  ::setenv("HALYARD_COLL_TIMEOUT", "1", 1);
  ThreadJob job({0, 0});
  std::atomic<bool> failed{false};
  run_thread_job(job, [&](Runtime& rt) {
    rt.start_progress_thread();
    const Communicator& w = rt.world();
    if (w.rank() == 0) {
      int v = 1, out = 0;
      Status s = iallreduce(w, &v, &out, 1, Datatype::kInt32, Op::kSum).wait();  // alone
      EXPECT_EQ(s.code, ErrorCode::kTimeout);
      EXPECT_NE(s.message.find("HALYARD_COLL_TIMEOUT"), std::string::npos) << s.message;
      failed = true;
      // Let rank 1 skip finalize's barrier as if hlaunch had told it.
      job.notify(1, ControlNotice{ControlNotice::Kind::kPeerFailed, 0, 1, "rank 0 timed out"});
    } else {
      rt.loop().run_until([&] { return rt.failure().has_value(); });
    }
  });
  ::unsetenv("HALYARD_COLL_TIMEOUT");
  EXPECT_TRUE(failed);
}

TEST(ProgressThread, StartsAndStopsMidJob) {
  ThreadJob job({0, 1, 1});
  run_thread_job(job, [](Runtime& rt) {
    const Communicator& w = rt.world();
    const int n = w.size(), me = w.rank();
    for (int round = 0; round < 6; ++round) {
      if (round % 2 == 0) {
        rt.start_progress_thread();
      } else {
        rt.stop_progress_thread();
      }
      EXPECT_EQ(rt.loop().threaded(), round % 2 == 0);
      const std::size_t count = 1000 + 20000 * static_cast<std::size_t>(round);
      std::vector<std::int32_t> mine(count, me), all(count * n, -1);
      allgather(w, mine.data(), all.data(), count, Datatype::kInt32);
      for (int r = 0; r < n; ++r) EXPECT_EQ(all[r * count + count - 1], r);
    }
  });
}

TEST(ProgressThread, EnvironmentVariableIsValidated) {
  ::setenv("HALYARD_PROGRESS_THREAD", "yes", 1);
  EXPECT_THROW(ProgressThread::enabled_from_environment(), Error);
  ::setenv("HALYARD_PROGRESS_THREAD", "1", 1);
  EXPECT_TRUE(ProgressThread::enabled_from_environment());
  ::unsetenv("HALYARD_PROGRESS_THREAD");
  EXPECT_FALSE(ProgressThread::enabled_from_environment());
}

}  // namespace
}  // namespace halyard
