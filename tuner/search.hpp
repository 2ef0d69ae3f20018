// htune's three search modes over the configurations of search_space.hpp, per sampled size:
//   exhaustive      times the whole collective for every configuration (the reference);
//   task            predicts every configuration with the cost model from task costs;
//   task-heuristic  the same over the configurations the heuristics keep.
// Every rank runs the same search (measurements are collective) and gets the same outcome.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tuner/search_space.hpp"
#include "tuner/task_bench.hpp"

namespace halyard::tuner {

enum class Mode { kExhaustive, kTaskModel, kTaskHeuristic };

std::string_view mode_name(Mode mode);  // "exhaustive", "task", "task-heuristic"
std::optional<Mode> parse_mode(std::string_view name);

struct ScoredConfig {
  std::string label;  // search_space.hpp's label: identifies the configuration across modes
  han::Tuning tuning;
  double us = 0;  // measured (exhaustive) or predicted (task modes)
};

struct SizeOutcome {
  std::size_t bytes = 0;
  std::vector<ScoredConfig> scored;  // every configuration evaluated at this size
  const ScoredConfig& best() const;  // the fastest (the first of equals)
};

struct SearchOutcome {
  select::Collective collective = select::Collective::kBcast;
  Mode mode = Mode::kExhaustive;
  std::vector<SizeOutcome> sizes;
  double seconds = 0;  // wall time of the search, measurements included
};

struct SearchRequest {
  select::Collective collective = select::Collective::kBcast;
  std::vector<std::size_t> sizes;  // ascending
  SearchSpace space;
  BenchSettings bench;
};

// Called on rank 0 after each size: (collective, mode, size index, outcome so far).
using ProgressReport = std::function<void(const SearchOutcome&, std::size_t size_index)>;

// `tasks` carries task costs across searches (sizes and collectives) of the task modes; the
// exhaustive mode does not use it.
SearchOutcome run_search(const Communicator& comm, Mode mode, const SearchRequest& request,
                         TaskBench& tasks, const ProgressReport& progress);

// The fs values tried for a message: 0 (the whole message, one segment) and every grid size
// below the message.
std::vector<std::size_t> segment_choices(const SearchSpace& space, std::size_t message_bytes);

}  // namespace halyard::tuner
