// A BootstrapClient for tests whose ranks are separate processes made with fork(): keys,
// fences and barriers go through files in a directory both processes see. Slow, but enough to
// wire two or three transports.
#pragma once

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "runtime/bootstrap/bootstrap_client.hpp"
#include "runtime/support/error.hpp"

namespace halyard::testing {

class FileBootstrap final : public BootstrapClient {
 public:
  FileBootstrap(std::filesystem::path dir, LaunchInfo info)
      : dir_(std::move(dir)), info_(std::move(info)) {}

  const LaunchInfo& info() const override { return info_; }
  void put(std::string_view key, std::string_view value) override {
    auto path = key_path(key);
    auto temporary = path;
    temporary += ".tmp" + std::to_string(info_.rank);
    std::ofstream(temporary) << value;
    std::filesystem::rename(temporary, path);  // readers never see a half-written value
  }
  std::string get(std::string_view key) override {
    auto path = key_path(key);
    wait_for([&] { return std::filesystem::exists(path); }, key);
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  void fence() override { barrier(); }
  void barrier() override {
    std::string round = "barrier-" + std::to_string(generation_++) + "-";
    std::ofstream(dir_ / (round + std::to_string(info_.rank))) << "";
    for (int r = 0; r < info_.size; ++r) {
      auto path = dir_ / (round + std::to_string(r));
      wait_for([&] { return std::filesystem::exists(path); }, path.string());
    }
  }
  [[noreturn]] void abort(int code, std::string_view) override { ::_exit(code); }
  void on_notice(std::function<void(const ControlNotice&)>) override {}

 private:
  std::filesystem::path key_path(std::string_view key) const {
    std::string name(key);
    for (char& c : name) {
      if (c == '/') c = '_';
    }
    return dir_ / ("key-" + name);
  }
  template <typename Ready>
  void wait_for(Ready ready, std::string_view what) {
    // A hang guard for a peer that died, not a timing assumption.
    for (int i = 0; i < 30'000; ++i) {
      if (ready()) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    throw Error(ErrorCode::kTimeout, "file bootstrap: gave up waiting for " + std::string(what));
  }

  std::filesystem::path dir_;
  LaunchInfo info_;
  int generation_ = 0;
};

}  // namespace halyard::testing
