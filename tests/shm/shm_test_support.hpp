// Helpers for the shm transport tests: a node of several shm transports inside one process,
// wired through the in-memory bootstrap and driven by one progress loop, plus payload patterns.
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <unistd.h>

#include "runtime/bootstrap/topology.hpp"
#include "runtime/transport.hpp"
#include "tests/helpers/in_memory_bootstrap.hpp"
#include "tests/helpers/in_process_cluster.hpp"
#include "transports/shm/shm_transport.hpp"
#include "transports/shm/shm_transport_impl.hpp"

namespace halyard::testing {

// A job id no other test of this process uses (the wake sockets are named after it).
inline std::string unique_job_id(const char* prefix) {
  static std::atomic<int> counter{0};
  return std::string(prefix) + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
}

// Deterministic bytes that differ per message (seed) and per position.
inline std::uint8_t pattern_byte(std::uint64_t seed, std::size_t i) {
  std::uint64_t x = (seed + 1) * 0x9E3779B97F4A7C15ull + (i / 8) * 0xBF58476D1CE4E5B9ull;
  x ^= x >> 29;
  return static_cast<std::uint8_t>(x >> (8 * (i % 8)));
}
inline std::unique_ptr<std::byte[]> patterned_buffer(std::size_t n, std::uint64_t seed) {
  auto buf = std::make_unique_for_overwrite<std::byte[]>(n == 0 ? 1 : n);
  for (std::size_t i = 0; i < n; ++i) buf[i] = std::byte{pattern_byte(seed, i)};
  return buf;
}
// Index of the first byte of `got` that differs from the pattern, or n when all match.
inline std::size_t first_mismatch(const std::byte* got, std::size_t n, std::uint64_t seed) {
  for (std::size_t i = 0; i < n; ++i) {
    if (got[i] != std::byte{pattern_byte(seed, i)}) return i;
  }
  return n;
}

// Several shm transports of one job, all on node 0, in this process.
class LocalNode {
 public:
  explicit LocalNode(int ranks) : job_id_(unique_job_id("shmtest")) {
    auto store = std::make_shared<InMemoryStore>();
    std::vector<TopologyRow> rows(static_cast<std::size_t>(ranks));
    for (int r = 0; r < ranks; ++r) {
      LaunchInfo info = in_process_launch_info(r, ranks);
      info.job_id = job_id_;
      bootstraps_.push_back(std::make_unique<InMemoryBootstrap>(store, info));
      transports_.push_back(make_shm_transport(info));
      arrivals_.emplace_back();
      on_arrival.emplace_back([this, r](std::unique_ptr<IncomingMessage> m) {
        arrivals_[static_cast<std::size_t>(r)].push_back(std::move(m));
      });
      transports_.back()->set_incoming_handler([this, r](std::unique_ptr<IncomingMessage> m) {
        on_arrival[static_cast<std::size_t>(r)](std::move(m));
      });
      rows[static_cast<std::size_t>(r)].hostname = "localhost";
    }
    TopologyTable table(rows);
    for (int r = 0; r < ranks; ++r)
      transports_[static_cast<std::size_t>(r)]->publish(*bootstraps_[static_cast<std::size_t>(r)]);
    for (int r = 0; r < ranks; ++r) {
      transports_[static_cast<std::size_t>(r)]->connect(*bootstraps_[static_cast<std::size_t>(r)],
                                                        table);
    }
  }

  const std::string& job_id() const { return job_id_; }
  int size() const { return static_cast<int>(transports_.size()); }
  Transport& operator[](int r) { return *transports_[static_cast<std::size_t>(r)]; }
  shm::ShmTransport& shm(int r) { return dynamic_cast<shm::ShmTransport&>((*this)[r]); }
  std::deque<std::unique_ptr<IncomingMessage>>& arrivals(int r) {
    return arrivals_[static_cast<std::size_t>(r)];
  }

  int progress_all() {
    int events = 0;
    for (auto& t : transports_) events += t->progress();
    return events;
  }
  // Drives every transport until `done()` holds; false if it still does not after `max_passes`
  // (a hang guard, not a timing assertion).
  bool run_until(const std::function<bool()>& done, long max_passes = 5'000'000) {
    return progress_until([this] { progress_all(); }, done, max_passes);
  }

  // Replaces what rank r's handler does with each arrival (default: keep it in arrivals(r)).
  std::vector<std::function<void(std::unique_ptr<IncomingMessage>)>> on_arrival;

 private:
  std::string job_id_;
  std::vector<std::unique_ptr<InMemoryBootstrap>> bootstraps_;
  std::vector<std::unique_ptr<Transport>> transports_;
  std::vector<std::deque<std::unique_ptr<IncomingMessage>>> arrivals_;
};

}  // namespace halyard::testing
