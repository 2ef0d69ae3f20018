// The collective operations of a communicator: the API applications (and the MPI shim) call.
//
// Every collective is non-blocking at heart: i*() posts it and returns a Request that completes
// when this rank's part is done; the blocking forms wait for it and throw halyard::Error on
// failure. All ranks of the communicator must call the same collectives in the same order
// (as in MPI); several may be in flight at once. Counts are in elements of `type`.
//
// Which algorithm runs is decided per call by collectives/select (decision table, built-in
// rules, or HALYARD_<COLL>_ALG) from the algorithm catalog; see docs/collectives.md.
//
// Invalid arguments (bad root, null buffer with count > 0, op not defined for the type, an
// invalid communicator) throw Error(kInvalidArgument) naming the argument, on the calling rank.
#pragma once

#include <cstddef>

#include "collectives/core/in_place.hpp"
#include "runtime/communicator.hpp"
#include "runtime/datatypes/datatype.hpp"
#include "runtime/datatypes/reduce_op.hpp"
#include "runtime/request.hpp"

namespace halyard {

// halyard::kInPlace (defined in collectives/core/in_place.hpp, included above): pass it as the
// send buffer of reduce (at the root), allreduce, gather and gatherv (at the root), allgather(v),
// alltoallv, reduce_scatter(_block), scan and exscan to take this rank's contribution from the
// receive buffer, and as scatter's and scatterv's recv at the root, like MPI_IN_PLACE.

// `buffer` holds `count` elements: the data at `root`, the destination elsewhere.
Request ibcast(const Communicator& comm, void* buffer, std::size_t count, Datatype type, int root);
// recv (significant at root only) = reduction over ranks of send.
Request ireduce(const Communicator& comm, const void* send, void* recv, std::size_t count,
                Datatype type, Op op, int root);
// recv = reduction over ranks of send, on every rank.
Request iallreduce(const Communicator& comm, const void* send, void* recv, std::size_t count,
                   Datatype type, Op op);
// recv holds size() blocks of `count` elements, block r from rank r.
Request iallgather(const Communicator& comm, const void* send, void* recv, std::size_t count,
                   Datatype type);
// At root, recv holds size() blocks of `count` elements, block r from rank r.
Request igather(const Communicator& comm, const void* send, void* recv, std::size_t count,
                Datatype type, int root);
// Block r of root's send (size() blocks of `count`) goes to rank r's recv. The root may pass
// const_cast<void*>(kInPlace) as recv: its own block stays in send.
Request iscatter(const Communicator& comm, const void* send, void* recv, std::size_t count,
                 Datatype type, int root);
// Block r of every rank's send goes to rank r, which stores block s (from rank s) at s.
Request ialltoall(const Communicator& comm, const void* send, void* recv, std::size_t count,
                  Datatype type);
Request ibarrier(const Communicator& comm);

// The v-variants: `counts` and `displacements` hold one entry per rank, in elements of `type`
// (block r has counts[r] elements at element displacements[r] of its buffer); they are read
// during the call only. Ranks agree on every block's count (MPI's rule); blocks may be empty.
// At root, recv holds block r (from rank r's `count` elements of send) as counts/displacements
// place it; the arrays are significant at the root only. kInPlace as send at the root: its block
// is already in place in recv.
Request igatherv(const Communicator& comm, const void* send, std::size_t count, void* recv,
                 const std::size_t* counts, const std::size_t* displacements, Datatype type,
                 int root);
// Block r of root's send, as counts/displacements (significant at the root only) place it, goes
// to rank r's recv (`count` elements). The root may pass const_cast<void*>(kInPlace) as recv:
// its own block stays in send.
Request iscatterv(const Communicator& comm, const void* send, const std::size_t* counts,
                  const std::size_t* displacements, void* recv, std::size_t count, Datatype type,
                  int root);
// recv holds block r (rank r's `count` elements) as counts/displacements place it, on every
// rank. kInPlace as send: this rank's block is already in place in recv.
Request iallgatherv(const Communicator& comm, const void* send, std::size_t count, void* recv,
                    const std::size_t* counts, const std::size_t* displacements, Datatype type);
// Block r of this rank's send (send_counts/send_displacements) goes to rank r, which stores it
// as block s (its recv_counts/recv_displacements) for this rank s. kInPlace as send: the blocks
// are sent from recv, laid out as recv_counts/recv_displacements say (send's arrays unused).
Request ialltoallv(const Communicator& comm, const void* send, const std::size_t* send_counts,
                   const std::size_t* send_displacements, void* recv,
                   const std::size_t* recv_counts, const std::size_t* recv_displacements,
                   Datatype type);

// The vector of size() blocks of `count` elements is reduced over ranks; rank r's recv gets block
// r. kInPlace as send: the input is recv (which holds the whole vector then).
Request ireduce_scatter_block(const Communicator& comm, const void* send, void* recv,
                              std::size_t count, Datatype type, Op op);
// The same with counts[r] elements in block r (the blocks follow each other in send).
Request ireduce_scatter(const Communicator& comm, const void* send, void* recv,
                        const std::size_t* counts, Datatype type, Op op);
// Inclusive prefix reduction: rank r's recv = send of ranks 0 .. r reduced. kInPlace as send:
// the input is recv.
Request iscan(const Communicator& comm, const void* send, void* recv, std::size_t count,
              Datatype type, Op op);
// Exclusive prefix: rank r's recv = send of ranks 0 .. r-1 reduced; rank 0's recv is left
// untouched (MPI leaves it undefined). kInPlace as send: the input is recv.
Request iexscan(const Communicator& comm, const void* send, void* recv, std::size_t count,
                Datatype type, Op op);

// The blocking forms: the non-blocking call, then wait_ok() (they throw Error on failure).
// Engines know the caller waits at once, and may poll for the end before returning.
void bcast(const Communicator& comm, void* buffer, std::size_t count, Datatype type, int root);
void reduce(const Communicator& comm, const void* send, void* recv, std::size_t count,
            Datatype type, Op op, int root);
void allreduce(const Communicator& comm, const void* send, void* recv, std::size_t count,
               Datatype type, Op op);
void allgather(const Communicator& comm, const void* send, void* recv, std::size_t count,
               Datatype type);
void gather(const Communicator& comm, const void* send, void* recv, std::size_t count,
            Datatype type, int root);
void scatter(const Communicator& comm, const void* send, void* recv, std::size_t count,
             Datatype type, int root);
void alltoall(const Communicator& comm, const void* send, void* recv, std::size_t count,
              Datatype type);
void barrier(const Communicator& comm);
void gatherv(const Communicator& comm, const void* send, std::size_t count, void* recv,
             const std::size_t* counts, const std::size_t* displacements, Datatype type, int root);
void scatterv(const Communicator& comm, const void* send, const std::size_t* counts,
              const std::size_t* displacements, void* recv, std::size_t count, Datatype type,
              int root);
void allgatherv(const Communicator& comm, const void* send, std::size_t count, void* recv,
                const std::size_t* counts, const std::size_t* displacements, Datatype type);
void alltoallv(const Communicator& comm, const void* send, const std::size_t* send_counts,
               const std::size_t* send_displacements, void* recv, const std::size_t* recv_counts,
               const std::size_t* recv_displacements, Datatype type);
void reduce_scatter_block(const Communicator& comm, const void* send, void* recv, std::size_t count,
                          Datatype type, Op op);
void reduce_scatter(const Communicator& comm, const void* send, void* recv,
                    const std::size_t* counts, Datatype type, Op op);
void scan(const Communicator& comm, const void* send, void* recv, std::size_t count, Datatype type,
          Op op);
void exscan(const Communicator& comm, const void* send, void* recv, std::size_t count,
            Datatype type, Op op);

// inout[i] = in[i] (op) inout[i] for i < count, on this rank only (MPI_Reduce_local), with the
// reduction kernels of the collectives. Throws Error(kInvalidArgument) like the collectives.
void reduce_local(const void* in, void* inout, std::size_t count, Datatype type, Op op);

}  // namespace halyard
