// htune's command line (docs/tuning.md):
//   hlaunch -n 8 --vnodes 2 htune [--mode task-heuristic] [--collectives bcast,allreduce]
//       [--min-size 16K] [--max-size 4M] [--size-factor 4] [--segments 16K,64K,256K,1M]
//       [--space small|medium|full] [--iterations 10] [--warmup 2] [--output FILE]
//       [--validate [--report FILE] [--validate-rounds 5]] [--quiet]
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "collectives/select/selected_algorithm.hpp"
#include "tuner/search.hpp"

namespace halyard::tuner {

struct Options {
  Mode mode = Mode::kTaskHeuristic;
  std::vector<select::Collective> collectives{select::Collective::kBcast,
                                              select::Collective::kAllreduce};
  std::vector<std::size_t> sizes;  // from min/max/factor
  std::string space = "medium";
  std::vector<std::size_t> segments;
  BenchSettings bench;
  std::string output = "halyard-tuning.json";
  bool validate = false;
  std::string report;       // --validate's text also goes here when set
  int validate_rounds = 5;  // re-timing rounds of the chosen and best configurations (retime.hpp)
  bool quiet = false;
};

// Parses argv; throws Error(kInvalidArgument) naming the option. Returns nullopt-like exit code
// through `exit_code` when --help was asked (it prints the help itself).
Options parse_options(int argc, char** argv, int& exit_code);

// min, min*factor, ... up to max (inclusive); throws for factor < 2 or min > max or min 0.
std::vector<std::size_t> geometric_sizes(std::size_t min, std::size_t max, std::size_t factor);

}  // namespace halyard::tuner
