#include "launcher/job.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "launcher/cpu_binding.hpp"
#include "launcher/environment.hpp"
#include "launcher/hang_verdict.hpp"
#include "launcher/job_secrets.hpp"
#include "launcher/listen_address.hpp"
#include "launcher/rank_spawner.hpp"
#include "launcher/wait_status.hpp"
#include "runtime/support/log.hpp"

namespace halyard::launcher {

namespace asio = boost::asio;

namespace {

bool has_remote_hosts(const LaunchOptions& options) {
  return std::any_of(options.hosts.begin(), options.hosts.end(),
                     [](const HostEntry& h) { return !is_this_host(h.name); });
}

// Splits HALYARD_RSH ("ssh -p 2222") into words.
std::vector<std::string> split_words(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream in(text);
  std::string word;
  while (in >> word) words.push_back(word);
  return words;
}

// The agent runs the same hlaunch binary, at the same path, on every host.
std::string own_executable() {
  std::error_code ec;
  auto path = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw Error(ErrorCode::kInternal, "cannot find hlaunch's own path: " + ec.message());
  return path.string();
}

}  // namespace

Job::Job(LaunchOptions options, std::string program_path)
    : options_(std::move(options)),
      program_path_(std::move(program_path)),
      token_(make_job_token()),
      job_id_(make_job_id()),
      child_signal_(io_),
      stop_signals_(io_),
      dump_signal_(io_),
      timeout_timer_(io_),
      kill_timer_(io_),
      drain_(io_),
      stdout_(std::make_shared<OutputSink>(io_, STDOUT_FILENO)),
      stderr_(std::make_shared<OutputSink>(io_, STDERR_FILENO)),
      agent_kill_timer_(io_),
      listen_address_(
          choose_listen_address(options_.bootstrap_address, has_remote_hosts(options_))),
      server_(io_, options_.num_ranks, token_,
              [this](int rank, int code, const std::string& message) {
                on_abort(rank, code, message);
              }),
      ranks_(static_cast<std::size_t>(options_.num_ranks)) {
  server_.on_unfinalized_close([this](int rank) { on_unfinalized_close(rank); });
}

Job::~Job() {
  // Normally every rank is reaped by now; after an exception, make sure none outlives us.
  for (auto& r : ranks_) {
    if (r.running && r.pid > 0) {
      ::kill(-r.pid, SIGKILL);
      int status = 0;
      ::waitpid(r.pid, &status, 0);
    }
  }
}

std::vector<std::string> Job::job_variables(int rank, const RankPlacement& place) const {
  return {"HALYARD_RANK=" + std::to_string(rank),
          "HALYARD_SIZE=" + std::to_string(options_.num_ranks),
          "HALYARD_LOCAL_RANK=" + std::to_string(place.local_rank),
          "HALYARD_LOCAL_SIZE=" + std::to_string(place.local_size),
          "HALYARD_NODE_ID=" + std::to_string(place.node_id),
          "HALYARD_NUM_NODES=" + std::to_string(num_nodes()),
          "HALYARD_JOB_ID=" + job_id_,
          "HALYARD_BOOTSTRAP_ADDR=" + server_.address(),
          "HALYARD_JOB_TOKEN=" + token_,
          "HALYARD_RECORDER_DIR=" + (recorders_ ? recorders_->path() : std::string())};
}

std::vector<std::string> Job::rank_environment(int rank, const RankPlacement& place) const {
  Environment env = current_environment();
  leave_room_for_dlopen_tls(env);
  apply_assignments(env, options_.exports);
  // Set last, so a job started from inside another job gets its own values.
  apply_assignments(env, job_variables(rank, place));
  return to_assignments(env);
}

int Job::num_nodes() const {
  return options_.hosts.empty() ? options_.vnodes : host_nodes_;
}

void Job::spawn_all() {
  if (options_.hosts.empty()) {
    spawn_local(place_ranks(options_.num_ranks, options_.vnodes, options_.map_by));
    return;
  }
  std::vector<int> slots;
  for (const auto& h : options_.hosts) slots.push_back(h.slots);
  std::vector<RankPlacement> placement =
      place_ranks_on_hosts(options_.num_ranks, slots, options_.map_by);
  // Entries beyond the last one that got a rank are not started and are no node of the job.
  for (const auto& p : placement) host_nodes_ = std::max(host_nodes_, p.node_id + 1);
  spawn_agents(placement);
}

std::vector<std::string> Job::agent_command(const std::string& host, std::size_t ranks) const {
  std::vector<std::string> command;
  if (options_.launcher == LauncherKind::kSlurm) {
    // One step per node, sharing the allocation's CPUs with the other steps; the agent binds
    // its ranks inside what the step may use. Slurm kills the step if hlaunch goes away.
    command = {"srun", "--nodes=1", "--ntasks=1", "--nodelist=" + host, "--overlap",
               "--kill-on-bad-exit=1",
               // srun holds a task's output until a newline by default; agent frames have none.
               "--unbuffered", "--job-name=hlaunch-agent"};
    if (options_.slurm_binding) {
      // Slurm binds the step (SLURM_CPU_BIND, the cluster's default) to CPUs for all of the
      // node's ranks, and the ranks inherit that.
      command.push_back("--cpus-per-task=" + std::to_string(ranks));
    } else {
      command.push_back("--cpu-bind=none");
    }
  } else if (!is_this_host(host)) {
    const char* rsh = std::getenv("HALYARD_RSH");
    command = split_words(rsh != nullptr && *rsh != '\0' ? rsh : "ssh");
    command.push_back(host);
  }
  command.push_back(own_executable());
  command.push_back("--agent");
  return command;
}

void Job::spawn_agents(const std::vector<RankPlacement>& placement) {
  // -x VAR without a value exports hlaunch's own value, which remote ranks do not inherit.
  std::vector<std::string> exports;
  for (const auto& x : options_.exports) {
    if (x.find('=') != std::string::npos) {
      exports.push_back(x);
    } else if (const char* value = std::getenv(x.c_str())) {
      exports.push_back(x + "=" + value);
    }
  }
  std::error_code ec;
  std::string cwd = std::filesystem::current_path(ec).string();
  const int nodes = num_nodes();
  std::vector<AgentSpec> specs(static_cast<std::size_t>(nodes));
  for (auto& spec : specs) {
    spec.program = options_.command.front();
    spec.argv = options_.command;
    spec.cwd = cwd;
    spec.env = exports;
    spec.bind_to = options_.bind_to ? bind_to_name(*options_.bind_to) : "";
  }
  // In local-rank order on each host, which is rank order within it under both mappings.
  for (int rank = 0; rank < options_.num_ranks; ++rank) {
    const RankPlacement& place = placement[static_cast<std::size_t>(rank)];
    specs[static_cast<std::size_t>(place.node_id)].ranks.push_back(
        {rank, job_variables(rank, place)});
    RankState& state = ranks_[static_cast<std::size_t>(rank)];
    state.agent = place.node_id;
    state.running = true;
  }
  log::debug("hlaunch: job {} with {} ranks on {} host(s), bootstrap at {}", job_id_,
             options_.num_ranks, nodes, server_.address());
  for (int node = 0; node < nodes; ++node) {
    const std::string& host = options_.hosts[static_cast<std::size_t>(node)].name;
    auto index = static_cast<std::size_t>(node);
    AgentLink::Events events{[this](const AgentOutput& output) { on_agent_output(output); },
                             [this](const AgentRankExit& exit) {
                               if (exit.rank >= 0 && exit.rank < options_.num_ranks &&
                                   ranks_[static_cast<std::size_t>(exit.rank)].running) {
                                 on_rank_ended(exit.rank, exit.wait_status);
                               }
                             },
                             [this, index] { on_agent_done(index); }};
    agents_.push_back(std::make_unique<AgentLink>(
        io_, host, agent_command(host, specs[index].ranks.size()), events));
    agents_.back()->start(specs[index]);
  }
}

void Job::on_agent_output(const AgentOutput& output) {
  std::string prefix = options_.tag_output ? "[" + std::to_string(output.rank) + "] " : "";
  (output.stream == 2 ? stderr_ : stdout_)->write(prefix + output.line);
}

void Job::on_agent_done(std::size_t agent) {
  // Ranks the agent never reported are lost with it (ssh failed, the host went down).
  std::vector<int> lost;
  std::string lost_list;
  for (std::size_t i = 0; i < ranks_.size(); ++i) {
    RankState& r = ranks_[i];
    if (r.agent != static_cast<int>(agent) || !r.running) continue;
    r.running = false;
    lost.push_back(static_cast<int>(i));
    lost_list += (lost_list.empty() ? "" : ",") + std::to_string(i);
  }
  if (!lost.empty()) {
    const AgentLink& link = *agents_[agent];
    int status = link.status().value_or(0);
    std::string what = "the agent for host '" + link.host() + "' " + describe_wait_status(status) +
                       " before its ranks ended; lost rank(s) " + lost_list;
    for (int rank : lost) server_.rank_gone(rank, what);
    if (!ending_) {
      int code = wait_status_ok(status) ? kExitLauncherFailure : exit_code_of(status);
      end_job(code, "hlaunch: " + what,
              {ControlNotice::Kind::kPeerFailed, lost.front(), code, what}, SIGTERM);
    }
  }
  maybe_finish();
}

void Job::spawn_local(const std::vector<RankPlacement>& placement) {
  guardian_ = std::make_unique<JobGuardian>(options_.num_ranks);
  recorders_ = std::make_unique<RecorderDirectory>();
  HostTopology host;
  BindTo bind = options_.bind_to.value_or(host.default_binding(options_.num_ranks));
  std::vector<std::optional<cpu_set_t>> cpus = host.binding_sets(bind, placement);
  log::debug("hlaunch: job {} with {} ranks on {} node(s), bind-to {}, bootstrap at {}", job_id_,
             options_.num_ranks, options_.vnodes, bind_to_name(bind), server_.address());

  for (int rank = 0; rank < options_.num_ranks; ++rank) {
    auto index = static_cast<std::size_t>(rank);
    RankCommand command{program_path_,
                        options_.command,
                        rank_environment(rank, placement[index]),
                        cpus[index],
                        false,
                        ""};
    SpawnedRank spawned = spawn_rank(command);
    guardian_->watch(spawned.pid);  // spawn_rank made it the leader of its own group
    RankState& state = ranks_[index];
    state.pid = spawned.pid;
    state.running = true;
    state.open_streams = 2;
    std::string prefix = options_.tag_output ? "[" + std::to_string(rank) + "] " : "";
    for (auto [pipe_fd, out] :
         {std::pair{spawned.stdout_fd, stdout_}, std::pair{spawned.stderr_fd, stderr_}}) {
      auto forwarder = std::make_shared<OutputForwarder>(io_, pipe_fd, out, prefix, [this, rank] {
        --ranks_[static_cast<std::size_t>(rank)].open_streams;
        maybe_finish();
      });
      forwarders_.push_back(forwarder);
      forwarder->start();
    }
  }
}

int Job::run() {
  server_.start(listen_address_);
  // Ignored so that a rank closing its control socket, or a reader of our stdout going away,
  // cannot kill hlaunch; ranks get the default back before exec.
  ::signal(SIGPIPE, SIG_IGN);
  child_signal_.add(SIGCHLD);
  stop_signals_.add(SIGINT);
  stop_signals_.add(SIGTERM);
  stop_signals_.add(SIGHUP);
  dump_signal_.add(SIGUSR1);
  watch_children();
  watch_stop_signals();
  watch_dump_signal();
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
  if (!final_message_.empty()) stderr_->write(final_message_ + "\n");
  // A reader that takes nothing must not keep hlaunch (and its exit status) hostage.
  stdout_->flush(kFinalOutputWait);
  stderr_->flush(kFinalOutputWait);
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
    if (!r.running || r.pid < 0) continue;
    if (auto status = reap_if_ended(r.pid)) on_rank_ended(static_cast<int>(i), *status);
  }
  for (auto& agent : agents_) {
    if (!agent->process_ended()) {
      if (auto status = reap_if_ended(agent->pid())) agent->on_process_ended(*status);
    }
  }
}

