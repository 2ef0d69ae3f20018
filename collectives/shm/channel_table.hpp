// ChannelTable: which of this rank's collective channels are taken, per runtime.
//
// A single-node communicator gets a channel at its first call through the engine: its members
// agree (one allreduce over p2p, posted by channel_binding.hpp) on the lowest channel free on
// all of them, and on a first seq above every number any of them
// used on that channel before, so no stale flag can pass for a new one. When the communicator
// goes, its channel drains: this rank takes it again only once every member has completed the
// communicator's last call (their `done` flags), since a slower member may still be reading
// this rank's cells. When no channel is free on some member, the communicator runs the p2p
// algorithms instead, on every member alike (they all saw the same agreement). While one
// agreement runs on this rank, it proposes no channel to another (all taken): two agreements in
// flight at once never pick the same channel; the later communicator runs the p2p algorithms.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "collectives/shm/channel_layout.hpp"
#include "runtime/communicator.hpp"
#include "runtime/node_memory.hpp"

namespace halyard::shm {

class Channel;

class ChannelTable : public std::enable_shared_from_this<ChannelTable> {
 public:
  // This runtime's table (a runtime attachment).
  static std::shared_ptr<ChannelTable> of(const Communicator& comm);

  // The agreement, around one allreduce (max) over the communicator's members: this rank's
  // proposal (per channel: 1 when taken, then per channel the last seq used on it), to be
  // followed by exactly one conclude_agreement() or abandon_agreement().
  std::vector<std::uint64_t> open_agreement();
  // After the allreduce: takes the lowest channel free on every member (`agreed`, the maximum of
  // the proposals), or returns null when there is none.
  std::shared_ptr<Channel> conclude_agreement(const Communicator& comm, NodeMemory& memory,
                                              const std::vector<std::uint64_t>& agreed);
  void abandon_agreement();

  // Channel `index` goes back: it drains until every rank of `members` (their headers on
  // channel `index`, at this process's address) has done `last_seq`. Any thread.
  void release(int index, std::uint64_t last_seq, std::vector<const ChannelHeader*> members);

 private:
  struct Draining {
    int index;
    std::uint64_t last_seq;
    std::vector<const ChannelHeader*> members;
  };

  // Frees the drained channels; then per channel: 1 when taken, and the last seq used on it.
  std::vector<std::uint64_t> local_state();
  void take(int index);

  std::mutex mutex_;
  std::uint32_t taken_ = 0;  // bit per channel: in use or draining
  std::uint64_t last_seq_[kChannelsPerRank] = {};
  int agreements_open_ = 0;
  std::vector<Draining> draining_;
};

}  // namespace halyard::shm
