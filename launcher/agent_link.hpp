// hlaunch's end of one agent (agent.hpp): the local process that reaches the host (ssh, srun,
// a HALYARD_RSH wrapper, or the agent itself for this host), the spec written to its stdin,
// and the frames read from its stdout. The agent's stderr is forwarded to hlaunch's as is.
#pragma once

#include <sys/types.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>

#include <array>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "launcher/agent_protocol.hpp"
#include "launcher/output_forwarder.hpp"

namespace halyard::launcher {

class AgentLink {
 public:
  struct Events {
    std::function<void(const AgentOutput&)> on_output;
    std::function<void(const AgentRankExit&)> on_rank_exit;
    // The agent's process ended and its stdout and stderr are drained (or were closed).
    std::function<void()> on_done;
  };

  // `command` starts the agent (e.g. {"ssh", "b", "/opt/halyard/bin/hlaunch", "--agent"}).
  AgentLink(boost::asio::io_context& io, std::string host, std::vector<std::string> command,
            Events events);
  AgentLink(const AgentLink&) = delete;
  AgentLink& operator=(const AgentLink&) = delete;

  // Starts the command and sends `spec`. Throws Error(kInternal) when it cannot fork; a command
  // that cannot be executed ends with status 127 like a rank.
  void start(const AgentSpec& spec);
  // Asks the agent to send `sig` to its ranks.
  void signal(int sig);
  // Kills the local process (ssh, srun or the agent): the agent then kills its ranks.
  void kill();
  // Stops reading its streams (the drain period is over).
  void close_streams();

  pid_t pid() const { return pid_; }
  const std::string& host() const { return host_; }
  bool process_ended() const { return status_.has_value(); }
  bool done() const { return done_; }
  std::optional<int> status() const { return status_; }
  // Called by hlaunch's reaper with the wait status of pid().
  void on_process_ended(int status);

 private:
  void read_frames();
  void stdout_ended();
  void maybe_done();
  // Queues a frame for the agent's stdin; written asynchronously, so an agent (or an ssh that
  // never reads) cannot block hlaunch's event loop.
  void send(std::string frame);
  void write_next();
  void close_input();

  boost::asio::io_context& io_;
  std::string host_;
  std::vector<std::string> command_;
  Events events_;
  pid_t pid_ = -1;
  std::optional<boost::asio::posix::stream_descriptor> input_;
  std::deque<std::string> outbox_;
  std::optional<boost::asio::posix::stream_descriptor> frames_;
  std::shared_ptr<OutputForwarder> errors_;
  std::array<char, 16384> buffer_{};
  AgentFrameDecoder decoder_;
  std::optional<int> status_;
  bool stdout_open_ = false;
  bool stderr_open_ = false;
  bool done_ = false;
};

}  // namespace halyard::launcher
