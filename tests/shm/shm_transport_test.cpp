// The shm transport inside one process: several transports of one node, one progress loop.
#include <gtest/gtest.h>

#include <poll.h>
#include <sys/stat.h>

#include <climits>
#include <filesystem>

#include "tests/shm/shm_test_support.hpp"

namespace halyard::testing {
namespace {

// Sends `size` patterned bytes from `from` to `to`, lets the arrival wait as unexpected, then
// delivers it into a buffer of `capacity` bytes (+ canary) and checks everything.
void send_and_check(LocalNode& node, int from, int to, std::size_t size, std::size_t capacity,
                    std::uint64_t seed) {
  SCOPED_TRACE("size " + std::to_string(size) + " capacity " + std::to_string(capacity) + " from " +
               std::to_string(from) + " to " + std::to_string(to));
  auto src = patterned_buffer(size, seed);
  Envelope env{7, from, static_cast<std::int32_t>(seed), 0, size};
  CompletionRecord sent, received;
  node[from].send(to, env, src.get(), sent.callback());
  ASSERT_TRUE(node.run_until([&] { return !node.arrivals(to).empty(); }));
  auto message = std::move(node.arrivals(to).front());
  node.arrivals(to).pop_front();
  EXPECT_EQ(message->envelope().context, 7u);
  EXPECT_EQ(message->envelope().source, from);
  EXPECT_EQ(message->envelope().tag, static_cast<std::int32_t>(seed));
  EXPECT_EQ(message->envelope().size, size);

  constexpr std::size_t kCanary = 64;
  auto dst = std::make_unique<std::byte[]>(capacity + kCanary);
  std::memset(dst.get(), 0xAB, capacity + kCanary);
  message->deliver(dst.get(), capacity, received.callback());
  EXPECT_FALSE(received.done) << "completion ran inside deliver()";
  ASSERT_TRUE(node.run_until([&] { return sent.done && received.done; }));

  EXPECT_TRUE(sent.status.ok()) << sent.status.message;
  EXPECT_EQ(sent.status.bytes, size);
  std::size_t moved = std::min(size, capacity);
  if (capacity < size) {
    EXPECT_EQ(received.status.code, ErrorCode::kTruncated);
    EXPECT_EQ(received.status.message, "shm: message of " + std::to_string(size) +
                                           " bytes truncated to the " + std::to_string(capacity) +
                                           "-byte receive buffer");
  } else {
    EXPECT_TRUE(received.status.ok()) << received.status.message;
  }
  EXPECT_EQ(received.status.bytes, moved);
  EXPECT_EQ(first_mismatch(dst.get(), moved, seed), moved) << "payload differs";
  for (std::size_t i = moved; i < capacity + kCanary; ++i) {
    ASSERT_EQ(dst[i], std::byte{0xAB}) << "byte " << i << " past the message was written";
  }
}

class ShmSingleCopyMode : public ::testing::TestWithParam<const char*> {};

TEST_P(ShmSingleCopyMode, EverySizeArrivesByteExact) {
  ScopedEnv mode("HALYARD_SHM_SINGLE_COPY", GetParam());
  // Three ranks may outnumber the CPUs, where "auto" would not share.
  ScopedEnv shared("HALYARD_SHM_SHARED_COPY", "on");
  LocalNode node(3);
  const std::size_t eager = node.shm(0).eager_limit();
  const std::size_t cell = 4096 - 32;
  std::vector<std::size_t> sizes = {
      0,         1,     8,         cell - 1, cell,     cell + 1,       3 * 4096,
      eager - 1, eager, eager + 1, 100'000,  1u << 20, (5u << 20) + 3, 64u << 20};
  std::uint64_t seed = 1;
  for (std::size_t size : sizes) send_and_check(node, 0, 1, size, size, seed++);
  for (std::size_t size : {std::size_t{13}, eager + 5, std::size_t{3} << 20}) {
    send_and_check(node, 2, 0, size, size, seed++);
    send_and_check(node, 1, 1, size, size, seed++);  // to itself
  }
  bool staged = std::string(GetParam()) == "none";
  EXPECT_EQ(node.shm(1).stats().staged_pulls > 0, staged);
  EXPECT_EQ(node.shm(1).stats().cma_pulls > 0, !staged);
  // Once CMA has worked, the large pulls are shared with the sender, whose loop (the same one
  // here) pushes some of their chunks.
  EXPECT_EQ(node.shm(1).stats().shared_pulls > 0, !staged);
  EXPECT_EQ(node.shm(0).stats().chunks_pushed > 0, !staged);
}

TEST(ShmTransport, SharedCopyOffMeansTheReceiverCopiesAlone) {
  ScopedEnv off("HALYARD_SHM_SHARED_COPY", "off");
  LocalNode node(2);
  std::uint64_t seed = 40;
  for (std::size_t size : {std::size_t{1} << 20, (std::size_t{9} << 20) + 5}) {
    send_and_check(node, 0, 1, size, size, seed++);
  }
  EXPECT_EQ(node.shm(1).stats().cma_pulls, 2u);
  EXPECT_EQ(node.shm(1).stats().shared_pulls, 0u);
  EXPECT_EQ(node.shm(0).stats().chunks_pushed, 0u);
}

TEST_P(ShmSingleCopyMode, TwoHundredFiftySixMebibytes) {
  ScopedEnv mode("HALYARD_SHM_SINGLE_COPY", GetParam());
  LocalNode node(2);
  send_and_check(node, 1, 0, std::size_t{256} << 20, std::size_t{256} << 20, 99);
}

TEST_P(ShmSingleCopyMode, TruncationOnEagerAndRendezvousPaths) {
  ScopedEnv mode("HALYARD_SHM_SINGLE_COPY", GetParam());
  LocalNode node(2);
  const std::size_t eager = node.shm(0).eager_limit();
  send_and_check(node, 0, 1, 1000, 10, 5);
  send_and_check(node, 0, 1, eager, 0, 6);
  send_and_check(node, 0, 1, 3u << 20, 100'000, 7);
  send_and_check(node, 0, 1, 3u << 20, 0, 8);
  send_and_check(node, 1, 1, eager + 1, eager, 9);
}

INSTANTIATE_TEST_SUITE_P(Modes, ShmSingleCopyMode, ::testing::Values("auto", "cma", "none"),
                         [](const auto& param_info) { return std::string(param_info.param); });

TEST(ShmTransport, DeliverFromInsideTheHandlerCopiesStraightFromTheRing) {
  LocalNode node(2);
  const std::size_t eager = node.shm(0).eager_limit();
  for (std::size_t size : {std::size_t{24}, eager, std::size_t{2} << 20}) {
    auto src = patterned_buffer(size, size);
    auto dst = std::make_unique<std::byte[]>(size);
    CompletionRecord sent, received;
    // A receive already posted: the runtime delivers during the announcement.
    node.on_arrival[1] = [&](std::unique_ptr<IncomingMessage> m) {
      m->deliver(dst.get(), size, received.callback());
    };
    node[0].send(1, Envelope{1, 0, 3, 0, size}, src.get(), sent.callback());
    ASSERT_TRUE(node.run_until([&] { return sent.done && received.done; }));
    EXPECT_TRUE(received.status.ok()) << received.status.message;
    EXPECT_EQ(first_mismatch(dst.get(), size, size), size);
  }
}

TEST(ShmTransport, FullRingQueuesTheSenderAndLosesNothing) {
  ScopedEnv cells("HALYARD_SHM_RING_CELLS", "64");
  LocalNode node(2);
  constexpr int kMessages = 10000;
  std::vector<std::uint64_t> payload(kMessages);
  int completed = 0;
  for (int i = 0; i < kMessages; ++i) {
    payload[static_cast<std::size_t>(i)] = 0x5eed0000ull + static_cast<std::uint64_t>(i);
    node[0].send(1, Envelope{2, 0, i, 0, sizeof(std::uint64_t)},
                 &payload[static_cast<std::size_t>(i)], [&completed](const Status& s) {
                   EXPECT_TRUE(s.ok());
                   ++completed;
                 });
  }
  // The receiver has not looked yet: exactly one ring's worth went out, the rest waits.
  for (int i = 0; i < 10; ++i) node[0].progress();
  EXPECT_EQ(completed, 64);
  EXPECT_EQ(node.shm(0).stats().backlog_high_water, static_cast<std::size_t>(kMessages - 64));

  // A slow receiver: it polls once per three sender passes and delivers a few at a time.
  std::vector<std::uint64_t> got;
  int pass = 0;
  auto all_done = [&] { return completed == kMessages && got.size() == kMessages; };
  for (long guard = 0; guard < 10'000'000 && !all_done(); ++guard) {
    node[0].progress();
    if (++pass % 3 != 0) continue;
    node[1].progress();
    for (int k = 0; k < 5 && !node.arrivals(1).empty(); ++k) {
      auto m = std::move(node.arrivals(1).front());
      node.arrivals(1).pop_front();
      ASSERT_EQ(m->envelope().tag, static_cast<int>(got.size())) << "out of order";
      std::uint64_t value = 0;
      m->deliver(&value, sizeof value, [](const Status& s) { EXPECT_TRUE(s.ok()); });
      got.push_back(value);
    }
  }
  ASSERT_TRUE(all_done()) << completed << " sent, " << got.size() << " received";
  for (int i = 0; i < kMessages; ++i)
    ASSERT_EQ(got[static_cast<std::size_t>(i)], payload[static_cast<std::size_t>(i)]);
}

TEST(ShmTransport, EveryPairKeepsItsOrderUnderMixedTraffic) {
  LocalNode node(4);
  const std::size_t eager = node.shm(0).eager_limit();
  const std::size_t sizes[] = {0, 100, eager, eager + 1, 70'000, 5000};
  constexpr int kRounds = 12;
  std::vector<std::unique_ptr<std::byte[]>> sources;
  int sends_done = 0, expected_sends = 0;
  for (int round = 0; round < kRounds; ++round) {
    for (int from = 0; from < 4; ++from) {
      for (int to = 0; to < 4; ++to) {
        std::size_t size = sizes[static_cast<std::size_t>(round + from + to) % std::size(sizes)];
        std::uint64_t seed = static_cast<std::uint64_t>(round * 16 + from * 4 + to);
        sources.push_back(patterned_buffer(size, seed));
        node[from].send(to, Envelope{0, from, round, 0, size}, sources.back().get(),
                        [&](const Status& s) {
                          EXPECT_TRUE(s.ok()) << s.message;
                          ++sends_done;
                        });
        ++expected_sends;
      }
    }
  }
  int next_round[4][4] = {};
  int receives_done = 0, expected_receives = 4 * 4 * kRounds;
  std::vector<std::unique_ptr<std::byte[]>> sinks;
  for (int r = 0; r < 4; ++r) {
    node.on_arrival[static_cast<std::size_t>(r)] = [&, r](std::unique_ptr<IncomingMessage> m) {
      const Envelope& e = m->envelope();
      EXPECT_EQ(e.tag, next_round[e.source][r]++) << "from " << e.source << " to " << r;
      std::size_t size = e.size;
      std::uint64_t seed = static_cast<std::uint64_t>(e.tag * 16 + e.source * 4 + r);
      sinks.push_back(std::make_unique<std::byte[]>(size + 1));
      std::byte* dst = sinks.back().get();
      m->deliver(dst, size, [&, dst, size, seed](const Status& s) {
        EXPECT_TRUE(s.ok()) << s.message;
        EXPECT_EQ(first_mismatch(dst, size, seed), size);
        ++receives_done;
      });
    };
  }
  ASSERT_TRUE(node.run_until(
      [&] { return sends_done == expected_sends && receives_done == expected_receives; }));
}

TEST(ShmTransport, InvalidArgumentsNameTheArgument) {
  LocalNode node(2);
  char byte = 0;
  try {
    node[0].send(5, Envelope{0, 0, 0, 0, 1}, &byte, nullptr);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    EXPECT_STREQ(e.what(), "shm: peer 5 is not a rank on this node");
  }
  try {
    node[0].send(1, Envelope{0, 0, 0, 0, 16}, nullptr, nullptr);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    EXPECT_STREQ(e.what(), "shm: buf is null for a message of 16 bytes");
  }
  {
    ScopedEnv cells("HALYARD_SHM_RING_CELLS", "-3");
    try {
      make_shm_transport(in_process_launch_info(0, 1));
      FAIL() << "no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
      EXPECT_STREQ(e.what(), "HALYARD_SHM_RING_CELLS=-3 is not valid: expected 4..65536");
    }
  }
  {
    ScopedEnv slots("HALYARD_SHM_STAGING_SLOTS", "12");
    try {
      make_shm_transport(in_process_launch_info(0, 1));
      FAIL() << "no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
      EXPECT_STREQ(e.what(), "HALYARD_SHM_STAGING_SLOTS=12 is not valid: expected a power of two");
    }
  }
  ScopedEnv bad("HALYARD_SHM_SINGLE_COPY", "knem");
  try {
    make_shm_transport(in_process_launch_info(0, 1));
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    EXPECT_NE(std::string(e.what()).find("HALYARD_SHM_SINGLE_COPY='knem'"), std::string::npos)
        << e.what();
  }
}

TEST(ShmTransport, SegmentIsAnonymousAndPrivateToTheUser) {
  LocalNode node(2);
  int found = 0;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
    std::error_code ec;
    std::string target = std::filesystem::read_symlink(entry.path(), ec).string();
    if (ec || target.find("halyard-" + node.job_id() + "-node0") == std::string::npos) continue;
    ++found;
    EXPECT_NE(target.find("/memfd:"), std::string::npos) << target;
    struct stat st {};
    ASSERT_EQ(::stat(entry.path().c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0600u) << target;
  }
  EXPECT_EQ(found, 1) << "the creator keeps exactly one descriptor of the segment";
  for (const auto& entry : std::filesystem::directory_iterator("/dev/shm")) {
    EXPECT_EQ(entry.path().filename().string().find(node.job_id()), std::string::npos);
  }
}

TEST(ShmTransport, SleepingReceiverIsWokenBySender) {
  LocalNode node(2);
  int fd = node[1].wait_fd();
  ASSERT_GE(fd, 0);
  node.progress_all();
  ASSERT_TRUE(node[1].prepare_to_block()) << "idle transport refused to sleep";
  std::uint64_t value = 42;
  node[0].send(1, Envelope{0, 0, 0, 0, sizeof value}, &value, nullptr);
  pollfd p{fd, POLLIN, 0};
  // The generous timeout only guards against a hang; the wake-up must come from the send.
  ASSERT_EQ(::poll(&p, 1, 20'000), 1);
  EXPECT_TRUE(p.revents & POLLIN);
  EXPECT_GT(node[1].progress(), 0);
  ASSERT_EQ(node.arrivals(1).size(), 1u);
  // With a message waiting, the transport must not agree to sleep.
  node[0].send(1, Envelope{0, 0, 1, 0, sizeof value}, &value, nullptr);
  EXPECT_FALSE(node[1].prepare_to_block());
}

}  // namespace
}  // namespace halyard::testing
