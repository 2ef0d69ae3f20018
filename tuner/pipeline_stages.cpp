#include "tuner/pipeline_stages.hpp"

#include <algorithm>

#include "collectives/core/in_place.hpp"
#include "collectives/han/submodules.hpp"

namespace halyard::tuner {

StageRunner::StageRunner(const Communicator& comm, const han::Tuning& tuning,
                         std::size_t segment_bytes, std::size_t segments)
    : hierarchy_(han::hierarchy_of(comm)),
      config_(han::config_for(tuning)),
      intra_(hierarchy_.intra_for(config_)),
      count_(std::max<std::size_t>(1, segment_bytes / sizeof(float))),
      send_(count_ * segments, 1.0f),
      recv_(count_ * segments, 1.0f) {}

float* StageRunner::segment_of(std::vector<float>& buffer, std::size_t segment) {
  return buffer.data() + segment * count_;
}

void StageRunner::post(Stage stage, std::size_t segment, std::vector<Request>& requests) {
  const han::Hierarchy& h = hierarchy_;
  const bool intra = h.node.size() > 1;
  const bool inter = h.is_leader() && h.leader.size() > 1;
  float* out = segment_of(recv_, segment);
  const Datatype type = Datatype::kFloat32;
  switch (stage) {
    case Stage::kSr:
      if (intra) {
        const void* in = segment_of(send_, segment);
        requests.push_back(han::intra_reduce(intra_, h.node, in, h.is_leader() ? out : nullptr,
                                             count_, type, Op::kSum, 0));
      }
      break;
    case Stage::kIr:
      if (inter) {
        const bool root = h.leader.rank() == 0;
        requests.push_back(han::inter_reduce(config_, h.leader, root ? kInPlace : out,
                                             root ? out : nullptr, count_, type, Op::kSum, 0));
      }
      break;
    case Stage::kIrAllreduce:
      if (inter) {
        requests.push_back(han::inter_allreduce_in_place(h.leader, out, count_, type, Op::kSum));
      }
      break;
    case Stage::kIb:
      if (inter) requests.push_back(han::inter_bcast(config_, h.leader, out, count_, type, 0));
      break;
    case Stage::kSb:
      if (intra) requests.push_back(han::intra_bcast(intra_, h.node, out, count_, type, 0));
      break;
  }
}

}  // namespace halyard::tuner
