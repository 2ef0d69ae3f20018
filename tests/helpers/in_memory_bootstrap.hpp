// A BootstrapClient for tests that run several "ranks" as objects inside one process: all
// instances made from one InMemoryStore share its keys, so transports can be wired to each
// other without hlaunch. fence() and barrier() are no-ops because a put is visible at once.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

#include <unistd.h>

#include "runtime/bootstrap/bootstrap_client.hpp"
#include "runtime/support/error.hpp"

namespace halyard::testing {

struct InMemoryStore {
  std::mutex mutex;
  std::map<std::string, std::string, std::less<>> values;
};

class InMemoryBootstrap final : public BootstrapClient {
 public:
  InMemoryBootstrap(std::shared_ptr<InMemoryStore> store, LaunchInfo info)
      : store_(std::move(store)), info_(std::move(info)) {}

  const LaunchInfo& info() const override { return info_; }
  void put(std::string_view key, std::string_view value) override {
    std::lock_guard lock(store_->mutex);
    auto [it, inserted] = store_->values.emplace(std::string(key), std::string(value));
    if (!inserted) throw Error(ErrorCode::kInvalidArgument, "key put twice: " + std::string(key));
  }
  std::string get(std::string_view key) override {
    std::lock_guard lock(store_->mutex);
    auto it = store_->values.find(key);
    if (it == store_->values.end())
      throw Error(ErrorCode::kTimeout, "key never put: " + std::string(key));
    return it->second;
  }
  void fence() override {}
  void barrier() override {}
  [[noreturn]] void abort(int code, std::string_view message) override {
    throw std::runtime_error("abort(" + std::to_string(code) + "): " + std::string(message));
  }
  void on_notice(std::function<void(const ControlNotice&)>) override {}

 private:
  std::shared_ptr<InMemoryStore> store_;
  LaunchInfo info_;
};

// LaunchInfo for rank `rank` of `size` ranks on one node, with a job id unique to this process.
inline LaunchInfo in_process_launch_info(int rank, int size) {
  LaunchInfo info;
  info.rank = rank;
  info.size = size;
  info.local_rank = rank;
  info.local_size = size;
  info.job_id = "test-" + std::to_string(::getpid());
  return info;
}

}  // namespace halyard::testing
