// One of hlaunch's own output streams (stdout or stderr), written by a thread of its own, so
// that a reader that does not read (`| less`, Ctrl-S, a slow log shipper) never blocks the
// io_context thread: --timeout, signals and failures are handled on time whatever the reader.
//
// The queue is bounded: forwarders read their ranks' pipes only while has_room(), so a rank
// that writes faster than the reader reads blocks in its own write (back-pressure), and
// hlaunch's memory stays bounded.
#pragma once

#include <boost/asio/io_context.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <string>

namespace halyard::launcher {

class OutputSink {
 public:
  // Writes to `fd` (1 or 2); `resume` callbacks run on `io`.
  OutputSink(boost::asio::io_context& io, int fd);
  // Stops handing callbacks to `io`; the writer thread finishes what it is writing on its own.
  ~OutputSink();
  OutputSink(const OutputSink&) = delete;
  OutputSink& operator=(const OutputSink&) = delete;

  // Queues `data`; never blocks.
  void write(std::string data);
  // Whether less than kMaxQueuedBytes wait to be written.
  bool has_room() const;
  // Runs `resume` on the io_context once the queue has room again (at once if it has).
  void when_room(std::function<void()> resume);
  // Waits until everything queued was written, or `limit` passed (the reader may never read).
  void flush(std::chrono::milliseconds limit);

  static constexpr std::size_t kMaxQueuedBytes = 1u << 20;

 private:
  struct State;
  std::shared_ptr<State> state_;  // shared with the writer thread, which may outlive us
};

}  // namespace halyard::launcher
