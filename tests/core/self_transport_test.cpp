// SelfTransport on its own, and a singleton Runtime (no hlaunch) talking to itself.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <numeric>
#include <vector>

#include "runtime/runtime.hpp"
#include "runtime/self_transport.hpp"

namespace halyard {
namespace {

TEST(SelfTransport, ArrivalsAndCompletionsComeFromProgressOnly) {
  SelfTransport t(0);
  std::vector<std::unique_ptr<IncomingMessage>> arrived;
  t.set_incoming_handler(
      [&](std::unique_ptr<IncomingMessage> m) { arrived.push_back(std::move(m)); });
  std::string data = "ping";
  bool sent = false;
  Envelope env;
  env.size = data.size();
  env.tag = 4;
  t.send(0, env, data.data(), [&](const Status& s) { sent = s.ok(); });
  EXPECT_TRUE(arrived.empty());
  EXPECT_FALSE(t.prepare_to_block());
  t.progress();
  ASSERT_EQ(arrived.size(), 1u);
  EXPECT_TRUE(sent) << "small sends are copied, so they complete before delivery";
  EXPECT_EQ(arrived[0]->envelope().tag, 4);
  std::string out(4, '.');
  bool received = false;
  arrived[0]->deliver(out.data(), out.size(),
                      [&](const Status& s) { received = s.ok() && s.bytes == 4; });
  EXPECT_FALSE(received);
  t.progress();
  EXPECT_TRUE(received);
  EXPECT_EQ(out, "ping");
  EXPECT_TRUE(t.prepare_to_block());
}

TEST(SelfTransport, LargeSendsCompleteOnlyWhenDelivered) {
  SelfTransport t(0);
  std::unique_ptr<IncomingMessage> arrived;
  t.set_incoming_handler([&](std::unique_ptr<IncomingMessage> m) { arrived = std::move(m); });
  std::vector<int> data(SelfTransport::kEagerLimit, 7);  // 4x the eager limit in bytes
  Envelope env;
  env.size = data.size() * sizeof(int);
  bool sent = false;
  t.send(0, env, data.data(), [&](const Status&) { sent = true; });
  for (int i = 0; i < 3; ++i) t.progress();
  ASSERT_TRUE(arrived);
  EXPECT_FALSE(sent);
  data[5] = 9;  // still the sender's buffer: the copy happens at deliver()
  std::vector<int> out(data.size());
  Status got;
  arrived->deliver(out.data(), env.size, [&](const Status& s) { got = s; });
  t.progress();
  EXPECT_TRUE(sent);
  EXPECT_EQ(out, data);
}

TEST(SelfTransport, RefusesOtherRanks) {
  SelfTransport t(2);
  Envelope env;
  EXPECT_THROW(t.send(1, env, nullptr, {}), Error);
}

class SingletonRuntime : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { ::unsetenv("HALYARD_BOOTSTRAP_ADDR"); }
};

TEST_F(SingletonRuntime, IsRankZeroOfOne) {
  Runtime rt;
  EXPECT_TRUE(rt.singleton());
  EXPECT_EQ(rt.rank(), 0);
  EXPECT_EQ(rt.size(), 1);
  EXPECT_EQ(rt.world().rank(), 0);
  EXPECT_EQ(rt.world().size(), 1);
  EXPECT_EQ(rt.topology().size(), 1);
}

TEST_F(SingletonRuntime, BlockingSendToSelfThenReceive) {
  Runtime rt;
  const Communicator& w = rt.world();
  int value = 1234;
  w.send(0, 3, &value, sizeof(value));
  int out = 0;
  Status s = w.recv(0, 3, &out, sizeof(out));
  EXPECT_EQ(out, 1234);
  EXPECT_EQ(s.source, 0);
  EXPECT_EQ(s.tag, 3);
  EXPECT_EQ(s.bytes, sizeof(int));
}

TEST_F(SingletonRuntime, LargeMessageReceivePostedFirst) {
  Runtime rt;
  const Communicator& w = rt.world();
  std::vector<std::uint32_t> in(1 << 20), out(1 << 20, 0);
  std::iota(in.begin(), in.end(), 17u);
  Request r = w.irecv(0, 0, out.data(), out.size() * 4);
  Request s = w.isend(0, 0, in.data(), in.size() * 4);
  EXPECT_TRUE(r.wait().ok());
  EXPECT_TRUE(s.wait().ok());
  EXPECT_EQ(r.status().bytes, in.size() * 4);
  EXPECT_EQ(out, in);
}

TEST_F(SingletonRuntime, TruncatedReceiveFailsSenderSucceeds) {
  Runtime rt;
  const Communicator& w = rt.world();
  char big[32] = "0123456789abcdefghijklmnopqrstu";
  char small[8] = {};
  Request s = w.isend(0, 1, big, sizeof(big));
  Request r = w.irecv(0, 1, small, sizeof(small));
  Status rs = r.wait();
  EXPECT_EQ(rs.code, ErrorCode::kTruncated);
  EXPECT_EQ(rs.bytes, sizeof(small));
  EXPECT_EQ(std::memcmp(small, big, sizeof(small)), 0);
  EXPECT_TRUE(s.wait().ok());
  try {
    w.isend(0, 1, big, sizeof(big));
    w.recv(0, 1, small, sizeof(small));
    FAIL() << "recv did not throw";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kTruncated);
    EXPECT_STREQ(e.what(),
                 "message of 32 bytes (tag 1) truncated to the receive buffer of 8 bytes");
  }
}

