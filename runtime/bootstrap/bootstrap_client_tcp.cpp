// BootstrapClient over one TCP connection to hlaunch (Boost.Asio, synchronous).
//
// Callers send requests synchronously; a background reader thread receives every frame and
// routes replies, by request id, to the caller waiting for them and notices to the on_notice
// callback. A notice or a lost connection fails every wait at once, so no rank blocks on a job
// that is ending.
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>

#include <array>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "runtime/bootstrap/bootstrap_client.hpp"
#include "runtime/bootstrap/control_messages.hpp"
#include "runtime/bootstrap/hello_proof.hpp"
#include "runtime/support/config.hpp"
#include "runtime/support/error.hpp"
#include "runtime/support/log.hpp"
#include "runtime/support/sha256.hpp"

namespace halyard {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;
using namespace std::chrono_literals;

// How long abort() waits for hlaunch to acknowledge before exiting on its own.
constexpr auto kAbortAckWait = 5s;

std::chrono::seconds bootstrap_timeout() {
  return config::env_seconds("HALYARD_BOOTSTRAP_TIMEOUT", 60, 1);
}

// Splits "host:port"; the host may be a bracketed IPv6 literal.
std::pair<std::string, std::string> split_address(const std::string& address) {
  auto colon = address.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == address.size()) {
    throw Error(ErrorCode::kBootstrap,
                "HALYARD_BOOTSTRAP_ADDR='" + address + "' is not valid: expected host:port");
  }
  std::string host = address.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  return {host, address.substr(colon + 1)};
}

class TcpBootstrapClient final : public BootstrapClient {
 public:
  explicit TcpBootstrapClient(const LaunchInfo& info)
      : info_(info), socket_(io_), timeout_(bootstrap_timeout()) {
    connect_and_authenticate();
    reader_ = std::thread([this] { read_loop(); });
  }

  ~TcpBootstrapClient() override {
    {
      std::lock_guard lock(mutex_);
      closing_ = true;
    }
    boost::system::error_code ignored;
    socket_.shutdown(tcp::socket::shutdown_both, ignored);
    if (reader_.joinable()) reader_.join();
  }

  const LaunchInfo& info() const override { return info_; }

  void put(std::string_view key, std::string_view value) override {
    call(control::FrameType::kPut, key, value, std::nullopt);
  }

  std::string get(std::string_view key) override {
    return call(control::FrameType::kGet, key, {}, timeout_);
  }

  void fence() override { call(control::FrameType::kFence, {}, {}, std::nullopt); }

  void barrier() override { call(control::FrameType::kBarrier, {}, {}, std::nullopt); }

  void finalize() override { call(control::FrameType::kFinalize, {}, {}, timeout_); }

  [[noreturn]] void abort(int code, std::string_view message) override {
    int exit_code = (code & 0xff) == 0 ? 1 : (code & 0xff);
    try {
      send(control::encode_abort({code, std::string(message)}));
      std::unique_lock lock(mutex_);
      cv_.wait_for(lock, kAbortAckWait, [this] { return abort_acked_ || connection_lost_; });
    } catch (const std::exception& e) {
      // Without a connection hlaunch cannot print the message for us.
      std::fprintf(stderr, "halyard: rank %d aborted with code %d: %.*s (%s)\n", info_.rank, code,
                   static_cast<int>(message.size()), message.data(), e.what());
    }
    std::fflush(nullptr);
    std::_Exit(exit_code);
  }

  void on_notice(std::function<void(const ControlNotice&)> callback) override {
    std::lock_guard lock(notice_mutex_);
    callback_ = std::move(callback);
    // Notices that arrived before anyone listened are not lost.
    if (callback_) {
      for (const auto& notice : early_notices_) callback_(notice);
    }
    early_notices_.clear();
  }

