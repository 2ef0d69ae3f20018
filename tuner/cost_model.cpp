#include "tuner/cost_model.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace halyard::tuner {

namespace {

std::size_t ranks_of(const PipelineCosts& costs) {
  if (!costs.alone.empty()) return costs.alone.front().size();
  return costs.first_full.size();
}

// Adds `times` to every rank's running total; a task without a figure for some rank is a bug of
// the caller, not a zero.
void add(std::vector<double>& totals, const RankTimes& times, double factor = 1.0) {
  if (times.size() != totals.size()) {
    throw std::invalid_argument("task costs for " + std::to_string(times.size()) +
                                " ranks, expected " + std::to_string(totals.size()));
  }
  for (std::size_t i = 0; i < totals.size(); ++i) totals[i] += factor * times[i];
}

}  // namespace

double predict_us(const PipelineCosts& costs, std::size_t segments) {
  const auto depth = static_cast<std::size_t>(costs.depth);
  if (segments == 0 || depth == 0) throw std::invalid_argument("no segments or no stages");
  std::vector<double> totals(ranks_of(costs), 0.0);
  if (segments == 1) {
    if (costs.alone.size() != depth) throw std::invalid_argument("stage costs missing (u = 1)");
    for (const RankTimes& stage : costs.alone) add(totals, stage);
  } else if (segments < depth) {
    const std::size_t index = segments - 2;
    if (index >= costs.partial.size() || costs.partial[index].size() != segments + depth - 1) {
      throw std::invalid_argument("no measured run of " + std::to_string(segments) + " segments");
    }
    for (const RankTimes& step : costs.partial[index]) add(totals, step);
  } else {
    if (costs.fill.size() != depth - 1 || costs.drain.size() != depth - 1) {
      throw std::invalid_argument("filling or draining task costs missing");
    }
    for (const RankTimes& step : costs.fill) add(totals, step);
    add(totals, costs.first_full);
    add(totals, costs.stable_full, static_cast<double>(segments - depth));
    for (const RankTimes& step : costs.drain) add(totals, step);
  }
  return totals.empty() ? 0.0 : *std::max_element(totals.begin(), totals.end());
}

std::size_t segment_count(std::size_t message_bytes, std::size_t segment_bytes) {
  if (segment_bytes == 0) return 1;
  return std::max<std::size_t>(1, (message_bytes + segment_bytes - 1) / segment_bytes);
}

}  // namespace halyard::tuner
