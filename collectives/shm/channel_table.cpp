#include "collectives/shm/channel_table.hpp"

#include <algorithm>
#include <utility>

#include "collectives/shm/channel.hpp"
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

std::vector<std::uint64_t> ChannelTable::open_agreement() {
  std::vector<std::uint64_t> state = local_state();
  std::lock_guard lock(mutex_);
  if (agreements_open_++ > 0) std::fill_n(state.begin(), kChannelsPerRank, 1);
  return state;
}

std::shared_ptr<Channel> ChannelTable::conclude_agreement(
    const Communicator& comm, NodeMemory& memory, const std::vector<std::uint64_t>& agreed) {
  abandon_agreement();
  for (int k = 0; k < kChannelsPerRank; ++k) {
    if (agreed[static_cast<std::size_t>(k)] != 0) continue;
    take(k);
    const std::uint64_t first_seq = agreed[static_cast<std::size_t>(kChannelsPerRank + k)] + 1;
    return std::make_shared<Channel>(comm, memory, shared_from_this(), k, first_seq);
  }
  return nullptr;
}

void ChannelTable::abandon_agreement() {
  std::lock_guard lock(mutex_);
  --agreements_open_;
}

}  // namespace halyard::shm
