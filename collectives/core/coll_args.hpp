// CollArgs: one collective call as the public entry (the C++ API or the MPI shim) received it,
// checked once there (core/validate.hpp) and then passed by reference, unchanged, to the
// selection and to the chosen algorithm's post() (core/catalog.hpp). Nothing below the entry
// checks the caller's arguments again.
#pragma once

#include <cstddef>

#include "collectives/core/vocabulary.hpp"
#include "runtime/communicator.hpp"
#include "runtime/datatypes/buffer_layout.hpp"
#include "runtime/datatypes/datatype.hpp"
#include "runtime/datatypes/reduce_op.hpp"
#include "runtime/device_support.hpp"

namespace halyard::core {

struct CollArgs {
  Collective collective = Collective::kBarrier;
  const Communicator& comm;
  // bcast: both are the one buffer (the data at the root, the destination elsewhere).
  // send may be kInPlace where the collective allows it (collectives/collectives.hpp).
  const void* send = nullptr;
  void* recv = nullptr;
  // Elements of `type`: the whole vector (bcast, reduce, allreduce, scan, exscan,
  // reduce_scatter), one rank's block (allgather, gather, scatter, alltoall,
  // reduce_scatter_block), or this rank's own block of a v-variant (the send of gatherv and
  // allgatherv, the receive of scatterv; unused by alltoallv).
  std::size_t count = 0;
  // Per-rank counts and displacements (in elements) of the buffer that holds one block per
  // rank: the receive of gatherv (root), allgatherv and alltoallv, the send of scatterv (root);
  // reduce_scatter's result counts (no displacements: the blocks follow each other). Null for
  // the collectives with one count. Read during the call only: algorithms copy what they keep.
  const std::size_t* counts = nullptr;
  const std::size_t* displacements = nullptr;
  Datatype type = Datatype::kUint8;
  Op op = Op::kSum;  // reductions only
  int root = -1;     // rooted collectives only
  // alltoallv: the send buffer's per-rank counts and displacements (elements).
  const std::size_t* send_counts = nullptr;
  const std::size_t* send_displacements = nullptr;
  // Set by the blocking entries (bcast(), MPI_Bcast, ...): the caller waits for the request as
  // soon as it is returned, so an engine may poll for the call's end before returning it.
  bool blocking = false;
  // Set by the MPI shim's persistent starts, which keep track of a round's activity themselves:
  // like a blocking caller, the caller counts a null request as a completed, successful one.
  bool takes_null_request = false;
  // Whether a call that ended well at its post may return a null request instead of a
  // completed one (which costs an allocation and its release).
  bool null_when_ended() const { return blocking || takes_null_request; }

  // Settled once by the entry (core/validate.hpp), never by the caller:
  MemoryKind memory = MemoryKind::kHost;  // where this rank's buffers live
  std::size_t bytes = 0;                  // count * datatype_size(type): what selection sizes by

  // Where send / recv hold data that do not lie back to back (an MPI derived datatype): set
  // only for an algorithm whose entry takes layouts (core::Supports::takes_layouts), which then
  // reads and writes the buffers through them; `send` / `recv` still say which buffers they are
  // (kInPlace included) and `count`, `type` and `bytes` describe the packed data. Read during
  // post() only: an algorithm copies what it keeps.
  const BufferLayout* send_layout = nullptr;
  const BufferLayout* recv_layout = nullptr;

  bool is_root() const { return comm.rank() == root; }
  // The buffer of bcast.
  void* buffer() const { return recv; }
};

}  // namespace halyard::core
