// The engine of the neighborhood collectives (MPI_Neighbor_allgather, _alltoall and their v/w
// forms): one message per edge of a process topology, all posted at once over the runtime's
// non-blocking library p2p, completing together. The MPI shim works out the edges and the
// blocks (shim/topology.hpp); the engine knows nothing of topologies.
//
// Lanes: messages between one pair of ranks with the same tag match in posting order. A pair
// can be neighbours twice (a periodic dimension of size 2 makes the same rank the left and the
// right neighbour; of size 1, the rank itself), and then the block sent "to the right" must
// land in the receiver's "from the left" slot. Each lane gets its own tag, so the caller puts
// the two directions of a dimension on different lanes; plain graphs need one lane.
#pragma once

#include <cstddef>
#include <span>

#include "runtime/communicator.hpp"
#include "runtime/request.hpp"

namespace halyard {

// One message of the exchange. A negative peer (MPI_PROC_NULL) moves nothing and leaves the
// buffer untouched.
struct NeighborSend {
  int peer;
  int lane;
  const void* buffer;
  std::size_t bytes;
};

struct NeighborReceive {
  int peer;
  int lane;
  void* buffer;
  std::size_t bytes;  // the most it takes; a larger message completes with kTruncated
};

// Collective over `comm` (every rank calls it, in the same order as its other collectives,
// with the same `lanes`). Posts every receive, then every send; the request completes when
// all have, with the first failure if any. Buffers must stay valid until then.
Request ineighbor_exchange(const Communicator& comm, int lanes,
                           std::span<const NeighborReceive> receives,
                           std::span<const NeighborSend> sends);

}  // namespace halyard
