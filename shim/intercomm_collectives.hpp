// The intercommunicator forms of the collectives (MPI-3.1 §5.2.2), composed from the
// intracommunicator algorithms on the local group and messages on the bridge (intercomm.hpp):
// a bcast is the root's send to the remote leader, which sends it on to its members; a
// reduction is a reduce in the contributing group, then messages between and from the leaders;
// the data-moving calls send every block straight to the remote rank it is for.
//
// Each start_X of collective_starts.hpp hands an intercommunicator to its inter_X here. Their
// steps run from completion callbacks (intercomm_chain.hpp), so the non-blocking and persistent
// forms return at once and progress while the application waits or tests. MPI_IN_PLACE
// is refused (MPI_ERR_BUFFER): MPI defines no in-place form on intercommunicators. Roots follow
// MPI: MPI_ROOT at the root, MPI_PROC_NULL in the rest of its group, the root's rank in the
// remote group.
#pragma once

#include <mpi.h>

#include "runtime/communicator.hpp"
#include "shim/collective_calls.hpp"

namespace halyard::mpi_shim {

Started inter_barrier(const Communicator& bridge);
Started inter_bcast(const Communicator& bridge, void* buffer, int count, MPI_Datatype datatype,
                    int root);
Started inter_reduce(const Communicator& bridge, const void* sendbuf, void* recvbuf, int count,
                     MPI_Datatype datatype, MPI_Op op, int root);
Started inter_allreduce(const Communicator& bridge, const void* sendbuf, void* recvbuf, int count,
                        MPI_Datatype datatype, MPI_Op op);
// Reduce-scatter (block or not): each group's reduction, of the local group's total count
// (which both groups must agree on), is scattered over the other group, `recvcounts[i]` to
// local rank i.
Started inter_reduce_scatter(const Communicator& bridge, const void* sendbuf, void* recvbuf,
                             const int recvcounts[], MPI_Datatype datatype, MPI_Op op);
Started inter_reduce_scatter_block(const Communicator& bridge, const void* sendbuf, void* recvbuf,
                                   int recvcount, MPI_Datatype datatype, MPI_Op op);

Started inter_gather(const Communicator& bridge, const void* sendbuf, int sendcount,
                     MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                     int root);
Started inter_gatherv(const Communicator& bridge, const void* sendbuf, int sendcount,
                      MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                      const int displs[], MPI_Datatype recvtype, int root);
Started inter_scatter(const Communicator& bridge, const void* sendbuf, int sendcount,
                      MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                      int root);
Started inter_scatterv(const Communicator& bridge, const void* sendbuf, const int sendcounts[],
                       const int displs[], MPI_Datatype sendtype, void* recvbuf, int recvcount,
                       MPI_Datatype recvtype, int root);
Started inter_allgather(const Communicator& bridge, const void* sendbuf, int sendcount,
                        MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype);
Started inter_allgatherv(const Communicator& bridge, const void* sendbuf, int sendcount,
                         MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                         const int displs[], MPI_Datatype recvtype);
Started inter_alltoall(const Communicator& bridge, const void* sendbuf, int sendcount,
                       MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype);
Started inter_alltoallv(const Communicator& bridge, const void* sendbuf, const int sendcounts[],
                        const int sdispls[], MPI_Datatype sendtype, void* recvbuf,
                        const int recvcounts[], const int rdispls[], MPI_Datatype recvtype);
Started inter_alltoallw(const Communicator& bridge, const void* sendbuf, const int sendcounts[],
                        const int sdispls[], const MPI_Datatype sendtypes[], void* recvbuf,
                        const int recvcounts[], const int rdispls[],
                        const MPI_Datatype recvtypes[]);

}  // namespace halyard::mpi_shim
