// The bootstrap server against strangers and garbage: a real BootstrapServer on loopback, raw
// sockets playing the stranger, and a real BootstrapClient showing the job still works after.
#include <gtest/gtest.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>

#include <chrono>
#include <cstdlib>
#include <future>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "launcher/bootstrap_server.hpp"
#include "runtime/bootstrap/bootstrap_client.hpp"
#include "runtime/bootstrap/control_messages.hpp"
#include "runtime/bootstrap/hello_proof.hpp"
#include "runtime/support/error.hpp"

namespace halyard::launcher {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;

const std::string kToken = "0123456789abcdef0123456789abcdef";
constexpr int kRanks = 2;

// A server on its own io_context thread, like hlaunch's.
class RunningServer {
 public:
  RunningServer() : work_(asio::make_work_guard(io_)), server_(io_, kRanks, kToken, {}) {
    server_.start();
    address_ = server_.address();
    thread_ = std::thread([this] { io_.run(); });
  }
  ~RunningServer() {
    std::promise<void> stopped;
    asio::post(io_, [&] {
      server_.stop();
      stopped.set_value();
    });
    stopped.get_future().wait();
    work_.reset();
    io_.stop();
    thread_.join();
  }
  const std::string& address() const { return address_; }
  unsigned short port() const {
    return static_cast<unsigned short>(std::stoi(address_.substr(address_.rfind(':') + 1)));
  }

 private:
  asio::io_context io_;
  asio::executor_work_guard<asio::io_context::executor_type> work_;
  BootstrapServer server_;
  std::string address_;
  std::thread thread_;
};

// A raw connection: what a stranger can do. It reads the server's challenge on connecting.
class Stranger {
 public:
  explicit Stranger(unsigned short port) : socket_(io_) {
    socket_.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
    control::Frame challenge = read_frame();
    EXPECT_EQ(challenge.type, control::FrameType::kChallenge);
    server_nonce_ = control::decode_challenge(challenge.payload).server_nonce;
  }
  // A hello answering this connection's challenge as a rank that knows `token` would.
  std::string hello(const std::string& token, int rank) const {
    const std::string client_nonce(control::kNonceBytes, 'c');
    return control::encode_hello(
        {rank, client_nonce, control::client_proof(token, server_nonce_, rank, client_nonce)});
  }
  void send(const std::string& bytes) {
    boost::system::error_code ec;  // the server may already have closed: that is fine
    asio::write(socket_, asio::buffer(bytes), ec);
  }
  // True when the server closed the connection (EOF or reset) without a byte for us.
  bool closed_by_server() {
    char byte = 0;
    boost::system::error_code ec;
    std::size_t n = socket_.read_some(asio::buffer(&byte, 1), ec);
    return n == 0 && (ec == asio::error::eof || ec == asio::error::connection_reset);
  }
  // Reads until the server closes the connection or `limit` bytes came; returns the bytes read.
  std::size_t read_until_closed(std::size_t limit) {
    std::vector<char> chunk(1 << 16);
    std::size_t total = 0;
    while (total < limit) {
      boost::system::error_code ec;
      total += socket_.read_some(asio::buffer(chunk), ec);
      if (ec) break;
    }
    return total;
  }
  // Reads one whole frame (the server's answer).
  control::Frame read_frame() {
    while (true) {
      if (auto frame = decoder_.next()) return *frame;
      char chunk[256];
      std::size_t n = socket_.read_some(asio::buffer(chunk));
      decoder_.feed(chunk, n);
    }
  }

