// PlannedCall: one collective call planned once and posted many times, the engine of
// persistent collectives (the C++ API's *_init, collectives/persistent.hpp, and the MPI shim's
// MPI_*_init, shim/planned_collective.hpp). Planning keeps the checked arguments and the
// algorithm the selection chose for them; each post() goes straight to that algorithm
// (post_chosen(), post_call.hpp): no argument checks, no selection, no allocation besides the
// algorithm's own.
//
// The arguments must not change between rounds: the buffers stay the caller's, and per-rank
// count arrays are not kept (they are read during a call only), so the v-variants are not
// planned.
#pragma once

#include "collectives/core/coll_args.hpp"
#include "collectives/select/selection.hpp"
#include "runtime/communicator.hpp"
#include "runtime/request.hpp"

namespace halyard {

class PlannedCall {
 public:
  // `checked` passed core::validate() (or the shim's checks and core::settle()) on `comm`, and
  // has no per-rank count arrays.
  PlannedCall(const Communicator& comm, const core::CollArgs& checked);
  PlannedCall(const PlannedCall&) = delete;  // args_ refers to comm_
  PlannedCall& operator=(const PlannedCall&) = delete;

  // Posts one round: a null request for one that ended well at once where `checked` said the
  // caller takes one (CollArgs::takes_null_request).
  Request post() const;

 private:
  Communicator comm_;
  core::CollArgs args_;
  select::Choice choice_;
};

}  // namespace halyard
