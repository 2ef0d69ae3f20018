// From search outcomes to the decision table the runtime reads (collectives/select/
// tuning_table.hpp): one entry per collective for this job's shape, the best configuration of
// each sampled size, ranges between samples split at their geometric mean; and where, when and
// from which commit it was made.
#pragma once

#include <string>
#include <vector>

#include "collectives/core/comm_shape.hpp"
#include "collectives/select/tuning_table.hpp"
#include "tuner/search.hpp"

namespace halyard::tuner {

struct Provenance {
  std::string machine;
  std::string date;
  std::string commit;
};

// This host's name and core count, the UTC time now, and the commit htune was built from.
Provenance current_provenance();

select::TuningTable build_table(const std::vector<SearchOutcome>& outcomes, Mode mode,
                                const select::CommShape& shape, const Provenance& provenance);

}  // namespace halyard::tuner
