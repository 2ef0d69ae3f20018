#include "launcher/bootstrap_server.hpp"

#include "runtime/bootstrap/hello_proof.hpp"
#include "runtime/support/error.hpp"
#include "runtime/support/log.hpp"
#include "runtime/support/sha256.hpp"

namespace halyard::launcher {

namespace asio = boost::asio;
using asio::ip::tcp;

namespace {

// "NAME/RANK" or "NAME/RANK/...": the keys `rank` may put.
bool key_of_rank(const std::string& key, int rank) {
  std::size_t slash = key.find('/');
  if (slash == std::string::npos) return false;
  std::string_view rest = std::string_view(key).substr(slash + 1);
  const std::string digits = std::to_string(rank);
  return rest.substr(0, rest.find('/')) == digits;
}

}  // namespace

BootstrapServer::BootstrapServer(asio::io_context& io, int num_ranks, std::string token,
                                 AbortHandler on_abort)
    : io_(io),
      acceptor_(io),
      num_ranks_(num_ranks),
      token_(std::move(token)),
      on_abort_(std::move(on_abort)),
      links_(static_cast<std::size_t>(num_ranks), RankLink::kNever),
      fence_("fence", num_ranks),
      barrier_("barrier", num_ranks) {}

BootstrapServer::~BootstrapServer() {
  stop();
}

void BootstrapServer::start(const std::string& address) {
  try {
    tcp::endpoint endpoint(asio::ip::make_address(address), 0);
    acceptor_.open(endpoint.protocol());
    acceptor_.bind(endpoint);
    acceptor_.listen();
  } catch (const boost::system::system_error& e) {
    throw Error(ErrorCode::kBootstrap,
                "the bootstrap server cannot listen on " + address + ": " + e.code().message());
  }
  accept_next();
}

std::string BootstrapServer::address() const {
  auto endpoint = acceptor_.local_endpoint();
  return endpoint.address().to_string() + ":" + std::to_string(endpoint.port());
}

void BootstrapServer::accept_next() {
  acceptor_.async_accept([this](boost::system::error_code ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted || !acceptor_.is_open()) return;
    if (!ec) {
      make_room_for_a_hello();
      auto session = std::make_shared<ControlSession>(std::move(socket), *this);
      sessions_.insert(session);
      awaiting_hello_.push_back(session);
      session->start(kHelloDeadline);
      greet(*session);
    } else {
      log::debug("hlaunch: accept failed: {}", ec.message());
    }
    accept_next();
  });
}

void BootstrapServer::greet(ControlSession& session) {
  session.set_challenge(control::make_nonce());
  session.send(control::encode_challenge({session.challenge()}));
}

void BootstrapServer::make_room_for_a_hello() {
  std::erase_if(awaiting_hello_, [](const std::weak_ptr<ControlSession>& weak) {
    auto s = weak.lock();
    return !s || s->authenticated() || s->closed();
  });
  // A flood of connections that never say hello must not exhaust hlaunch's descriptors. The
  // oldest goes: the job's own ranks say hello the moment they connect, so they are never the
  // oldest for long.
  while (awaiting_hello_.size() >= kMaxAwaitingHello) {
    if (auto oldest = awaiting_hello_.front().lock()) {
      oldest->close("too many connections without a hello; closing the oldest");
    }
    awaiting_hello_.pop_front();
  }
}

void BootstrapServer::on_frame(ControlSession& session, const control::Frame& frame) {
  if (!session.authenticated()) {
    authenticate(session, frame);
    return;
  }
  switch (frame.type) {
    case control::FrameType::kPut:
    case control::FrameType::kGet:
    case control::FrameType::kFence:
    case control::FrameType::kBarrier:
    case control::FrameType::kFinalize:
      serve_request(session, control::decode_request(frame.type, frame.payload));
      return;
    case control::FrameType::kAbort: {
      control::AbortRequest abort = control::decode_abort(frame.payload);
      reply(session, control::kAbortReplyId, ErrorCode::kSuccess, {});
      on_abort_(session.rank(), abort.code, abort.message);
      return;
    }
    default:
      session.close("unexpected '" + std::string(control::frame_type_name(frame.type)) +
                    "' frame from a client");
  }
}

