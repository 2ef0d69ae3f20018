// Gatherv whose root comes late. On the shm engine a member whose block fits the first chunk
// ends its call without waiting for the root's chunk count (Channel::settle_gatherv); the root
// must still get every block, the members' next calls must take the right seqs, and a
// communicator freed right after such a call must give its channel back cleanly. Run with
// HALYARD_GATHERV_ALG=shm (collective_check gatherv_late_root shm); the timing check applies
// to that engine only.
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "collectives/collectives.hpp"
#include "tests/collectives/suites.hpp"

namespace halyard::testing {

namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kLate = std::chrono::milliseconds(100);
const ElementCase kInts{Datatype::kInt32, Op::kSum};

// Gatherv of make_input(rank, count_of(rank)) blocks to `root`, which comes kLate after the
// others; where `early_exit` (the shm engine), the others whose block fits a first chunk (a few
// KiB here) must leave before the root arrives; the root checks every block.
template <typename CountOf>
void late_root_gatherv(const Communicator& comm, int root, std::uint32_t seed, CountOf count_of,
                       bool early_exit, const std::string& what) {
  const int p = comm.size();
  std::vector<std::size_t> counts, displacements;
  std::size_t total = 0;
  for (int r = 0; r < p; ++r) {
    counts.push_back(count_of(r));
    displacements.push_back(total);
    total += counts.back();
  }
  const std::vector<std::byte> mine =
      make_input(kInts, comm.rank(), counts[static_cast<std::size_t>(comm.rank())], seed);
  std::vector<std::byte> all = junk(total * sizeof(std::int32_t));
  expect_ok(ibarrier(comm), what + ": barrier before");
  const Clock::time_point entered = Clock::now();
  if (comm.rank() == root) std::this_thread::sleep_for(kLate);
  expect_ok(igatherv(comm, mine.data(), counts[static_cast<std::size_t>(comm.rank())], all.data(),
                     counts.data(), displacements.data(), Datatype::kInt32, root),
            what);
  const auto took = Clock::now() - entered;
  if (comm.rank() == root) {
    for (int r = 0; r < p; ++r) {
      const auto i = static_cast<std::size_t>(r);
      const std::vector<std::byte> expected = make_input(kInts, r, counts[i], seed);
      expect_elements(what + " block " + std::to_string(r), kInts,
                      all.data() + displacements[i] * sizeof(std::int32_t), expected.data(),
                      counts[i]);
    }
  } else if (early_exit && counts[static_cast<std::size_t>(comm.rank())] <= 1024 &&
             took >= kLate / 2) {
    fail(what + ": rank " + std::to_string(comm.rank()) + " waited " +
         std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(took).count()) +
         " ms for a root 100 ms late, though its block went out at once");
  }
}

// An allreduce of every rank's number after the gathervs: the channel's seqs still agree.
void expect_allreduce(const Communicator& comm, const std::string& what) {
  const int mine = comm.rank() + 1;
  int sum = 0;
  expect_ok(iallreduce(comm, &mine, &sum, 1, Datatype::kInt32, Op::kSum), what);
  const int p = comm.size();
  if (sum != p * (p + 1) / 2) {
    fail(what + ": expected " + std::to_string(p * (p + 1) / 2) + ", got " + std::to_string(sum));
  }
}

}  // namespace

void gatherv_late_root_suite(const SuiteContext& ctx) {
  const Communicator& w = ctx.world;
  const char* forced = std::getenv("HALYARD_GATHERV_ALG");
  const bool shm = forced != nullptr && std::string(forced) == "shm";
  std::uint32_t seed = 1;
  for (int root : {0, w.size() - 1}) {
    const std::string at = " root " + std::to_string(root);
    // Small blocks (one empty): every other member's block fits the first chunk.
    late_root_gatherv(
        w, root, seed++, [](int r) { return r == 1 ? std::size_t{0} : std::size_t{3} + r; }, shm,
        "small blocks" + at);
    expect_allreduce(w, "allreduce after small blocks" + at);
    // One member's block spans several chunks: the call runs several seqs; the members whose
    // blocks fit the first still leave early and skip the rest.
    const int heavy = w.size() - 1 - root;
    late_root_gatherv(
        w, root, seed++,
        [heavy](int r) { return r == heavy ? std::size_t{40000} : std::size_t{2}; }, shm,
        "one heavy block" + at);
    expect_allreduce(w, "allreduce after one heavy block" + at);
  }
  // A communicator freed right after a gatherv its root reached late: its channel goes back
  // once every member is done with it, and the next communicators use the channels cleanly.
  for (int round = 0; round < 3; ++round) {
    {
      const Communicator half = w.split(w.rank() % 2, w.rank());
      late_root_gatherv(
          half, 0, seed++, [](int r) { return std::size_t{1} + r; }, shm,
          "split, round " + std::to_string(round));
    }
    const Communicator again = w.split(0, w.size() - w.rank());
    expect_allreduce(again, "allreduce on a new communicator, round " + std::to_string(round));
    late_root_gatherv(
        again, again.size() - 1, seed++, [](int) { return std::size_t{5}; }, shm,
        "gatherv on a new communicator, round " + std::to_string(round));
  }
  expect_allreduce(w, "allreduce at the end");
}

}  // namespace halyard::testing