void Job::on_rank_ended(int rank, int status) {
  RankState& state = ranks_[static_cast<std::size_t>(rank)];
  state.running = false;
  if (guardian_ && state.pid > 0) guardian_->forget(state.pid);
  std::string how = describe_wait_status(status);
  log::debug("hlaunch: rank {} {}", rank, how);
  server_.rank_gone(rank, how);
  if (!wait_status_ok(status)) {
    fail_rank(rank, exit_code_of(status), "rank " + std::to_string(rank) + " " + how);
  } else if (server_.connected(rank) && !server_.finalized(rank)) {
    // Its peers may wait for its data forever: the exit is a failure, whatever its status.
    fail_rank(rank, kExitUnfinalized,
              "rank " + std::to_string(rank) + " exited without finalizing");
  }
  maybe_finish();
}

void Job::on_unfinalized_close(int rank) {
  if (ending_ || !ranks_[static_cast<std::size_t>(rank)].running) return;
  auto timer = std::make_shared<asio::steady_timer>(io_, kUnfinalizedCloseGrace);
  timer->async_wait([this, rank, timer](boost::system::error_code ec) {
    if (ec || !ranks_[static_cast<std::size_t>(rank)].running) return;
    fail_rank(
        rank, kExitUnfinalized,
        "rank " + std::to_string(rank) + " closed its bootstrap connection without finalizing");
  });
}

