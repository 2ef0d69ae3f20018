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

// Checks one side of a message and returns its bytes (staged for a non-contiguous type).
// `prefix` is "send" or "recv" in MPI_Sendrecv, whose arguments carry it ("sendcount"), and
// empty elsewhere.
TypedBuffer checked_message(const halyard::Communicator& comm, const void* buf, int count,
                            MPI_Datatype datatype, int peer, int tag, bool is_receive,
                            const std::string& prefix = "") {
  std::size_t n = checked_count(count, (prefix + "count").c_str());
  const TypeObject& type =
      checked_datatype(datatype, prefix.empty() ? "datatype" : (prefix + "type").c_str());
  check_peer(peer, comm, is_receive ? "source" : "destination", is_receive);
  check_tag(tag, is_receive);
  check_buffer(buf, n, type, (prefix + "buf").c_str());
  return {buf, n, type, is_receive ? TypedBuffer::Use::kReceive : TypedBuffer::Use::kSend};
}

halyard::Request isend(const halyard::Communicator& comm, const TypedBuffer& data, int dest,
                       int tag) {
  return comm.isend(dest, tag, data.data(), data.bytes());
}

halyard::Request irecv(const halyard::Communicator& comm, const TypedBuffer& data, int source,
                       int tag) {
  return comm.irecv(source, tag, data.data(), data.bytes());
}

// Waits for a receive, unpacks what arrived and reports it; a truncated message still fills the
// status.
void finish_recv(const halyard::Request& request, const TypedBuffer& data, MPI_Status* status) {
  halyard::Status completion = request.wait();
  if (completion.ok()) data.complete(completion.bytes);
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
    const halyard::Communicator& c = shim_state().comm(comm).comm;
    isend(c, checked_message(c, buf, count, datatype, dest, tag, false), dest, tag).wait_ok();
  });
}

int MPI_Recv(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
             MPI_Status* status) {
  return guarded("MPI_Recv", comm, [&] {
    const halyard::Communicator& c = shim_state().comm(comm).comm;
    TypedBuffer data = checked_message(c, buf, count, datatype, source, tag, true);
    finish_recv(irecv(c, data, source, tag), data, status);
  });
}

int MPI_Isend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
              MPI_Request* request) {
  return guarded("MPI_Isend", comm, [&] {
    const CommEntry& entry = shim_state().comm(comm);
    check_request_out(request);
    TypedBuffer data = checked_message(entry.comm, buf, count, datatype, dest, tag, false);
    halyard::Request posted = isend(entry.comm, data, dest, tag);
    *request = shim_state().add_request({posted, entry.errhandler, unpack_all({data})});
  });
}

int MPI_Irecv(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Request* request) {
  return guarded("MPI_Irecv", comm, [&] {
    const CommEntry& entry = shim_state().comm(comm);
    check_request_out(request);
    TypedBuffer data = checked_message(entry.comm, buf, count, datatype, source, tag, true);
    halyard::Request posted = irecv(entry.comm, data, source, tag);
    *request = shim_state().add_request({posted, entry.errhandler, unpack_received(data)});
  });
}

int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                 void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                 MPI_Comm comm, MPI_Status* status) {
  return guarded("MPI_Sendrecv", comm, [&] {
    const halyard::Communicator& c = shim_state().comm(comm).comm;
    // Both sides are checked before either is posted: a failed call leaves nothing in flight.
    TypedBuffer sent_data =
        checked_message(c, sendbuf, sendcount, sendtype, dest, sendtag, false, "send");
    TypedBuffer received_data =
        checked_message(c, recvbuf, recvcount, recvtype, source, recvtag, true, "recv");
    halyard::Request recv = irecv(c, received_data, source, recvtag);
    halyard::Request send = isend(c, sent_data, dest, sendtag);
    halyard::Status sent = send.wait();
    finish_recv(recv, received_data, status);
    sent.raise_if_failed();
  });
}

}  // extern "C"
