// The shm engine's channels under churn: more live communicators than a rank has channels, made
// and freed over and over. Those that got a channel and those that run the p2p fallback must
// give the same results; a freed channel drains and is taken again by a later communicator
// with fresh sequence numbers (collectives/shm/channel_table.hpp). Run with the shm engine
// forced or chosen (one node).
#include <cstdint>
#include <string>
#include <vector>

#include "halyard/halyard.hpp"
#include "tests/collectives/suites.hpp"

namespace halyard::testing {

namespace {

// More than the engine's channels per rank (8), so some communicators run the fallback.
constexpr int kCommunicators = 11;
constexpr int kRounds = 30;

void check_equal(std::int64_t got, std::int64_t expected, const std::string& what) {
  if (got != expected) {
    fail(what + ": expected " + std::to_string(expected) + ", got " + std::to_string(got));
  }
}

}  // namespace

void channels_suite(const SuiteContext& ctx) {
  const Communicator& w = ctx.world;
  const std::int64_t n = w.size();
  for (int round = 0; round < kRounds; ++round) {
    std::vector<Communicator> comms;
    for (int i = 0; i < kCommunicators; ++i) {
      // Dups and splits, with reversed ranks in some.
      comms.push_back(i % 2 == 0 ? w.dup() : w.split(0, (i % 3 == 0) ? -w.rank() : w.rank()));
    }
    // Interleaved blocking calls: each communicator's results depend on its own ranks.
    for (int i = 0; i < kCommunicators; ++i) {
      const Communicator& c = comms[static_cast<std::size_t>(i)];
      const std::string what = "round " + std::to_string(round) + " comm " + std::to_string(i);
      std::int64_t mine = c.rank() + i + round, sum = -1;
      allreduce(c, &mine, &sum, 1, Datatype::kInt64, Op::kSum);
      check_equal(sum, n * (n - 1) / 2 + n * (i + round), what + " allreduce");
      std::int64_t value = c.rank() == i % c.size() ? 1000 + round : -1;
      bcast(c, &value, 1, Datatype::kInt64, i % static_cast<int>(c.size()));
      check_equal(value, 1000 + round, what + " bcast");
      barrier(c);
    }
    // Then one call in flight on every communicator at once, waited for newest first.
    std::vector<std::int64_t> in(kCommunicators), out(kCommunicators, -1);
    std::vector<Request> posted;
    for (int i = 0; i < kCommunicators; ++i) {
      const auto k = static_cast<std::size_t>(i);
      in[k] = comms[k].rank() * (i + 1);
      posted.push_back(iallreduce(comms[k], &in[k], &out[k], 1, Datatype::kInt64, Op::kMax));
    }
    for (auto it = posted.rbegin(); it != posted.rend(); ++it) {
      expect_ok(*it, "round " + std::to_string(round) + " iallreduce");
    }
    for (int i = 0; i < kCommunicators; ++i) {
      check_equal(out[static_cast<std::size_t>(i)], (n - 1) * (i + 1),
                  "round " + std::to_string(round) + " comm " + std::to_string(i) + " iallreduce");
    }
    // Free every other communicator first, so channels drain while others are still in use.
    for (int i = 0; i < kCommunicators; i += 2) comms[static_cast<std::size_t>(i)] = {};
    barrier(w);
  }
}

}  // namespace halyard::testing
