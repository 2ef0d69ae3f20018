// What every MPI collective of the shim shares (api_collectives.cpp, api_vector_collectives.cpp,
// api_prefix_collectives.cpp, api_persistent.cpp): the blocks of data-moving calls, the path
// from checked arguments to a posted Halyard collective, and the blocking / non-blocking forms.
//
// Collectives that only move data travel as bytes, which lets the send and receive sides use
// different datatypes of equal size, as MPI allows; reductions keep their element type. Every
// buffer goes through TypedBuffer: contiguous data moves from the user's memory, data of a
// derived type with holes is packed before and unpacked after the call. MPI_IN_PLACE is the
// address of halyard::kInPlace, so it passes through unchanged.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <optional>
#include <string>
#include <utility>

#include "collectives/core/coll_args.hpp"
#include "runtime/request.hpp"
#include "shim/argument_checks.hpp"
#include "shim/call_guard.hpp"
#include "shim/shim_state.hpp"
#include "shim/typed_buffer.hpp"

namespace halyard::mpi_shim {

inline constexpr Datatype kBytes = Datatype::kUint8;

// One side's block, described by its (count, type).
struct Block {
  std::size_t count;
  const TypeObject* type;
  std::size_t bytes;  // packed
  const char* side;   // "send" or "recv"
  // For error messages only ("sendcount 4 x MPI_INT (16 bytes)"): built when a check fails,
  // since the strings cost a small call more than the rest of its argument checks.
  std::string description() const;
};

// Checks (count, datatype) of one side ("send" or "recv"): MPI_ERR_COUNT, MPI_ERR_TYPE.
Block block_of(int count, MPI_Datatype datatype, const char* side);
// Halyard moves equal blocks on both sides; MPI requires matching type signatures anyway
// (MPI_ERR_ARG otherwise).
std::size_t matching_block(const Block& send, const Block& recv);
// One block per rank of the communicator.
std::size_t blocks(std::size_t block, const Communicator& comm);
// The buffer of one block per rank, `block` items each.
TypedBuffer all_blocks(const void* buf, const Block& block, const Communicator& comm,
                       TypedBuffer::Use use);

// The gathers and scatters, one the mirror of the other: at the root, one buffer holds one
// block per rank (gather's recvbuf, scatter's sendbuf); every rank has its own block in the
// other (gather's sendbuf, scatter's recvbuf), which may be MPI_IN_PLACE at the root: the root's
// block stays where it is among the blocks.
struct RootedSides {
  core::Collective collective;
  const char* own_side;  // "send" for the gathers
};

// A posted collective and what completing it takes: unpacking staged buffers.
struct Started {
  Started(Request posted, CompletionStep step = {})
      : request(std::move(posted)), complete(std::move(step)) {}
  Request request;
  CompletionStep complete;  // empty when nothing was staged
};

// Marks the MPI collectives that wait for their request at once (MPI_Bcast, not MPI_Ibcast):
// their calls are posted with CollArgs::blocking.
class BlockingCollective {
 public:
  BlockingCollective();
  ~BlockingCollective();
  BlockingCollective(const BlockingCollective&) = delete;
  BlockingCollective& operator=(const BlockingCollective&) = delete;
};
// True while a BlockingCollective lives on this thread.
bool in_blocking_collective();

// While one lives on this thread, start() checks and settles the call, then returns a completed
// request instead of posting anything: MPI_*_init checks a persistent collective's arguments.
// It keeps what start() settled, from which MPI_*_init plans the call (planned_collective.hpp).
class CheckingOnly {
 public:
  CheckingOnly();
  ~CheckingOnly();
  CheckingOnly(const CheckingOnly&) = delete;
  CheckingOnly& operator=(const CheckingOnly&) = delete;

  // Called by start() with the settled arguments of each call it does not post.
  void record(const core::CollArgs& settled);
  // The settled arguments of the one call start() saw; null when it saw none or several.
  const core::CollArgs* only_call() const { return calls_ == 1 ? &*settled_ : nullptr; }

 private:
  int calls_ = 0;
  std::optional<core::CollArgs> settled_;  // the first call's
};

// True while a CheckingOnly lives on this thread: a start that posts without start() (the
// neighborhood exchange) returns a completed request instead.
bool in_checking_only();

// Posts a call whose MPI arguments were checked: settle (byte size, memory kind) and go.
Request start(core::CollArgs args);
// Posts a call whose buffers hold a derived datatype (`send` / `recv`: their layouts, null where
// contiguous or not significant) on the user's memory, if the algorithm the selection picks
// takes layouts (layouts_taken in collectives/post_call.hpp); nullopt, posting nothing, when it
// does not or while checking only: the caller stages the buffers instead.
std::optional<Request> start_laid_out(core::CollArgs args, const BufferLayout* send,
                                      const BufferLayout* recv);
// MPI_ERR_ARG for a null request pointer.
void check_request_out(MPI_Request* request);
// Stores `started` as the MPI request of a non-blocking collective on `comm`.
void post(MPI_Comm comm, MPI_Request* request, Started started);
// Waits for a blocking collective and unpacks what it staged.
void wait_for(const Started& started);

// An MPI collective whose body is start_call(communicator), returning what it started: the
// blocking form waits for it, the non-blocking form stores it as *request.
template <typename Start>
int blocking_call(const char* name, MPI_Comm comm, Start start_call) {
  return guarded(name, comm, [&] {
    BlockingCollective blocking;
    wait_for(start_call(shim_state().comm(comm).comm));
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
