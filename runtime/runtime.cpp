#include "runtime/runtime.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <future>
#include <string>
#include <thread>

#include "runtime/collective_watchdog.hpp"
#include "runtime/device_support.hpp"
#include "runtime/flight_recorder.hpp"
#include "runtime/node_memory.hpp"
#include "runtime/notice_inbox.hpp"
#include "runtime/point_to_point.hpp"
#include "runtime/progress_thread.hpp"
#include "runtime/remote_memory.hpp"
#include "runtime/router.hpp"
#include "runtime/runtime_services.hpp"
#include "runtime/self_transport.hpp"
#include "runtime/support/log.hpp"
#include "runtime/tuning_file_share.hpp"

namespace halyard {

namespace {

RuntimeParts singleton_parts() {
  RuntimeParts parts;
  parts.info.job_id = "singleton-" + std::to_string(::getpid());
  parts.topology = TopologyTable({TopologyTable::probe_self(0)});
  parts.router = std::make_unique<Router>(0, 1);
  parts.router->set_route(0, parts.router->add(std::make_unique<SelfTransport>(0)));
  return parts;
}

// The transports are told what the runtime decided (`parts`' wait policy and progress thread).
void add_job_parts(RuntimeParts& parts, std::unique_ptr<BootstrapClient> bootstrap) {
  const LaunchInfo& info = bootstrap->info();
  parts.info = info;
  log::set_rank(info.rank, info.size);
  parts.bootstrap = std::move(bootstrap);
  parts.topology = TopologyTable::exchange(*parts.bootstrap);
  share_tuning_file(*parts.bootstrap, info.rank);
  TransportSettings settings;
  settings.info = info;
  settings.host_ranks = parts.topology.ranks_on_host(info.rank);
  settings.host_cpus = parts.topology.cpus_on_host(info.rank);
  settings.wait_policy = parts.wait_policy;
  settings.progress_thread = parts.progress_thread;
  parts.router = Router::for_job(settings, parts.topology);
}

RuntimeParts parts_from_environment() {
  std::optional<LaunchInfo> info = LaunchInfo::from_environment();
  RuntimeParts parts = info ? RuntimeParts{} : singleton_parts();
  parts.wait_policy = wait_policy_from_environment();
  parts.progress_thread = ProgressThread::enabled_from_environment();
  if (info) add_job_parts(parts, BootstrapClient::connect(*info));
  return parts;
}

}  // namespace

RuntimeParts job_parts(std::unique_ptr<BootstrapClient> bootstrap) {
  RuntimeParts parts;
  parts.wait_policy = wait_policy_from_environment();
  parts.progress_thread = ProgressThread::enabled_from_environment();
  add_job_parts(parts, std::move(bootstrap));
  return parts;
}

Runtime::Runtime() : Runtime(parts_from_environment()) {}

Runtime::Runtime(RuntimeParts parts) {
  build(std::move(parts));
}

Runtime::~Runtime() {
  try {
    finalize();
  } catch (const std::exception& e) {
    log::error("finalize during Runtime destruction failed: {}", e.what());
    tear_down();
  }
}

void Runtime::build(RuntimeParts parts) {
  info_ = std::move(parts.info);
  if (info_.size <= 0 || info_.rank < 0 || info_.rank >= info_.size) {
    throw Error(ErrorCode::kInvalidArgument, "Runtime: rank " + std::to_string(info_.rank) +
                                                 " is not a rank of a job of " +
                                                 std::to_string(info_.size));
  }
  if (parts.topology.size() != info_.size) {
    throw Error(ErrorCode::kInvalidArgument,
                "Runtime: the topology table has " + std::to_string(parts.topology.size()) +
                    " rows for a job of " + std::to_string(info_.size));
  }
  if (!parts.router || parts.router->world_size() != info_.size ||
      parts.router->world_rank() != info_.rank) {
    throw Error(ErrorCode::kInvalidArgument, "Runtime: the router does not match rank " +
                                                 std::to_string(info_.rank) + " of " +
                                                 std::to_string(info_.size));
  }
  log::set_rank(info_.rank, info_.size);
  loop_ = std::make_unique<EventLoop>(parts.wait_policy);
  const int host_ranks = parts.topology.ranks_on_host(info_.rank);
  const long host_cpus = parts.topology.cpus_on_host(info_.rank);
  loop_->set_busy_poll(busy_poll_from_environment(host_ranks, host_cpus));
  loop_->set_cpu_shared(host_ranks > host_cpus);
  log::debug("runtime: {} ranks on this host, {} CPUs for them: {}", host_ranks, host_cpus,
             loop_->cpu_shared() ? "shared" : "one each");
  bootstrap_ = std::move(parts.bootstrap);
  topology_ = std::make_shared<const TopologyTable>(std::move(parts.topology));
  router_ = std::move(parts.router);
  p2p_ = std::make_unique<PointToPoint>(*loop_, *router_);
  services_ = std::make_shared<RuntimeServices>();
  recorder_ = FlightRecorder::open_from_environment(info_.rank);
  services_->recorder = recorder_.get();
  if (auto timeout = CollectiveWatchdog::timeout_from_environment()) {
    watchdog_ = std::make_unique<CollectiveWatchdog>(*loop_, *p2p_, *timeout, recorder_.get());
    services_->watchdog = watchdog_.get();
  }

  notices_ = std::make_unique<NoticeInbox>([this](const ControlNotice& notice) {
    std::string what =
        notice.kind == ControlNotice::Kind::kJobAbort ? "job aborted" : "peer failed";
    fail(Status::failure(
             ErrorCode::kPeerFailed,
             what + ": " +
                 (notice.message.empty() ? "rank " + std::to_string(notice.rank) : notice.message)),
         notice.kind == ControlNotice::Kind::kPeerFailed ? notice.rank : -1);
  });
  sources_.push_back(loop_->add_source(*notices_));
  if (bootstrap_) {
    bootstrap_->on_notice([inbox = notices_.get()](const ControlNotice& n) { inbox->post(n); });
  }
  wire_transports();
  start_device_support();
  world_ = Communicator::make_world(*p2p_, topology_, services_);
  if (parts.progress_thread) start_progress_thread();
}

void Runtime::start_progress_thread() {
  if (finalized_) {
    throw Error(ErrorCode::kInvalidArgument,
                "Runtime::start_progress_thread: the runtime was finalized");
  }
  if (!progress_) progress_ = std::make_unique<ProgressThread>(*loop_);
}

void Runtime::stop_progress_thread() {
  if (!progress_) return;
  progress_->stop();
  progress_.reset();
}

void Runtime::share_loop() {
  if (finalized_) {
    throw Error(ErrorCode::kInvalidArgument, "Runtime::share_loop: the runtime was finalized");
  }
  if (shared_lock_) return;
  // A running progress thread has a lock of its own: restarted, it takes the shared one, which
  // then outlives it.
  const bool restart = progress_thread_running();
  stop_progress_thread();
  shared_lock_ = std::make_unique<LoopLock>();
  loop_->set_lock(shared_lock_.get());
  if (restart) start_progress_thread();
}

void Runtime::stop_threads() {
  stop_progress_thread();
  if (shared_lock_ && loop_) loop_->set_lock(nullptr);
}

void Runtime::wire_transports() {
  for (const auto& t : router_->transports()) {
    t->set_incoming_handler(p2p_->incoming_handler());
    t->set_eager_matcher(p2p_.get());
  }
  if (bootstrap_) {
    for (const auto& t : router_->transports()) t->publish(*bootstrap_);
    bootstrap_->fence();
    for (const auto& t : router_->transports()) t->connect(*bootstrap_, *topology_);
  }
  for (const auto& t : router_->transports()) {
    sources_.push_back(loop_->add_source(*t));
    log::debug("runtime: transport {} wired", t->name());
    if (auto* provider = dynamic_cast<NodeMemoryProvider*>(t.get())) {
      services_->node_memory = provider->node_memory();
    }
    if (auto* provider = dynamic_cast<RemoteMemoryProvider*>(t.get())) {
      services_->remote_memory = provider->remote_memory();
    }
  }
}

void Runtime::start_device_support() {
  // Cheap: CUDA itself starts on the first device buffer a collective sees.
  device_support_ = TransportRegistry::builtin().make_device_support(*loop_);
  if (!device_support_) return;
  if (auto* source = dynamic_cast<CompletionSource*>(device_support_.get())) {
    sources_.push_back(loop_->add_source(*source));
  }
  services_->device_support = device_support_.get();
}

NodeMemory* Runtime::node_memory() const noexcept {
  return services_ ? services_->node_memory.load() : nullptr;
}

const Communicator& Runtime::world() const {
  if (finalized_)
    throw Error(ErrorCode::kInvalidArgument, "Runtime::world: the runtime was finalized");
  return world_;
}

void Runtime::fail(const Status& status, int failed_rank) {
  if (!p2p_) return;
  EventLoop::Access access(*loop_);
  p2p_->fail(status, failed_rank);
}

std::optional<Status> Runtime::failure() const {
  if (!p2p_) return std::nullopt;
  EventLoop::Access access(*loop_);
  return p2p_->failure();
}

void Runtime::finalize() {
  if (finalized_) return;
  if (loop_->in_pass()) {
    throw Error(ErrorCode::kInvalidArgument, "Runtime::finalize: called from inside a callback");
  }
  // The rest runs single-threaded: the closing barrier and the teardown must not race passes.
  stop_threads();
  finalized_ = true;
  loop_->poll();  // take in notices that arrived since the last pass
  // Sends still in flight are the application's last messages: let them complete.
  loop_->run_until([this] { return p2p_->sends_in_flight() == 0 || p2p_->failure().has_value(); });
  if (bootstrap_ && !p2p_->failure()) {
    // Wait for every rank while still progressing our transports: a peer may need us to
    // answer its rendezvous before it can reach the barrier.
    auto barrier = std::async(std::launch::async, [this] { bootstrap_->barrier(); });
    loop_->run_until(
        [&] { return barrier.wait_for(std::chrono::seconds(0)) == std::future_status::ready; });
    try {
      barrier.get();
    } catch (const Error& e) {
      log::warn("finalize: the closing barrier failed: {}", e.what());
    }
  }
  if (bootstrap_) {
    // Without this handshake hlaunch counts our exit as a failure (docs/reliability.md); when
    // the job is ending anyway it fails at once, and that changes nothing.
    try {
      bootstrap_->finalize();
    } catch (const Error& e) {
      log::debug("finalize: the finalize handshake failed: {}", e.what());
    }
  }
  tear_down();
}

void Runtime::tear_down() {
  stop_threads();
  // Detach the inbox before it can go: the bootstrap's reader thread must not post into it
  // while the destructor closes its eventfd (a race ThreadSanitizer found). on_notice()
  // synchronizes with the thread that delivers notices.
  if (bootstrap_) bootstrap_->on_notice({});
  // The world's attachments (and what they hold) go now, while the loop and transports are
  // still there; so do the runtime's own.
  world_ = Communicator();
  if (services_) {
    services_->attachments.clear();
    services_->node_memory = nullptr;
    services_->remote_memory = nullptr;
    services_->device_support = nullptr;
    services_->watchdog = nullptr;
    services_->recorder = nullptr;
  }
  if (loop_) {
    for (auto id : sources_) loop_->remove_source(id);
    // Deferred work may hold the transports' messages: drop it before the transports go.
    loop_->discard_pending_work();
  }
  sources_.clear();
  watchdog_.reset();
  device_support_.reset();  // waits for device work still on its streams
  p2p_.reset();
  router_.reset();
  recorder_.reset();
}

void Runtime::abort(int code, std::string_view message) {
  if (bootstrap_) bootstrap_->abort(code, message);
  std::fprintf(stderr, "halyard: aborted with code %d: %.*s\n", code,
               static_cast<int>(message.size()), message.data());
  std::fflush(nullptr);
  std::_Exit((code & 0xff) == 0 ? 1 : (code & 0xff));
}

}  // namespace halyard
