// Several ofi transports in one process, one per "rank", wired through an in-memory bootstrap
// store. Tests drive progress() of all of them in a loop and collect what arrives.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "runtime/bootstrap/topology.hpp"
#include "tests/helpers/in_memory_bootstrap.hpp"
#include "tests/helpers/in_process_cluster.hpp"
#include "transports/ofi/ofi_transport.hpp"

namespace halyard::testing {

class OfiCluster {
 public:
  explicit OfiCluster(int ranks) : store_(std::make_shared<InMemoryStore>()) {
    for (int r = 0; r < ranks; ++r) {
      auto& rank = ranks_.emplace_back(std::make_unique<Rank>());
      rank->bootstrap =
          std::make_unique<InMemoryBootstrap>(store_, in_process_launch_info(r, ranks));
      rank->transport = make_ofi_transport(TransportSettings{rank->bootstrap->info()});
      Rank* self = rank.get();
      rank->transport->set_incoming_handler([self](std::unique_ptr<IncomingMessage> message) {
        self->arrivals.push_back(std::move(message));
      });
      rank->transport->publish(*rank->bootstrap);
    }
    TopologyTable topology;
    for (auto& rank : ranks_) rank->transport->connect(*rank->bootstrap, topology);
  }

  Transport& transport(int rank) { return *ranks_.at(static_cast<std::size_t>(rank))->transport; }
  std::deque<std::unique_ptr<IncomingMessage>>& arrivals(int rank) {
    return ranks_.at(static_cast<std::size_t>(rank))->arrivals;
  }

  // One progress() pass over every rank; returns the events handled.
  int progress_all() {
    int events = 0;
    for (auto& rank : ranks_) events += rank->transport->progress();
    return events;
  }

  // Progresses every rank until `done()` holds. The pass bound only turns a hang into a test
  // failure; it is far above what any test needs.
  template <typename Predicate>
  bool progress_until(Predicate done, long max_passes = 50'000'000) {
    return testing::progress_until([this] { progress_all(); }, done, max_passes);
  }

  // Waits for `count` messages at `rank`.
  bool await_arrivals(int rank, std::size_t count) {
    return progress_until([&] { return arrivals(rank).size() >= count; });
  }

 private:
  struct Rank {
    std::unique_ptr<InMemoryBootstrap> bootstrap;
    std::unique_ptr<Transport> transport;
    std::deque<std::unique_ptr<IncomingMessage>> arrivals;
  };
  std::shared_ptr<InMemoryStore> store_;
  std::vector<std::unique_ptr<Rank>> ranks_;
};

// A deterministic byte pattern that differs per message, so misplaced data shows.
inline std::vector<std::uint8_t> pattern(std::size_t size, std::uint32_t seed) {
  std::vector<std::uint8_t> bytes(size);
  std::uint32_t x = seed * 2654435761u + 12345u;
  for (auto& b : bytes) {
    x = x * 1664525u + 1013904223u;
    b = static_cast<std::uint8_t>(x >> 24);
  }
  return bytes;
}

}  // namespace halyard::testing
