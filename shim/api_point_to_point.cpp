// MPI point-to-point calls on Halyard's tagged p2p (Communicator::isend / irecv / issend and
// its probes). MPI ranks, tags, MPI_ANY_SOURCE and MPI_ANY_TAG mean the same thing in Halyard,
// so they pass unchanged; MPI_PROC_NULL never reaches Halyard (point_to_point_posting.hpp).
#include <mpi.h>

#include <cstring>
#include <string>
#include <vector>

#include "shim/argument_checks.hpp"
#include "shim/bsend_buffer.hpp"
#include "shim/call_guard.hpp"
#include "shim/point_to_point_posting.hpp"
#include "shim/shim_state.hpp"

using namespace halyard::mpi_shim;

namespace {

static_assert(MPI_ANY_SOURCE == halyard::kAnySource && MPI_ANY_TAG == halyard::kAnyTag);
static_assert(MPI_PROC_NULL != MPI_ANY_SOURCE && MPI_PROC_NULL < 0);

// A posted send; `data` holds its staging buffer (a non-contiguous type) until it completes.
struct PostedSend {
  halyard::Request request;
  TypedBuffer data;
};

PostedSend start_send(SendMode mode, const halyard::Communicator& comm, const void* buf, int count,
                      MPI_Datatype datatype, int dest, int tag) {
  TypedBuffer data = checked_message(comm, buf, count, datatype, dest, tag, false).stage();
  halyard::Request request = post_send(mode, comm, data, dest, tag);
  return {std::move(request), std::move(data)};
}

// Waits for a receive, unpacks what arrived and reports it; a truncated message still fills
// the status.
void finish_recv(const halyard::Request& request, const TypedBuffer& data, MPI_Status* status) {
  halyard::Status completion = request.wait();
  if (completion.ok()) data.complete(completion.bytes);
  int error_class = error_class_of(completion.code);
  fill_status(status, completion, error_class);
  if (!completion.ok()) fail(error_class, completion.message);
}

// A blocking send of any mode.
int blocking_send(const char* call, SendMode mode, const void* buf, int count,
                  MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  return guarded(call, comm, [&] {
    PostedSend send =
        start_send(mode, shim_state().comm(comm).comm, buf, count, datatype, dest, tag);
    send.request.wait_ok();
  });
}

// A non-blocking send of any mode.
int nonblocking_send(const char* call, SendMode mode, const void* buf, int count,
                     MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                     MPI_Request* request) {
  return guarded(call, comm, [&] {
    const CommEntry& entry = shim_state().comm(comm);
    check_out(request, "request");
    PostedSend send = start_send(mode, entry.comm, buf, count, datatype, dest, tag);
    *request = shim_state().add_request(
        {std::move(send.request), entry.errhandler, unpack_all(std::move(send.data))});
  });
}

// The checks of a probe: source (MPI_ANY_SOURCE allowed) and tag (MPI_ANY_TAG allowed).
void check_probe(const halyard::Communicator& comm, int source, int tag) {
  if (source != MPI_PROC_NULL) check_peer(source, comm, "source", true);
  check_tag(tag, true);
}

// Reports a matched probe's message: a handle for MPI_Mrecv, and its status.
void report_matched(halyard::MatchedMessage matched, const CommEntry& entry, MPI_Message* message,
                    MPI_Status* status) {
  fill_status(status, matched.status, MPI_SUCCESS);
  *message = shim_state().add_message({std::move(matched), entry.comm, entry.errhandler});
}

// The receive of a matched message; `data` unpacks it.
struct PostedReceive {
  halyard::Request request;
  TypedBuffer data;
};

// Starts the receive of a matched message and releases its handle.
PostedReceive start_mrecv(void* buf, int count, MPI_Datatype datatype, MPI_Message* message) {
  check_out(message, "message");
  if (*message == MPI_MESSAGE_NO_PROC) {
    *message = MPI_MESSAGE_NULL;
    return {halyard::Request::make_completed(shim_state().runtime().loop(), proc_null_status()),
            {}};
  }
  MessageEntry* entry = shim_state().find_message(*message);
  if (entry == nullptr) fail(MPI_ERR_REQUEST, "invalid message (not from MPI_Mprobe/Improbe)");
  std::size_t n = checked_count(count);
  const TypeObject& type = checked_datatype(datatype);
  check_buffer(buf, n, type, "buf");
  TypedBuffer data(buf, n, type, TypedBuffer::Use::kReceive);
  halyard::Request request =
      entry->comm.mrecv(std::move(entry->message), data.data(), data.bytes());
  shim_state().remove_message(*message);
  *message = MPI_MESSAGE_NULL;
  return {std::move(request), std::move(data)};
}

}  // namespace

