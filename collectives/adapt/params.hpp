// ADAPT's parameters, and their one home: the flat selection (select, via adapt's catalog
// entries) and HAN's inter-node tasks both build them here, so both honour the same variables:
//   HALYARD_BCAST_SEGSIZE / HALYARD_REDUCE_SEGSIZE  segment of the flat bcast / reduce
//   HALYARD_ADAPT_SENDS_IN_FLIGHT (N), HALYARD_ADAPT_RECVS_IN_FLIGHT (M)
//   HALYARD_ADAPT_KNOMIAL_RADIX, HALYARD_ADAPT_VARIANT=event|blocking|waitall
// The variables are read once per process; a malformed value throws Error(kInvalidArgument)
// naming it on every call that would use it.
#pragma once

#include <cstddef>

#include "collectives/core/selected_algorithm.hpp"
#include "collectives/core/vocabulary.hpp"

namespace halyard::adapt {

using core::TreeShape;

enum class Variant {
  kEventDriven,  // ADAPT (Algorithm 3-5): per-segment, per-child callbacks
  kBlocking,     // Algorithm 1: blocking sends and receives, segment by segment
  kWaitall,      // Algorithm 2: non-blocking per segment, then wait for all of them
};

struct Params {
  TreeShape tree = TreeShape::kBinary;
  int knomial_radix = 4;  // k of the k-nomial tree (>= 2)
  std::size_t segment_bytes = 64 * 1024;
  int sends_in_flight = 2;  // N: per child
  int recvs_in_flight = 4;  // M: from the parent (M > N)
  Variant variant = Variant::kEventDriven;
  // Shapes of the levels of the topo tree (each must be a plain shape, not kTopo). The slow
  // inter-node level gets a log-depth tree; the few package/NUMA leaders of a node a chain;
  // the cores of one group a binary tree (cheap links, so fan-out 2 keeps depth low).
  TreeShape topo_node_shape = TreeShape::kBinomial;
  TreeShape topo_group_shape = TreeShape::kChain;
  TreeShape topo_core_shape = TreeShape::kBinary;
};

// What a caller decides for one call; 0 keeps the process's value (the variables above, else
// ADAPT's default).
struct CallSettings {
  TreeShape tree = TreeShape::kBinary;
  std::size_t segment_bytes = 0;
  int sends_in_flight = 0;  // N
  int recvs_in_flight = 0;  // M
};

// The parameters of one call: ADAPT's defaults, then HALYARD_ADAPT_*, then `settings`. When
// only N was raised, M follows (M = N + 1) to keep ADAPT's rule M > N.
Params params_for(const CallSettings& settings);

// The flat bcast or reduce the selection chose (`selected`: adapt:<tree>, a rule's or a
// table's segment): HALYARD_<COLL>_SEGSIZE, when set, wins over the chosen segment.
Params params_for(core::Collective collective, const core::SelectedAlgorithm& selected);

// Throws Error(kInvalidArgument) "adapt: params.<field> ..." for parameters ADAPT cannot run
// (N < 1, M < 1, radix < 2, a variant outside the enum). params_for() checks its result.
void check_params(const Params& params);

}  // namespace halyard::adapt
