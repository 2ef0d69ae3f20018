// Posting the point-to-point operations of the shim, after their MPI arguments were checked:
// shared by the one-shot calls (api_point_to_point.cpp) and the persistent ones
// (api_persistent.cpp), which check once at MPI_*_init and post at every MPI_Start.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <memory>
#include <string>

#include "runtime/communicator.hpp"
#include "shim/shim_state.hpp"
#include "shim/typed_buffer.hpp"

namespace halyard::mpi_shim {

// MPI's send modes. A ready send (MPI_Rsend) is a standard one: Halyard never needs the receive
// to be posted first, so the standard send is always correct for it.
enum class SendMode { kStandard, kSynchronous, kBuffered, kReady };

// One side of a message whose MPI arguments were checked; stage() makes its bytes (packed now
// for a send of a non-contiguous type), as every MPI_Start of a persistent request does again.
struct CheckedMessage {
  const void* buf;
  std::size_t count;
  std::shared_ptr<const TypeObject> type;
  bool is_receive;

  TypedBuffer stage() const {
    return {buf, count, *type, is_receive ? TypedBuffer::Use::kReceive : TypedBuffer::Use::kSend};
  }
};

// Checks one side of a message (MPI_PROC_NULL is a valid peer). `prefix` is "send" or "recv" in
// MPI_Sendrecv, whose arguments carry it ("sendcount").
CheckedMessage checked_message(const Communicator& comm, const void* buf, int count,
                               MPI_Datatype datatype, int peer, int tag, bool is_receive,
                               const std::string& prefix = "");

// What a receive from MPI_PROC_NULL reports: source MPI_PROC_NULL, tag MPI_ANY_TAG, 0 bytes.
Status proc_null_status();

// Posts a checked send of `data`'s bytes, which the caller keeps until the send completes; one
// to MPI_PROC_NULL is complete at once. A buffered send copies the message into the attached
// buffer (MPI_ERR_BUFFER when it does not fit) and is complete.
Request post_send(SendMode mode, const Communicator& comm, const TypedBuffer& data, int dest,
                  int tag);
// Posts a checked receive into `pending`: its request, what MPI_Cancel needs to withdraw it, and
// the step that unpacks what arrived (which holds `data`'s staging buffer until then).
void post_recv(PendingRequest& pending, const Communicator& comm, const TypedBuffer& data,
               int source, int tag);

}  // namespace halyard::mpi_shim
