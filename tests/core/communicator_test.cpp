// Communicators across ranks that are threads of this process (InProcessFabric): p2p between
// ranks, any-source, split/dup/node/leader communicators, active messages, peer failure.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <numeric>
#include <vector>

#include "runtime/runtime_services.hpp"
#include "tests/core/thread_job.hpp"

namespace halyard {
namespace {

using testing::run_thread_job;
using testing::ThreadJob;

TEST(Communicator, RingExchangeSmallAndLarge) {
  ThreadJob job({0, 0, 1, 1});
  run_thread_job(job, [](Runtime& rt) {
    const Communicator& w = rt.world();
    int n = w.size(), me = w.rank();
    for (std::size_t count : {std::size_t{1}, std::size_t{100000}}) {
      std::vector<int> out(count), in(count, -1);
      std::iota(out.begin(), out.end(), me * 1000);
      Request r = w.irecv((me + n - 1) % n, 1, in.data(), count * sizeof(int));
      Request s = w.isend((me + 1) % n, 1, out.data(), count * sizeof(int));
      EXPECT_TRUE(r.wait().ok());
      EXPECT_TRUE(s.wait().ok());
      EXPECT_EQ(r.status().source, (me + n - 1) % n);
      std::vector<int> expected(count);
      std::iota(expected.begin(), expected.end(), ((me + n - 1) % n) * 1000);
      EXPECT_EQ(in, expected);
    }
  });
  EXPECT_GT(job.fabric.rendezvous_deliveries(), 0);
}

TEST(Communicator, AnySourceGathersEveryRank) {
  ThreadJob job({0, 0, 0});
  run_thread_job(job, [](Runtime& rt) {
    const Communicator& w = rt.world();
    if (w.rank() == 0) {
      std::vector<int> seen;
      for (int i = 1; i < w.size(); ++i) {
        int v = -1;
        Status s = w.recv(kAnySource, 9, &v, sizeof(v));
        EXPECT_EQ(v, s.source * 11);
        seen.push_back(s.source);
      }
      std::sort(seen.begin(), seen.end());
      EXPECT_EQ(seen, (std::vector<int>{1, 2}));
    } else {
      int v = w.rank() * 11;
      w.send(0, 9, &v, sizeof(v));
    }
  });
}

// A blocking recv whose wait is cut short by an exception (here a source that throws once)
// withdraws its receive: the next message goes to the next receive, never into the buffer of
// the one that was abandoned.
TEST(Communicator, RecvLeftByAnExceptionWithdrawsItsReceive) {
  struct ThrowsOnce final : CompletionSource {
    bool thrown = false;
    int progress() override {
      if (thrown) return 0;
      thrown = true;
      throw Error(ErrorCode::kTransport, "a source failed");
    }
  };
  ThreadJob job({0});
  run_thread_job(job, [](Runtime& rt) {
    const Communicator& w = rt.world();
    ThrowsOnce source;
    EventLoop::SourceId id = w.loop().add_source(source);
    int abandoned = -1;
    try {
      w.recv(0, 5, &abandoned, sizeof abandoned);
      ADD_FAILURE() << "recv returned although nothing was sent";
    } catch (const Error& e) {
      EXPECT_STREQ(e.what(), "a source failed");
    }
    w.loop().remove_source(id);
    int value = 42, received = -1;
    w.send(0, 5, &value, sizeof value);
    Status s = w.recv(0, 5, &received, sizeof received);
    EXPECT_EQ(received, 42);
    EXPECT_EQ(s.bytes, sizeof received);
    EXPECT_EQ(abandoned, -1) << "the withdrawn receive was written";
  });
}

TEST(Communicator, SplitOrdersByKeyAndTranslatesRanks) {
  ThreadJob job({0, 0, 0, 0});
  run_thread_job(job, [](Runtime& rt) {
    const Communicator& w = rt.world();
    // Even and odd ranks, reversed by key.
    Communicator half = w.split(w.rank() % 2, -w.rank());
    ASSERT_TRUE(half.valid());
    EXPECT_EQ(half.size(), 2);
    int expected_rank = w.rank() < 2 ? 1 : 0;
    EXPECT_EQ(half.rank(), expected_rank);
    EXPECT_EQ(half.world_rank(half.rank()), w.rank());
    EXPECT_NE(half.context(), w.context());
    // Exchange within the half; status.source is the half's rank.
    int mine = w.rank(), theirs = -1;
    int peer = 1 - half.rank();
    Request r = half.irecv(peer, 0, &theirs, sizeof(theirs));
    half.send(peer, 0, &mine, sizeof(mine));
    EXPECT_EQ(r.wait().source, peer);
    EXPECT_EQ(theirs, half.world_rank(peer));
    // Negative color: not a member.
    Communicator some = w.split(w.rank() == 3 ? -1 : 0, 0);
    EXPECT_EQ(some.valid(), w.rank() != 3);
    if (some.valid()) {
      EXPECT_EQ(some.size(), 3);
    }
  });
}

// subset(): only the members take part (rank 1 calls nothing collective until the final split),
// in the order listed, on a context of its own.
TEST(Communicator, SubsetInvolvesOnlyItsMembers) {
  ThreadJob job({0, 0, 0, 0});
  run_thread_job(job, [](Runtime& rt) {
    const Communicator& w = rt.world();
    const std::vector<int> members{3, 0, 2};
    if (w.rank() == 1) {
      EXPECT_THROW(w.subset(members), Error);  // not a member: refused before any message
    } else {
      Communicator sub = w.subset(members);
      ASSERT_TRUE(sub.valid());
      EXPECT_EQ(sub.size(), 3);
      EXPECT_EQ(sub.world_rank(sub.rank()), w.rank());
      EXPECT_EQ(sub.world_rank(0), 3);
      EXPECT_EQ(sub.world_rank(2), 2);
      EXPECT_NE(sub.context(), w.context());
      // A ring within the subset; its messages never meet the world's.
      int mine = w.rank(), theirs = -1;
      Request r = sub.irecv((sub.rank() + 2) % 3, 5, &theirs, sizeof(theirs));
      sub.send((sub.rank() + 1) % 3, 5, &mine, sizeof(mine));
      EXPECT_TRUE(r.wait().ok());
      EXPECT_EQ(theirs, sub.world_rank((sub.rank() + 2) % 3));
    }
    EXPECT_THROW(w.subset({0, 0}), Error);  // duplicate member
    // The world still works for everyone afterwards.
    Communicator all = w.split(0, w.rank());
    EXPECT_EQ(all.size(), 4);
  });
}

TEST(Communicator, CollidingTagsOnDifferentCommunicatorsDoNotMix) {
  ThreadJob job({0, 0});
  run_thread_job(job, [](Runtime& rt) {
    const Communicator& w = rt.world();
    Communicator d = w.dup();
    Communicator s = w.split(0, w.rank());
    std::vector<std::uint32_t> contexts{w.context(), d.context(), s.context()};
    std::sort(contexts.begin(), contexts.end());
    EXPECT_EQ(std::unique(contexts.begin(), contexts.end()), contexts.end());
    if (w.rank() == 0) {
      int a = 100, b = 200, c = 300;
      s.send(1, 7, &c, sizeof(c));
      d.send(1, 7, &b, sizeof(b));
      w.send(1, 7, &a, sizeof(a));
    } else {
      int a = 0, b = 0, c = 0;
      w.recv(0, 7, &a, sizeof(a));
      d.recv(0, 7, &b, sizeof(b));
      s.recv(0, 7, &c, sizeof(c));
      EXPECT_EQ(a, 100);
      EXPECT_EQ(b, 200);
      EXPECT_EQ(c, 300);
    }
  });
}

TEST(Communicator, NodeAndLeaderCommunicators) {
  ThreadJob job({0, 1, 0, 1, 2});
  run_thread_job(job, [](Runtime& rt) {
    const Communicator& w = rt.world();
    Communicator node = w.node_comm();
    Communicator leaders = w.leader_comm();
    int my_node = w.topology_of(w.rank()).node_id;
    std::vector<int> expected_members;
    for (int r = 0; r < w.size(); ++r) {
      if (w.topology_of(r).node_id == my_node) expected_members.push_back(r);
    }
    ASSERT_EQ(node.size(), static_cast<int>(expected_members.size()));
    for (int r = 0; r < node.size(); ++r)
      EXPECT_EQ(node.world_rank(r), expected_members[static_cast<std::size_t>(r)]);
    bool leader = expected_members.front() == w.rank();
    EXPECT_EQ(leaders.valid(), leader);
    if (leader) {
      EXPECT_EQ(leaders.size(), 3);
      EXPECT_EQ(leaders.world_rank(0), 0);
      EXPECT_EQ(leaders.world_rank(1), 1);
      EXPECT_EQ(leaders.world_rank(2), 4);
    }
    // The node communicator carries traffic too (a ring within the node).
    int v = w.rank(), got = -1;
    Request r = node.irecv((node.rank() + node.size() - 1) % node.size(), 0, &got, sizeof(got));
    node.send((node.rank() + 1) % node.size(), 0, &v, sizeof(v));
    r.wait_ok();
    EXPECT_EQ(got, node.world_rank((node.rank() + node.size() - 1) % node.size()));
  });
}

// State a layer above keeps on a communicator or a runtime; counts its releases.
struct Probe {
  explicit Probe(std::atomic<int>& count) : released(count) {}
  ~Probe() { ++released; }
  std::atomic<int>& released;
};
struct OtherProbe : Probe {
  using Probe::Probe;
};

TEST(Communicator, AttachmentsGoWithTheLastHandle) {
  ThreadJob job({0, 0});
  std::atomic<int> released{0};
  run_thread_job(job, [&](Runtime& rt) {
    std::atomic<int> mine{0};
    Communicator comm = rt.world().dup();
    EXPECT_EQ(comm.attachment<Probe>(), nullptr);
    auto probe = comm.attach(std::make_shared<Probe>(mine));
    // One per type: a second attach keeps (and returns) the first.
    EXPECT_EQ(comm.attach(std::make_shared<Probe>(mine)), probe);
    EXPECT_EQ(mine.load(), 1);  // the refused one
    comm.attach(std::make_shared<OtherProbe>(mine));
    Communicator copy = comm;
    EXPECT_EQ(copy.attachment<Probe>(), probe);  // handles share one state
    EXPECT_EQ(comm.dup().attachment<Probe>(), nullptr);
    EXPECT_EQ(rt.world().attachment<Probe>(), nullptr);
    probe.reset();
    comm = Communicator();
    EXPECT_EQ(mine.load(), 1);  // `copy` still holds the communicator
    copy = Communicator();
    EXPECT_EQ(mine.load(), 3);
    // The runtime's attachments go when it tears down.
    rt.services().attachments.attach(std::make_shared<Probe>(released));
  });
  EXPECT_EQ(released.load(), 2);
}

TEST(Communicator, ActiveMessagesAcrossRanksEagerAndRendezvous) {
  ThreadJob job({0, 1});
  run_thread_job(job, [](Runtime& rt) {
    const Communicator& w = rt.world();
    Communicator c = w.dup();
    std::vector<std::size_t> received;
    std::vector<std::byte> landing(300000);
    c.register_am_handler(
        1,
        [&](int source, std::span<const std::byte> header, std::span<const std::byte> payload) {
          EXPECT_EQ(source, 1 - c.rank());
          std::uint64_t size = 0;
          std::memcpy(&size, header.data(), sizeof(size));
          EXPECT_EQ(payload.size(), size);
          bool ok = true;
          for (std::size_t i = 0; i < payload.size(); ++i)
            ok = ok && payload[i] == std::byte(i % 253);
          EXPECT_TRUE(ok);
          received.push_back(payload.size());
        },
        [&](int, std::span<const std::byte>, std::size_t bytes) -> void* {
          return bytes <= landing.size() ? landing.data() : nullptr;
        });
    std::vector<Request> sends;
    std::vector<std::vector<std::byte>> payloads;
    for (std::uint64_t size : {std::uint64_t{0}, std::uint64_t{64}, std::uint64_t{300000}}) {
      std::vector<std::byte> p(size);
      for (std::size_t i = 0; i < size; ++i) p[i] = std::byte(i % 253);
      payloads.push_back(std::move(p));
    }
    std::vector<std::uint64_t> headers{0, 64, 300000};
    for (std::size_t i = 0; i < payloads.size(); ++i) {
      sends.push_back(
          c.am_send(1 - c.rank(), 1, std::as_bytes(std::span(&headers[i], 1)), payloads[i]));
    }
    EXPECT_TRUE(wait_all(sends).ok());
    rt.loop().run_until([&] { return received.size() == 3; });
    std::sort(received.begin(), received.end());
    EXPECT_EQ(received, (std::vector<std::size_t>{0, 64, 300000}));
    // Keep this rank's handler alive until the peer is done too.
    rt.bootstrap()->barrier();
  });
}

TEST(Communicator, CallbacksCountManyMessagesInFlight) {
  ThreadJob job({0, 0});
  run_thread_job(job, [](Runtime& rt) {
    const Communicator& w = rt.world();
    constexpr int kCount = 1000;
    std::vector<int> values(kCount);
    int completed = 0;
    std::vector<Request> requests;
    for (int i = 0; i < kCount; ++i) {
      if (w.rank() == 0) {
        values[static_cast<std::size_t>(i)] = i * 3;
        requests.push_back(w.isend(1, i % 10, &values[static_cast<std::size_t>(i)], sizeof(int),
                                   [&](const Status& s) { completed += s.ok(); }));
      } else {
        requests.push_back(w.irecv(0, i % 10, &values[static_cast<std::size_t>(i)], sizeof(int),
                                   [&](const Status& s) { completed += s.ok(); }));
      }
    }
    rt.loop().run_until([&] { return completed == kCount; });
    if (w.rank() == 1) {
      for (int i = 0; i < kCount; ++i) EXPECT_EQ(values[static_cast<std::size_t>(i)], i * 3);
    }
  });
}

// ADAPT's building block: each completion callback posts the next operation; nothing waits
// inside a callback.
TEST(Communicator, CallbacksPostTheNextOperation) {
  ThreadJob job({0, 1});
  run_thread_job(job, [](Runtime& rt) {
    const Communicator& w = rt.world();
    constexpr int kSteps = 200;
    int step = 0;
    std::vector<int> received;
    int value = 0;
    std::function<void()> next;
    next = [&] {
      if (step == kSteps) return;
      if (w.rank() == 0) {
        value = step * 7;
        w.isend(1, 3, &value, sizeof(value), [&](const Status& s) {
          EXPECT_TRUE(s.ok());
          ++step;
          next();
        });
      } else {
        w.irecv(0, 3, &value, sizeof(value), [&](const Status& s) {
          EXPECT_TRUE(s.ok());
          received.push_back(value);
          ++step;
          next();
        });
      }
    };
    next();
    rt.loop().run_until([&] { return step == kSteps; });
    if (w.rank() == 1) {
      ASSERT_EQ(received.size(), static_cast<std::size_t>(kSteps));
      for (int i = 0; i < kSteps; ++i) EXPECT_EQ(received[static_cast<std::size_t>(i)], i * 7);
    }
  });
}

TEST(Communicator, PeerFailureNoticeFailsPendingAndLaterRequests) {
  ThreadJob job({0, 0});
  std::atomic<bool> posted{false};
  run_thread_job(job, [&](Runtime& rt) {
    const Communicator& w = rt.world();
    if (w.rank() == 0) {
      int v = 0;
      Request r = w.irecv(1, 0, &v, sizeof(v));  // rank 1 never sends
      posted = true;
      Status s = r.wait();
      EXPECT_EQ(s.code, ErrorCode::kPeerFailed);
      EXPECT_EQ(s.message, "peer failed: rank 1 exited with status 3");
      Status later = w.isend(1, 0, &v, sizeof(v)).wait();
      EXPECT_EQ(later.code, ErrorCode::kPeerFailed);
    } else {
      while (!posted) std::this_thread::yield();
      // hlaunch tells every rank; the thread standing in for the dead rank hears it too, so
      // that no thread waits for it at finalize's barrier.
      ControlNotice notice{ControlNotice::Kind::kPeerFailed, 1, 3, "rank 1 exited with status 3"};
      job.notify(0, notice);
      job.notify(1, notice);
      rt.loop().run_until([&] { return rt.failure().has_value(); });
      EXPECT_EQ(rt.failure()->code, ErrorCode::kPeerFailed);
    }
  });
}

}  // namespace
}  // namespace halyard
