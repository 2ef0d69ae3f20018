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

// The v- and w-variants (api_vector_collectives.cpp).
Started start_gatherv(const Communicator& comm, const void* sendbuf, int sendcount,
                      MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                      const int displs[], MPI_Datatype recvtype, int root);
Started start_scatterv(const Communicator& comm, const void* sendbuf, const int sendcounts[],
                       const int displs[], MPI_Datatype sendtype, void* recvbuf, int recvcount,
                       MPI_Datatype recvtype, int root);
Started start_allgatherv(const Communicator& comm, const void* sendbuf, int sendcount,
                         MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                         const int displs[], MPI_Datatype recvtype);
Started start_alltoallv(const Communicator& comm, const void* sendbuf, const int sendcounts[],
                        const int sdispls[], MPI_Datatype sendtype, void* recvbuf,
                        const int recvcounts[], const int rdispls[], MPI_Datatype recvtype);
Started start_alltoallw(const Communicator& comm, const void* sendbuf, const int sendcounts[],
                        const int sdispls[], const MPI_Datatype sendtypes[], void* recvbuf,
                        const int recvcounts[], const int rdispls[],
                        const MPI_Datatype recvtypes[]);
// Reduce-scatter and the prefix reductions (api_prefix_collectives.cpp).
Started start_reduce_scatter_block(const Communicator& comm, const void* sendbuf, void* recvbuf,
                                   int recvcount, MPI_Datatype datatype, MPI_Op op);
Started start_reduce_scatter(const Communicator& comm, const void* sendbuf, void* recvbuf,
                             const int recvcounts[], MPI_Datatype datatype, MPI_Op op);
Started start_scan(const Communicator& comm, const void* sendbuf, void* recvbuf, int count,
                   MPI_Datatype datatype, MPI_Op op);
Started start_exscan(const Communicator& comm, const void* sendbuf, void* recvbuf, int count,
                     MPI_Datatype datatype, MPI_Op op);

}  // namespace halyard::mpi_shim
