// The shm engine's block collectives (scatter, scatterv, gatherv, allgatherv, reduce_scatter,
// reduce_scatter_block) on two communicators at once, the world and a split with its ranks
// reversed: all twelve calls in flight together and waited for newest first, then the blocking
// forms in place, on one communicator after the other. Counts straddle the engine's
// thresholds (56 bytes inline in a flag line, a cell of 65,344 bytes per chunk); blocks are
// uneven, every third rank's empty. Run with the shm algorithms forced.
#include <string>
#include <utility>
#include <vector>

#include "collectives/collectives.hpp"
#include "tests/collectives/suites.hpp"

namespace halyard::testing {

namespace {

constexpr std::size_t kE = 4;  // bytes per element of kIntSum

// 0, inline (14 ints = 56 bytes), just past it, and past one cell (16,336 ints).
constexpr std::size_t kCounts[] = {0, 3, 14, 15, 16337};

std::vector<std::byte> concat(const std::vector<std::vector<std::byte>>& blocks) {
  std::vector<std::byte> out;
  for (const auto& block : blocks) out.insert(out.end(), block.begin(), block.end());
  return out;
}

// One round of the six collectives on one communicator: its inputs, outputs and checks.
class BlockCalls {
 public:
  BlockCalls(const Communicator& comm, std::size_t count, int root, std::uint32_t seed,
             bool in_place)
      : comm_(comm), count_(count), root_(root), seed_(seed), in_place_(in_place) {
    const int p = comm.size();
    for (int r = 0; r < p; ++r) {
      const std::size_t n = r % 3 == 1 ? 0 : count + static_cast<std::size_t>(r);
      counts_.push_back(n);
      displacements_.push_back(total_);
      total_ += n;
      blocks_.push_back(make_input(kIntSum, r, n, seed));
      uniform_.push_back(make_input(kIntSum, r, count, seed + 1));
    }
    const std::size_t me = mine();
    all_ = concat(blocks_);
    uniform_all_ = concat(uniform_);
    whole_ = make_input(kIntSum, comm.rank(), total_, seed + 2);
    block_input_ = make_input(kIntSum, comm.rank(), count * static_cast<std::size_t>(p), seed + 3);
    scattered_ = junk(count * kE);
    scattered_v_ = junk(counts_[me] * kE);
    gathered_ = junk(total_ * kE);
    all_gathered_ = junk(total_ * kE);
    reduced_ = junk(counts_[me] * kE);
    reduced_blocks_ = junk(count * kE);
    if (in_place_) {
      // The inputs already where the in-place forms take them from.
      std::copy(blocks_[me].begin(), blocks_[me].end(),
                all_gathered_.begin() + static_cast<std::ptrdiff_t>(displacements_[me] * kE));
      if (is_root()) {
        std::copy(blocks_[me].begin(), blocks_[me].end(),
                  gathered_.begin() + static_cast<std::ptrdiff_t>(displacements_[me] * kE));
      }
      reduced_ = whole_;
      reduced_blocks_ = block_input_;
    }
  }

  std::vector<std::pair<std::string, Request>> post() {
    std::vector<std::pair<std::string, Request>> posted;
    const std::size_t me = mine();
    const std::string at = " count " + std::to_string(count_);
    posted.emplace_back("scatter" + at, iscatter(comm_, uniform_all_.data(), scatter_recv(), count_,
                                                 kIntSum.type, root_));
    posted.emplace_back("scatterv" + at,
                        iscatterv(comm_, all_.data(), counts_.data(), displacements_.data(),
                                  scatterv_recv(), counts_[me], kIntSum.type, root_));
    posted.emplace_back("gatherv" + at,
                        igatherv(comm_, gatherv_send(), counts_[me], gathered_.data(),
                                 counts_.data(), displacements_.data(), kIntSum.type, root_));
    posted.emplace_back(
        "allgatherv" + at,
        iallgatherv(comm_, in_place_ ? kInPlace : blocks_[me].data(), counts_[me],
                    all_gathered_.data(), counts_.data(), displacements_.data(), kIntSum.type));
    posted.emplace_back("reduce_scatter" + at,
                        ireduce_scatter(comm_, in_place_ ? kInPlace : whole_.data(),
                                        reduced_.data(), counts_.data(), kIntSum.type, kIntSum.op));
    posted.emplace_back(
        "reduce_scatter_block" + at,
        ireduce_scatter_block(comm_, in_place_ ? kInPlace : block_input_.data(),
                              reduced_blocks_.data(), count_, kIntSum.type, kIntSum.op));
    return posted;
  }

