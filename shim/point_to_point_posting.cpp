#include "shim/point_to_point_posting.hpp"

#include <cstring>

#include "runtime/event_loop.hpp"
#include "shim/argument_checks.hpp"
#include "shim/bsend_buffer.hpp"
#include "shim/mpi_error.hpp"

namespace halyard::mpi_shim {

namespace {

Request completed(const Communicator& comm, Status status) {
  return Request::make_completed(comm.loop(), std::move(status));
}

// The message is copied into the attached buffer and sent from there; the region comes back
// when the transport is done with it. The caller's request is complete at once: MPI's buffered
// send is local.
Request buffered_send(const Communicator& comm, const void* buf, std::size_t bytes, int dest,
                      int tag) {
  BsendBuffer& buffer = bsend_buffer();
  std::byte* region = buffer.attached() ? buffer.reserve(bytes) : nullptr;
  if (region == nullptr) {
    fail(MPI_ERR_BUFFER, "no room for " + std::to_string(bytes) +
                             " + MPI_BSEND_OVERHEAD bytes in the " +
                             (buffer.attached() ? "attached buffer" : "buffer (none is attached)"));
  }
  if (bytes > 0) std::memcpy(region, buf, bytes);
  comm.isend(dest, tag, region, bytes, [region](const Status&) { bsend_buffer().release(region); });
  Status sent;
  sent.bytes = bytes;
  return completed(comm, sent);
}

}  // namespace

CheckedMessage checked_message(const Communicator& comm, const void* buf, int count,
                               MPI_Datatype datatype, int peer, int tag, bool is_receive,
                               const std::string& prefix) {
  std::size_t n = checked_count(count, (prefix + "count").c_str());
  const TypeObject& type =
      checked_datatype(datatype, prefix.empty() ? "datatype" : (prefix + "type").c_str());
  if (peer != MPI_PROC_NULL)
    check_peer(peer, comm, is_receive ? "source" : "destination", is_receive);
  check_tag(tag, is_receive);
  check_buffer(buf, n, type, (prefix + "buf").c_str());
  return {buf, n, type.shared_from_this(), is_receive};
}

Status proc_null_status() {
  Status status;
  status.source = MPI_PROC_NULL;
  status.tag = MPI_ANY_TAG;
  return status;
}

Request post_send(SendMode mode, const Communicator& comm, const TypedBuffer& data, int dest,
                  int tag) {
  if (dest == MPI_PROC_NULL) return completed(comm, {});
  const void* buf = data.data();
  const std::size_t bytes = data.bytes();
  switch (mode) {
    case SendMode::kSynchronous:
      return comm.issend(dest, tag, buf, bytes);
    case SendMode::kBuffered:
      return buffered_send(comm, buf, bytes, dest, tag);
    case SendMode::kStandard:
    case SendMode::kReady:
      break;
  }
  return comm.isend(dest, tag, buf, bytes);
}

void post_recv(PendingRequest& pending, const Communicator& comm, const TypedBuffer& data,
               int source, int tag) {
  if (source == MPI_PROC_NULL) {
    pending.request = completed(comm, proc_null_status());
    return;
  }
  pending.complete = unpack_received(data);
  CancellableReceive receive = comm.irecv_cancellable(source, tag, data.data(), data.bytes());
  pending.request = std::move(receive.request);
  pending.receive_comm = comm;
  pending.receive_id = receive.id;
}

}  // namespace halyard::mpi_shim
