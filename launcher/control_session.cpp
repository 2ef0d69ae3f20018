#include "launcher/control_session.hpp"

#include <boost/asio/write.hpp>

#include "runtime/support/error.hpp"
#include "runtime/support/log.hpp"

namespace halyard::launcher {

namespace asio = boost::asio;

ControlSession::ControlSession(asio::ip::tcp::socket socket, Owner& owner)
    : socket_(std::move(socket)), hello_timer_(socket_.get_executor()), owner_(owner) {
  boost::system::error_code ec;
  auto endpoint = socket_.remote_endpoint(ec);
  peer_ = ec ? std::string("unknown peer")
             : endpoint.address().to_string() + ":" + std::to_string(endpoint.port());
  socket_.set_option(asio::ip::tcp::no_delay(true), ec);
}

void ControlSession::start(std::chrono::seconds hello_deadline) {
  hello_timer_.expires_after(hello_deadline);
  hello_timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
    if (!ec && !self->authenticated()) self->close("no hello before the deadline");
  });
  read_more();
}

void ControlSession::set_rank(int rank) {
  rank_ = rank;
  decoder_.set_max_payload(control::kMaxFramePayload);
}

void ControlSession::read_more() {
  socket_.async_read_some(
      asio::buffer(read_buffer_),
      [self = shared_from_this()](boost::system::error_code ec, std::size_t n) {
        if (self->closed_) return;
        if (ec) {
          self->close(ec == asio::error::eof ? "closed by the peer" : ec.message());
          return;
        }
        if (self->consume(self->read_buffer_.data(), n)) self->read_more();
      });
}

bool ControlSession::consume(const char* data, std::size_t size) {
  try {
    decoder_.feed(data, size);
    while (auto frame = decoder_.next()) {
      owner_.on_frame(*this, *frame);
      if (closed_) return false;
    }
  } catch (const Error& e) {
    // Whatever a peer sends, the worst outcome is losing its own connection.
    close(e.what());
    return false;
  }
  return !closed_;
}

void ControlSession::send(std::string frame) {
  if (closed_) return;
  queued_bytes_ += frame.size();
  if (queued_bytes_ > kMaxQueuedBytes) {
    close("it does not read its replies: over " + std::to_string(kMaxQueuedBytes >> 20) +
          " MiB queued for it");
    return;
  }
  outbox_.push_back(std::move(frame));
  if (outbox_.size() == 1) write_next();
}

void ControlSession::write_next() {
  asio::async_write(socket_, asio::buffer(outbox_.front()),
                    [self = shared_from_this()](boost::system::error_code ec, std::size_t) {
                      if (self->closed_) return;
                      if (ec) {
                        self->close("write failed: " + ec.message());
                        return;
                      }
                      self->queued_bytes_ -= self->outbox_.front().size();
                      self->outbox_.pop_front();
                      if (!self->outbox_.empty()) self->write_next();
                    });
}

void ControlSession::close(const std::string& reason) {
  if (closed_) return;
  closed_ = true;
  log::debug("hlaunch: control connection from {} (rank {}) closed: {}", peer_, rank_, reason);
  boost::system::error_code ignored;
  hello_timer_.cancel();
  socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
  socket_.close(ignored);
  owner_.on_closed(*this);
}

}  // namespace halyard::launcher
