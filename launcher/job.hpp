// One hlaunch job: starts the ranks (forked here, or through one agent per host), serves the
// bootstrap, forwards output, watches the ranks and ends the job when it is done, failed,
// aborted, timed out or interrupted.
//
// Everything runs on one io_context thread: SIGCHLD, SIGINT/SIGTERM/SIGHUP, the timeout and the
// kill grace period arrive as Asio events, so the job's state needs no locks.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>

#include <memory>
#include <string>
#include <vector>

#include "launcher/agent_link.hpp"
#include "launcher/bootstrap_server.hpp"
#include "launcher/job_guardian.hpp"
#include "launcher/launch_options.hpp"
#include "launcher/output_drain.hpp"
#include "launcher/output_forwarder.hpp"
#include "launcher/output_sink.hpp"
#include "launcher/recorder_directory.hpp"

namespace halyard::launcher {

// hlaunch's own exit codes (besides the job's).
inline constexpr int kExitUsage = 2;
inline constexpr int kExitTimeout = 124;
inline constexpr int kExitLauncherFailure = 125;

// How long hlaunch, once the job ended, waits for a reader to take the output still queued.
inline constexpr std::chrono::seconds kFinalOutputWait{1};  // per stream
// Time between SIGTERM and SIGKILL when hlaunch ends a job.
inline constexpr std::chrono::seconds kKillGrace{2};
// When a rank fails, the others get the peer-failure notice at once and this long to report
// the error and exit on their own before SIGTERM (then SIGKILL after kKillGrace): so each
// survivor says what it saw, and every rank is gone within 5 s (docs/reliability.md).
inline constexpr std::chrono::seconds kFailureReportGrace{2};
// A rank whose bootstrap connection closed without the finalize handshake has this long to
// exit (then its exit status names what happened) before the closed connection itself is its
// failure.
inline constexpr std::chrono::seconds kUnfinalizedCloseGrace{1};
// hlaunch's exit status when a rank exited 0 without finalizing.
inline constexpr int kExitUnfinalized = 1;

class Job {
 public:
  // `program_path` is options.command[0] resolved (program_lookup.hpp).
  Job(LaunchOptions options, std::string program_path);
  ~Job();

  // Runs the job to its end and returns hlaunch's exit status.
  int run();

 private:
  struct RankState {
    pid_t pid = -1;  // -1 when an agent runs it
    int agent = -1;  // index into agents_, or -1 when forked here
    bool running = false;
    int open_streams = 0;
  };

  // The HALYARD_* variables of `rank` ("NAME=VALUE").
  std::vector<std::string> job_variables(int rank, const RankPlacement& place) const;
  std::vector<std::string> rank_environment(int rank, const RankPlacement& place) const;
  int num_nodes() const;
  void spawn_all();
  void spawn_local(const std::vector<RankPlacement>& placement);
  void spawn_agents(const std::vector<RankPlacement>& placement);
  // How to start the agent of `host`, which runs `ranks` ranks.
  std::vector<std::string> agent_command(const std::string& host, std::size_t ranks) const;
  void on_agent_output(const AgentOutput& output);
  void on_agent_done(std::size_t agent);
  void watch_children();
  void watch_stop_signals();
  // SIGUSR1 (hlaunch --dump): prints the flight recorder verdict, the job goes on.
  void watch_dump_signal();
  // Reads the local ranks' flight recorders and prints the verdict after `why`; with
  // `only_if_timed_out`, only when some rank's HALYARD_COLL_TIMEOUT gave up on a call.
  void print_verdict(const std::string& why, bool only_if_timed_out = false);
  void reap();
  void on_rank_ended(int rank, int status);
  // The rank's bootstrap connection closed without the finalize handshake.
  void on_unfinalized_close(int rank);
  // Ends the job for `rank`, which failed as `what` ("rank 3 exited with status 3").
  void fail_rank(int rank, int exit_code, const std::string& what);
  void on_abort(int rank, int code, const std::string& message);
  void on_timeout();
  // Starts ending the job: records the exit code and message (the first reason wins), tells
  // the ranks, sends them `first_signal` (0: SIGTERM after kFailureReportGrace), and SIGKILL
  // after the grace period.
  void end_job(int exit_code, const std::string& message, const ControlNotice& notice,
               int first_signal);
  // Sends `sig` to the running ranks `after` from now, then SIGKILL kKillGrace later.
  void signal_later(std::chrono::seconds after, int sig);
  void signal_running_ranks(int sig);
  void maybe_finish();

  LaunchOptions options_;
  std::string program_path_;
  std::string token_;
  std::string job_id_;
  boost::asio::io_context io_;
  boost::asio::signal_set child_signal_;
  boost::asio::signal_set stop_signals_;
  boost::asio::signal_set dump_signal_;
  boost::asio::steady_timer timeout_timer_;
  boost::asio::steady_timer kill_timer_;
  OutputDrain drain_;
  // hlaunch's stdout and stderr: every rank's output and hlaunch's messages go through them.
  std::shared_ptr<OutputSink> stdout_;
  std::shared_ptr<OutputSink> stderr_;
  boost::asio::steady_timer agent_kill_timer_;
  std::string listen_address_;
  BootstrapServer server_;
  std::vector<RankState> ranks_;
  std::unique_ptr<JobGuardian> guardian_;  // local ranks only: agents guard their own
  // The flight recorders of local ranks (null for a job on hosts: agents' ranks have none).
  std::unique_ptr<RecorderDirectory> recorders_;
  std::vector<std::shared_ptr<OutputForwarder>> forwarders_;
  std::vector<std::unique_ptr<AgentLink>> agents_;
  int host_nodes_ = 0;  // host entries that got ranks (the job's nodes when it has hosts)
  bool ending_ = false;
  bool finished_ = false;
  int stop_signals_seen_ = 0;
  int exit_code_ = 0;
  std::string final_message_;
};

}  // namespace halyard::launcher
