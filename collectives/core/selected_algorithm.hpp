// One algorithm chosen for one call, with the parameters the choice carries (a rule's or a
// decision table's segment size, HAN's tuning). It is what the selection layer returns, what
// HALYARD_<COLL>_ALG and the decision table parse into, and the `params` every catalog entry's
// post() receives (core/catalog.hpp).
#pragma once

#include <cstddef>

#include "collectives/core/han_tuning.hpp"
#include "collectives/core/vocabulary.hpp"

namespace halyard::core {

struct SelectedAlgorithm {
  Algorithm algorithm = Algorithm::kLinear;
  TreeShape tree = TreeShape::kBinary;  // kAdapt only
  // kAdapt only: segment size chosen by a rule or a decision table; 0 means ADAPT's default.
  // HALYARD_<COLL>_SEGSIZE, when set, wins over it.
  std::size_t segment_bytes = 0;
  // kHan only: the call's HAN configuration chosen by a decision table (empty: the process's,
  // from HALYARD_HAN_* and the defaults). HALYARD_HAN_* variables the user set win over it.
  HanTuning han{};

  friend bool operator==(const SelectedAlgorithm&, const SelectedAlgorithm&) = default;
};

// Whether the tree field names the algorithm (adapt:<tree>) rather than being unused.
inline bool has_tree(Algorithm algorithm) {
  return algorithm == Algorithm::kAdapt;
}

}  // namespace halyard::core
