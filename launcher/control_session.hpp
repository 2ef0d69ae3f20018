// One rank's connection to the bootstrap server: reads frames, writes replies and notices.
//
// Lives on hlaunch's io_context thread. It owns no job logic: it checks nothing but the frame
// format and hands each frame to its Owner (the BootstrapServer), which decides.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>

#include <array>
#include <deque>
#include <memory>
#include <string>

#include "runtime/bootstrap/control_frame.hpp"
#include "runtime/bootstrap/control_messages.hpp"

namespace halyard::launcher {

class ControlSession : public std::enable_shared_from_this<ControlSession> {
 public:
  class Owner {
   public:
    virtual ~Owner() = default;
    // Called for every complete frame, the first one (which must be kHello, the answer to the
    // owner's kChallenge) included.
    virtual void on_frame(ControlSession& session, const control::Frame& frame) = 0;
    // Called once when the connection is gone, whoever closed it.
    virtual void on_closed(ControlSession& session) = 0;
  };

  ControlSession(boost::asio::ip::tcp::socket socket, Owner& owner);

  // Starts reading. A connection that sends no hello within `hello_deadline` is closed, so a
  // stray client cannot hold a socket forever.
  void start(std::chrono::seconds hello_deadline);

  // Parses received bytes and hands each complete frame to the owner; a malformed stream
  // closes the connection. Returns false once the connection is closed. (read_more() feeds it
  // from the socket; the fuzzer in fuzz/ feeds it directly.)
  bool consume(const char* data, std::size_t size);

  // Queues a complete frame; frames go out in the order queued. A peer that lets more than
  // kMaxQueuedBytes pile up (it sends requests but does not read the replies) is cut off, so no
  // client can grow hlaunch's memory without limit.
  void send(std::string frame);
  static constexpr std::size_t kMaxQueuedBytes = 64u << 20;
  // Drops the connection at once (pending output is discarded).
  void close(const std::string& reason);

  // The nonce of the challenge the owner sent this connection (runtime/bootstrap/hello_proof.hpp);
  // empty until it sent one.
  void set_challenge(std::string server_nonce) { server_nonce_ = std::move(server_nonce); }
  const std::string& challenge() const { return server_nonce_; }

  // Set by the owner once the hello was accepted; lifts the frame size limit from
  // kMaxHelloPayload to kMaxFramePayload.
  void set_rank(int rank);
  int rank() const { return rank_; }
  bool authenticated() const { return rank_ >= 0; }
  bool closed() const { return closed_; }
  const std::string& peer() const { return peer_; }

 private:
  void read_more();
  void write_next();

  boost::asio::ip::tcp::socket socket_;
  boost::asio::steady_timer hello_timer_;
  Owner& owner_;
  std::string peer_;
  std::string server_nonce_;
  int rank_ = -1;
  bool closed_ = false;
  control::FrameDecoder decoder_{control::kMaxHelloPayload};
  std::array<char, 4096> read_buffer_{};
  std::deque<std::string> outbox_;
  std::size_t queued_bytes_ = 0;  // in outbox_
};

}  // namespace halyard::launcher
