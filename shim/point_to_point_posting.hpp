// Posting the point-to-point operations of the shim, after their MPI arguments were checked:
// shared by the one-shot calls (api_point_to_point.cpp) and the persistent ones
// (api_persistent.cpp), which check once at MPI_*_init and post at every MPI_Start.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <string>

#include "runtime/communicator.hpp"
#include "shim/shim_state.hpp"

namespace halyard::mpi_shim {

// MPI's send modes. A ready send (MPI_Rsend) is a standard one: Halyard never needs the receive
// to be posted first, so the standard send is always correct for it.
enum class SendMode { kStandard, kSynchronous, kBuffered, kReady };

// Checks one side of a message (MPI_PROC_NULL is a valid peer) and returns its size in bytes.
// `prefix` is "send" or "recv" in MPI_Sendrecv, whose arguments carry it ("sendcount").
std::size_t checked_message(const Communicator& comm, const void* buf, int count,
                            MPI_Datatype datatype, int peer, int tag, bool is_receive,
                            const std::string& prefix = "");

// What a receive from MPI_PROC_NULL reports: source MPI_PROC_NULL, tag MPI_ANY_TAG, 0 bytes.
Status proc_null_status();

// Posts a checked send; one to MPI_PROC_NULL is complete at once. A buffered send copies the
// message into the attached buffer (MPI_ERR_BUFFER when it does not fit) and is complete.
Request post_send(SendMode mode, const Communicator& comm, const void* buf, std::size_t bytes,
                  int dest, int tag);
// Posts a checked receive into `pending`: its request, and what MPI_Cancel needs to withdraw it.
void post_recv(PendingRequest& pending, const Communicator& comm, void* buf, std::size_t bytes,
               int source, int tag);

}  // namespace halyard::mpi_shim
