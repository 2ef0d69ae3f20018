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
// send buffer of reduce (at the root), allreduce, gather (at the root) and allgather to take
// this rank's contribution from the receive buffer, like MPI_IN_PLACE.

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
// Block r of root's send (size() blocks of `count`) goes to rank r's recv.
Request iscatter(const Communicator& comm, const void* send, void* recv, std::size_t count,
                 Datatype type, int root);
// Block r of every rank's send goes to rank r, which stores block s (from rank s) at s.
Request ialltoall(const Communicator& comm, const void* send, void* recv, std::size_t count,
                  Datatype type);
Request ibarrier(const Communicator& comm);

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

}  // namespace halyard
