// Runs several ranks as threads of one test process, each with its own Runtime wired through
// an InProcessFabric, so communicator, active-message and failure tests need no hlaunch.
#pragma once

#include <barrier>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "runtime/bootstrap/bootstrap_client.hpp"
#include "runtime/router.hpp"
#include "runtime/runtime.hpp"
#include "runtime/self_transport.hpp"
#include "tests/core/in_process_fabric.hpp"

namespace halyard::testing {

struct ThreadJob {
  // One entry per rank: its node id.
  explicit ThreadJob(std::vector<int> node_ids_)
      : node_ids(std::move(node_ids_)),
        fabric(static_cast<int>(node_ids.size())),
        sync(static_cast<std::ptrdiff_t>(node_ids.size())),
        notice_callbacks(node_ids.size()) {}

  int size() const { return static_cast<int>(node_ids.size()); }

  // Delivers a control notice to `rank` as its bootstrap reader thread would.
  void notify(int rank, const ControlNotice& notice) {
    std::lock_guard lock(mutex);
    auto& cb = notice_callbacks.at(static_cast<std::size_t>(rank));
    if (cb) cb(notice);
  }

  std::vector<int> node_ids;
  InProcessFabric fabric;
  std::barrier<> sync;
  std::mutex mutex;
  std::vector<std::function<void(const ControlNotice&)>> notice_callbacks;
};

// fence() and barrier() are real barriers across the job's threads.
class ThreadBootstrap final : public BootstrapClient {
 public:
  ThreadBootstrap(ThreadJob& job, LaunchInfo info) : job_(job), info_(std::move(info)) {}
  const LaunchInfo& info() const override { return info_; }
  void put(std::string_view, std::string_view) override {}
  std::string get(std::string_view key) override {
    throw Error(ErrorCode::kTimeout, "no key store in thread jobs: " + std::string(key));
  }
  void fence() override { job_.sync.arrive_and_wait(); }
  void barrier() override { job_.sync.arrive_and_wait(); }
  [[noreturn]] void abort(int code, std::string_view message) override {
    throw std::runtime_error("abort(" + std::to_string(code) + "): " + std::string(message));
  }
  void on_notice(std::function<void(const ControlNotice&)> callback) override {
    std::lock_guard lock(job_.mutex);
    job_.notice_callbacks.at(static_cast<std::size_t>(info_.rank)) = std::move(callback);
  }

 private:
  ThreadJob& job_;
  LaunchInfo info_;
};

inline RuntimeParts thread_job_parts(ThreadJob& job, int rank) {
  RuntimeParts parts;
  parts.info.rank = rank;
  parts.info.size = job.size();
  parts.info.node_id = job.node_ids.at(static_cast<std::size_t>(rank));
  parts.info.job_id = "thread-job";
  std::vector<TopologyRow> rows;
  for (int node : job.node_ids) rows.push_back(TopologyRow{"localhost", node, 0, 0, -1, ""});
  parts.topology = TopologyTable(std::move(rows));
  parts.router = std::make_unique<Router>(rank, job.size());
  Transport& self = parts.router->add(std::make_unique<SelfTransport>(rank));
  Transport& fabric = parts.router->add(job.fabric.make_endpoint(rank));
  for (int peer = 0; peer < job.size(); ++peer)
    parts.router->set_route(peer, peer == rank ? self : fabric);
  parts.bootstrap = std::make_unique<ThreadBootstrap>(job, parts.info);
  return parts;
}

// Runs `body` on every rank, each in its own thread with its own Runtime (finalized after
// `body`). Rethrows the first exception a rank raised.
inline void run_thread_job(ThreadJob& job, const std::function<void(Runtime&)>& body) {
  std::vector<std::thread> threads;
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(job.size()));
  for (int rank = 0; rank < job.size(); ++rank) {
    threads.emplace_back([&, rank] {
      try {
        Runtime runtime(thread_job_parts(job, rank));
        body(runtime);
        runtime.finalize();
      } catch (...) {
        errors[static_cast<std::size_t>(rank)] = std::current_exception();
      }
    });
  }
  for (auto& t : threads) t.join();
  for (auto& e : errors) {
    if (e) std::rethrow_exception(e);
  }
}

}  // namespace halyard::testing
