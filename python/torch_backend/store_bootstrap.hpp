// Halyard's bootstrap over torch's c10d Store: the key-value exchange, fences and barriers that
// hlaunch's server gives a job, for ranks that torchrun (or any torch init method) started. The
// launch info comes from the store too: each rank publishes its host name, which gives node ids
// and local ranks, and rank 0 publishes a job id unique to this job (it names shm segments).
#pragma once

#include <torch/csrc/distributed/c10d/Store.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "runtime/bootstrap/bootstrap_client.hpp"

namespace halyard::torch_backend {

class StoreBootstrap final : public BootstrapClient {
 public:
  // Collective over the `size` ranks of the store (publishes and reads every host name).
  StoreBootstrap(c10::intrusive_ptr<c10d::Store> store, int rank, int size);

  const LaunchInfo& info() const override { return info_; }
  void put(std::string_view key, std::string_view value) override;
  std::string get(std::string_view key) override;
  void fence() override { barrier(); }  // the store is consistent: a barrier orders the puts
  void barrier() override;
  [[noreturn]] void abort(int code, std::string_view message) override;
  // torch's launchers send no notices: a dead rank shows as the store's timeout instead.
  void on_notice(std::function<void(const ControlNotice&)>) override {}

 private:
  c10::intrusive_ptr<c10d::Store> store_;
  LaunchInfo info_;
  std::uint64_t barriers_ = 0;
};

}  // namespace halyard::torch_backend