extern "C" {

int MPI_Send(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  return blocking_send("MPI_Send", SendMode::kStandard, buf, count, datatype, dest, tag, comm);
}

int MPI_Ssend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  return blocking_send("MPI_Ssend", SendMode::kSynchronous, buf, count, datatype, dest, tag, comm);
}

int MPI_Bsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  return blocking_send("MPI_Bsend", SendMode::kBuffered, buf, count, datatype, dest, tag, comm);
}

int MPI_Rsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  return blocking_send("MPI_Rsend", SendMode::kReady, buf, count, datatype, dest, tag, comm);
}

int MPI_Isend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
              MPI_Request* request) {
  return nonblocking_send("MPI_Isend", SendMode::kStandard, buf, count, datatype, dest, tag, comm,
                          request);
}

int MPI_Issend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request* request) {
  return nonblocking_send("MPI_Issend", SendMode::kSynchronous, buf, count, datatype, dest, tag,
                          comm, request);
}

int MPI_Ibsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request* request) {
  return nonblocking_send("MPI_Ibsend", SendMode::kBuffered, buf, count, datatype, dest, tag, comm,
                          request);
}

int MPI_Irsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request* request) {
  return nonblocking_send("MPI_Irsend", SendMode::kReady, buf, count, datatype, dest, tag, comm,
                          request);
}

int MPI_Recv(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
             MPI_Status* status) {
  return guarded("MPI_Recv", comm, [&] {
    const halyard::Communicator& c = shim_state().comm(comm).comm;
    TypedBuffer data = checked_message(c, buf, count, datatype, source, tag, true).stage();
    if (source == MPI_PROC_NULL) return fill_status(status, proc_null_status(), MPI_SUCCESS);
    finish_recv(c.irecv(source, tag, data.data(), data.bytes()), data, status);
  });
}

int MPI_Irecv(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Request* request) {
  return guarded("MPI_Irecv", comm, [&] {
    const CommEntry& entry = shim_state().comm(comm);
    check_out(request, "request");
    TypedBuffer data = checked_message(entry.comm, buf, count, datatype, source, tag, true).stage();
    PendingRequest pending{{}, entry.errhandler};
    post_recv(pending, entry.comm, data, source, tag);
    *request = shim_state().add_request(std::move(pending));
  });
}

int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                 void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                 MPI_Comm comm, MPI_Status* status) {
  return guarded("MPI_Sendrecv", comm, [&] {
    const halyard::Communicator& c = shim_state().comm(comm).comm;
    // Both sides are checked before either is posted: a failed call leaves nothing in flight.
    CheckedMessage outgoing =
        checked_message(c, sendbuf, sendcount, sendtype, dest, sendtag, false, "send");
    CheckedMessage incoming =
        checked_message(c, recvbuf, recvcount, recvtype, source, recvtag, true, "recv");
    TypedBuffer received = incoming.stage();
    PendingRequest recv;
    post_recv(recv, c, received, source, recvtag);
    halyard::Status sent =
        post_send(SendMode::kStandard, c, outgoing.stage(), dest, sendtag).wait();
    finish_recv(recv.request, received, status);
    sent.raise_if_failed();
  });
}

int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                         int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  return guarded("MPI_Sendrecv_replace", comm, [&] {
    const halyard::Communicator& c = shim_state().comm(comm).comm;
    CheckedMessage message = checked_message(c, buf, count, datatype, dest, sendtag, false);
    checked_message(c, buf, count, datatype, source, recvtag, true);
    TypedBuffer outgoing = message.stage();
    // The message received lands in a scratch buffer (packed) until the one sent has left `buf`.
    std::vector<std::byte> incoming(outgoing.bytes());
    halyard::Request recv = source == MPI_PROC_NULL
                                ? halyard::Request::make_completed(c.loop(), proc_null_status())
                                : c.irecv(source, recvtag, incoming.data(), incoming.size());
    halyard::Status sent = post_send(SendMode::kStandard, c, outgoing, dest, sendtag).wait();
    finish_recv(recv, {}, status);
    sent.raise_if_failed();
    std::size_t received = recv.status().bytes;
    if (received > 0) unpack(*message.type, incoming.data(), received, buf, message.count);
  });
}

