// SlotLanes: each rank's scratch slot (runtime/node_memory.hpp) cut into lanes, so that "sm"
// primitives on different node communicators never wait for each other's slot.
//
// Why: a writer holds its slot until its readers are done. If rank a starts primitive P (comm
// X) before Q (comm Y) and rank b, a member of both, starts Q before P, each holds the slot the
// other's primitive needs and both wait forever. Start order is only agreed per communicator, so
// the slot is shared per communicator instead: a node communicator that reserves a lane (HAN
// does, once per hierarchy) has a region of every member's slot to itself, lent in that
// communicator's start order. Communicators without a reservation share lane 0, with the older
// rule that primitives on overlapping ones must start in the same order on every rank.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>

#include "runtime/communicator.hpp"
#include "runtime/event_loop.hpp"
#include "runtime/node_memory.hpp"

namespace halyard::intranode {

// Lane 0 is the shared default; 1 .. kSlotLanes - 1 can be reserved.
inline constexpr int kSlotLanes = 4;

// This runtime's lanes: which it has reserved and who holds each (slot_lanes.cpp). Attached to
// the runtime (RuntimeServices::attachments).
struct LaneTable;

// Where a lane lies inside every rank's slot. Holds the lane table: a primitive in flight keeps
// it even when its runtime tears down.
struct SlotLane {
  int index = 0;
  std::size_t offset = 0;  // from the start of a slot
  std::size_t bytes = 0;
  std::shared_ptr<LaneTable> table;
};

// Collective over the node communicator `node` (blocking, so call it where a blocking
// collective is allowed, e.g. when a communicator's hierarchy is built): agrees with the other
// members on a lane none of them has reserved and binds it to `node` (an attachment of `node`:
// the lane is free again once the last handle of `node` goes). Returns false (and binds nothing)
// when every lane is taken on some member.
bool reserve_lane(const Communicator& node);

// The lane primitives on `node` use: its reserved lane, else lane 0.
SlotLane lane_of(const Communicator& node, const NodeMemory& memory);

// This rank's part of `lane` is lent to one primitive at a time, in the order they ask.
// `granted` runs from the event loop, never inside this call.
void acquire_lane(const SlotLane& lane, EventLoop& loop, std::function<void()> granted);
void release_lane(const SlotLane& lane, EventLoop& loop);

}  // namespace halyard::intranode
