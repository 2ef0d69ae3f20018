#include "launcher/output_forwarder.hpp"

#include <poll.h>
#include <unistd.h>

#include <cerrno>

namespace halyard::launcher {

namespace asio = boost::asio;

void write_fully(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n > 0) {
      data.remove_prefix(static_cast<std::size_t>(n));
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      // hlaunch's stdout may be non-blocking (shared with a terminal or a parent's pipe).
      pollfd p{fd, POLLOUT, 0};
      ::poll(&p, 1, -1);
    } else {
      return;
    }
  }
}

OutputForwarder::OutputForwarder(asio::io_context& io, int pipe_fd, int out_fd, std::string prefix,
                                 std::function<void()> on_end)
    : OutputForwarder(
          io, pipe_fd,
          [out_fd, prefix = std::move(prefix)](const std::string& line) {
            write_fully(out_fd, prefix.empty() ? line : prefix + line);
          },
          std::move(on_end)) {}

OutputForwarder::OutputForwarder(asio::io_context& io, int pipe_fd, LineSink sink,
                                 std::function<void()> on_end)
    : pipe_(io, pipe_fd), sink_(std::move(sink)), on_end_(std::move(on_end)) {}

OutputForwarder::OutputForwarder(asio::io_context& io, int pipe_fd, std::shared_ptr<OutputSink> out,
                                 const std::string& prefix, std::function<void()> on_end)
    : OutputForwarder(
          io, pipe_fd, [out, prefix](const std::string& line) { out->write(prefix + line); },
          std::move(on_end)) {
  gate_ = std::move(out);
}

void OutputForwarder::start() {
  read_more();
}

void OutputForwarder::read_more() {
  if (gate_ && !gate_->has_room()) {
    gate_->when_room([self = shared_from_this()] {
      if (!self->ended_) self->read_more();
    });
    return;
  }
  pipe_.async_read_some(asio::buffer(buffer_),
                        [self = shared_from_this()](boost::system::error_code ec, std::size_t n) {
                          if (self->ended_) return;
                          if (n > 0) {
                            for (const auto& line : self->splitter_.feed({self->buffer_.data(), n}))
                              self->emit(line);
                          }
                          if (ec) {
                            self->end();
                            return;
                          }
                          self->read_more();
                        });
}

void OutputForwarder::emit(const std::string& line) {
  sink_(line);
}

void OutputForwarder::close() {
  end();
}

void OutputForwarder::end() {
  if (ended_) return;
  ended_ = true;
  if (auto last = splitter_.finish()) emit(*last);
  boost::system::error_code ignored;
  pipe_.close(ignored);
  if (on_end_) on_end_();
}

}  // namespace halyard::launcher