int MPI_Buffer_attach(void* buffer, int size) {
  return guarded("MPI_Buffer_attach", MPI_COMM_WORLD, [&] {
    if (size < 0) fail(MPI_ERR_ARG, "invalid size " + std::to_string(size));
    check_buffer(buffer, static_cast<std::size_t>(size), "buffer");
    if (bsend_buffer().attached()) fail(MPI_ERR_BUFFER, "a buffer is attached already");
    bsend_buffer().attach(static_cast<std::byte*>(buffer), static_cast<std::size_t>(size));
  });
}

int MPI_Buffer_detach(void* buffer_addr, int* size) {
  return guarded("MPI_Buffer_detach", MPI_COMM_WORLD, [&] {
    check_out(buffer_addr, "buffer_addr");
    check_out(size, "size");
    BsendBuffer& buffer = bsend_buffer();
    // MPI: detaching waits until every message in the buffer has been sent.
    shim_state().runtime().loop().run_until([&] { return buffer.regions_in_use() == 0; });
    auto [base, bytes] = buffer.detach();
    void* address = base;
    std::memcpy(buffer_addr, &address, sizeof address);
    *size = static_cast<int>(bytes);
  });
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status) {
  return guarded("MPI_Probe", comm, [&] {
    const halyard::Communicator& c = shim_state().comm(comm).comm;
    check_probe(c, source, tag);
    halyard::Status found = source == MPI_PROC_NULL ? proc_null_status() : c.probe(source, tag);
    fill_status(status, found, MPI_SUCCESS);
  });
}

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status) {
  return guarded("MPI_Iprobe", comm, [&] {
    const halyard::Communicator& c = shim_state().comm(comm).comm;
    check_out(flag, "flag");
    check_probe(c, source, tag);
    std::optional<halyard::Status> found =
        source == MPI_PROC_NULL ? proc_null_status() : c.iprobe(source, tag);
    *flag = found.has_value();
    if (found) fill_status(status, *found, MPI_SUCCESS);
  });
}

int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message* message, MPI_Status* status) {
  return guarded("MPI_Mprobe", comm, [&] {
    const CommEntry& entry = shim_state().comm(comm);
    check_out(message, "message");
    check_probe(entry.comm, source, tag);
    if (source == MPI_PROC_NULL) {
      *message = MPI_MESSAGE_NO_PROC;
      return fill_status(status, proc_null_status(), MPI_SUCCESS);
    }
    report_matched(entry.comm.mprobe(source, tag), entry, message, status);
  });
}

int MPI_Improbe(int source, int tag, MPI_Comm comm, int* flag, MPI_Message* message,
                MPI_Status* status) {
  return guarded("MPI_Improbe", comm, [&] {
    const CommEntry& entry = shim_state().comm(comm);
    check_out(flag, "flag");
    check_out(message, "message");
    check_probe(entry.comm, source, tag);
    *flag = 1;
    if (source == MPI_PROC_NULL) {
      *message = MPI_MESSAGE_NO_PROC;
      return fill_status(status, proc_null_status(), MPI_SUCCESS);
    }
    std::optional<halyard::MatchedMessage> matched = entry.comm.improbe(source, tag);
    *flag = matched.has_value();
    if (matched) report_matched(std::move(*matched), entry, message, status);
  });
}

int MPI_Mrecv(void* buf, int count, MPI_Datatype datatype, MPI_Message* message,
              MPI_Status* status) {
  return guarded("MPI_Mrecv", MPI_COMM_WORLD, [&] {
    PostedReceive receive = start_mrecv(buf, count, datatype, message);
    finish_recv(receive.request, receive.data, status);
  });
}

int MPI_Imrecv(void* buf, int count, MPI_Datatype datatype, MPI_Message* message,
               MPI_Request* request) {
  return guarded("MPI_Imrecv", MPI_COMM_WORLD, [&] {
    check_out(request, "request");
    MPI_Errhandler handler = MPI_ERRORS_ARE_FATAL;
    if (message != nullptr) {
      if (MessageEntry* entry = shim_state().find_message(*message)) handler = entry->errhandler;
    }
    PostedReceive receive = start_mrecv(buf, count, datatype, message);
    *request = shim_state().add_request(
        {std::move(receive.request), handler, unpack_received(std::move(receive.data))});
  });
}

}  // extern "C"