TEST_F(SingletonRuntime, InvalidArgumentsNameTheArgument) {
  Runtime rt;
  const Communicator& w = rt.world();
  int x = 0;
  auto message_of = [](auto fn) {
    try {
      fn();
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message_of([&] { w.isend(1, 0, &x, 4); }),
            "isend: peer 1 is not a rank of this communicator (size 1)");
  EXPECT_EQ(message_of([&] { w.isend(0, -5, &x, 4); }),
            "isend: tag -5 is negative (user tags are >= 0)");
  EXPECT_EQ(message_of([&] { w.irecv(0, 0, nullptr, 4); }), "irecv: buffer is null but bytes is 4");
  EXPECT_EQ(message_of([&] { w.irecv(-3, 0, &x, 4); }),
            "irecv: peer -3 is not a rank of this communicator (size 1) nor kAnySource");
  EXPECT_EQ(message_of([&] { w.irecv(0, -2, &x, 4); }),
            "irecv: tag -2 is negative and not kAnyTag (user tags are >= 0)");
  EXPECT_EQ(message_of([&] { w.isend_internal(0, 3, &x, 4); }),
            "isend_internal: tag 3 is not a library tag (< kAnyTag)");
  EXPECT_EQ(message_of([&] { Communicator().rank(); }),
            "rank: the communicator is empty (not a member)");
}

TEST_F(SingletonRuntime, ZeroByteAndAnySourceAnyTag) {
  Runtime rt;
  const Communicator& w = rt.world();
  Request r = w.irecv(kAnySource, kAnyTag, nullptr, 0);
  w.send(0, 77, nullptr, 0);
  Status s = r.wait_ok();
  EXPECT_EQ(s.bytes, 0u);
  EXPECT_EQ(s.tag, 77);
  EXPECT_EQ(s.source, 0);
}

TEST_F(SingletonRuntime, DerivedCommunicators) {
  Runtime rt;
  const Communicator& w = rt.world();
  Communicator d = w.dup();
  EXPECT_NE(d.context(), w.context());
  Communicator none = w.split(-1, 0);
  EXPECT_FALSE(none.valid());
  Communicator node = w.node_comm();
  Communicator leaders = w.leader_comm();
  EXPECT_EQ(node.size(), 1);
  EXPECT_EQ(leaders.size(), 1);
  EXPECT_NE(node.context(), leaders.context());
  EXPECT_NE(node.context(), d.context());
  // The same tag on two communicators does not mix.
  int a = 1, b = 2, got_w = 0, got_d = 0;
  d.send(0, 5, &b, sizeof(b));
  w.send(0, 5, &a, sizeof(a));
  w.recv(0, 5, &got_w, sizeof(got_w));
  d.recv(0, 5, &got_d, sizeof(got_d));
  EXPECT_EQ(got_w, 1);
  EXPECT_EQ(got_d, 2);
}

TEST_F(SingletonRuntime, ActiveMessagesToSelfEagerAndRendezvous) {
  Runtime rt;
  const Communicator& w = rt.world();
  std::vector<std::size_t> sizes;
  std::vector<bool> intact;
  w.register_am_handler(
      3, [&](int source, std::span<const std::byte> header, std::span<const std::byte> payload) {
        EXPECT_EQ(source, 0);
        ASSERT_EQ(header.size(), sizeof(std::uint32_t));
        std::uint32_t seed;
        std::memcpy(&seed, header.data(), sizeof(seed));
        bool ok = true;
        for (std::size_t i = 0; i < payload.size(); ++i) {
          ok = ok && payload[i] == static_cast<std::byte>((seed + i) & 0xff);
        }
        sizes.push_back(payload.size());
        intact.push_back(ok);
      });
  for (std::size_t size : {std::size_t{0}, std::size_t{100}, std::size_t{1} << 20}) {
    std::vector<std::byte> payload(size);
    std::uint32_t seed = static_cast<std::uint32_t>(size % 251);
    for (std::size_t i = 0; i < size; ++i) payload[i] = static_cast<std::byte>((seed + i) & 0xff);
    std::size_t before = sizes.size();
    w.am_send(0, 3, std::as_bytes(std::span(&seed, 1)), payload).wait_ok();
    rt.loop().run_until([&] { return sizes.size() == before + 1; });
  }
  EXPECT_EQ(sizes, (std::vector<std::size_t>{0, 100, std::size_t{1} << 20}));
  EXPECT_EQ(intact, (std::vector<bool>{true, true, true}));
}

TEST_F(SingletonRuntime, FinalizeTwiceAndUseAfterFinalize) {
  Runtime rt;
  Communicator w = rt.world();
  rt.finalize();
  rt.finalize();
  int x = 0;
  try {
    w.isend(0, 0, &x, sizeof(x));
    FAIL() << "isend after finalize did not throw";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "isend: the runtime was finalized");
  }
}

}  // namespace
}  // namespace halyard
