// ADAPT's parameters as the selection layer passes them to collectives/adapt/adapt.hpp: from
// the selected algorithm (tree, segment size) and HALYARD_* variables.
#pragma once

#include "collectives/adapt/adapt.hpp"
#include "collectives/select/selected_algorithm.hpp"

namespace halyard::select {

// ADAPT's Params for `collective` (kBcast or kReduce) with the tree of `selected`:
//   segment_bytes   HALYARD_BCAST_SEGSIZE / HALYARD_REDUCE_SEGSIZE, else selected.segment_bytes,
//                   else ADAPT's default;
//   sends_in_flight HALYARD_ADAPT_SENDS_IN_FLIGHT, recvs_in_flight HALYARD_ADAPT_RECVS_IN_FLIGHT,
//   knomial_radix   HALYARD_ADAPT_KNOMIAL_RADIX,  variant
//   HALYARD_ADAPT_VARIANT=event|blocking|waitall.
// The variables are read once per process. Throws Error(kInvalidArgument) naming the variable
// for values ADAPT cannot use (segment 0, N < 1, M <= N, radix < 2).
adapt::Params adapt_params(Collective collective, const SelectedAlgorithm& selected);

}  // namespace halyard::select
