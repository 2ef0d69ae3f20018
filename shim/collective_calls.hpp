// What every MPI collective of the shim shares (api_collectives.cpp, api_vector_collectives.cpp,
// api_prefix_collectives.cpp): the byte blocks of data-moving calls, the checked arguments of
// reductions, and the path from checked arguments to a posted Halyard collective.
//
// Collectives that only move data travel as bytes, which lets the send and receive sides use
// different datatypes of equal size, as MPI allows; reductions keep their element type.
// MPI_IN_PLACE is the address of halyard::kInPlace, so it passes through unchanged.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <string>
#include <vector>

#include "collectives/core/coll_args.hpp"
#include "runtime/request.hpp"
#include "shim/argument_checks.hpp"
#include "shim/call_guard.hpp"
#include "shim/shim_state.hpp"

namespace halyard::mpi_shim {

inline constexpr Datatype kBytes = Datatype::kUint8;

// The bytes of one block, described by one side's (count, type).
struct Block {
  std::size_t bytes;
  std::string description;  // "sendcount 4 x MPI_INT (16 bytes)"
};

// Checks (count, datatype) of one side ("send" or "recv"): MPI_ERR_COUNT, MPI_ERR_TYPE.
Block block_of(int count, MPI_Datatype datatype, const char* side);
// Halyard moves equal blocks on both sides; MPI requires matching type signatures anyway
// (MPI_ERR_ARG otherwise).
std::size_t matching_block(const Block& send, const Block& recv);
// One block per rank of the communicator.
std::size_t blocks(std::size_t block, const Communicator& comm);

// The gathers and scatters, one the mirror of the other: at the root, one buffer holds one
// block per rank (gather's recvbuf, scatter's sendbuf); every rank has its own block in the
// other (gather's sendbuf, scatter's recvbuf), which may be MPI_IN_PLACE at the root: the root's
// block stays where it is among the blocks.
struct RootedSides {
  core::Collective collective;
  const char* blocks_side;  // "recv" for the gathers
  const char* own_side;     // "send" for the gathers
};

struct ReductionArgs {
  std::size_t count;
  Datatype type;
  Op op;
};

// MPI_ERR_COUNT, MPI_ERR_TYPE, MPI_ERR_OP.
ReductionArgs reduction_args(int count, MPI_Datatype datatype, MPI_Op op);

// Marks the MPI collectives that wait for their request at once (MPI_Bcast, not MPI_Ibcast):
// their calls are posted with CollArgs::blocking.
class BlockingCollective {
 public:
  BlockingCollective();
  ~BlockingCollective();
  BlockingCollective(const BlockingCollective&) = delete;
  BlockingCollective& operator=(const BlockingCollective&) = delete;
};

// Posts a call whose MPI arguments were checked: settle (byte size, memory kind) and go.
Request start(core::CollArgs args);
// MPI_ERR_ARG for a null request pointer.
void check_request_out(MPI_Request* request);
// Stores `posted` as the MPI request of a non-blocking collective on `comm`.
void post(MPI_Comm comm, MPI_Request* request, const Request& posted);

// An MPI collective whose body is start_call(communicator), returning the posted request: the
// blocking form waits for it, the non-blocking form stores it as *request.
template <typename Start>
int blocking_call(const char* name, MPI_Comm comm, Start start_call) {
  return guarded(name, comm, [&] {
    BlockingCollective blocking;
    start_call(shim_state().comm(comm).comm).wait_ok();
  });
}

template <typename Start>
int nonblocking_call(const char* name, MPI_Comm comm, MPI_Request* request, Start start_call) {
  return guarded(name, comm, [&] {
    const Communicator& c = shim_state().comm(comm).comm;
    check_request_out(request);
    post(comm, request, start_call(c));
  });
}

}  // namespace halyard::mpi_shim
