// MPI-4 persistent collectives (MPI_Bcast_init, MPI_Neighbor_alltoall_init, ...): a collective's
// non-blocking start, checked once at init; every MPI_Start posts the call planned then
// (planned_collective.hpp) or, where the call cannot be replayed unchanged, runs the start again.
#pragma once

#include <mpi.h>

#include <functional>
#include <memory>

#include "shim/call_guard.hpp"
#include "shim/collective_calls.hpp"
#include "shim/planned_collective.hpp"
#include "shim/shim_state.hpp"

namespace halyard::mpi_shim {

// A persistent request of `entry`'s communicator whose rounds `start` posts; inactive until
// MPI_Start (api_requests.cpp).
void add_persistent(const CommEntry& entry, MPI_Request* request,
                    std::function<void(PendingRequest&)> start);

// MPI_<Coll>_init: `post(comm)` is the collective's non-blocking start with the caller's
// arguments (whose buffers are `user`), returning what it Started. It runs once now under
// CheckingOnly (every argument error is reported here, by this call), which plans the call
// when it can; each MPI_Start then posts the plan, or runs `post` again.
template <typename Post>
int persistent_collective(const char* call, MPI_Comm comm, MPI_Request* request, Post post,
                          UserBuffers user = {}) {
  return guarded(call, comm, [&] {
    const CommEntry& entry = shim_state().comm(comm);
    check_request_out(request);
    std::shared_ptr<const PlannedCall> planned;
    {
      CheckingOnly checking;
      Started checked = post(entry.comm);
      planned = plan_replay(entry.comm, checking, user, checked);
    }
    if (planned != nullptr) {
      add_persistent(entry, request,
                     [planned](PendingRequest& round) { round.request = planned->post(); });
      return;
    }
    add_persistent(entry, request, [post, c = entry.comm](PendingRequest& round) {
      Started started = post(c);
      round.request = std::move(started.request);
      round.complete = std::move(started.complete);
    });
  });
}

}  // namespace halyard::mpi_shim
