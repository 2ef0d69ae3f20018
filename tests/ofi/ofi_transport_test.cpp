// The ofi transport in one process: two or three transports wired through an in-memory store,
// over the provider HALYARD_OFI_PROVIDER names (tcp;ofi_rxm by default here). Each data test
// runs twice: with RMA reads for the rendezvous and with the clear-to-send path.
#include <gtest/gtest.h>
#include <poll.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "tests/ofi/ofi_test_cluster.hpp"
#include "transports/ofi/ofi_transport_impl.hpp"

namespace halyard::testing {
namespace {

constexpr std::size_t kEagerLimit = 64 * 1024;  // the transport's default

// Compares byte by byte and names the first difference (printing 64 MiB vectors helps no one).
::testing::AssertionResult same_bytes(const std::vector<std::uint8_t>& expected,
                                      const std::uint8_t* actual, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    if (expected[i] != actual[i]) {
      return ::testing::AssertionFailure() << "byte " << i << " of " << count << " is "
                                           << int{actual[i]} << ", expected " << int{expected[i]};
    }
  }
  return ::testing::AssertionSuccess();
}

Envelope envelope_for(int source, int tag, std::size_t size) {
  Envelope env;
  env.context = 7;
  env.source = source;
  env.tag = tag;
  env.flags = 0x5a;
  env.size = size;
  return env;
}

class OfiTransportTest : public ::testing::TestWithParam<const char*> {
 protected:
  // HALYARD_OFI_RMA for this instance: "on" (fi_read rendezvous) or "off" (clear-to-send).
  ScopedEnv rma_{"HALYARD_OFI_RMA", std::string(GetParam())};
};

// Sends one message of `size` bytes from rank `from` to rank `to`, delivers it into a buffer of
// `capacity` bytes (with guard bytes behind it) and checks data, envelope and both statuses.
void round_trip(OfiCluster& cluster, int from, int to, std::size_t size, std::size_t capacity,
                int tag) {
  SCOPED_TRACE("size " + std::to_string(size) + " capacity " + std::to_string(capacity));
  const auto payload = pattern(size, static_cast<std::uint32_t>(size + 31 * tag));
  CompletionRecord sent;
  cluster.transport(from).send(to, envelope_for(from, tag, size), payload.data(), sent.callback());
  EXPECT_FALSE(sent.done) << "send() must not complete on the caller's stack";

  ASSERT_TRUE(cluster.await_arrivals(to, 1));
  auto message = std::move(cluster.arrivals(to).front());
  cluster.arrivals(to).pop_front();
  EXPECT_EQ(message->envelope().context, 7u);
  EXPECT_EQ(message->envelope().source, from);
  EXPECT_EQ(message->envelope().tag, tag);
  EXPECT_EQ(message->envelope().flags, 0x5au);
  EXPECT_EQ(message->envelope().size, size);

  constexpr std::size_t kGuard = 64;
  std::vector<std::uint8_t> destination(capacity + kGuard, 0xEE);
  CompletionRecord received;
  message->deliver(destination.data(), capacity, received.callback());
  EXPECT_FALSE(received.done) << "deliver() must not complete on the caller's stack";
  message.reset();  // the runtime may drop the message once delivered
  ASSERT_TRUE(cluster.progress_until([&] { return sent.done && received.done; }));

  EXPECT_TRUE(sent.status.ok()) << sent.status.message;
  EXPECT_EQ(sent.status.bytes, size);
  const std::size_t written = std::min(size, capacity);
  if (capacity < size) {
    EXPECT_EQ(received.status.code, ErrorCode::kTruncated);
    EXPECT_EQ(received.status.message, "message of " + std::to_string(size) +
                                           " bytes truncated to the " + std::to_string(capacity) +
                                           "-byte receive buffer");
  } else {
    EXPECT_TRUE(received.status.ok()) << received.status.message;
  }
  EXPECT_EQ(received.status.bytes, written);
  EXPECT_TRUE(same_bytes(payload, destination.data(), written));
  for (std::size_t i = written; i < destination.size(); ++i) {
    ASSERT_EQ(destination[i], 0xEE) << "byte " << i << " beyond the delivered data was written";
  }
}

TEST_P(OfiTransportTest, EveryMessageSizeArrivesIntact) {
  OfiCluster cluster(2);
  const std::size_t sizes[] = {
      0,        1, 7, 64, 4095, kEagerLimit, kEagerLimit + 1, 300000 + 3, 1u << 20, (1u << 22) + 5,
      64u << 20};
  int tag = 0;
  for (std::size_t size : sizes) round_trip(cluster, 0, 1, size, size, tag++);
  for (std::size_t size : {std::size_t{100}, std::size_t{200000}})
    round_trip(cluster, 1, 0, size, size, tag++);
}

TEST_P(OfiTransportTest, ChunkedRendezvousArrivesIntact) {
  ScopedEnv chunk("HALYARD_OFI_CHUNK_SIZE", "64K");
  OfiCluster cluster(2);
  round_trip(cluster, 0, 1, (1u << 20) + 17, (1u << 20) + 17, 1);
  round_trip(cluster, 0, 1, (1u << 20) + 17, 300000, 2);  // truncated in the middle of a chunk
}

TEST_P(OfiTransportTest, TruncationOnBothPaths) {
  OfiCluster cluster(2);
  round_trip(cluster, 0, 1, 1000, 10, 1);            // eager
  round_trip(cluster, 0, 1, 1000, 0, 2);             // eager into nothing
  round_trip(cluster, 0, 1, 1u << 20, 4096 + 1, 3);  // rendezvous
  round_trip(cluster, 0, 1, 1u << 20, 0, 4);         // rendezvous into nothing
}

TEST_P(OfiTransportTest, MessagesArriveInSendOrderAcrossBothPaths) {
  OfiCluster cluster(2);
  constexpr int kMessages = 300;
  std::vector<std::vector<std::uint8_t>> payloads;
  std::vector<CompletionRecord> sent(kMessages);
  for (int i = 0; i < kMessages; ++i) {
    // Eager and rendezvous interleaved: a large message must not let later small ones pass.
    const std::size_t size =
        i % 3 == 0 ? kEagerLimit * 4 + static_cast<std::size_t>(i) : static_cast<std::size_t>(i);
    payloads.push_back(pattern(size, static_cast<std::uint32_t>(i)));
  }
  for (int i = 0; i < kMessages; ++i) {
    cluster.transport(0).send(1, envelope_for(0, i, payloads[static_cast<std::size_t>(i)].size()),
                              payloads[static_cast<std::size_t>(i)].data(),
                              sent[static_cast<std::size_t>(i)].callback());
  }
  ASSERT_TRUE(cluster.await_arrivals(1, kMessages));
  auto& arrivals = cluster.arrivals(1);
  for (int i = 0; i < kMessages; ++i)
    ASSERT_EQ(arrivals[static_cast<std::size_t>(i)]->envelope().tag, i);

  // Deliver in reverse order: rendezvous transfers are independent of announcement order.
  std::vector<std::vector<std::uint8_t>> received(kMessages);
  std::vector<CompletionRecord> delivered(kMessages);
  for (int i = kMessages - 1; i >= 0; --i) {
    const auto k = static_cast<std::size_t>(i);
    received[k].resize(payloads[k].size());
    arrivals[k]->deliver(received[k].data(), received[k].size(), delivered[k].callback());
  }
  ASSERT_TRUE(cluster.progress_until([&] {
    return std::all_of(sent.begin(), sent.end(), [](auto& r) { return r.done; }) &&
           std::all_of(delivered.begin(), delivered.end(), [](auto& r) { return r.done; });
  }));
  for (std::size_t k = 0; k < kMessages; ++k) {
    ASSERT_TRUE(sent[k].status.ok()) << sent[k].status.message;
    ASSERT_TRUE(delivered[k].status.ok()) << delivered[k].status.message;
    ASSERT_TRUE(same_bytes(payloads[k], received[k].data(), payloads[k].size())) << "message " << k;
  }
}

// 1000 in flight is what the issue asks for; 6000 outruns the provider's send queue (2048
// entries for tcp;ofi_rxm), so posts meet -FI_EAGAIN and wait in the transport's backlog.
class OfiInFlightTest : public ::testing::TestWithParam<int> {};

TEST_P(OfiInFlightTest, ManyMessagesInFlight) {
  OfiCluster cluster(2);
  const int kMessages = GetParam();
  int sends_done = 0;
  int receives_done = 0;
  std::vector<std::vector<std::uint8_t>> payloads;
  for (int i = 0; i < kMessages; ++i) {
    // Mostly eager, every 50th a rendezvous, so both kinds queue up together.
    payloads.push_back(pattern(i % 50 == 0 ? 100000 : 1024, static_cast<std::uint32_t>(i)));
  }
  for (int i = 0; i < kMessages; ++i) {
    const auto& p = payloads[static_cast<std::size_t>(i)];
    cluster.transport(0).send(1, envelope_for(0, i, p.size()), p.data(), [&](const Status& s) {
      EXPECT_TRUE(s.ok()) << s.message;
      ++sends_done;
    });
  }
  std::vector<std::vector<std::uint8_t>> received(static_cast<std::size_t>(kMessages));
  int next = 0;
  ASSERT_TRUE(cluster.progress_until([&] {
    // Deliver as they come, like the runtime does for posted receives.
    auto& arrivals = cluster.arrivals(1);
    while (!arrivals.empty()) {
      auto message = std::move(arrivals.front());
      arrivals.pop_front();
      EXPECT_EQ(message->envelope().tag, next);
      auto& buffer = received[static_cast<std::size_t>(next++)];
      buffer.resize(message->envelope().size);
      message->deliver(buffer.data(), buffer.size(), [&](const Status& s) {
        EXPECT_TRUE(s.ok()) << s.message;
        ++receives_done;
      });
    }
    return sends_done == kMessages && receives_done == kMessages;
  }));
  for (std::size_t k = 0; k < static_cast<std::size_t>(kMessages); ++k)
    ASSERT_TRUE(same_bytes(payloads[k], received[k].data(), payloads[k].size()));
}

TEST_P(OfiTransportTest, ThreeRanksExchangeWithEveryoneIncludingThemselves) {
  OfiCluster cluster(3);
  for (int from = 0; from < 3; ++from) {
    for (int to = 0; to < 3; ++to) {
      round_trip(cluster, from, to, 100 + static_cast<std::size_t>(from), 200, from * 3 + to);
      round_trip(cluster, from, to, 300000 + static_cast<std::size_t>(to), 300000 + 3,
                 10 + from * 3 + to);
    }
  }
}

// Large eager payloads kept by the runtime take their frame buffer along; more of them than
// there are frame buffers must still arrive intact, and the buffers must come back for reuse.
TEST_P(OfiTransportTest, ManyKeptLargeEagerMessages) {
  OfiCluster cluster(2);
  constexpr int kMessages = 100;  // more than the 32 frame buffers
  std::vector<std::vector<std::uint8_t>> payloads;
  for (int round = 0; round < 2; ++round) {
    payloads.clear();
    for (int i = 0; i < kMessages; ++i)
      payloads.push_back(pattern(kEagerLimit - static_cast<std::size_t>(i),
                                 static_cast<std::uint32_t>(i + 1000 * round)));
    int sends_done = 0;
    for (int i = 0; i < kMessages; ++i) {
      const auto& p = payloads[static_cast<std::size_t>(i)];
      cluster.transport(0).send(1, envelope_for(0, i, p.size()), p.data(), [&](const Status& s) {
        EXPECT_TRUE(s.ok()) << s.message;
        ++sends_done;
      });
    }
    ASSERT_TRUE(cluster.await_arrivals(1, kMessages));
    ASSERT_TRUE(cluster.progress_until([&] { return sends_done == kMessages; }));
    std::vector<std::uint8_t> destination(kEagerLimit);
    for (int i = 0; i < kMessages; ++i) {
      auto message = std::move(cluster.arrivals(1).front());
      cluster.arrivals(1).pop_front();
      ASSERT_EQ(message->envelope().tag, i);
      CompletionRecord delivered;
      message->deliver(destination.data(), destination.size(), delivered.callback());
      ASSERT_TRUE(cluster.progress_until([&] { return delivered.done; }));
      ASSERT_TRUE(delivered.status.ok()) << delivered.status.message;
      const auto& p = payloads[static_cast<std::size_t>(i)];
      ASSERT_EQ(delivered.status.bytes, p.size());
      ASSERT_TRUE(same_bytes(p, destination.data(), p.size()))
          << "message " << i << " of round " << round;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Counts, OfiInFlightTest, ::testing::Values(1000, 6000));

INSTANTIATE_TEST_SUITE_P(Rendezvous, OfiTransportTest, ::testing::Values("on", "off"),
                         [](const auto& instance) {
                           return std::string(instance.param) == "on" ? "RmaRead" : "ClearToSend";
                         });

TEST(OfiTransportSetup, UnknownProviderIsNamedInTheError) {
  ScopedEnv provider("HALYARD_OFI_PROVIDER", "no_such_provider");
  try {
    make_ofi_transport(TransportSettings{in_process_launch_info(0, 1)});
    FAIL() << "expected an Error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kUnsupported);
    EXPECT_NE(std::string(e.what()).find("HALYARD_OFI_PROVIDER='no_such_provider'"),
              std::string::npos)
        << e.what();
  }
}

TEST(OfiTransportSetup, MalformedSettingsAreRejected) {
  ScopedEnv limit("HALYARD_OFI_EAGER_LIMIT", "lots");
  try {
    make_ofi_transport(TransportSettings{in_process_launch_info(0, 1)});
    FAIL() << "expected an Error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    EXPECT_NE(std::string(e.what()).find("HALYARD_OFI_EAGER_LIMIT='lots'"), std::string::npos)
        << e.what();
  }
}

TEST(OfiTransportSetup, SendToUnknownPeerThrows) {
  OfiCluster cluster(2);
  std::uint8_t byte = 1;
  try {
    cluster.transport(0).send(2, envelope_for(0, 0, 1), &byte, {});
    FAIL() << "expected an Error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    EXPECT_STREQ(e.what(), "ofi send: peer 2 is not a rank of this job of 2");
  }
}

TEST(OfiTransportSetup, WaitFdWakesTheReceiver) {
  // In-process ranks do not oversubscribe the machine, so auto would leave the fd out.
  ScopedEnv wait_fd("HALYARD_OFI_WAIT_FD", "on");
  OfiCluster cluster(2);
  const int fd = cluster.transport(1).wait_fd();
  if (fd < 0) GTEST_SKIP() << "provider offers no wait fd";
  // The first message also sets up the connection, which needs both sides to progress.
  round_trip(cluster, 0, 1, 1, 1, 0);
  std::uint8_t byte = 42;
  CompletionRecord sent;
  cluster.transport(0).send(1, envelope_for(0, 0, 1), &byte, sent.callback());
  // Only the sender progresses, so the receiver learns of the message through its fd alone.
  for (long i = 0; i < 1'000'000 && !sent.done; ++i) cluster.transport(0).progress();
  ASSERT_TRUE(sent.done);
  while (cluster.transport(1).prepare_to_block()) {
    pollfd waiter{fd, POLLIN, 0};
    // Generous: the message is already on its way; this only turns a lost wakeup into a failure.
    ASSERT_EQ(::poll(&waiter, 1, 20000), 1) << "wait fd never became readable";
    if (cluster.transport(1).progress() > 0) break;
  }
  ASSERT_TRUE(cluster.await_arrivals(1, 1));
  EXPECT_EQ(cluster.arrivals(1).front()->envelope().size, 1u);
}

// The loop's wait policy and the progress thread are the runtime's: the transport follows the
// settings it is given even where the environment says otherwise.
TEST(OfiTransportSetup, WaitFdFollowsTheRuntimeNotTheEnvironment) {
  const TransportSettings defaults{in_process_launch_info(0, 1)};
  {
    ScopedEnv forced("HALYARD_OFI_WAIT_FD", "on");
    if (make_ofi_transport(defaults)->wait_fd() < 0) GTEST_SKIP() << "provider offers no wait fd";
  }
  {
    ScopedEnv wait("HALYARD_WAIT", "block");
    ScopedEnv thread("HALYARD_PROGRESS_THREAD", "1");
    TransportSettings spinning = defaults;
    spinning.wait_policy = WaitPolicy::kSpin;
    EXPECT_LT(make_ofi_transport(spinning)->wait_fd(), 0);
  }
  ScopedEnv wait("HALYARD_WAIT", "spin");
  ScopedEnv thread("HALYARD_PROGRESS_THREAD", "0");
  TransportSettings threaded = defaults;
  threaded.wait_policy = WaitPolicy::kBlock;
  threaded.progress_thread = true;
  EXPECT_GE(make_ofi_transport(threaded)->wait_fd(), 0);
}

TEST(OfiTransportSetup, SocketProvidersReadRendezvousDataInHalfMebibyteChunks) {
  constexpr std::size_t kHalfMebibyte = std::size_t{512} << 10;
  constexpr std::size_t kWholeMessage = std::size_t{1} << 30;
  EXPECT_EQ(ofi::default_chunk_size("tcp;ofi_rxm"), kHalfMebibyte);
  EXPECT_EQ(ofi::default_chunk_size("tcp"), kHalfMebibyte);
  EXPECT_EQ(ofi::default_chunk_size("net"), kHalfMebibyte);
  EXPECT_EQ(ofi::default_chunk_size("sockets"), kHalfMebibyte);
  EXPECT_EQ(ofi::default_chunk_size("udp;ofi_rxd"), kHalfMebibyte);
  EXPECT_EQ(ofi::default_chunk_size("verbs;ofi_rxm"), kWholeMessage);
  EXPECT_EQ(ofi::default_chunk_size("efa"), kWholeMessage);
  EXPECT_EQ(ofi::default_chunk_size("cxi"), kWholeMessage);
  EXPECT_EQ(ofi::default_chunk_size("tcpx"), kWholeMessage);  // a name is matched whole
  ScopedEnv zero("HALYARD_OFI_CHUNK_SIZE", "0");
  try {
    ofi::Settings::from_environment();
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    EXPECT_NE(std::string(e.what()).find("HALYARD_OFI_CHUNK_SIZE='0'"), std::string::npos)
        << e.what();
  }
}

TEST(OfiTransportSetup, WaitFdOnlyWhenRanksOutnumberCores) {
  ofi::Settings settings;
  // auto: a spinning loop never sleeps; otherwise only oversubscription pays for signalling.
  EXPECT_FALSE(settings.use_wait_fd(WaitPolicy::kBlock, 2, 16));
  EXPECT_FALSE(settings.use_wait_fd(WaitPolicy::kBlock, 16, 16));
  EXPECT_TRUE(settings.use_wait_fd(WaitPolicy::kBlock, 8, 2));
  EXPECT_TRUE(settings.use_wait_fd(WaitPolicy::kYield, 8, 2));
  EXPECT_FALSE(settings.use_wait_fd(WaitPolicy::kSpin, 8, 2));
  // A progress thread must sleep while the application computes.
  EXPECT_TRUE(settings.use_wait_fd(WaitPolicy::kBlock, 2, 16, true));
  EXPECT_FALSE(settings.use_wait_fd(WaitPolicy::kSpin, 2, 16, true));
  settings.wait_fd_mode = ofi::WaitFdMode::kOn;
  EXPECT_TRUE(settings.use_wait_fd(WaitPolicy::kSpin, 2, 16));
  settings.wait_fd_mode = ofi::WaitFdMode::kOff;
  EXPECT_FALSE(settings.use_wait_fd(WaitPolicy::kBlock, 8, 2));
  ScopedEnv bad("HALYARD_OFI_WAIT_FD", "sometimes");
  try {
    ofi::Settings::from_environment();
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    EXPECT_NE(std::string(e.what()).find("HALYARD_OFI_WAIT_FD"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace halyard::testing

namespace halyard::testing {
namespace {

// Messages of at least 1 GiB must work. 1 GiB + 1 moves in 2049 chunks of 512 KiB over socket
// providers, and crosses the 1 GiB chunk over others.
TEST(OfiTransportLarge, OneGibibytePlusOneByte) {
  constexpr std::size_t kSize = (std::size_t{1} << 30) + 1;
  auto expected_byte = [](std::size_t i) {
    return static_cast<std::uint8_t>((i * 131) ^ (i >> 17));
  };
  std::vector<std::uint8_t> source(kSize);
  for (std::size_t i = 0; i < kSize; ++i) source[i] = expected_byte(i);
  std::vector<std::uint8_t> destination(kSize, 0);

  OfiCluster cluster(2);
  CompletionRecord sent;
  CompletionRecord received;
  cluster.transport(0).send(1, envelope_for(0, 3, kSize), source.data(), sent.callback());
  ASSERT_TRUE(cluster.await_arrivals(1, 1));
  cluster.arrivals(1).front()->deliver(destination.data(), kSize, received.callback());
  ASSERT_TRUE(cluster.progress_until([&] { return sent.done && received.done; }));
  ASSERT_TRUE(sent.status.ok()) << sent.status.message;
  ASSERT_TRUE(received.status.ok()) << received.status.message;
  EXPECT_EQ(received.status.bytes, kSize);
  for (std::size_t i = 0; i < kSize; ++i) {
    if (destination[i] != expected_byte(i)) FAIL() << "byte " << i << " differs";
  }
}

}  // namespace
}  // namespace halyard::testing
