// Persistent requests: point-to-point (MPI_Send_init, ...) and MPI-4 persistent collectives
// (MPI_Bcast_init, ...). MPI_*_init checks the arguments once, with the call's name in any
// error, and keeps a closure that posts one round; MPI_Start runs it (api_requests.cpp). A
// collective's persistent form is one persistent_collective() line: its non-blocking start
// (collective_starts.hpp) and the user's buffers, from which the call is planned once where it
// can be (planned_collective.hpp).
#include <mpi.h>

#include <string>

#include "shim/argument_checks.hpp"
#include "shim/call_guard.hpp"
#include "shim/collective_calls.hpp"
#include "shim/collective_starts.hpp"
#include "shim/persistent_collective.hpp"
#include "shim/point_to_point_posting.hpp"
#include "shim/shim_state.hpp"

using namespace halyard::mpi_shim;

namespace halyard::mpi_shim {

void add_persistent(const CommEntry& entry, MPI_Request* request,
                    std::function<void(PendingRequest&)> start) {
  PendingRequest pending{{}, entry.errhandler};
  pending.start = std::move(start);
  *request = shim_state().add_request(std::move(pending));
}

}  // namespace halyard::mpi_shim

namespace {

int send_init(const char* call, SendMode mode, const void* buf, int count, MPI_Datatype datatype,
              int dest, int tag, MPI_Comm comm, MPI_Request* request) {
  return guarded(call, comm, [&] {
    const CommEntry& entry = shim_state().comm(comm);
    check_request_out(request);
    CheckedMessage message = checked_message(entry.comm, buf, count, datatype, dest, tag, false);
    add_persistent(entry, request,
                   [mode, c = entry.comm, message, dest, tag](PendingRequest& round) {
                     // Packed at every start: the data may have changed since the last one.
                     TypedBuffer data = message.stage();
                     round.request = post_send(mode, c, data, dest, tag);
                     round.complete = unpack_all(data);  // holds a staging buffer until then
                   });
  });
}

using Comm = halyard::Communicator;

}  // namespace

extern "C" {

int MPI_Send_init(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                  MPI_Comm comm, MPI_Request* request) {
  return send_init("MPI_Send_init", SendMode::kStandard, buf, count, datatype, dest, tag, comm,
                   request);
}

int MPI_Ssend_init(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm, MPI_Request* request) {
  return send_init("MPI_Ssend_init", SendMode::kSynchronous, buf, count, datatype, dest, tag, comm,
                   request);
}

int MPI_Bsend_init(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm, MPI_Request* request) {
  return send_init("MPI_Bsend_init", SendMode::kBuffered, buf, count, datatype, dest, tag, comm,
                   request);
}

int MPI_Rsend_init(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm, MPI_Request* request) {
  return send_init("MPI_Rsend_init", SendMode::kReady, buf, count, datatype, dest, tag, comm,
                   request);
}

int MPI_Recv_init(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                  MPI_Request* request) {
  return guarded("MPI_Recv_init", comm, [&] {
    const CommEntry& entry = shim_state().comm(comm);
    check_request_out(request);
    CheckedMessage message = checked_message(entry.comm, buf, count, datatype, source, tag, true);
    add_persistent(entry, request, [c = entry.comm, message, source, tag](PendingRequest& r) {
      post_recv(r, c, message.stage(), source, tag);
    });
  });
}

int MPI_Barrier_init(MPI_Comm comm, MPI_Info, MPI_Request* request) {
  return persistent_collective("MPI_Barrier_init", comm, request,
                               [](const Comm& c) { return start_barrier(c); });
}

int MPI_Bcast_init(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                   MPI_Info, MPI_Request* request) {
  return persistent_collective(
      "MPI_Bcast_init", comm, request,
      [=](const Comm& c) { return start_bcast(c, buffer, count, datatype, root); },
      {buffer, buffer});
}

int MPI_Reduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                    int root, MPI_Comm comm, MPI_Info, MPI_Request* request) {
  return persistent_collective(
      "MPI_Reduce_init", comm, request,
      [=](const Comm& c) { return start_reduce(c, sendbuf, recvbuf, count, datatype, op, root); },
      {sendbuf, recvbuf});
}

int MPI_Allreduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                       MPI_Op op, MPI_Comm comm, MPI_Info, MPI_Request* request) {
  return persistent_collective(
      "MPI_Allreduce_init", comm, request,
      [=](const Comm& c) { return start_allreduce(c, sendbuf, recvbuf, count, datatype, op); },
      {sendbuf, recvbuf});
}