  void run_blocking() {
    const std::size_t me = mine();
    scatter(comm_, uniform_all_.data(), scatter_recv(), count_, kIntSum.type, root_);
    scatterv(comm_, all_.data(), counts_.data(), displacements_.data(), scatterv_recv(),
             counts_[me], kIntSum.type, root_);
    gatherv(comm_, gatherv_send(), counts_[me], gathered_.data(), counts_.data(),
            displacements_.data(), kIntSum.type, root_);
    allgatherv(comm_, in_place_ ? kInPlace : blocks_[me].data(), counts_[me], all_gathered_.data(),
               counts_.data(), displacements_.data(), kIntSum.type);
    reduce_scatter(comm_, in_place_ ? kInPlace : whole_.data(), reduced_.data(), counts_.data(),
                   kIntSum.type, kIntSum.op);
    reduce_scatter_block(comm_, in_place_ ? kInPlace : block_input_.data(), reduced_blocks_.data(),
                         count_, kIntSum.type, kIntSum.op);
  }

  void check(const std::string& what) const {
    const std::size_t me = mine();
    const std::string at = what + " count " + std::to_string(count_) + ": ";
    if (!(in_place_ && is_root())) {
      expect_elements(at + "scatter", kIntSum, scattered_.data(), uniform_[me].data(), count_);
      expect_elements(at + "scatterv", kIntSum, scattered_v_.data(), blocks_[me].data(),
                      counts_[me]);
    }
    if (is_root()) expect_elements(at + "gatherv", kIntSum, gathered_.data(), all_.data(), total_);
    expect_elements(at + "allgatherv", kIntSum, all_gathered_.data(), all_.data(), total_);
    const std::vector<std::byte> sum =
        reference_reduction(kIntSum, comm_.size(), total_, seed_ + 2);
    expect_elements(at + "reduce_scatter", kIntSum, reduced_.data(),
                    sum.data() + displacements_[me] * kE, counts_[me]);
    const std::size_t p = static_cast<std::size_t>(comm_.size());
    const std::vector<std::byte> block_sum =
        reference_reduction(kIntSum, comm_.size(), count_ * p, seed_ + 3);
    expect_elements(at + "reduce_scatter_block", kIntSum, reduced_blocks_.data(),
                    block_sum.data() + me * count_ * kE, count_);
  }

 private:
  std::size_t mine() const { return static_cast<std::size_t>(comm_.rank()); }
  bool is_root() const { return comm_.rank() == root_; }
  void* scatter_recv() {
    return in_place_ && is_root() ? const_cast<void*>(kInPlace) : scattered_.data();
  }
  void* scatterv_recv() {
    return in_place_ && is_root() ? const_cast<void*>(kInPlace) : scattered_v_.data();
  }
  const void* gatherv_send() const {
    return in_place_ && is_root() ? kInPlace : blocks_[mine()].data();
  }

  const Communicator& comm_;
  std::size_t count_;
  int root_;
  std::uint32_t seed_;
  bool in_place_;
  std::vector<std::size_t> counts_, displacements_;
  std::size_t total_ = 0;
  std::vector<std::vector<std::byte>> blocks_, uniform_;
  std::vector<std::byte> all_, uniform_all_, whole_, block_input_;
  std::vector<std::byte> scattered_, scattered_v_, gathered_, all_gathered_, reduced_,
      reduced_blocks_;
};

}  // namespace

void shm_blocks_suite(const SuiteContext& ctx) {
  const Communicator& w = ctx.world;
  const Communicator reversed = w.split(0, -w.rank());
  const Communicator* comms[] = {&w, &reversed};
  std::uint32_t seed = 50;
  int round = 0;
  for (std::size_t count : kCounts) {
    for (bool blocking : {false, true}) {
      std::vector<BlockCalls> calls;
      calls.reserve(2);
      for (const Communicator* comm : comms) {
        const int root = (round + static_cast<int>(calls.size())) % comm->size();
        calls.emplace_back(*comm, count, root, seed, /*in_place=*/blocking);
        seed += 10;
      }
      ++round;
      const std::string what = blocking ? "blocking, in place" : "in flight";
      if (blocking) {
        for (BlockCalls& call : calls) call.run_blocking();
      } else {
        std::vector<std::pair<std::string, Request>> posted;
        for (BlockCalls& call : calls) {
          for (auto& one : call.post()) posted.push_back(std::move(one));
        }
        for (auto it = posted.rbegin(); it != posted.rend(); ++it) {
          expect_ok(it->second, what + ": " + it->first);
        }
      }
      for (const BlockCalls& call : calls) call.check(what);
    }
  }
}

}  // namespace halyard::testing
