#include "collectives/intranode/slot_lanes.hpp"

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <utility>

#include "collectives/base/base.hpp"
#include "collectives/core/in_place.hpp"
#include "runtime/error.hpp"
#include "runtime/event_loop.hpp"

namespace halyard::intranode {

namespace {

struct Lending {
  bool taken = false;
  std::deque<std::function<void()>> waiters;
};

// Per process (one NodeMemory per runtime): which lanes this rank has reserved, the lane of
// each communicator that reserved one, and the lending queue of each lane. In-process tests run
// several runtimes in threads, hence the mutex around the maps; each entry is then used only
// by its runtime's event-loop thread.
struct Lanes {
  std::uint32_t reserved = 1;  // lane 0 is never reserved
  std::array<Lending, kSlotLanes> lending;
};

struct Registry {
  std::mutex mutex;
  std::map<const NodeMemory*, Lanes> by_memory;
  std::map<std::pair<std::uint64_t, std::uint32_t>, int> lane_by_comm;  // (loop serial, context)
};

Registry& registry() {
  static auto* r = new Registry();  // leaked: lanes live as long as the process
  return *r;
}

Lanes& lanes_of(const NodeMemory& memory) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  return r.by_memory[&memory];
}

}  // namespace

bool reserve_lane(const Communicator& node) {
  NodeMemory* memory = node_memory_of(node);
  if (memory == nullptr) return false;
  Lanes& lanes = lanes_of(*memory);
  std::uint32_t taken = lanes.reserved;
  Status st =
      base::iallreduce_recursive_doubling(node, kInPlace, &taken, 1, Datatype::kUint32, Op::kBor)
          .wait();
  if (!st.ok()) throw Error(st.code, "intranode: agreeing on a scratch lane failed: " + st.message);
  for (int lane = 1; lane < kSlotLanes; ++lane) {
    if ((taken >> lane & 1U) != 0) continue;
    lanes.reserved |= 1U << lane;
    Registry& r = registry();
    std::lock_guard lock(r.mutex);
    r.lane_by_comm[{node.loop().serial(), node.context()}] = lane;
    return true;
  }
  return false;
}

SlotLane lane_of(const Communicator& node, const NodeMemory& memory) {
  int index = 0;
  {
    Registry& r = registry();
    std::lock_guard lock(r.mutex);
    auto it = r.lane_by_comm.find({node.loop().serial(), node.context()});
    if (it != r.lane_by_comm.end()) index = it->second;
  }
  std::size_t bytes = memory.scratch_slot_bytes() / kSlotLanes;
  return SlotLane{index, static_cast<std::size_t>(index) * bytes, bytes};
}

void acquire_lane(NodeMemory& memory, EventLoop& loop, int lane, std::function<void()> granted) {
  Lending& l = lanes_of(memory).lending[static_cast<std::size_t>(lane)];
  if (!l.taken) {
    l.taken = true;
    loop.defer(std::move(granted));
    return;
  }
  l.waiters.push_back(std::move(granted));
}

void release_lane(NodeMemory& memory, EventLoop& loop, int lane) {
  Lending& l = lanes_of(memory).lending[static_cast<std::size_t>(lane)];
  if (l.waiters.empty()) {
    l.taken = false;
    return;
  }
  loop.defer(std::move(l.waiters.front()));
  l.waiters.pop_front();
}

}  // namespace halyard::intranode