void BootstrapServer::authenticate(ControlSession& session, const control::Frame& frame) {
  if (frame.type != control::FrameType::kHello) {
    session.close("first frame is '" + std::string(control::frame_type_name(frame.type)) +
                  "', not hello");
    return;
  }
  control::Hello hello = control::decode_hello(frame.payload);
  const std::string& server_nonce = session.challenge();
  if (server_nonce.empty()) {
    session.close("hello before any challenge was sent");
    return;
  }
  if (!equal_in_constant_time(hello.proof, control::client_proof(token_, server_nonce, hello.rank,
                                                                 hello.client_nonce))) {
    session.close("wrong job token");
    return;
  }
  if (hello.client_nonce.size() != control::kNonceBytes) {
    session.close("client nonce of " + std::to_string(hello.client_nonce.size()) +
                  " bytes, expected " + std::to_string(control::kNonceBytes));
    return;
  }
  if (hello.rank < 0 || hello.rank >= num_ranks_) {
    session.close("rank " + std::to_string(hello.rank) + " is outside the job's 0.." +
                  std::to_string(num_ranks_ - 1));
    return;
  }
  if (connected(hello.rank)) {
    session.close("rank " + std::to_string(hello.rank) + " already has a session: one per rank");
    return;
  }
  links_[static_cast<std::size_t>(hello.rank)] = RankLink::kConnected;
  session.set_rank(hello.rank);
  log::debug("hlaunch: rank {} connected from {}", hello.rank, session.peer());
  session.send(control::encode_hello_ok(
      {control::server_proof(token_, server_nonce, hello.rank, hello.client_nonce)}));
  if (ending_notice_) session.send(control::encode_notice(*ending_notice_));
}

void BootstrapServer::serve_request(ControlSession& session, const control::Request& request) {
  std::uint64_t id = request.id;
  std::weak_ptr<ControlSession> weak = session.weak_from_this();
  auto finish = [weak, id](ErrorCode code, const std::string& body) {
    if (auto s = weak.lock()) reply(*s, id, code, body);
  };
  if (request.type == control::FrameType::kPut || request.type == control::FrameType::kGet) {
    std::string refusal =
        store_.would_exceed(request.key, request.value, request.type == control::FrameType::kGet);
    if (!refusal.empty()) {
      log::warn("hlaunch: refused a {} from rank {}: {}", control::frame_type_name(request.type),
                session.rank(), refusal);
      finish(ErrorCode::kInvalidArgument, refusal);
      return;
    }
  }
  switch (request.type) {
    case control::FrameType::kPut:
      if (!key_of_rank(request.key, session.rank())) {
        finish(ErrorCode::kInvalidArgument,
               "rank " + std::to_string(session.rank()) + " may not put bootstrap key '" +
                   request.key + "': a rank puts only keys NAME/" + std::to_string(session.rank()) +
                   "[/...] of its own");
        return;
      }
      if (store_.put(request.key, request.value)) {
        finish(ErrorCode::kSuccess, {});
      } else {
        finish(ErrorCode::kInvalidArgument, "bootstrap key '" + request.key +
                                                "' was put twice (second put by rank " +
                                                std::to_string(session.rank()) + ")");
      }
      return;
    case control::FrameType::kGet:
      store_.get(request.key,
                 [finish](const std::string& value) { finish(ErrorCode::kSuccess, value); });
      return;
    case control::FrameType::kFence:
      fence_.arrive(session.rank(), finish);
      return;
    case control::FrameType::kBarrier:
      barrier_.arrive(session.rank(), finish);
      return;
    case control::FrameType::kFinalize:
      links_[static_cast<std::size_t>(session.rank())] = RankLink::kFinalized;
      finish(ErrorCode::kSuccess, {});
      return;
    default:
      return;
  }
}

void BootstrapServer::reply(ControlSession& session, std::uint64_t id, ErrorCode code,
                            std::string body) {
  session.send(control::encode_reply({id, code, std::move(body)}));
}

void BootstrapServer::notify_all(const ControlNotice& notice) {
  if (!ending_notice_) ending_notice_ = notice;
  store_.drop_waiters();
  std::string frame = control::encode_notice(notice);
  for (const auto& session : sessions_) {
    if (session->authenticated()) session->send(frame);
  }
}

void BootstrapServer::rank_gone(int rank, const std::string& why) {
  fence_.rank_gone(rank, why);
  barrier_.rank_gone(rank, why);
}

void BootstrapServer::on_closed(ControlSession& session) {
  if (!stopping_ && session.authenticated() && !finalized(session.rank()) &&
      on_unfinalized_close_) {
    // Posted: the handler may end the job, which must not happen inside this session's handler.
    asio::post(io_, [this, rank = session.rank()] {
      if (!stopping_) on_unfinalized_close_(rank);
    });
  }
  // Defer the erase: the session may be running one of its own handlers right now.
  asio::post(io_, [this, self = session.shared_from_this()] { sessions_.erase(self); });
}

void BootstrapServer::stop() {
  stopping_ = true;
  boost::system::error_code ignored;
  acceptor_.close(ignored);
  // Copy: closing a session posts its removal from sessions_.
  auto sessions = sessions_;
  for (const auto& session : sessions) session->close("hlaunch is shutting down");
  sessions_.clear();
}

}  // namespace halyard::launcher
