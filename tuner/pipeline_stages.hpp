// The stages of HAN's pipelines as the task benchmarks run them: which stages a pipeline has is
// HAN's own description (collectives/han/stages.hpp); each stage of one segment is the
// sub-collective HAN itself would start for it (collectives/han/submodules.hpp), on the
// communicator's HAN hierarchy, with one configuration.
#pragma once

#include <cstddef>
#include <vector>

#include "collectives/han/han_config.hpp"
#include "collectives/han/hierarchy.hpp"
#include "collectives/han/stages.hpp"
#include "runtime/communicator.hpp"
#include "runtime/request.hpp"

namespace halyard::tuner {

using han::Stage;
using han::stage_name;

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
