// The tuner's decision table (tuner/, docs/tuning.md): per (collective, nodes, ranks per node),
// message-size ranges, each mapped to the configuration htune chose at one sampled size.
// collectives/select consults it per call (selection.hpp); tuning_table_json.hpp reads and
// writes it as JSON.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "collectives/core/comm_shape.hpp"
#include "collectives/select/selected_algorithm.hpp"
#include "collectives/select/selection.hpp"

namespace halyard::select {

// Calls of min_bytes..max_bytes (inclusive; no max: no upper bound) run `choice`.
struct SizeRange {
  std::size_t min_bytes = 0;
  std::optional<std::size_t> max_bytes;
  std::size_t sampled_bytes = 0;  // the size htune measured or modelled for this range
  SelectedAlgorithm choice;
  double predicted_us = 0;  // htune's estimate at sampled_bytes (information only; 0: none)

  friend bool operator==(const SizeRange&, const SizeRange&) = default;
};

struct TableEntry {
  Collective collective = Collective::kBcast;
  int nodes = 1;
  int ranks_per_node = 1;         // the most ranks on one node (CommShape::max_ranks_per_node)
  std::vector<SizeRange> ranges;  // ascending, not overlapping

  friend bool operator==(const TableEntry&, const TableEntry&) = default;
};

struct TuningTable {
  // Where and how it was made (written by htune, shown by the runtime's log).
  std::string machine;
  std::string date;
  std::string commit;
  std::string mode;
  std::vector<TableEntry> entries;

  // The choice for a call, or nullopt when no entry has this collective and shape (the rules
  // decide then). A size between two ranges, or outside all of them, takes the nearer range
  // (by ratio: sizes are sampled geometrically).
  std::optional<SelectedAlgorithm> lookup(Collective collective, const CommShape& shape,
                                          std::size_t bytes) const;

  friend bool operator==(const TuningTable&, const TuningTable&) = default;
};

// Throws Error(kInvalidArgument) naming the first problem: nodes or ranks per node below 1, an
// entry without ranges, ranges out of order or overlapping, min above max, or two entries for
// the same (collective, nodes, ranks per node).
void validate(const TuningTable& table);

// Contiguous ranges covering every size from choices at ascending sampled sizes: the boundary
// between two samples is their geometric mean, so a size between them takes the choice of the
// sample nearer by ratio; the first range starts at 0 and the last has no upper bound.
struct SampledChoice {
  std::size_t bytes = 0;
  SelectedAlgorithm choice;
  double predicted_us = 0;
};
std::vector<SizeRange> ranges_from_samples(const std::vector<SampledChoice>& samples);

// A DecisionTable (selection.hpp) answering from `table`.
DecisionTable as_decision_table(std::shared_ptr<const TuningTable> table);

}  // namespace halyard::select