int MPI_Allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info,
                       MPI_Request* request) {
  return persistent_collective("MPI_Allgather_init", comm, request,
                               [=](const Comm& c) {
                                 return start_allgather(c, sendbuf, sendcount, sendtype, recvbuf,
                                                        recvcount, recvtype);
                               },
                               {sendbuf, recvbuf});
}

int MPI_Gather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                    int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info,
                    MPI_Request* request) {
  return persistent_collective("MPI_Gather_init", comm, request,
                               [=](const Comm& c) {
                                 return start_gather(c, sendbuf, sendcount, sendtype, recvbuf,
                                                     recvcount, recvtype, root);
                               },
                               {sendbuf, recvbuf});
}

int MPI_Scatter_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                     int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info,
                     MPI_Request* request) {
  return persistent_collective("MPI_Scatter_init", comm, request,
                               [=](const Comm& c) {
                                 return start_scatter(c, sendbuf, sendcount, sendtype, recvbuf,
                                                      recvcount, recvtype, root);
                               },
                               {sendbuf, recvbuf});
}

int MPI_Alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info,
                      MPI_Request* request) {
  return persistent_collective("MPI_Alltoall_init", comm, request,
                               [=](const Comm& c) {
                                 return start_alltoall(c, sendbuf, sendcount, sendtype, recvbuf,
                                                       recvcount, recvtype);
                               },
                               {sendbuf, recvbuf});
}

int MPI_Gatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                     MPI_Comm comm, MPI_Info, MPI_Request* request) {
  return persistent_collective("MPI_Gatherv_init", comm, request, [=](const Comm& c) {
    return start_gatherv(c, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                         root);
  });
}

int MPI_Scatterv_init(const void* sendbuf, const int sendcounts[], const int displs[],
                      MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                      int root, MPI_Comm comm, MPI_Info, MPI_Request* request) {
  return persistent_collective("MPI_Scatterv_init", comm, request, [=](const Comm& c) {
    return start_scatterv(c, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
                          root);
  });
}

int MPI_Allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                        const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                        MPI_Comm comm, MPI_Info, MPI_Request* request) {
  return persistent_collective("MPI_Allgatherv_init", comm, request, [=](const Comm& c) {
    return start_allgatherv(c, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype);
  });
}

int MPI_Alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                       MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                       const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info,
                       MPI_Request* request) {
  return persistent_collective("MPI_Alltoallv_init", comm, request, [=](const Comm& c) {
    return start_alltoallv(c, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                           recvtype);
  });
}

int MPI_Alltoallw_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                       const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                       const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info,
                       MPI_Request* request) {
  return persistent_collective("MPI_Alltoallw_init", comm, request, [=](const Comm& c) {
    return start_alltoallw(c, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                           recvtypes);
  });
}

int MPI_Reduce_scatter_block_init(const void* sendbuf, void* recvbuf, int recvcount,
                                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info,
                                  MPI_Request* request) {
  return persistent_collective("MPI_Reduce_scatter_block_init", comm, request,
                               [=](const Comm& c) {
                                 return start_reduce_scatter_block(c, sendbuf, recvbuf, recvcount,
                                                                   datatype, op);
                               },
                               {sendbuf, recvbuf});
}

int MPI_Reduce_scatter_init(const void* sendbuf, void* recvbuf, const int recvcounts[],
                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info,
                            MPI_Request* request) {
  return persistent_collective("MPI_Reduce_scatter_init", comm, request, [=](const Comm& c) {
    return start_reduce_scatter(c, sendbuf, recvbuf, recvcounts, datatype, op);
  });
}

int MPI_Scan_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm, MPI_Info, MPI_Request* request) {
  return persistent_collective(
      "MPI_Scan_init", comm, request,
      [=](const Comm& c) { return start_scan(c, sendbuf, recvbuf, count, datatype, op); },
      {sendbuf, recvbuf});
}

int MPI_Exscan_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                    MPI_Comm comm, MPI_Info, MPI_Request* request) {
  return persistent_collective(
      "MPI_Exscan_init", comm, request,
      [=](const Comm& c) { return start_exscan(c, sendbuf, recvbuf, count, datatype, op); },
      {sendbuf, recvbuf});
}

}  // extern "C"