 private:
  asio::io_context io_;
  tcp::socket socket_;
  control::FrameDecoder decoder_;
  std::string server_nonce_;
};

std::unique_ptr<BootstrapClient> rank_client(const RunningServer& server, int rank) {
  LaunchInfo info;
  info.rank = rank;
  info.size = kRanks;
  info.job_id = "hardening-test";
  info.server = server.address();
  info.token = kToken;
  return BootstrapClient::connect(info);
}

// "code: message" of the Error `call` throws, or "no error".
std::string error_of(auto&& call) {
  try {
    call();
  } catch (const Error& e) {
    return std::string(error_code_name(e.code())) + ": " + e.what();
  }
  return "no error";
}

TEST(BootstrapHardening, ListensOnLoopbackOnly) {
  RunningServer server;
  EXPECT_EQ(server.address().rfind("127.0.0.1:", 0), 0u) << server.address();
}

TEST(BootstrapHardening, WrongTokenIsRefused) {
  RunningServer server;
  Stranger s(server.port());
  s.send(s.hello("not-the-token-not-the-token-0000", 0));
  EXPECT_TRUE(s.closed_by_server());
  LaunchInfo info;
  info.rank = 1;
  info.size = kRanks;
  info.server = server.address();
  info.token = kToken.substr(1) + "x";
  try {
    BootstrapClient::connect(info);
    FAIL() << "a client with a wrong token was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kBootstrap);
    EXPECT_NE(std::string(e.what()).find("refused rank 1"), std::string::npos) << e.what();
  }
}

TEST(BootstrapHardening, RequestBeforeHelloIsRefused) {
  RunningServer server;
  Stranger s(server.port());
  s.send(control::encode_request({control::FrameType::kGet, 1, "topo/0", {}}));
  EXPECT_TRUE(s.closed_by_server());
}

TEST(BootstrapHardening, OversizedHelloIsRefusedFromItsHeader) {
  RunningServer server;
  Stranger s(server.port());
  // Announces 1 MiB but sends only the header: the server must not wait for (or buffer) it.
  std::string header(control::kFrameHeaderBytes, '\0');
  header[2] = 0x10;  // 0x00100000 little-endian = 1 MiB
  header[4] = static_cast<char>(control::FrameType::kHello);
  s.send(header);
  EXPECT_TRUE(s.closed_by_server());
}

TEST(BootstrapHardening, GarbageClientsAreDroppedAndTheJobGoesOn) {
  RunningServer server;
  std::mt19937 random(12345);
  for (int i = 0; i < 50; ++i) {
    Stranger s(server.port());
    std::string junk(static_cast<std::size_t>(1 + random() % 600), '\0');
    for (auto& c : junk) c = static_cast<char>(random());
    junk[4] = static_cast<char>(random() % 2 == 0 ? 100 : 200);  // never a valid frame type
    s.send(junk);
    EXPECT_TRUE(s.closed_by_server()) << "garbage client " << i << " was not dropped";
  }
  // A hello with a malformed payload (length field pointing past the end).
  Stranger malformed(server.port());
  malformed.send(
      control::encode_frame(control::FrameType::kHello, std::string("\xff\xff\xff\x7f", 4)));
  EXPECT_TRUE(malformed.closed_by_server());

  auto a = rank_client(server, 0);
  auto b = rank_client(server, 1);
  a->put("after-garbage/0", "still-works");
  EXPECT_EQ(b->get("after-garbage/0"), "still-works");
}

TEST(BootstrapHardening, ManySilentConnectionsDoNotLockRanksOut) {
  RunningServer server;
  std::vector<std::unique_ptr<Stranger>> silent;
  for (std::size_t i = 0; i < BootstrapServer::kMaxAwaitingHello + 16; ++i) {
    silent.push_back(std::make_unique<Stranger>(server.port()));
  }
  // The oldest silent ones were closed to make room; the ranks still get in.
  EXPECT_TRUE(silent.front()->closed_by_server());
  auto a = rank_client(server, 0);
  a->put("k/0", "v");
  EXPECT_EQ(a->get("k/0"), "v");
}

TEST(BootstrapHardening, OversizedKeysAndValuesAreRefusedWithAReason) {
  RunningServer server;
  auto a = rank_client(server, 0);
  try {
    a->put("big/0", std::string(control::kMaxValueBytes + 1, 'v'));
    FAIL() << "an oversized value was stored";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    EXPECT_NE(std::string(e.what()).find("exceeds the limit of 1048576"), std::string::npos)
        << e.what();
  }
  try {
    a->get(std::string(control::kMaxKeyBytes + 1, 'k'));
    FAIL() << "an oversized key was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    EXPECT_NE(std::string(e.what()).find("bootstrap key of 1025 bytes"), std::string::npos)
        << e.what();
  }
  // The connection survives a refused request.
  a->put("small/0", "ok");
  EXPECT_EQ(a->get("small/0"), "ok");
}

TEST(BootstrapHardening, UnknownFrameAfterHelloClosesOnlyThatConnection) {
  RunningServer server;
  Stranger s(server.port());
  s.send(s.hello(kToken, 0));
  EXPECT_EQ(s.read_frame().type, control::FrameType::kHelloOk);
  s.send(control::encode_notice({ControlNotice::Kind::kJobAbort, 0, 1, "forged"}));
  EXPECT_TRUE(s.closed_by_server());
  auto b = rank_client(server, 1);
  b->put("k/1", "v");
  EXPECT_EQ(b->get("k/1"), "v");
}

// Issue 27: a client with the token is still held to its rank.
TEST(BootstrapHardening, SecondSessionForARankIsRefused) {
  RunningServer server;
  auto first = rank_client(server, 0);
  EXPECT_EQ(error_of([&] { rank_client(server, 0); }),
            "bootstrap error: the bootstrap server at " + server.address() +
                " refused rank 0 (wrong job token or rank)");
  first->put("still/0", "works");
  EXPECT_EQ(first->get("still/0"), "works");
}

TEST(BootstrapHardening, RankPutsOnlyItsOwnKeys) {
  RunningServer server;
  auto a = rank_client(server, 0);
  auto b = rank_client(server, 1);
  for (const std::string key : {"topo/1", "shm/1/job/0", "topo", "topo/", "topo/01", "x/10"}) {
    EXPECT_EQ(error_of([&] { a->put(key, "forged"); }),
              "invalid argument: rank 0 may not put bootstrap key '" + key +
                  "': a rank puts only keys NAME/0[/...] of its own");
  }
  a->put("topo/0", "row 0");
  a->put("shm/0/job/0", "locator");
  b->put("topo/1", "row 1");
  EXPECT_EQ(a->get("topo/1"), "row 1");
  EXPECT_EQ(b->get("shm/0/job/0"), "locator");
}

// A client that sends requests but never reads the replies is cut off, not buffered for.
TEST(BootstrapHardening, ClientThatReadsNoRepliesIsCutOff) {
  RunningServer server;
  Stranger s(server.port());
  s.send(s.hello(kToken, 0));
  EXPECT_EQ(s.read_frame().type, control::FrameType::kHelloOk);
  const std::size_t value_bytes = control::kMaxValueBytes - 64;
  s.send(control::encode_request(
      {control::FrameType::kPut, 1, "big/0", std::string(value_bytes, 'v')}));
  constexpr std::uint64_t kGets = 160;  // 160 MiB of replies, the bound is 64 MiB
  std::string gets;
  for (std::uint64_t id = 2; id < 2 + kGets; ++id) {
    gets += control::encode_request({control::FrameType::kGet, id, "big/0", {}});
  }
  s.send(gets);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  std::size_t received = s.read_until_closed(kGets * value_bytes);
  EXPECT_LT(received, kGets * value_bytes / 2) << "the server queued every reply";
  auto b = rank_client(server, 1);
  b->put("k/1", "v");
  EXPECT_EQ(b->get("k/1"), "v");
}

// Issue 27: a listener that accepts the connection (the kernel does, from its backlog) but never
// answers must not hang the rank: the hello gives up after HALYARD_BOOTSTRAP_TIMEOUT.
TEST(BootstrapHardening, SilentListenerTimesOutTheHello) {
  asio::io_context io;
  tcp::acceptor silent(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  LaunchInfo info;
  info.rank = 0;
  info.size = kRanks;
  info.server = "127.0.0.1:" + std::to_string(silent.local_endpoint().port());
  info.token = kToken;
  ::setenv("HALYARD_BOOTSTRAP_TIMEOUT", "1", 1);
  auto start = std::chrono::steady_clock::now();
  std::string error = error_of([&] { BootstrapClient::connect(info); });
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ::unsetenv("HALYARD_BOOTSTRAP_TIMEOUT");
  EXPECT_EQ(error, "timeout: the bootstrap server at " + info.server +
                       " did not answer the hello within 1 s (HALYARD_BOOTSTRAP_TIMEOUT)");
  EXPECT_GE(seconds, 0.9);
  EXPECT_LT(seconds, 3.0);
}

// Issue 27 item 4: a hello answers one connection's challenge; replayed on another connection
// (a fresh nonce) it is refused, so capturing a rank's hello lets nobody in.
TEST(BootstrapHardening, ReplayedHelloIsRefused) {
  RunningServer server;
  Stranger first(server.port());
  Stranger second(server.port());
  second.send(first.hello(kToken, 0));
  EXPECT_TRUE(second.closed_by_server());
  first.send(first.hello(kToken, 0));
  EXPECT_EQ(first.read_frame().type, control::FrameType::kHelloOk);
}

// Plays hlaunch's side of the hello by hand, records every byte the rank sends, and answers
// with the server proof for `answer_token`.
class RecordingServer {
 public:
  explicit RecordingServer(std::string answer_token)
      : acceptor_(io_, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)),
        answer_token_(std::move(answer_token)) {
    thread_ = std::thread([this] { serve(); });
  }
  ~RecordingServer() {
    if (thread_.joinable()) thread_.join();
  }
  std::string address() const {
    return "127.0.0.1:" + std::to_string(acceptor_.local_endpoint().port());
  }
  // Every byte the rank sent, once it closed its connection.
  const std::string& wait_for_received() {
    thread_.join();
    return received_;
  }
  const std::string& server_nonce() const { return server_nonce_; }

 private:
  void serve() {
    tcp::socket socket = acceptor_.accept();
    asio::write(socket, asio::buffer(control::encode_challenge({server_nonce_})));
    control::FrameDecoder decoder;
    std::optional<control::Frame> hello;
    char chunk[256];
    boost::system::error_code ec;
    while (!ec) {  // everything the rank sends, until it closes
      std::size_t n = socket.read_some(asio::buffer(chunk), ec);
      received_.append(chunk, n);
      decoder.feed(chunk, n);
      if (!hello && (hello = decoder.next())) {
        control::Hello h = control::decode_hello(hello->payload);
        asio::write(socket, asio::buffer(control::encode_hello_ok({control::server_proof(
                                answer_token_, server_nonce_, h.rank, h.client_nonce)})));
      }
    }
  }

  asio::io_context io_;
  tcp::acceptor acceptor_;
  std::string answer_token_;
  std::string server_nonce_ = control::make_nonce();
  std::string received_;
  std::thread thread_;
};

LaunchInfo rank_one_of(const std::string& server) {
  LaunchInfo info;
  info.rank = 1;
  info.size = kRanks;
  info.server = server;
  info.token = kToken;
  return info;
}

// The token never crosses the network: everything a rank sends holds only a proof of it.
TEST(BootstrapHardening, TokenNeverCrossesTheWire) {
  RecordingServer recorder(kToken);
  BootstrapClient::connect(rank_one_of(recorder.address())).reset();  // connects, then closes
  const std::string sent = recorder.wait_for_received();
  EXPECT_EQ(sent.find(kToken), std::string::npos) << "the token was sent in clear";
  EXPECT_EQ(sent.find(kToken.substr(0, 16)), std::string::npos);
  control::FrameDecoder decoder;
  decoder.feed(sent.data(), sent.size());
  auto frame = decoder.next();
  ASSERT_TRUE(frame.has_value());
  ASSERT_EQ(frame->type, control::FrameType::kHello);
  control::Hello hello = control::decode_hello(frame->payload);
  EXPECT_EQ(hello.rank, 1);
  EXPECT_EQ(hello.client_nonce.size(), control::kNonceBytes);
  EXPECT_EQ(hello.proof,
            control::client_proof(kToken, recorder.server_nonce(), 1, hello.client_nonce));
  EXPECT_FALSE(decoder.next().has_value()) << "the rank sent more than its hello";
}

// The proof is mutual: a server that does not know the token (another job's, or an impostor at
// the address) is refused by the rank.
TEST(BootstrapHardening, ServerWithoutTheTokenIsRefusedByTheRank) {
  RecordingServer impostor("not-the-token-not-the-token-0000");
  const std::string address = impostor.address();
  EXPECT_EQ(error_of([&] { BootstrapClient::connect(rank_one_of(address)); }),
            "bootstrap error: the bootstrap server at " + address +
                " could not prove that it knows the job token (another job's server, or not "
                "hlaunch)");
}

}  // namespace
}  // namespace halyard::launcher
