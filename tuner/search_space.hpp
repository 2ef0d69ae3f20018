// The configurations htune searches (dissertation Table 6.2 plus ADAPT's N/M), their
// normalisation (configurations that run identically are one) and the heuristics of the
// task-model-with-heuristics mode (docs/tuning.md lists them with their reasons).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "collectives/han/han_config.hpp"
#include "collectives/select/selected_algorithm.hpp"

namespace halyard::tuner {

// One HAN configuration apart from fs. ir uses ib's tree and segment (iralg = ibalg, irs = ibs):
// HAN pairs them so that ir and ib of neighbouring segments overlap best (dissertation 5.3.2).
struct Candidate {
  han::InterModule inter = han::InterModule::kAdapt;
  adapt::TreeShape tree = adapt::TreeShape::kBinomial;  // ibalg / iralg (adapt only)
  std::size_t inter_segment = 64 * 1024;                // ibs / irs (adapt only)
  int sends_in_flight = 2;                              // N (adapt only)
  int recvs_in_flight = 4;                              // M (adapt only)
  han::IntraModule intra = han::IntraModule::kCma;      // smod

  friend bool operator==(const Candidate&, const Candidate&) = default;
};

struct SearchSpace {
  std::vector<adapt::TreeShape> trees;
  std::vector<std::size_t> inter_segments;
  std::vector<std::pair<int, int>> in_flight;  // (N, M)
  std::vector<han::IntraModule> intras;
  bool base_inter = true;             // imod = base as well as adapt
  std::vector<std::size_t> segments;  // the fs grid (the whole message is always a choice too)
};

// "small" (2 trees, default ibs and N/M), "medium" (4 trees, 2 ibs), "full" (+ 2 N/M);
// throws Error(kInvalidArgument) for another name. `segments` is left for the caller.
SearchSpace space_preset(std::string_view name);

// Every (imod, ibalg, ibs, N/M) x smod of the space.
std::vector<Candidate> all_candidates(const SearchSpace& space);

// The pipeline depth D of `collective` run with `inter` (cost_model.hpp).
int pipeline_depth(select::Collective collective, han::InterModule inter);

// The candidate as it runs on segments of `segment_bytes`: ibs no larger than the segment, and
// N/M at their defaults when the inter task has one ADAPT segment (nothing to keep in flight);
// base inter ignores tree, ibs and N/M.
Candidate normalized(Candidate candidate, std::size_t segment_bytes);

// The heuristics: whether the task-model-with-heuristics mode keeps `candidate` for segments of
// `segment_bytes`, `segments` of them, among `leaders` node leaders.
bool heuristic_keeps(select::Collective collective, const Candidate& candidate,
                     std::size_t segment_bytes, std::size_t segments, int leaders);

// The table's HAN settings: `fs` 0 means the whole message (fs left to HAN's automatic rule).
han::Tuning to_tuning(select::Collective collective, const Candidate& candidate, std::size_t fs);

// "fs=64K imod=adapt ibalg=binary ibs=16K smod=cma N=2 M=4" (stable: also a cache key).
std::string label(select::Collective collective, const Candidate& candidate, std::size_t fs);

}  // namespace halyard::tuner