void Job::watch_dump_signal() {
  dump_signal_.async_wait([this](boost::system::error_code ec, int) {
    if (ec) return;
    print_verdict("SIGUSR1");
    if (!finished_) watch_dump_signal();
  });
}

void Job::print_verdict(const std::string& why, bool only_if_timed_out) {
  if (!recorders_) {
    if (!only_if_timed_out) {
      stderr_->write("hlaunch: flight recorder (" + why +
                     "): none for a job on hosts (docs/reliability.md)\n");
    }
    return;
  }
  std::vector<RankRecord> records;
  for (std::size_t i = 0; i < ranks_.size(); ++i) {
    const RankState& r = ranks_[i];
    records.push_back(recorders_->read(static_cast<int>(i), r.running ? r.pid : -1));
  }
  if (only_if_timed_out && !any_timed_out(records)) return;
  std::string text = hang_verdict(records);
  std::string out;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    out += "hlaunch: flight recorder (" + why + "): " + text.substr(start, end - start) + "\n";
    start = end + 1;
  }
  stderr_->write(out);
}

void Job::fail_rank(int rank, int exit_code, const std::string& what) {
  if (ending_) return;
  print_verdict("HALYARD_COLL_TIMEOUT", true);
  end_job(exit_code, "hlaunch: " + what, {ControlNotice::Kind::kPeerFailed, rank, exit_code, what},
          0);
}

