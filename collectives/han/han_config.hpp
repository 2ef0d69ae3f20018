// HAN's knobs, read once per process from the environment (docs/han.md):
//   HALYARD_HAN_SEGSIZE  bytes per pipeline segment (fs)            default 256 KiB
//   HALYARD_HAN_INTER    adapt:<tree> | base: inter-node submodule   default adapt:binomial
//   HALYARD_HAN_INTRA    sm | cma | base: intra-node submodule       default cma
//   HALYARD_HAN_LEADERS  node | numa: one leader per node or per NUMA domain  default node
//   HALYARD_HAN_TEST_NUMA_DOMAINS  testing aid: pretend every node has this many NUMA domains
#pragma once

#include <cstddef>

#include "collectives/adapt/adapt.hpp"
#include "collectives/intranode/intranode.hpp"

namespace halyard::han {

enum class InterModule { kAdapt, kBase };
enum class IntraModule { kSm, kCma, kBase };
// The lower level of the hierarchy: a node, or a NUMA domain of a node (HierKNEM section 4.1).
enum class LeaderLevel { kNode, kNuma };

struct Config {
  std::size_t segment_bytes = 256 * 1024;
  InterModule inter = InterModule::kAdapt;
  adapt::TreeShape inter_tree = adapt::TreeShape::kBinomial;
  IntraModule intra = IntraModule::kCma;
  LeaderLevel leaders = LeaderLevel::kNode;
  // 0: NUMA domains as the topology reports them; k > 0: the rank at index i among its node's
  // ranks (world order) is in domain i % k, so one-domain machines can test NUMA leaders.
  int test_numa_domains = 0;
};

// The process's configuration; a bad value throws Error(kInvalidArgument) naming the variable.
const Config& config();

}  // namespace halyard::han
