// Timing a whole HAN collective with one configuration: the exhaustive search's measurement and
// htune --validate's "measured" figure. Like IMB's t_max, but with each rank's median over the
// iterations (align_ranks before each; median.hpp says why), then the maximum over the ranks.
#pragma once

#include <cstddef>

#include "collectives/han/han_config.hpp"
#include "collectives/select/selected_algorithm.hpp"
#include "runtime/communicator.hpp"
#include "tuner/task_bench.hpp"

namespace halyard::tuner {

// Collective over `comm`; every rank returns the same figure (us).
double time_collective(const Communicator& comm, select::Collective collective,
                       const han::Tuning& tuning, std::size_t bytes, const BenchSettings& settings);

}  // namespace halyard::tuner
