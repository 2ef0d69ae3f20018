// A persistent collective planned once, at MPI_*_init: the one Halyard call its start settled
// (checked arguments, datatype resolved to bytes or an element type, memory kind) and the
// algorithm the selection chose for it. MPI_Start posts that algorithm with those arguments
// (post_chosen(), collectives/post_call.hpp): no argument checks, no selection, no buffer set-up
// and no allocation besides the algorithm's own.
//
// Only a call that can be replayed unchanged is planned: one Halyard collective on an
// intracommunicator, whose buffers are the user's own (contiguous data, MPI_IN_PLACE), with no
// per-rank count arrays (the v-variants convert them into temporaries) and no custom op (its
// registration must be kept per round). Anything else (data packed for a derived datatype, the
// scratch copies of in-place alltoall and scatter, intercommunicator compositions, neighborhood
// exchanges) runs its start again at every MPI_Start (persistent_collective.hpp).
#pragma once

#include <memory>

#include "collectives/core/coll_args.hpp"
#include "collectives/post_call.hpp"
#include "collectives/select/selection.hpp"
#include "runtime/communicator.hpp"
#include "runtime/request.hpp"
#include "shim/collective_calls.hpp"

namespace halyard::mpi_shim {

// The buffers the user passed to MPI_*_init (null where the call has none): a planned call's
// Halyard buffers must be these, MPI_IN_PLACE or null.
struct UserBuffers {
  const void* send = nullptr;
  const void* recv = nullptr;
};

class PlannedCollective {
 public:
  // Plans the call `checking` saw while MPI_*_init ran the collective's start on `comm`, which
  // returned `checked`; null when that call cannot be replayed unchanged (above).
  static std::shared_ptr<const PlannedCollective> plan(const Communicator& comm,
                                                       const CheckingOnly& checking,
                                                       UserBuffers user, const Started& checked);

  PlannedCollective(const Communicator& comm, const core::CollArgs& settled);
  PlannedCollective(const PlannedCollective&) = delete;  // args_ refers to comm_
  PlannedCollective& operator=(const PlannedCollective&) = delete;

  // Posts one round.
  Request post() const { return post_chosen(args_, choice_); }

 private:
  Communicator comm_;
  core::CollArgs args_;
  select::Choice choice_;
};

}  // namespace halyard::mpi_shim
