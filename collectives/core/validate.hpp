// The one validation of a collective call, at the public entry (the C++ API; the MPI shim runs
// its own MPI-worded checks instead of validate's argument checks, then settle). Each check throws
// Error(kInvalidArgument) "<operation>: <what>" naming the argument ("ibcast: root 7 is outside
// the communicator of size 4"), on the calling rank, before any collective tag is consumed.
// Algorithms below the entry do not check the caller's arguments again.
#pragma once

#include "collectives/core/coll_args.hpp"

namespace halyard::core {

// What every entry settles once, after its checks: args.bytes (Error "count N is too large"
// when count * size, times comm.size() for the block collectives, overflows) and args.memory
// (bcast, reduce, allreduce: Error when one rank's buffers mix host and device memory).
void settle(CollArgs& args);

// The whole validation of the C++ API: a valid communicator; a root inside it (rooted
// collectives); a valid datatype, and for reductions a valid op defined for it; buffers not null
// when they hold count > 0 elements, and kInPlace only where the collective has an in-place form;
// then settle.
void validate(CollArgs& args);

// reduce_local's checks (it has no communicator): a valid datatype, an op defined for it, and
// buffers (not null, not kInPlace) when count > 0. Errors start with "reduce_local: ".
void validate_local_reduction(const void* in, const void* inout, std::size_t count, Datatype type,
                              Op op);

}  // namespace halyard::core
