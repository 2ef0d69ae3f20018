// Forwards one output stream (stdout or stderr) of one rank to hlaunch's own, line by line.
//
// All forwarders run on hlaunch's single io_context thread and each line goes out in one
// write, so lines of different ranks never mix; a last line without a newline is still
// forwarded (with one added) when the stream ends.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>

#include <array>
#include <functional>
#include <memory>
#include <string>

#include "launcher/line_splitter.hpp"
#include "launcher/output_sink.hpp"

namespace halyard::launcher {

class OutputForwarder : public std::enable_shared_from_this<OutputForwarder> {
 public:
  // Takes ownership of `pipe_fd`; writes to `out_fd` (1 or 2), each line after `prefix`.
  // `on_end` runs once, when the stream ended or was closed.
  OutputForwarder(boost::asio::io_context& io, int pipe_fd, int out_fd, std::string prefix,
                  std::function<void()> on_end);
  // Takes ownership of `pipe_fd`; hands every whole line to `sink` (an agent wraps it in a
  // frame for hlaunch).
  using LineSink = std::function<void(const std::string& line)>;
  OutputForwarder(boost::asio::io_context& io, int pipe_fd, LineSink sink,
                  std::function<void()> on_end);
  // Takes ownership of `pipe_fd`; queues each line, after `prefix`, on `out`, and reads the pipe
  // only while `out` has room (back-pressure on the rank).
  OutputForwarder(boost::asio::io_context& io, int pipe_fd, std::shared_ptr<OutputSink> out,
                  const std::string& prefix, std::function<void()> on_end);

  void start();
  // Stops forwarding now (e.g. a background child of a rank still holds the pipe open), after
  // writing out what was already received.
  void close();
  bool ended() const { return ended_; }

 private:
  void read_more();
  void end();
  void emit(const std::string& line);

  boost::asio::posix::stream_descriptor pipe_;
  LineSink sink_;
  std::shared_ptr<OutputSink> gate_;  // when set, read only while it has room
  std::function<void()> on_end_;
  LineSplitter splitter_;
  std::array<char, 8192> buffer_{};
  bool ended_ = false;
};

// Writes all of `data` to `fd`, retrying on short writes, EINTR and EAGAIN; gives up silently
// when the reader is gone (hlaunch's stdout closed), as there is nobody left to tell.
void write_fully(int fd, std::string_view data);

}  // namespace halyard::launcher
