// The grace period between "every process ended" and "stop forwarding its output": pipes a
// process left to background children may stay open, and hlaunch (or an agent) must not wait
// for them forever. Shared by Job and the agent.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <functional>

namespace halyard::launcher {

// Once every rank is reaped, how long their pipes may stay open before forwarding stops.
inline constexpr std::chrono::seconds kOutputDrain{1};

class OutputDrain {
 public:
  explicit OutputDrain(boost::asio::io_context& io) : timer_(io) {}

  // Starts the grace period, once: later calls do nothing. `close_streams` runs when it ends
  // (unless cancelled first).
  void start(std::function<void()> close_streams) {
    if (started_) return;
    started_ = true;
    timer_.expires_after(kOutputDrain);
    timer_.async_wait([close = std::move(close_streams)](boost::system::error_code ec) {
      if (!ec) close();
    });
  }
  void cancel() { timer_.cancel(); }

 private:
  boost::asio::steady_timer timer_;
  bool started_ = false;
};

}  // namespace halyard::launcher