 private:
  // Connect and hello share one deadline of HALYARD_BOOTSTRAP_TIMEOUT: a listener that accepts
  // but never answers (or never accepts) must not hang MPI_Init.
  void connect_and_authenticate() {
    auto [host, port] = split_address(info_.server);
    const auto deadline = std::chrono::steady_clock::now() + timeout_;
    boost::system::error_code ec;
    tcp::resolver resolver(io_);
    auto endpoints = resolver.resolve(host, port, ec);
    if (!ec) {
      ec = run_until(deadline, "connect", [&](auto handler) {
        asio::async_connect(
            socket_, endpoints,
            [handler](boost::system::error_code e, const tcp::endpoint&) { handler(e, 0); });
      });
    }
    if (ec) {
      throw Error(ErrorCode::kBootstrap, "cannot connect to the bootstrap server at " +
                                             info_.server + ": " + ec.message());
    }
    socket_.set_option(tcp::no_delay(true), ec);
    // The challenge-response of runtime/bootstrap/hello_proof.hpp: the token never leaves.
    std::optional<control::Frame> challenge = read_hello_frame(deadline);
    if (!challenge || challenge->type != control::FrameType::kChallenge) throw refused();
    const std::string server_nonce = control::decode_challenge(challenge->payload).server_nonce;
    const std::string client_nonce = control::make_nonce();
    const std::string hello = control::encode_hello(
        {info_.rank, client_nonce,
         control::client_proof(info_.token, server_nonce, info_.rank, client_nonce)});
    ec = run_until(deadline, "hello",
                   [&](auto handler) { asio::async_write(socket_, asio::buffer(hello), handler); });
    std::optional<control::Frame> answer;
    if (!ec) answer = read_hello_frame(deadline);
    if (!answer || answer->type != control::FrameType::kHelloOk) throw refused();
    const std::string expected =
        control::server_proof(info_.token, server_nonce, info_.rank, client_nonce);
    if (!equal_in_constant_time(control::decode_hello_ok(answer->payload).proof, expected)) {
      throw Error(ErrorCode::kBootstrap, "the bootstrap server at " + info_.server +
                                             " could not prove that it knows the job token "
                                             "(another job's server, or not hlaunch)");
    }
    decoder_.set_max_payload(control::kMaxFramePayload);
  }

  // One whole frame of the hello, read before `deadline`; nullopt when the server closed.
  std::optional<control::Frame> read_hello_frame(std::chrono::steady_clock::time_point deadline) {
    std::optional<control::Frame> frame;
    boost::system::error_code ec;
    while (!ec && !(frame = decoder_.next())) {
      std::array<char, 4096> chunk;
      std::size_t n = 0;
      ec = run_until(deadline, "hello", [&](auto handler) {
        socket_.async_read_some(asio::buffer(chunk),
                                [handler, &n](boost::system::error_code e, std::size_t got) {
                                  n = got;
                                  handler(e, got);
                                });
      });
      if (!ec) decoder_.feed(chunk.data(), n);
    }
    return frame;
  }

  // A reset or end of stream while we still talk means the server dropped us.
  Error refused() const {
    return Error(ErrorCode::kBootstrap, "the bootstrap server at " + info_.server +
                                            " refused rank " + std::to_string(info_.rank) +
                                            " (wrong job token or rank)");
  }

  // Starts one asynchronous operation through `start(handler)` and runs it until it completes
  // or `deadline` passes; past the deadline it throws Error(kTimeout) naming `step`.
  template <typename Start>
  boost::system::error_code run_until(std::chrono::steady_clock::time_point deadline,
                                      const char* step, Start start) {
    boost::system::error_code result = asio::error::would_block;
    start([&result](boost::system::error_code e, std::size_t) { result = e; });
    io_.restart();
    io_.run_until(deadline);
    if (result != asio::error::would_block) return result;
    boost::system::error_code ignored;
    socket_.close(ignored);
    io_.restart();
    io_.run();  // the cancelled operation's handler still refers to `result`
    throw Error(ErrorCode::kTimeout, std::string("the bootstrap server at ") + info_.server +
                                         " did not answer the " + step + " within " +
                                         std::to_string(timeout_.count()) +
                                         " s (HALYARD_BOOTSTRAP_TIMEOUT)");
  }

  // Blocks until one whole frame arrived; nullopt at end of stream.
  std::optional<control::Frame> read_frame() {
    while (true) {
      if (auto frame = decoder_.next()) return frame;
      char chunk[4096];
      boost::system::error_code ec;
      std::size_t n = socket_.read_some(asio::buffer(chunk), ec);
      if (ec == asio::error::eof) return std::nullopt;
      if (ec) throw boost::system::system_error(ec);
      decoder_.feed(chunk, n);
    }
  }

  void send(const std::string& frame) {
    std::lock_guard lock(write_mutex_);
    asio::write(socket_, asio::buffer(frame));
  }

