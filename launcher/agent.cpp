#include "launcher/agent.hpp"

#include <signal.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "launcher/agent_protocol.hpp"
#include "launcher/cpu_binding.hpp"
#include "launcher/environment.hpp"
#include "launcher/job.hpp"
#include "launcher/output_drain.hpp"
#include "launcher/output_forwarder.hpp"
#include "launcher/program_lookup.hpp"
#include "launcher/rank_spawner.hpp"
#include "launcher/usage_error.hpp"
#include "runtime/support/error.hpp"

namespace halyard::launcher {
namespace {

namespace asio = boost::asio;

constexpr int kStatusExecFailed = 127 << 8;  // a wait status "exited with status 127"

class Agent {
 public:
  Agent()
      : commands_(io_, ::dup(STDIN_FILENO)),
        child_signal_(io_),
        stop_signals_(io_),
        kill_timer_(io_),
        drain_(io_) {}

  int run() {
    ::signal(SIGPIPE, SIG_IGN);
    child_signal_.add(SIGCHLD);
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) stop_signals_.add(sig);
    watch_children();
    watch_stop_signals();
    read_commands();
    io_.run();
    return exit_code_;
  }

 private:
  struct LocalRank {
    int rank = 0;
    pid_t pid = -1;
    bool running = false;
    int open_streams = 0;
  };

  void read_commands() {
    commands_.async_read_some(
        asio::buffer(buffer_), [this](boost::system::error_code ec, std::size_t n) {
          if (finished_) return;
          if (ec) {
            head_gone();
            return;
          }
          try {
            decoder_.feed({buffer_.data(), n});
            while (auto frame = decoder_.next()) handle(*frame);
          } catch (const std::exception& e) {
            write_fully(STDERR_FILENO, std::string("hlaunch agent: ") + e.what() + "\n");
            head_gone();
            return;
          }
          read_commands();
        });
  }

  void handle(const AgentFrame& frame) {
    if (frame.kind == AgentFrameKind::kSpec && !started_) {
      started_ = true;
      start(decode_spec(frame.payload));
    } else if (frame.kind == AgentFrameKind::kSignal && started_) {
      int sig = decode_signal(frame.payload);
      signal_ranks(sig);
      if (sig == SIGKILL) kill_timer_.cancel();
    } else {
      throw Error(ErrorCode::kBootstrap, "unexpected frame from hlaunch");
    }
  }

  void start(const AgentSpec& spec) {
    std::string path;
    std::string failure;
    try {
      path = resolve_program(spec.program);
    } catch (const UsageError& e) {
      failure = e.what();
    }
    std::vector<RankPlacement> placement;
    for (std::size_t i = 0; i < spec.ranks.size(); ++i) {
      placement.push_back({0, static_cast<int>(i), static_cast<int>(spec.ranks.size())});
    }
    std::vector<std::optional<cpu_set_t>> cpus(placement.size());
    if (!failure.empty()) {
      write_fully(STDERR_FILENO, "hlaunch: " + failure + " (on the agent's host)\n");
    } else {
      HostTopology host;
      BindTo bind = spec.bind_to.empty() ? host.default_binding(static_cast<int>(placement.size()))
                                         : bind_to_from_name(spec.bind_to);
      cpus = host.binding_sets(bind, placement);
    }
    Environment base = current_environment();
    apply_assignments(base, spec.env);
    for (std::size_t i = 0; i < spec.ranks.size(); ++i) {
      const AgentRank& wanted = spec.ranks[i];
      if (!failure.empty()) {
        // Reported as an exec failure would be, so hlaunch's summary reads the same.
        send(encode_rank_exit({wanted.rank, kStatusExecFailed}));
        continue;
      }
      Environment env = base;
      apply_assignments(env, wanted.env);
      RankCommand command{path, spec.argv, to_assignments(env), cpus[i], false, spec.cwd};
      SpawnedRank spawned = spawn_rank(command);
      ranks_.push_back({wanted.rank, spawned.pid, true, 2});
      std::size_t index = ranks_.size() - 1;
      for (auto [fd, stream] : {std::pair{spawned.stdout_fd, 1}, std::pair{spawned.stderr_fd, 2}}) {
        auto forwarder = std::make_shared<OutputForwarder>(
            io_, fd,
            [this, rank = wanted.rank, stream = stream](const std::string& line) {
              send(encode_output({rank, stream, line}));
            },
            [this, index] {
              --ranks_[index].open_streams;
              maybe_finish();
            });
        forwarders_.push_back(forwarder);
        forwarder->start();
      }
    }
    reap();
    maybe_finish();
  }

  void send(const std::string& frame) { write_fully(STDOUT_FILENO, frame); }

  void watch_children() {
    child_signal_.async_wait([this](boost::system::error_code ec, int) {
      if (ec) return;
      reap();
      if (!finished_) watch_children();
    });
  }

  void watch_stop_signals() {
    stop_signals_.async_wait([this](boost::system::error_code ec, int sig) {
      if (ec) return;
      // ssh hangs up or srun cancels the step: end the ranks as hlaunch itself would.
      end_ranks(sig);
      if (!finished_) watch_stop_signals();
    });
  }

  void reap() {
    for (auto& r : ranks_) {
      if (!r.running) continue;
      if (auto status = reap_if_ended(r.pid)) {
        r.running = false;
        send(encode_rank_exit({r.rank, *status}));
      }
    }
    maybe_finish();
  }

  void signal_ranks(int sig) {
    for (const auto& r : ranks_) {
      if (r.running) ::kill(-r.pid, sig);
    }
  }

  // Signal now, SIGKILL after the grace period.
  void end_ranks(int sig) {
    signal_ranks(sig);
    kill_timer_.expires_after(kKillGrace);
    kill_timer_.async_wait([this](boost::system::error_code ec) {
      if (!ec) signal_ranks(SIGKILL);
    });
  }

  // hlaunch is gone: nobody is left to report to, and the ranks must not outlive the job.
  void head_gone() {
    exit_code_ = kExitLauncherFailure;
    signal_ranks(SIGKILL);
    boost::system::error_code ignored;
    commands_.close(ignored);
    if (!started_) finish();
    maybe_finish();
  }

  void maybe_finish() {
    if (!started_ || finished_) return;
    bool reaped = true;
    bool drained = true;
    for (const auto& r : ranks_) {
      reaped = reaped && !r.running;
      drained = drained && r.open_streams == 0;
    }
    if (!reaped) return;
    if (drained) {
      finish();
      return;
    }
    drain_.start([this] {
      for (auto& f : forwarders_) f->close();
    });
  }

  void finish() {
    finished_ = true;
    boost::system::error_code ignored;
    commands_.close(ignored);
    child_signal_.cancel();
    stop_signals_.cancel();
    kill_timer_.cancel();
    drain_.cancel();
  }

  asio::io_context io_;
  asio::posix::stream_descriptor commands_;
  asio::signal_set child_signal_;
  asio::signal_set stop_signals_;
  asio::steady_timer kill_timer_;
  OutputDrain drain_;
  std::array<char, 8192> buffer_{};
  AgentFrameDecoder decoder_;
  std::vector<LocalRank> ranks_;
  std::vector<std::shared_ptr<OutputForwarder>> forwarders_;
  bool started_ = false;
  bool finished_ = false;
  int exit_code_ = 0;
};

}  // namespace

int run_agent() {
  Agent agent;
  return agent.run();
}

}  // namespace halyard::launcher
