// The bootstrap server inside hlaunch: a Boost.Asio TCP server (on loopback unless the job spans
// hosts) that serves the job's key-value store, fences and barriers, receives aborts and pushes
// notices to the ranks.
//
// Every connection must answer the server's challenge with a hello that proves knowledge of the
// job's random token (runtime/bootstrap/hello_proof.hpp: the token itself never crosses the
// network) and names a valid rank; anything else is dropped (logged at debug level), so another
// user's process, on this host or on the network, cannot read or poison the job's keys. Garbage
// cannot hurt hlaunch either: before its hello a connection may announce no frame above
// kMaxHelloPayload, at most kMaxAwaitingHello connections may owe a hello, keys, values and the
// whole store are bounded (control_messages.hpp, key_value_store.hpp), a client that does not read
// its replies is cut off (ControlSession::kMaxQueuedBytes), and every parse error closes only the
// connection that sent it (docs/reliability.md; fuzz/ fuzzes the parser and the protocol).
//
// Even a client with the token is held to its rank: each rank gets one session (a second hello
// for it is refused), and a rank may put only keys of its own, "NAME/RANK" or "NAME/RANK/...",
// so no rank can pre-empt another's topology row or transport address.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "launcher/collective_gate.hpp"
#include "launcher/control_session.hpp"
#include "launcher/key_value_store.hpp"
#include "runtime/bootstrap/bootstrap_client.hpp"
#include "runtime/bootstrap/control_messages.hpp"

namespace halyard::launcher {

class BootstrapServer final : public ControlSession::Owner {
 public:
  // Called when a rank asks to abort the job.
  using AbortHandler = std::function<void(int rank, int code, const std::string& message)>;
  // Called when the connection of a rank that never sent its finalize handshake closes.
  using UnfinalizedCloseHandler = std::function<void(int rank)>;

  BootstrapServer(boost::asio::io_context& io, int num_ranks, std::string token,
                  AbortHandler on_abort);
  ~BootstrapServer() override;

  // Listens on `address` (loopback unless the job spans hosts), on a port the kernel picks, and
  // starts accepting. Throws Error(kBootstrap) naming `address` when it cannot listen there.
  void start(const std::string& address = "127.0.0.1");
  // "ADDRESS:PORT", for HALYARD_BOOTSTRAP_ADDR.
  std::string address() const;

  // Pushes `notice` to every authenticated connection and fails every parked get: the job is
  // ending, nobody will put those keys any more.
  void notify_all(const ControlNotice& notice);
  // The process of `rank` ended (`why`, e.g. "exited with status 0"): fences and barriers it
  // never entered fail instead of hanging.
  void rank_gone(int rank, const std::string& why);
  // Stops accepting and closes every connection.
  void stop();

  void on_unfinalized_close(UnfinalizedCloseHandler handler) {
    on_unfinalized_close_ = std::move(handler);
  }
  // Whether `rank` said hello at some point, and whether it sent its finalize handshake.
  bool connected(int rank) const { return link(rank) != RankLink::kNever; }
  bool finalized(int rank) const { return link(rank) == RankLink::kFinalized; }

  // Seconds a new connection has to send its hello.
  static constexpr std::chrono::seconds kHelloDeadline{10};
  // At most this many connections may owe their hello at once; a new one closes the oldest.
  static constexpr std::size_t kMaxAwaitingHello = 64;

  // Sends `session` a challenge with a fresh nonce, which its hello must answer. Every accepted
  // connection gets one; the fuzzer (fuzz/) calls it for the sessions it makes itself.
  void greet(ControlSession& session);

  void on_frame(ControlSession& session, const control::Frame& frame) override;
  void on_closed(ControlSession& session) override;

 private:
  enum class RankLink : unsigned char { kNever, kConnected, kFinalized };
  RankLink link(int rank) const { return links_.at(static_cast<std::size_t>(rank)); }

  void accept_next();
  void make_room_for_a_hello();
  void authenticate(ControlSession& session, const control::Frame& frame);
  void serve_request(ControlSession& session, const control::Request& request);
  static void reply(ControlSession& session, std::uint64_t id, ErrorCode code, std::string body);

  boost::asio::io_context& io_;
  boost::asio::ip::tcp::acceptor acceptor_;
  int num_ranks_;
  std::string token_;
  AbortHandler on_abort_;
  UnfinalizedCloseHandler on_unfinalized_close_;
  std::vector<RankLink> links_;  // by rank
  bool stopping_ = false;
  KeyValueStore store_;
  CollectiveGate fence_;
  CollectiveGate barrier_;
  std::set<std::shared_ptr<ControlSession>> sessions_;
  std::deque<std::weak_ptr<ControlSession>> awaiting_hello_;  // in accept order
  // The notice of the ending job, also sent to ranks that connect after it.
  std::optional<ControlNotice> ending_notice_;
};

}  // namespace halyard::launcher
