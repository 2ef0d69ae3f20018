// A persistent collective planned once, at MPI_*_init: the one Halyard call its start settled
// (checked arguments, datatype resolved to bytes or an element type, memory kind), planned as a
// PlannedCall (collectives/planned_call.hpp: the algorithm chosen once). MPI_Start posts it: no
// argument checks, no selection, no buffer set-up and no allocation besides the algorithm's own.
//
// Only a call that can be replayed unchanged is planned: one Halyard collective on an
// intracommunicator, whose buffers are the user's own (contiguous data, MPI_IN_PLACE), with no
// per-rank count arrays (the v-variants convert them into temporaries) and no custom op (its
// registration must be kept per round). Anything else (data packed for a derived datatype, the
// scratch copies of in-place alltoall and scatter, intercommunicator compositions, neighborhood
// exchanges) runs its start again at every MPI_Start (persistent_collective.hpp).
#pragma once

#include <memory>

#include "collectives/planned_call.hpp"
#include "runtime/communicator.hpp"
#include "shim/collective_calls.hpp"

namespace halyard::mpi_shim {

// The buffers the user passed to MPI_*_init (null where the call has none): a planned call's
// Halyard buffers must be these, MPI_IN_PLACE or null.
struct UserBuffers {
  const void* send = nullptr;
  const void* recv = nullptr;
};

// Plans the call `checking` saw while MPI_*_init ran the collective's start on `comm`, which
// returned `checked`; null when that call cannot be replayed unchanged (above).
std::shared_ptr<const PlannedCall> plan_replay(const Communicator& comm,
                                               const CheckingOnly& checking, UserBuffers user,
                                               const Started& checked);

}  // namespace halyard::mpi_shim
