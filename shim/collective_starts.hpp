// The non-blocking start of each collective the shim has, from MPI arguments: checks them
// (MPI's error classes) and posts the call. The blocking, non-blocking and persistent MPI calls
// all go through these; a persistent one (api_persistent.cpp) runs its start once under
// CheckingOnly at MPI_*_init, then again at every MPI_Start.
#pragma once

#include <mpi.h>

#include "runtime/communicator.hpp"
#include "runtime/request.hpp"
#include "shim/typed_buffer.hpp"

namespace halyard::mpi_shim {

// A posted collective and what completing it takes: unpacking staged buffers (typed_buffer.hpp).
struct Started {
  Request request;
  CompletionStep complete;  // empty when nothing was staged
};

// While one lives on this thread, the starts below check their arguments and settle the call,
// then return a completed request instead of posting anything.
class CheckingOnly {
 public:
  CheckingOnly();
  ~CheckingOnly();
  CheckingOnly(const CheckingOnly&) = delete;
  CheckingOnly& operator=(const CheckingOnly&) = delete;
};

Started start_barrier(const Communicator& comm);
Started start_bcast(const Communicator& comm, void* buffer, int count, MPI_Datatype datatype,
                    int root);
Started start_reduce(const Communicator& comm, const void* sendbuf, void* recvbuf, int count,
                     MPI_Datatype datatype, MPI_Op op, int root);
Started start_allreduce(const Communicator& comm, const void* sendbuf, void* recvbuf, int count,
                        MPI_Datatype datatype, MPI_Op op);
Started start_allgather(const Communicator& comm, const void* sendbuf, int sendcount,
                        MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype);
Started start_gather(const Communicator& comm, const void* sendbuf, int sendcount,
                     MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                     int root);
Started start_scatter(const Communicator& comm, const void* sendbuf, int sendcount,
                      MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                      int root);
Started start_alltoall(const Communicator& comm, const void* sendbuf, int sendcount,
                       MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype);

}  // namespace halyard::mpi_shim
