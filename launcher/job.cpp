#include "launcher/job.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>

#include "launcher/cpu_binding.hpp"
#include "launcher/job_secrets.hpp"
#include "launcher/rank_spawner.hpp"
#include "launcher/wait_status.hpp"
#include "runtime/log.hpp"

extern char** environ;

namespace halyard::launcher {

namespace asio = boost::asio;

Job::Job(LaunchOptions options, std::string program_path)
    : options_(std::move(options)),
      program_path_(std::move(program_path)),
      token_(make_job_token()),
      job_id_(make_job_id()),
      child_signal_(io_),
      stop_signals_(io_),
      timeout_timer_(io_),
      kill_timer_(io_),
      drain_timer_(io_),
      server_(io_, options_.num_ranks, token_,
              [this](int rank, int code, const std::string& message) {
                on_abort(rank, code, message);
              }),
      ranks_(static_cast<std::size_t>(options_.num_ranks)) {}

Job::~Job() {
  // Normally every rank is reaped by now; after an exception, make sure none outlives us.
  for (auto& r : ranks_) {
    if (r.running) {
      ::kill(-r.pid, SIGKILL);
      int status = 0;
      ::waitpid(r.pid, &status, 0);
    }
  }
}

std::vector<std::string> Job::rank_environment(int rank, const RankPlacement& place) const {
  std::map<std::string, std::string> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    std::string entry(*e);
    auto eq = entry.find('=');
    if (eq != std::string::npos) env[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  // -x VAR alone exports hlaunch's value, which every local rank inherits anyway.
  for (const auto& x : options_.exports) {
    auto eq = x.find('=');
    if (eq != std::string::npos) env[x.substr(0, eq)] = x.substr(eq + 1);
  }
  // Set last, so a job started from inside another job gets its own values.
  env["HALYARD_RANK"] = std::to_string(rank);
  env["HALYARD_SIZE"] = std::to_string(options_.num_ranks);
  env["HALYARD_LOCAL_RANK"] = std::to_string(place.local_rank);
  env["HALYARD_LOCAL_SIZE"] = std::to_string(place.local_size);
  env["HALYARD_NODE_ID"] = std::to_string(place.node_id);
  env["HALYARD_NUM_NODES"] = std::to_string(options_.vnodes);
  env["HALYARD_JOB_ID"] = job_id_;
  env["HALYARD_BOOTSTRAP_ADDR"] = server_.address();
  env["HALYARD_JOB_TOKEN"] = token_;
  std::vector<std::string> out;
  out.reserve(env.size());
  for (const auto& [name, value] : env) out.push_back(name + "=" + value);
  return out;
}

void Job::spawn_all() {
  std::vector<RankPlacement> placement =
      place_ranks(options_.num_ranks, options_.vnodes, options_.map_by);
  HostTopology host;
  BindTo bind = options_.bind_to.value_or(host.default_binding(options_.num_ranks));
  std::vector<std::optional<cpu_set_t>> cpus = host.binding_sets(bind, placement);
  log::debug("hlaunch: job {} with {} ranks on {} node(s), bind-to {}, bootstrap at {}", job_id_,
             options_.num_ranks, options_.vnodes, bind_to_name(bind), server_.address());

  for (int rank = 0; rank < options_.num_ranks; ++rank) {
    auto index = static_cast<std::size_t>(rank);
    RankCommand command{program_path_, options_.command, rank_environment(rank, placement[index]),
                        cpus[index]};
    SpawnedRank spawned = spawn_rank(command);
    RankState& state = ranks_[index];
    state.pid = spawned.pid;
    state.running = true;
    state.open_streams = 2;
    std::string prefix = options_.tag_output ? "[" + std::to_string(rank) + "] " : "";
    for (auto [pipe_fd, out_fd] : {std::pair{spawned.stdout_fd, STDOUT_FILENO},
                                   std::pair{spawned.stderr_fd, STDERR_FILENO}}) {
      auto forwarder =
          std::make_shared<OutputForwarder>(io_, pipe_fd, out_fd, prefix, [this, rank] {
            --ranks_[static_cast<std::size_t>(rank)].open_streams;
            maybe_finish();
          });
      forwarders_.push_back(forwarder);
      forwarder->start();
    }
  }
}

int Job::run() {
  server_.start();
  // Ignored so that a rank closing its control socket, or a reader of our stdout going away,
  // cannot kill hlaunch; ranks get the default back before exec.
  ::signal(SIGPIPE, SIG_IGN);
  child_signal_.add(SIGCHLD);
  stop_signals_.add(SIGINT);
  stop_signals_.add(SIGTERM);
  stop_signals_.add(SIGHUP);
  watch_children();
  watch_stop_signals();
  try {
    spawn_all();
  } catch (const std::exception& e) {
    end_job(kExitLauncherFailure, std::string("hlaunch: cannot start the job: ") + e.what(),
            {ControlNotice::Kind::kJobAbort, -1, kExitLauncherFailure, "hlaunch failed"}, SIGKILL);
  }
  if (options_.timeout_s > 0) {
    timeout_timer_.expires_after(std::chrono::seconds(options_.timeout_s));
    timeout_timer_.async_wait([this](boost::system::error_code ec) {
      if (!ec) on_timeout();
    });
  }
  reap();  // in case a rank ended before its SIGCHLD handler saw it
  maybe_finish();
  io_.run();
  if (!final_message_.empty()) write_fully(STDERR_FILENO, final_message_ + "\n");
  return exit_code_;
}

void Job::watch_children() {
  child_signal_.async_wait([this](boost::system::error_code ec, int) {
    if (ec) return;
    reap();
    if (!finished_) watch_children();  // reap() may have finished the job
  });
}

void Job::watch_stop_signals() {
  stop_signals_.async_wait([this](boost::system::error_code ec, int sig) {
    if (ec) return;
    ++stop_signals_seen_;
    if (stop_signals_seen_ == 1) {
      const char* name = strsignal(sig);
      std::string message = "hlaunch: received signal " + std::to_string(sig) + " (" +
                            (name != nullptr ? name : "unknown") + "); ending the job";
      // The ranks get the very signal hlaunch got, as mpirun forwards it.
      end_job(128 + sig, message, {ControlNotice::Kind::kJobAbort, -1, 128 + sig, message}, sig);
    } else {
      signal_running_ranks(SIGKILL);  // a second Ctrl-C: no more grace
    }
    if (!finished_) watch_stop_signals();
  });
}

void Job::reap() {
  for (std::size_t i = 0; i < ranks_.size(); ++i) {
    RankState& r = ranks_[i];
    if (!r.running) continue;
    // Look without reaping first: while the rank is a zombie its pid, and so its process group
    // id, cannot be reused, so killing the group hits only what the rank left behind in it
    // (background children), never an unrelated process.
    siginfo_t info{};
    int rc = 0;
    do {
      rc = ::waitid(P_PID, static_cast<id_t>(r.pid), &info, WEXITED | WNOHANG | WNOWAIT);
    } while (rc < 0 && errno == EINTR);
    if (rc != 0 || info.si_pid != r.pid) continue;
    ::kill(-r.pid, SIGKILL);
    int status = 0;
    pid_t got = 0;
    do {
      got = ::waitpid(r.pid, &status, 0);
    } while (got < 0 && errno == EINTR);
    if (got == r.pid) on_rank_ended(static_cast<int>(i), status);
  }
}

void Job::on_rank_ended(int rank, int status) {
  ranks_[static_cast<std::size_t>(rank)].running = false;
  std::string how = describe_wait_status(status);
  log::debug("hlaunch: rank {} {}", rank, how);
  server_.rank_gone(rank, how);
  if (!ending_ && !wait_status_ok(status)) {
    std::string what = "rank " + std::to_string(rank) + " " + how;
    end_job(exit_code_of(status), "hlaunch: " + what,
            {ControlNotice::Kind::kPeerFailed, rank, exit_code_of(status), what}, 0);
  }
  maybe_finish();
}

void Job::on_abort(int rank, int code, const std::string& message) {
  if (ending_) return;
  std::string what = "rank " + std::to_string(rank) + " aborted the job with code " +
                     std::to_string(code) + (message.empty() ? "" : ": " + message);
  // An exit status is 8 bits; an abort must never look like success.
  int exit_code = (code & 0xff) == 0 ? 1 : (code & 0xff);
  end_job(exit_code, "hlaunch: " + what, {ControlNotice::Kind::kJobAbort, rank, code, what},
          SIGTERM);
}

void Job::on_timeout() {
  if (ending_) return;
  reap();  // so ranks that just finished are not listed as running
  std::string running;
  for (std::size_t i = 0; i < ranks_.size(); ++i) {
    if (!ranks_[i].running) continue;
    if (!running.empty()) running += ",";
    running += std::to_string(i);
  }
  if (running.empty()) return;  // every rank just ended: not a timeout
  std::string what = "job timed out after " + std::to_string(options_.timeout_s) + " s";
  end_job(kExitTimeout, "hlaunch: " + what + "; ranks still running: " + running,
          {ControlNotice::Kind::kJobAbort, -1, kExitTimeout, what}, SIGTERM);
}

void Job::end_job(int exit_code, const std::string& message, const ControlNotice& notice,
                  int first_signal) {
  if (ending_) return;
  ending_ = true;
  exit_code_ = exit_code;
  final_message_ = message;
  timeout_timer_.cancel();
  server_.notify_all(notice);
  if (first_signal == 0) {
    signal_later(kFailureReportGrace, SIGTERM);
    return;
  }
  signal_running_ranks(first_signal);
  signal_later(kKillGrace, SIGKILL);
}

void Job::signal_later(std::chrono::seconds after, int sig) {
  kill_timer_.expires_after(after);
  kill_timer_.async_wait([this, sig](boost::system::error_code ec) {
    if (ec) return;
    signal_running_ranks(sig);
    if (sig != SIGKILL) signal_later(kKillGrace, SIGKILL);
  });
}

void Job::signal_running_ranks(int sig) {
  for (const auto& r : ranks_) {
    // The whole process group: a rank's own children end with it.
    if (r.running) ::kill(-r.pid, sig);
  }
}

void Job::maybe_finish() {
  bool all_reaped = true;
  bool all_drained = true;
  for (const auto& r : ranks_) {
    all_reaped = all_reaped && !r.running;
    all_drained = all_drained && r.open_streams == 0;
  }
  if (!all_reaped) return;
  if (all_drained) {
    // Nothing may stay pending on the io_context, or run() would never return.
    finished_ = true;
    timeout_timer_.cancel();
    kill_timer_.cancel();
    drain_timer_.cancel();
    child_signal_.cancel();
    stop_signals_.cancel();
    server_.stop();
    return;
  }
  if (draining_) return;
  draining_ = true;
  drain_timer_.expires_after(kOutputDrain);
  drain_timer_.async_wait([this](boost::system::error_code ec) {
    if (ec) return;
    for (auto& f : forwarders_) f->close();
  });
}

}  // namespace halyard::launcher
