// MPI point-to-point calls on Halyard's tagged p2p (Communicator::isend / irecv). MPI ranks,
// tags, MPI_ANY_SOURCE and MPI_ANY_TAG mean the same thing in Halyard, so they pass unchanged.
#include <mpi.h>

#include <string>

#include "shim/argument_checks.hpp"
#include "shim/call_guard.hpp"
#include "shim/shim_state.hpp"

using namespace halyard::mpi_shim;

namespace {

static_assert(MPI_ANY_SOURCE == halyard::kAnySource && MPI_ANY_TAG == halyard::kAnyTag);

// Checks one side of a message and returns its size in bytes. `prefix` is "send" or "recv"
// in MPI_Sendrecv, whose arguments carry it ("sendcount"), and empty elsewhere.
std::size_t checked_message(const halyard::Communicator& comm, const void* buf, int count,
                            MPI_Datatype datatype, int peer, int tag, bool is_receive,
                            const std::string& prefix = "") {
  std::size_t n = checked_count(count, (prefix + "count").c_str());
  const DatatypeInfo& type =
      checked_datatype(datatype, prefix.empty() ? "datatype" : (prefix + "type").c_str());
  check_peer(peer, comm, is_receive ? "source" : "destination", is_receive);
  check_tag(tag, is_receive);
  check_buffer(buf, n, (prefix + "buf").c_str());
  return bytes_of(n, type);
}

halyard::Request start_send(const halyard::Communicator& comm, const void* buf, int count,
                            MPI_Datatype datatype, int dest, int tag) {
  return comm.isend(dest, tag, buf, checked_message(comm, buf, count, datatype, dest, tag, false));
}

halyard::Request start_recv(const halyard::Communicator& comm, void* buf, int count,
                            MPI_Datatype datatype, int source, int tag) {
  return comm.irecv(source, tag, buf,
                    checked_message(comm, buf, count, datatype, source, tag, true));
}

// Waits for a receive and reports it; a truncated message still fills the status.
void finish_recv(const halyard::Request& request, MPI_Status* status) {
  halyard::Status completion = request.wait();
  int error_class = error_class_of(completion.code);
  fill_status(status, completion, error_class);
  if (!completion.ok()) fail(error_class, completion.message);
}

void check_request_out(MPI_Request* request) {
  if (request == nullptr) fail(MPI_ERR_ARG, "request is NULL");
}

}  // namespace

extern "C" {

int MPI_Send(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  return guarded("MPI_Send", comm, [&] {
    start_send(shim_state().comm(comm).comm, buf, count, datatype, dest, tag).wait_ok();
  });
}

int MPI_Recv(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
             MPI_Status* status) {
  return guarded("MPI_Recv", comm, [&] {
    const halyard::Communicator& c = shim_state().comm(comm).comm;
    finish_recv(start_recv(c, buf, count, datatype, source, tag), status);
  });
}

int MPI_Isend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
              MPI_Request* request) {
  return guarded("MPI_Isend", comm, [&] {
    const CommEntry& entry = shim_state().comm(comm);
    check_request_out(request);
    halyard::Request posted = start_send(entry.comm, buf, count, datatype, dest, tag);
    *request = shim_state().add_request({posted, entry.errhandler});
  });
}

int MPI_Irecv(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Request* request) {
  return guarded("MPI_Irecv", comm, [&] {
    const CommEntry& entry = shim_state().comm(comm);
    check_request_out(request);
    halyard::Request posted = start_recv(entry.comm, buf, count, datatype, source, tag);
    *request = shim_state().add_request({posted, entry.errhandler});
  });
}

int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                 void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                 MPI_Comm comm, MPI_Status* status) {
  return guarded("MPI_Sendrecv", comm, [&] {
    const halyard::Communicator& c = shim_state().comm(comm).comm;
    // Both sides are checked before either is posted: a failed call leaves nothing in flight.
    std::size_t send_bytes =
        checked_message(c, sendbuf, sendcount, sendtype, dest, sendtag, false, "send");
    std::size_t recv_bytes =
        checked_message(c, recvbuf, recvcount, recvtype, source, recvtag, true, "recv");
    halyard::Request recv = c.irecv(source, recvtag, recvbuf, recv_bytes);
    halyard::Request send = c.isend(dest, sendtag, sendbuf, send_bytes);
    halyard::Status sent = send.wait();
    finish_recv(recv, status);
    sent.raise_if_failed();
  });
}

}  // extern "C"