  std::string call(control::FrameType type, std::string_view key, std::string_view value,
                   std::optional<std::chrono::seconds> timeout) {
    std::uint64_t id = 0;
    {
      std::lock_guard lock(mutex_);
      if (failure_) throw Error(failure_->code, failure_->message);
      id = next_id_++;
      replies_.emplace(id, std::nullopt);
    }
    try {
      send(control::encode_request({type, id, std::string(key), std::string(value)}));
    } catch (const boost::system::system_error& e) {
      std::lock_guard lock(mutex_);
      replies_.erase(id);
      if (failure_) throw Error(failure_->code, failure_->message);
      throw Error(ErrorCode::kBootstrap, "lost the control connection to hlaunch while sending " +
                                             std::string(control::frame_type_name(type)) + ": " +
                                             e.code().message());
    }
    std::unique_lock lock(mutex_);
    auto ready = [&] { return replies_.at(id).has_value() || failure_.has_value(); };
    if (timeout) {
      if (!cv_.wait_for(lock, *timeout, ready)) {
        replies_.erase(id);
        std::string what = "bootstrap " + std::string(control::frame_type_name(type));
        if (!key.empty()) what += " of key '" + std::string(key) + "'";
        throw Error(ErrorCode::kTimeout, what + " timed out after " +
                                             std::to_string(timeout->count()) +
                                             " s (HALYARD_BOOTSTRAP_TIMEOUT)");
      }
    } else {
      cv_.wait(lock, ready);
    }
    std::optional<control::Reply> reply = std::move(replies_.at(id));
    replies_.erase(id);
    if (!reply) throw Error(failure_->code, failure_->message);
    if (reply->code != ErrorCode::kSuccess) throw Error(reply->code, reply->body);
    return std::move(reply->body);
  }

  void read_loop() {
    std::string reason;
    try {
      while (auto frame = read_frame()) dispatch(*frame);
      reason = "hlaunch closed the control connection";
    } catch (const boost::system::system_error& e) {
      reason = "lost the control connection to hlaunch: " + e.code().message();
    } catch (const Error& e) {
      reason = std::string("broken control connection to hlaunch: ") + e.what();
    }
    std::lock_guard lock(mutex_);
    connection_lost_ = true;
    if (!closing_) {
      log::debug("bootstrap client: {}", reason);
      if (!failure_) failure_ = Status::failure(ErrorCode::kBootstrap, reason);
    }
    cv_.notify_all();
  }

  void dispatch(const control::Frame& frame) {
    if (frame.type == control::FrameType::kReply) {
      control::Reply reply = control::decode_reply(frame.payload);
      std::lock_guard lock(mutex_);
      if (reply.id == control::kAbortReplyId) {
        abort_acked_ = true;
      } else if (auto it = replies_.find(reply.id); it != replies_.end()) {
        it->second = std::move(reply);
      }  // else: the caller gave up (timeout); drop the late reply
      cv_.notify_all();
    } else if (frame.type == control::FrameType::kNotice) {
      ControlNotice notice = control::decode_notice(frame.payload);
      {
        std::lock_guard lock(mutex_);
        if (!failure_) failure_ = Status::failure(ErrorCode::kPeerFailed, notice.message);
        cv_.notify_all();
      }
      std::lock_guard lock(notice_mutex_);
      if (callback_) {
        callback_(notice);
      } else {
        early_notices_.push_back(std::move(notice));
      }
    } else {
      throw Error(ErrorCode::kBootstrap, "unexpected '" +
                                             std::string(control::frame_type_name(frame.type)) +
                                             "' frame from the server");
    }
  }

  LaunchInfo info_;
  asio::io_context io_;
  tcp::socket socket_;
  std::chrono::seconds timeout_;
  // Used by the reader thread only (after connecting). Held to the hello's bound until the
  // server proved it knows the token, so a stranger at the address cannot make us buffer 16 MiB.
  control::FrameDecoder decoder_{control::kMaxHelloPayload};
  std::thread reader_;
  std::mutex write_mutex_;

  std::mutex mutex_;  // guards everything below up to notice_mutex_
  std::condition_variable cv_;
  std::uint64_t next_id_ = control::kAbortReplyId + 1;
  std::map<std::uint64_t, std::optional<control::Reply>> replies_;
  std::optional<Status> failure_;  // set once: every later call fails with it
  bool abort_acked_ = false;
  bool connection_lost_ = false;
  bool closing_ = false;

  std::mutex notice_mutex_;
  std::function<void(const ControlNotice&)> callback_;
  std::vector<ControlNotice> early_notices_;
};

}  // namespace

std::unique_ptr<BootstrapClient> BootstrapClient::connect(const LaunchInfo& info) {
  return std::make_unique<TcpBootstrapClient>(info);
}

}  // namespace halyard
