#include "collectives/shm/channel_table.hpp"

#include <algorithm>
#include <utility>

#include "collectives/base/base.hpp"
#include "collectives/core/in_place.hpp"
#include "collectives/shm/channel.hpp"
#include "runtime/event_loop.hpp"
#include "runtime/runtime_services.hpp"
#include "runtime/support/error.hpp"

namespace halyard::shm {

std::shared_ptr<ChannelTable> ChannelTable::of(const Communicator& comm) {
  Attachments& runtime = comm.services().attachments;
  if (auto table = runtime.find<ChannelTable>()) return table;
  return runtime.attach(std::make_shared<ChannelTable>());
}

std::vector<std::uint64_t> ChannelTable::local_state() {
  std::lock_guard lock(mutex_);
  std::erase_if(draining_, [this](const Draining& d) {
    for (const ChannelHeader* member : d.members) {
      if (load_seq(member->done) < d.last_seq) return false;
    }
    taken_ &= ~(1U << d.index);
    return true;
  });
  std::vector<std::uint64_t> state(2 * kChannelsPerRank);
  for (int k = 0; k < kChannelsPerRank; ++k) {
    state[static_cast<std::size_t>(k)] = (taken_ >> k) & 1U;
    state[static_cast<std::size_t>(kChannelsPerRank + k)] = last_seq_[k];
  }
  return state;
}

void ChannelTable::take(int index) {
  std::lock_guard lock(mutex_);
  taken_ |= 1U << index;
}

void ChannelTable::release(int index, std::uint64_t last_seq,
                           std::vector<const ChannelHeader*> members) {
  std::lock_guard lock(mutex_);
  last_seq_[index] = std::max(last_seq_[index], last_seq);
  draining_.push_back({index, last_seq, std::move(members)});
}

std::shared_ptr<Channel> ChannelTable::agree(const Communicator& comm, NodeMemory& memory) {
  if (comm.loop().in_pass()) {
    throw Error(ErrorCode::kUnsupported,
                "shm: the first collective of a communicator through the shm engine agrees on "
                "its channel and must not be called from inside a completion callback");
  }
  std::shared_ptr<ChannelTable> table = of(comm);
  // Per channel: taken on some member (max of 0/1), and the highest seq any member used on it.
  std::vector<std::uint64_t> state = table->local_state();
  Status agreed = base::iallreduce_recursive_doubling(comm, kInPlace, state.data(), state.size(),
                                                      Datatype::kUint64, Op::kMax)
                      .wait();
  if (!agreed.ok()) {
    throw Error(agreed.code, "shm: agreeing on a collective channel failed: " + agreed.message);
  }
  for (int k = 0; k < kChannelsPerRank; ++k) {
    if (state[static_cast<std::size_t>(k)] != 0) continue;
    table->take(k);
    const std::uint64_t first_seq = state[static_cast<std::size_t>(kChannelsPerRank + k)] + 1;
    return std::make_shared<Channel>(comm, memory, std::move(table), k, first_seq);
  }
  return nullptr;
}

}  // namespace halyard::shm
