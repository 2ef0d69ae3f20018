// The non-blocking start of each collective the shim has, from MPI arguments: checks them
// (MPI's error classes) and posts the call. The blocking, non-blocking and persistent MPI calls
// all go through these; a persistent one (api_persistent.cpp) runs its start once under
// CheckingOnly (collective_calls.hpp) at MPI_*_init, then again at every MPI_Start.
#pragma once

#include <mpi.h>

#include "runtime/communicator.hpp"
#include "runtime/request.hpp"
#include "shim/collective_calls.hpp"

namespace halyard::mpi_shim {

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
