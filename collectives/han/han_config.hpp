// HAN's knobs, read once per process from the environment (docs/han.md):
//   HALYARD_HAN_SEGSIZE  bytes per pipeline segment (fs)            default 256 KiB
//   HALYARD_HAN_INTER    adapt:<tree> | base: inter-node submodule   default adapt:binomial
//   HALYARD_HAN_INTRA    sm | cma | base: intra-node submodule       default cma
#pragma once

#include <cstddef>

#include "collectives/adapt/adapt.hpp"
#include "collectives/intranode/intranode.hpp"

namespace halyard::han {

enum class InterModule { kAdapt, kBase };
enum class IntraModule { kSm, kCma, kBase };

struct Config {
  std::size_t segment_bytes = 256 * 1024;
  InterModule inter = InterModule::kAdapt;
  adapt::TreeShape inter_tree = adapt::TreeShape::kBinomial;
  IntraModule intra = IntraModule::kCma;
};

// The process's configuration; a bad value throws Error(kInvalidArgument) naming the variable.
const Config& config();

}  // namespace halyard::han
