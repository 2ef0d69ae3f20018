// The stages of HAN's pipelines as the task benchmarks run them: each stage of one segment is the
// sub-collective HAN itself would start for it (collectives/han/submodules.hpp), on the
// communicator's HAN hierarchy, with one configuration.
//   bcast:                 ib (ADAPT or base bcast among leaders), sb (bcast inside the node)
//   allreduce, imod adapt: sr (reduce inside the node), ir (reduce among leaders), ib, sb
//   allreduce, imod base:  sr, ir (one flat allreduce among leaders), sb
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "collectives/han/han_config.hpp"
#include "collectives/han/hierarchy.hpp"
#include "collectives/select/selected_algorithm.hpp"
#include "runtime/communicator.hpp"
#include "runtime/request.hpp"

namespace halyard::tuner {

enum class Stage { kSr, kIr, kIrAllreduce, kIb, kSb };

std::vector<Stage> stages_of(select::Collective collective, han::InterModule inter);
std::string_view stage_name(Stage stage);

// Buffers for `segments` segments of `segment_bytes` (float32 elements) and the hierarchy of
// `comm`; post() starts one stage of one segment where this rank takes part.
class StageRunner {
 public:
  StageRunner(const Communicator& comm, const han::Tuning& tuning, std::size_t segment_bytes,
              std::size_t segments);

  // Appends the stage's request on this rank (none where the rank has no part in it).
  void post(Stage stage, std::size_t segment, std::vector<Request>& requests);

 private:
  float* segment_of(std::vector<float>& buffer, std::size_t segment);

  han::Hierarchy& hierarchy_;
  han::Config config_;
  han::IntraModule intra_;
  std::size_t count_;  // elements per segment
  std::vector<float> send_;
  std::vector<float> recv_;
};

}  // namespace halyard::tuner
