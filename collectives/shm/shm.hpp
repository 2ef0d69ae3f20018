// collectives/shm: the shared-memory collective engine (docs/collectives.md, "The shm engine").
//
// On a communicator whose members all share this rank's node, barrier, bcast, reduce,
// allreduce, allgather and gather synchronize through flags in the node's shared segment instead of
// p2p messages (channel.hpp). Calls are non-blocking and advance from the event loop like every
// engine. The first call on a communicator agrees on its channel (channel_table.hpp); where the
// engine cannot run (no node memory, members on several nodes, one member, or no channel free)
// the calls run the flat p2p algorithms instead, on every member alike.
#pragma once

#include "collectives/core/catalog.hpp"

namespace halyard::shm {

// The catalog table: "shm" for barrier, bcast, reduce, allreduce, allgather and gather.
core::AlgorithmTable algorithms();

}  // namespace halyard::shm
