// collectives/shm: the shared-memory collective engine (docs/collectives.md, "The shm engine").
//
// On a communicator whose members all share this rank's node, barrier, bcast, reduce,
// allreduce, allgather, gather, scatter, reduce_scatter(_block), gatherv, scatterv and
// allgatherv synchronize through flags in the node's shared segment instead of p2p messages
// (channel.hpp). Calls are non-blocking and advance from the event loop like every engine. The
// first call on a communicator agrees on its channel without blocking (channel_binding.hpp,
// channel_table.hpp); where the
// engine cannot run (no node memory, members on several nodes, one member, or no channel free)
// the calls run the flat p2p algorithms instead, on every member alike.
#pragma once

#include "collectives/core/catalog.hpp"

namespace halyard::shm {

// The catalog table: "shm" for every collective above.
core::AlgorithmTable algorithms();

// HAN's intra-node submodule. bind_channel() agrees on a channel for the group communicator
// `node` now: collective and blocking, so HAN calls it where it builds its hierarchy; false when
// none was free on some member (every member gets the same answer). post_bound() starts a call
// derived from a validated one (HAN's pieces; bytes are settled here) on the channel bound
// before, or runs the p2p fallback where there is none: it never agrees, so it may run from
// the event loop's callbacks.
bool bind_channel(const Communicator& node);
Request post_bound(core::CollArgs args);

}  // namespace halyard::shm
