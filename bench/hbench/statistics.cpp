#include "bench/hbench/statistics.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <numeric>

#include "collectives/collectives.hpp"

namespace hbench {

RankTiming summarize_samples(const std::vector<double>& samples_us) {
  if (samples_us.empty()) return {};
  const double sum = std::accumulate(samples_us.begin(), samples_us.end(), 0.0);
  const auto [lo, hi] = std::minmax_element(samples_us.begin(), samples_us.end());
  return {sum / static_cast<double>(samples_us.size()), *lo, *hi};
}

Summary combine_ranks(const std::vector<RankTiming>& per_rank, const std::vector<bool>& took_part) {
  Summary summary;
  summary.per_rank = per_rank;
  double sum = 0;
  int counted = 0;
  summary.min_us = std::numeric_limits<double>::max();
  summary.max_us = 0;
  for (std::size_t r = 0; r < per_rank.size(); ++r) {
    if (!took_part[r]) continue;
    sum += per_rank[r].avg_us;
    summary.min_us = std::min(summary.min_us, per_rank[r].avg_us);
    summary.max_us = std::max(summary.max_us, per_rank[r].avg_us);
    ++counted;
  }
  if (counted == 0) return Summary{0, 0, 0, per_rank};
  summary.avg_us = sum / counted;
  return summary;
}

Summary gather_summary(const halyard::Communicator& world, const RankTiming& mine, bool took_part) {
  // One row of four doubles per rank: avg, min, max, took_part.
  const std::array<double, 4> row{mine.avg_us, mine.min_us, mine.max_us, took_part ? 1.0 : 0.0};
  std::vector<double> rows(row.size() * static_cast<std::size_t>(world.size()));
  halyard::allgather(world, row.data(), rows.data(), row.size(), halyard::Datatype::kFloat64);
  std::vector<RankTiming> per_rank;
  std::vector<bool> part;
  for (int r = 0; r < world.size(); ++r) {
    const double* theirs = &rows[row.size() * static_cast<std::size_t>(r)];
    per_rank.push_back({theirs[0], theirs[1], theirs[2]});
    part.push_back(theirs[3] != 0.0);
  }
  return combine_ranks(per_rank, part);
}

}  // namespace hbench
