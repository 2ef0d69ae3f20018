// MPI-4 persistent collectives (MPI_Bcast_init, MPI_Neighbor_alltoall_init, ...): a collective's
// non-blocking start, checked once at init and run again at every MPI_Start.
#pragma once

#include <mpi.h>

#include <functional>

#include "shim/call_guard.hpp"
#include "shim/collective_calls.hpp"
#include "shim/shim_state.hpp"

namespace halyard::mpi_shim {

// A persistent request of `entry`'s communicator whose rounds `start` posts; inactive until
// MPI_Start (api_requests.cpp).
void add_persistent(const CommEntry& entry, MPI_Request* request,
                    std::function<void(PendingRequest&)> start);

// MPI_<Coll>_init: `post(comm)` is the collective's non-blocking start with the caller's
// arguments, returning what it Started. It runs once now under CheckingOnly (every argument
// error is reported here, by this call), then at every MPI_Start.
template <typename Post>
int persistent_collective(const char* call, MPI_Comm comm, MPI_Request* request, Post post) {
  return guarded(call, comm, [&] {
    const CommEntry& entry = shim_state().comm(comm);
    check_request_out(request);
    {
      CheckingOnly checking;
      post(entry.comm);
    }
    add_persistent(entry, request, [post, c = entry.comm](PendingRequest& round) {
      Started started = post(c);
      round.request = std::move(started.request);
      round.complete = std::move(started.complete);
    });
  });
}

}  // namespace halyard::mpi_shim