void Job::on_abort(int rank, int code, const std::string& message) {
  if (ending_) return;
  print_verdict("HALYARD_COLL_TIMEOUT", true);
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
    if (sig != SIGKILL) {
      signal_later(kKillGrace, SIGKILL);
      return;
    }
    if (agents_.empty()) return;
    // An agent that cannot pass the SIGKILL on (its host is unreachable) is cut off: the agent
    // kills its ranks when its channel closes, and its ranks count as lost.
    agent_kill_timer_.expires_after(kKillGrace);
    agent_kill_timer_.async_wait([this](boost::system::error_code ec2) {
      if (ec2) return;
      for (auto& agent : agents_) agent->kill();
    });
  });
}

void Job::signal_running_ranks(int sig) {
  std::vector<bool> agent_has_ranks(agents_.size(), false);
  for (const auto& r : ranks_) {
    if (!r.running) continue;
    // The whole process group: a rank's own children end with it.
    if (r.pid > 0) ::kill(-r.pid, sig);
    if (r.agent >= 0) agent_has_ranks[static_cast<std::size_t>(r.agent)] = true;
  }
  for (std::size_t a = 0; a < agents_.size(); ++a) {
    if (agent_has_ranks[a]) agents_[a]->signal(sig);
  }
}

void Job::maybe_finish() {
  bool all_reaped = true;
  bool all_drained = true;
  for (const auto& r : ranks_) {
    all_reaped = all_reaped && !r.running;
    all_drained = all_drained && r.open_streams == 0;
  }
  for (const auto& agent : agents_) all_drained = all_drained && agent->done();
  if (!all_reaped) return;
  if (all_drained) {
    // Nothing may stay pending on the io_context, or run() would never return.
    finished_ = true;
    timeout_timer_.cancel();
    kill_timer_.cancel();
    drain_.cancel();
    agent_kill_timer_.cancel();
    child_signal_.cancel();
    stop_signals_.cancel();
    dump_signal_.cancel();
    server_.stop();
    return;
  }
  drain_.start([this] {
    for (auto& f : forwarders_) f->close();
    // An agent still running with every rank reported ended is stuck (its host went away
    // after the ranks ended): no reason to wait for it.
    for (auto& agent : agents_) {
      agent->kill();
      agent->close_streams();
    }
  });
}

}  // namespace halyard::launcher
