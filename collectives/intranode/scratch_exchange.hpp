// ScratchExchange: the "sm" flavour of every intra-node primitive: copy-in/copy-out through the
// node's scratch slots (runtime/node_memory.hpp).
//
// A primitive is a set of flows of `bytes` each. "Slot" below means the communicator's lane of
// each rank's scratch slot (slot_lanes.hpp). A writer copies its data into its own slot, a
// fragment at a time, and sends a "ready" notice to each reader of its flow; a reader uses the
// fragment straight from the writer's slot and sends back "done". The slot holds two fragments,
// so the writer fills one while the readers drain the other (fragment k waits for every reader
// to be done with fragment k - 2).
//
// Readers either copy each writer's fragments out to their own place (bcast, gather, allgather)
// or combine fragment k of every writer, in writer order, into one destination (reduce,
// allreduce): the same order on every rank, so every rank computes the same bits.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "collectives/intranode/notice_machine.hpp"
#include "runtime/datatypes/datatype.hpp"
#include "runtime/datatypes/reduce_op.hpp"

namespace halyard::intranode {

struct ScratchPlan {
  std::size_t bytes = 0;  // of every flow
  Datatype type = Datatype::kUint8;
  bool combine = false;  // reduce the writers' fragments instead of copying them out
  Op op = Op::kSum;      // for combine
  // This rank as a writer: its data (null: not a writer) and the readers of its flow (comm
  // ranks; this rank itself may be one in combine mode).
  const void* source = nullptr;
  std::vector<int> readers;
  // This rank as a reader: the writers it reads (ascending comm ranks), and where their data
  // goes: one destination per writer, or with `combine` destinations[0] for all.
  std::vector<int> writers;
  std::vector<void*> destinations;
};

// Starts the exchange (tags: two fresh collective tags, taken by the caller on every rank).
Request start_scratch_exchange(const Communicator& comm, NodeMemory& memory, ScratchPlan plan,
                               int ready_tag, int done_tag);

}  // namespace halyard::intranode
