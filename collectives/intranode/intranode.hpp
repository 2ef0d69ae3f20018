// Intra-node collective primitives: HAN's intra-node submodules (DESIGN.md, "han"; issue 4),
// and, through the catalog (catalog.cpp), algorithms of their own for a communicator on one node.
//
// Each runs on a node communicator (every member on this rank's node, e.g. comm.node_comm())
// and is event-driven: it returns a Request at once and advances from the event loop. Data moves
// through node memory (runtime/node_memory.hpp), never through p2p messages; only small notices
// do. Two flavours:
//   kSm   copy-in/copy-out through each rank's scratch slot in the node's shared segment: two
//         copies, but no system call; best for small messages.
//   kCma  single copy with Cross-Memory Attach: bcast/gather/allgather readers pull straight
//         from the owner's buffer; reduce/allreduce reduce per-rank slices in parallel
//         (dissertation Figure 5.4) and then pull the reduced slices.
// When CMA is unusable (HALYARD_SHM_SINGLE_COPY=none, or the kernel refuses it), kCma runs as
// kSm; every rank of a node decides alike.
//
// Semantics match collectives/collectives.hpp (counts in elements, kInPlace where MPI allows
// it). Buffers must stay untouched until the request completes. Like every collective, all
// members call the primitives of a communicator in the same order. The sm flavour writes into a
// lane of each rank's scratch slot (slot_lanes.hpp): a node communicator that reserved a lane
// (reserve_lane) has it to itself; all others share lane 0, so primitives on overlapping
// communicators without a lane of their own must be started in the same order on every rank.
//
// The arguments are HAN's, derived from a call the public entry validated (core/validate.hpp),
// or that call's own (catalog entries): they are not checked again (a node communicator and a valid
// Flavour are asserted in debug builds). A runtime without node memory (shm off) throws
// Error(kUnsupported).
#pragma once

#include <cstddef>
#include <string_view>

#include "collectives/core/catalog.hpp"
#include "runtime/communicator.hpp"
#include "runtime/datatypes/datatype.hpp"
#include "runtime/datatypes/reduce_op.hpp"
#include "runtime/request.hpp"

namespace halyard::intranode {

// The primitives as catalog entries for communicators on one node (catalog.cpp): intranode:sm
// and intranode:cma for bcast, reduce, allreduce, gather and allgather.
core::AlgorithmTable algorithms();

enum class Flavour { kSm, kCma };

std::string_view flavour_name(Flavour flavour);

// Whether the primitives can run on `comm`: it is valid, all its members share this rank's
// node, and (for more than one member) the runtime has node memory.
bool available(const Communicator& comm);

// The flavour a call with `requested` actually runs (kCma -> kSm when CMA is unusable).
Flavour effective_flavour(const Communicator& comm, Flavour requested);

// The layouts of a reduction's buffers where their data do not lie back to back (CollArgs'
// send_layout and recv_layout; null: contiguous). Only the cma flavour takes them, on more than
// one member (cma_takes_layouts in catalog.cpp); the call copies what it keeps.
struct Layouts {
  const BufferLayout* send = nullptr;
  const BufferLayout* recv = nullptr;
};

Request ibcast(const Communicator& node, void* buffer, std::size_t count, Datatype type, int root,
               Flavour flavour);
Request ireduce(const Communicator& node, const void* send, void* recv, std::size_t count,
                Datatype type, Op op, int root, Flavour flavour, Layouts layouts = {});
Request iallreduce(const Communicator& node, const void* send, void* recv, std::size_t count,
                   Datatype type, Op op, Flavour flavour, Layouts layouts = {});
Request igather(const Communicator& node, const void* send, void* recv, std::size_t count,
                Datatype type, int root, Flavour flavour);
Request iallgather(const Communicator& node, const void* send, void* recv, std::size_t count,
                   Datatype type, Flavour flavour);

}  // namespace halyard::intranode
