// The collectives of issue 25, and an alltoall of large blocks, in flight at once, waited for in
// reverse order. Their count and displacement arrays are overwritten as soon as every call is
// posted: the algorithms must have copied them (as the API promises), so the results cannot
// depend on them afterwards.
#include <algorithm>
#include <string>
#include <utility>

#include "collectives/collectives.hpp"
#include "tests/collectives/suites.hpp"

namespace halyard::testing {

namespace {

// Rank r's block: count + r elements, none on every third rank; blocks packed in rank order.
struct Packed {
  std::vector<std::size_t> counts;
  std::vector<std::size_t> displacements;
  std::size_t total = 0;
};

Packed packed(int ranks, std::size_t count) {
  Packed p;
  for (int r = 0; r < ranks; ++r) {
    const std::size_t n = r % 3 == 1 ? 0 : count + static_cast<std::size_t>(r);
    p.counts.push_back(n);
    p.displacements.push_back(p.total);
    p.total += n;
  }
  return p;
}

std::vector<std::byte> slice(const std::vector<std::byte>& all, std::size_t at, std::size_t n) {
  const std::size_t e = datatype_size(kIntSum.type);
  return {all.begin() + static_cast<std::ptrdiff_t>(at * e),
          all.begin() + static_cast<std::ptrdiff_t>((at + n) * e)};
}

// Every rank's input blocks for `seed`, concatenated as the layout places them.
std::vector<std::byte> everyone(const Packed& layout, std::uint32_t seed) {
  std::vector<std::byte> out;
  for (std::size_t r = 0; r < layout.counts.size(); ++r) {
    std::vector<std::byte> block = make_input(kIntSum, static_cast<int>(r), layout.counts[r], seed);
    out.insert(out.end(), block.begin(), block.end());
  }
  return out;
}

}  // namespace

void inflight_more_suite(const SuiteContext& ctx) {
  const Communicator& w = ctx.world;
  const int p = w.size();
  const auto me = static_cast<std::size_t>(w.rank());
  const std::size_t count = 1000;
  const std::size_t e = datatype_size(kIntSum.type);
  Packed layout = packed(p, count);
  const Packed kept = layout;  // the reference's copy
  const std::vector<std::byte> all = everyone(kept, 31);
  const std::vector<std::byte> mine = slice(all, kept.displacements[me], kept.counts[me]);
  const std::vector<std::byte> whole = make_input(kIntSum, w.rank(), kept.total, 32);

  std::vector<std::byte> gathered = junk(kept.total * e);
  std::vector<std::byte> all_gathered = junk(kept.total * e);
  std::vector<std::byte> scattered = junk(kept.counts[me] * e);
  std::vector<std::byte> reduced = junk(kept.counts[me] * e);
  std::vector<std::byte> reduced_blocks = junk(count * e);
  std::vector<std::byte> scanned = junk(count * e);
  std::vector<std::byte> exscanned = junk(count * e);
  const std::vector<std::byte> block_input = make_input(kIntSum, w.rank(), count * p, 33);
  const std::vector<std::byte> scan_input = make_input(kIntSum, w.rank(), count, 34);

  // alltoallv: every rank sends rank r the same block it holds for r in `all` (so rank r
  // receives p copies of its own block, one per sender, laid out like `mine` repeated).
  Packed to_recv;
  for (int r = 0; r < p; ++r) {
    to_recv.counts.push_back(kept.counts[me]);
    to_recv.displacements.push_back(to_recv.total);
    to_recv.total += kept.counts[me];
  }
  std::vector<std::byte> exchanged = junk(to_recv.total * e);
  const Packed recv_kept = to_recv;

  // alltoall of blocks several cells long (the shm engine's alltoall in steps): block d of
  // rank s is make_input(s, kBlockCount, 40 + d).
  constexpr std::size_t kBlockCount = 20000;
  std::vector<std::byte> blocks_out;
  for (int d = 0; d < p; ++d) {
    const std::vector<std::byte> block =
        make_input(kIntSum, w.rank(), kBlockCount, 40 + static_cast<std::uint32_t>(d));
    blocks_out.insert(blocks_out.end(), block.begin(), block.end());
  }
  std::vector<std::byte> blocks_in = junk(blocks_out.size());

  std::vector<std::pair<std::string, Request>> posted;
  posted.emplace_back(
      "gatherv", igatherv(w, mine.data(), kept.counts[me], gathered.data(), layout.counts.data(),
                          layout.displacements.data(), kIntSum.type, 0));
  posted.emplace_back("allgatherv",
                      iallgatherv(w, mine.data(), kept.counts[me], all_gathered.data(),
                                  layout.counts.data(), layout.displacements.data(), kIntSum.type));
  posted.emplace_back("scatterv",
                      iscatterv(w, all.data(), layout.counts.data(), layout.displacements.data(),
                                scattered.data(), kept.counts[me], kIntSum.type, p - 1));
  posted.emplace_back(
      "alltoallv",
      ialltoallv(w, all.data(), layout.counts.data(), layout.displacements.data(), exchanged.data(),
                 to_recv.counts.data(), to_recv.displacements.data(), kIntSum.type));
  posted.emplace_back("alltoall",
                      ialltoall(w, blocks_out.data(), blocks_in.data(), kBlockCount, kIntSum.type));
  posted.emplace_back("reduce_scatter",
                      ireduce_scatter(w, whole.data(), reduced.data(), layout.counts.data(),
                                      kIntSum.type, kIntSum.op));
  posted.emplace_back("reduce_scatter_block",
                      ireduce_scatter_block(w, block_input.data(), reduced_blocks.data(), count,
                                            kIntSum.type, kIntSum.op));
  posted.emplace_back("scan",
                      iscan(w, scan_input.data(), scanned.data(), count, kIntSum.type, kIntSum.op));
  posted.emplace_back(
      "exscan", iexscan(w, scan_input.data(), exscanned.data(), count, kIntSum.type, kIntSum.op));
  for (auto* array :
       {&layout.counts, &layout.displacements, &to_recv.counts, &to_recv.displacements}) {
    std::fill(array->begin(), array->end(), std::size_t{1} << 40);
  }
  for (auto it = posted.rbegin(); it != posted.rend(); ++it) {
    expect_ok(it->second, "in flight: " + it->first);
  }

  if (me == 0)
    expect_elements("in flight: gatherv", kIntSum, gathered.data(), all.data(), kept.total);
  expect_elements("in flight: allgatherv", kIntSum, all_gathered.data(), all.data(), kept.total);
  expect_elements("in flight: scatterv", kIntSum, scattered.data(), mine.data(), kept.counts[me]);
  for (int r = 0; r < p; ++r) {
    expect_elements("in flight: alltoallv from " + std::to_string(r), kIntSum,
                    exchanged.data() + recv_kept.displacements[std::size_t(r)] * e, mine.data(),
                    kept.counts[me]);
  }
  for (int r = 0; r < p; ++r) {
    const std::vector<std::byte> from_r =
        make_input(kIntSum, r, kBlockCount, 40 + static_cast<std::uint32_t>(me));
    expect_elements("in flight: alltoall from " + std::to_string(r), kIntSum,
                    blocks_in.data() + static_cast<std::size_t>(r) * kBlockCount * e, from_r.data(),
                    kBlockCount);
  }
  const std::vector<std::byte> sum = reference_reduction(kIntSum, p, kept.total, 32);
  expect_elements("in flight: reduce_scatter", kIntSum, reduced.data(),
                  sum.data() + kept.displacements[me] * e, kept.counts[me]);
  const std::vector<std::byte> block_sum = reference_reduction(kIntSum, p, count * p, 33);
  expect_elements("in flight: reduce_scatter_block", kIntSum, reduced_blocks.data(),
                  block_sum.data() + me * count * e, count);
  const std::vector<std::byte> prefix = reference_reduction(kIntSum, w.rank() + 1, count, 34);
  expect_elements("in flight: scan", kIntSum, scanned.data(), prefix.data(), count);
  if (me > 0) {
    const std::vector<std::byte> before = reference_reduction(kIntSum, w.rank(), count, 34);
    expect_elements("in flight: exscan", kIntSum, exscanned.data(), before.data(), count);
  }
}

}  // namespace halyard::testing
