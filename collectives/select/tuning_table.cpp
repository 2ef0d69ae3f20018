#include "collectives/select/tuning_table.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <tuple>

#include "runtime/support/error.hpp"

namespace halyard::select {

namespace {

[[noreturn]] void invalid(const std::string& where, const std::string& problem) {
  throw Error(ErrorCode::kInvalidArgument, where + ": " + problem);
}

// How far `bytes` lies outside [min, max] as a ratio (1: inside).
double distance_ratio(const SizeRange& range, std::size_t bytes) {
  const double b = static_cast<double>(std::max<std::size_t>(bytes, 1));
  if (bytes < range.min_bytes) return static_cast<double>(range.min_bytes) / b;
  if (range.max_bytes && bytes > *range.max_bytes) {
    return b / static_cast<double>(std::max<std::size_t>(*range.max_bytes, 1));
  }
  return 1.0;
}

}  // namespace

std::optional<SelectedAlgorithm> TuningTable::lookup(Collective collective, const CommShape& shape,
                                                     std::size_t bytes) const {
  for (const TableEntry& entry : entries) {
    if (entry.collective != collective || entry.nodes != shape.nodes ||
        entry.ranks_per_node != shape.max_ranks_per_node || entry.ranges.empty()) {
      continue;
    }
    const SizeRange* best = &entry.ranges.front();
    double best_distance = distance_ratio(*best, bytes);
    for (const SizeRange& range : entry.ranges) {
      double d = distance_ratio(range, bytes);
      if (d < best_distance) {
        best = &range;
        best_distance = d;
      }
    }
    return best->choice;
  }
  return std::nullopt;
}

void validate(const TuningTable& table) {
  std::set<std::tuple<Collective, int, int>> seen;
  for (std::size_t e = 0; e < table.entries.size(); ++e) {
    const TableEntry& entry = table.entries[e];
    const std::string where = "entries[" + std::to_string(e) + "]";
    if (entry.nodes < 1) invalid(where, "nodes must be at least 1");
    if (entry.ranks_per_node < 1) invalid(where, "ranks_per_node must be at least 1");
    if (entry.ranges.empty()) invalid(where, "no size ranges");
    if (!seen.insert({entry.collective, entry.nodes, entry.ranks_per_node}).second) {
      invalid(where, "a second entry for " + std::string(collective_name(entry.collective)) +
                         " on " + std::to_string(entry.nodes) + " nodes x " +
                         std::to_string(entry.ranks_per_node) + " ranks");
    }
    for (std::size_t r = 0; r < entry.ranges.size(); ++r) {
      const SizeRange& range = entry.ranges[r];
      const std::string at = where + ".ranges[" + std::to_string(r) + "]";
      if (range.max_bytes && *range.max_bytes < range.min_bytes) {
        invalid(at, "max_bytes " + std::to_string(*range.max_bytes) + " is below min_bytes " +
                        std::to_string(range.min_bytes));
      }
      if (r + 1 < entry.ranges.size()) {
        const SizeRange& next = entry.ranges[r + 1];
        if (!range.max_bytes || next.min_bytes <= *range.max_bytes) {
          invalid(at, "overlaps the next range or is out of order (ranges must ascend)");
        }
      }
    }
  }
}

std::vector<SizeRange> ranges_from_samples(const std::vector<SampledChoice>& samples) {
  std::vector<SizeRange> ranges;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    SizeRange range;
    range.sampled_bytes = samples[i].bytes;
    range.choice = samples[i].choice;
    range.predicted_us = samples[i].predicted_us;
    range.min_bytes = ranges.empty() ? 0 : *ranges.back().max_bytes + 1;
    if (i + 1 < samples.size()) {
      const double lower = static_cast<double>(samples[i].bytes);
      const double upper = static_cast<double>(samples[i + 1].bytes);
      auto boundary = static_cast<std::size_t>(std::floor(std::sqrt(lower * upper)));
      range.max_bytes = std::max(boundary, range.min_bytes);
    }
    ranges.push_back(range);
  }
  return ranges;
}

DecisionTable as_decision_table(std::shared_ptr<const TuningTable> table) {
  return
      [table = std::move(table)](Collective collective, const CommShape& shape, std::size_t bytes) {
        return table->lookup(collective, shape, bytes);
      };
}

}  // namespace halyard::select
