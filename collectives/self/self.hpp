// collectives/self: every collective on a communicator of one member (MPI_COMM_SELF, a job of
// one rank, a split that left a rank alone). There is nobody to exchange with, so each call is
// at most one local copy from the send buffer to the receive buffer, and completes at once:
// what Open MPI's coll/self and UCC's tl/self do. The selection takes these entries for every
// one-member communicator on host memory, whatever HALYARD_<COLL>_ALG or a decision table says
// (select/selection.hpp): any other algorithm would only reach the same copy through a step
// machine, a request and the event loop (a barrier on one rank cost ~1,060 instructions that
// way, against ~480 here, most of them the path every call takes).
#pragma once

#include "collectives/core/catalog.hpp"

namespace halyard::self {

// The catalog table: "self" for every collective. Not nameable: it runs on one member only,
// where the selection takes it anyway.
core::AlgorithmTable algorithms();

}  // namespace halyard::self
