// Runtime: one per process; what MPI_Init/MPI_Finalize set up and tear down.
//
// Runtime() reads what hlaunch put in the environment, connects to the bootstrap server,
// exchanges the topology table, builds and wires the transports (publish on every transport,
// one bootstrap fence, connect on every transport) and makes the world communicator. Started
// without hlaunch it runs as a singleton: rank 0 of 1, no bootstrap, the self transport only
// (like MPI's singleton init).
//
// A peer-failure or abort notice from hlaunch fails every pending request with kPeerFailed,
// and every later one too, so no rank waits forever on a dead peer.
//
// finalize() (also run by the destructor) drains sends in flight, waits at a bootstrap
// barrier for every rank, then tears the transports down.
//
// An optional progress thread (HALYARD_PROGRESS_THREAD=1, RuntimeParts::progress_thread or
// start_progress_thread()) drives the event loop while the application computes; see
// runtime/progress_thread.hpp. share_loop() lets several application threads use the runtime
// at once (the MPI shim's MPI_THREAD_MULTIPLE). finalize() stops both first and finishes
// single-threaded.
#pragma once

#include <memory>
#include <optional>
#include <string_view>

#include "runtime/bootstrap/bootstrap_client.hpp"
#include "runtime/bootstrap/launch_info.hpp"
#include "runtime/bootstrap/topology.hpp"
#include "runtime/communicator.hpp"
#include "runtime/event_loop.hpp"

namespace halyard {

class CollectiveWatchdog;
class FlightRecorder;
class DeviceSupport;
class NodeMemory;
class NoticeInbox;
class PointToPoint;
class ProgressThread;
class Router;
struct RuntimeServices;

// The pieces of a Runtime, for embedding and in-process tests: with these given, the Runtime
// does the wiring (incoming handlers, publish, fence, connect) but no discovery.
struct RuntimeParts {
  LaunchInfo info;
  std::unique_ptr<BootstrapClient> bootstrap;  // null: no bootstrap (singleton-like)
  TopologyTable topology;                      // one row per world rank
  std::unique_ptr<Router> router;              // routes every world rank
  WaitPolicy wait_policy = WaitPolicy::kBlock;
  bool progress_thread = false;  // start a progress thread once wired (HALYARD_PROGRESS_THREAD)
};

// The parts of a job whose ranks meet through `bootstrap` instead of hlaunch's server (the
// torch backend's client over torch's Store): the topology exchange and the transports, as
// Runtime() builds them, with HALYARD_WAIT and HALYARD_PROGRESS_THREAD read from the environment.
RuntimeParts job_parts(std::unique_ptr<BootstrapClient> bootstrap);

class Runtime {
 public:
  // From the hlaunch environment, or a singleton when there is none. Throws Error(kBootstrap)
  // when the environment names a bootstrap server that cannot be reached.
  Runtime();
  explicit Runtime(RuntimeParts parts);
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  // Collective over the job; idempotent. Afterwards no communication is possible.
  void finalize();
  bool finalized() const noexcept { return finalized_; }

  const Communicator& world() const;
  int rank() const noexcept { return info_.rank; }
  int size() const noexcept { return info_.size; }
  bool singleton() const noexcept { return bootstrap_ == nullptr; }
  const LaunchInfo& launch_info() const noexcept { return info_; }
  const TopologyTable& topology() const noexcept { return *topology_; }
  EventLoop& loop() noexcept { return *loop_; }
  // Null in singleton mode.
  BootstrapClient* bootstrap() noexcept { return bootstrap_.get(); }
  // What the node-local transport offers intra-node collectives (runtime/node_memory.hpp); null
  // when there is none (shm off or not built, singleton).
  NodeMemory* node_memory() const noexcept;
  // What the CUDA IPC transport offers collectives on device buffers
  // (runtime/device_support.hpp); null in a build without CUDA.
  DeviceSupport* device_support() const noexcept { return device_support_.get(); }
  // What every communicator of this runtime finds through comm.services(): the services above
  // and the per-runtime attachments of the layers above (runtime/runtime_services.hpp).
  RuntimeServices& services() noexcept { return *services_; }

  // Starts or stops the progress thread (idempotent). Call from the thread that owns the
  // runtime while no other application thread uses it, never from a callback.
  void start_progress_thread();
  void stop_progress_thread();
  bool progress_thread_running() const noexcept { return progress_ != nullptr; }
  // The running progress thread, or null (tests measure its CPU time).
  ProgressThread* progress_thread() noexcept { return progress_.get(); }

  // Lets several application threads call into the runtime at once: the loop gets a LoopLock
  // (unless a progress thread gave it one), every entry point takes it, and a thread that
  // waits releases it while it waits, driving the loop itself when no progress thread runs.
  // Idempotent; call from the thread that owns the runtime before other threads use it.
  // finalize() ends the sharing.
  void share_loop();

  // Fails every pending and later operation with `status` (what a peer-failure notice does);
  // `failed_rank`, when known, is the world rank whose process is gone (PointToPoint::fail).
  void fail(const Status& status, int failed_rank = -1);
  // The failure that ended communication (a peer failed), if any.
  std::optional<Status> failure() const;

  // Ends the whole job: through hlaunch when there is one, else by exiting with `code`.
  [[noreturn]] void abort(int code, std::string_view message);

 private:
  void build(RuntimeParts parts);
  void wire_transports();
  void start_device_support();
  // Back to one thread: stops the progress thread and removes share_loop()'s lock.
  void stop_threads();
  void tear_down();

  LaunchInfo info_;
  std::unique_ptr<EventLoop> loop_;
  std::unique_ptr<NoticeInbox> notices_;
  std::unique_ptr<BootstrapClient> bootstrap_;
  std::shared_ptr<const TopologyTable> topology_;
  std::unique_ptr<Router> router_;
  std::unique_ptr<PointToPoint> p2p_;
  std::unique_ptr<CollectiveWatchdog> watchdog_;  // HALYARD_COLL_TIMEOUT; null when off
  std::unique_ptr<FlightRecorder> recorder_;      // hlaunch's flight recorder; null when off
  std::unique_ptr<LoopLock> shared_lock_;         // share_loop()'s, installed until finalize
  std::unique_ptr<ProgressThread> progress_;      // null unless a progress thread runs
  Communicator world_;
  std::vector<EventLoop::SourceId> sources_;
  std::shared_ptr<RuntimeServices> services_;  // shared with every communicator's state
  std::unique_ptr<DeviceSupport> device_support_;
  bool finalized_ = false;
};

}  // namespace halyard
