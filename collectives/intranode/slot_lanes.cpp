#include "collectives/intranode/slot_lanes.hpp"

#include <array>
#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <utility>

#include "collectives/base/base.hpp"
#include "collectives/core/in_place.hpp"
#include "runtime/event_loop.hpp"
#include "runtime/runtime_services.hpp"
#include "runtime/support/error.hpp"

namespace halyard::intranode {

namespace {

struct Lending {
  bool taken = false;
  std::deque<std::function<void()>> waiters;
};

}  // namespace

// Per runtime (one NodeMemory each). `reserved` is atomic because a node communicator's last
// handle (which frees its lane) may go on any thread; each lane's lending is used only by the
// event-loop thread.
struct LaneTable {
  std::atomic<std::uint32_t> reserved{1};  // lane 0 is never reserved
  std::array<Lending, kSlotLanes> lending;
};

namespace {

// The lane a node communicator reserved, attached to it: freed with the communicator.
struct LaneReservation {
  LaneReservation(std::shared_ptr<LaneTable> lanes, int lane)
      : table(std::move(lanes)), index(lane) {
    table->reserved.fetch_or(1U << index);
  }
  ~LaneReservation() { table->reserved.fetch_and(~(1U << index)); }
  LaneReservation(const LaneReservation&) = delete;
  LaneReservation& operator=(const LaneReservation&) = delete;

  const std::shared_ptr<LaneTable> table;
  const int index;
};

std::shared_ptr<LaneTable> lane_table(const Communicator& comm) {
  Attachments& runtime = comm.services().attachments;
  if (std::shared_ptr<LaneTable> table = runtime.find<LaneTable>()) return table;
  return runtime.attach(std::make_shared<LaneTable>());
}

}  // namespace

bool reserve_lane(const Communicator& node) {
  if (node_memory_of(node) == nullptr) return false;
  std::shared_ptr<LaneTable> table = lane_table(node);
  std::uint32_t taken = table->reserved.load();
  Status st =
      base::iallreduce_recursive_doubling(node, kInPlace, &taken, 1, Datatype::kUint32, Op::kBor)
          .wait();
  if (!st.ok()) throw Error(st.code, "intranode: agreeing on a scratch lane failed: " + st.message);
  for (int lane = 1; lane < kSlotLanes; ++lane) {
    if ((taken >> lane & 1U) != 0) continue;
    node.attach(std::make_shared<LaneReservation>(std::move(table), lane));
    return true;
  }
  return false;
}

SlotLane lane_of(const Communicator& node, const NodeMemory& memory) {
  std::shared_ptr<LaneReservation> reserved = node.attachment<LaneReservation>();
  const int index = reserved ? reserved->index : 0;
  std::size_t bytes = memory.scratch_slot_bytes() / kSlotLanes;
  return SlotLane{index, static_cast<std::size_t>(index) * bytes, bytes,
                  reserved ? reserved->table : lane_table(node)};
}

void acquire_lane(const SlotLane& lane, EventLoop& loop, std::function<void()> granted) {
  Lending& l = lane.table->lending[static_cast<std::size_t>(lane.index)];
  if (!l.taken) {
    l.taken = true;
    loop.defer(std::move(granted));
    return;
  }
  l.waiters.push_back(std::move(granted));
}

void release_lane(const SlotLane& lane, EventLoop& loop) {
  Lending& l = lane.table->lending[static_cast<std::size_t>(lane.index)];
  if (l.waiters.empty()) {
    l.taken = false;
    return;
  }
  loop.defer(std::move(l.waiters.front()));
  l.waiters.pop_front();
}

}  // namespace halyard::intranode
