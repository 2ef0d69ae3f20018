// ChannelBinding: the channel of one communicator, agreed at its first call through the engine
// without blocking that call.
//
// The agreement is a collective (channel_table.hpp): one allreduce over p2p. Waiting for it
// inside the first call would make a non-blocking collective block until every member has
// reached it, which deadlocks programs that are allowed by MPI, e.g. the sparse exchange that
// posts MPI_Ibarrier and then keeps receiving its peers' messages until the barrier ends. So
// the first call posts the agreement and returns a pending request; it and the calls that come
// while the agreement runs wait in order, and start (on the channel, or through the p2p
// fallback when there is none) from the agreement's completion. Calls after it start at once.
//
// HAN builds its hierarchy blocking anyway and needs the answer there: wait_agreed().
#pragma once

#include <atomic>
#include <cstddef>
#include <deque>
#include <memory>
#include <vector>

#include "collectives/core/coll_args.hpp"
#include "runtime/communicator.hpp"
#include "runtime/node_memory.hpp"
#include "runtime/request.hpp"
#include "runtime/support/error.hpp"

namespace halyard::shm {

class Channel;

// What a call runs when the communicator has no channel.
using Fallback = Request (*)(const core::CollArgs& args);

class ChannelBinding : public std::enable_shared_from_this<ChannelBinding> {
 public:
  // The binding attached to `comm`, made (and its agreement posted, a collective over `comm`)
  // at the first use.
  static ChannelBinding& of(const Communicator& comm);
  // The binding attached before, or null.
  static ChannelBinding* find(const Communicator& comm);

  // Starts the call `args` on the channel, or through `fallback` where there is none; when the
  // agreement is still running, returns a pending request and starts the call once it ends.
  Request start(const core::CollArgs& args, Fallback fallback);

  // The channel once the agreement ended with one (calls start on it at once); null before,
  // without one, or after a failure.
  Channel* agreed_channel() const {
    return agreed_.load(std::memory_order_acquire) && failure_.ok() ? channel_.get() : nullptr;
  }

  // Blocks until the agreement ended: the channel, or null when there is none. Throws Error
  // when the agreement failed (a peer died) or when called from a callback of the event loop.
  Channel* wait_agreed(const Communicator& comm);

 private:
  // A call that came while the agreement ran, with copies of what it reads after returning.
  struct Waiting {
    Waiting(const core::CollArgs& call, Fallback fallback);
    Communicator comm;
    std::vector<std::size_t> counts, displacements, send_counts, send_displacements;
    core::CollArgs args;  // the call, on the copies above
    Fallback fallback;
    Request request;
  };

  void post_agreement(const Communicator& comm, NodeMemory* memory);
  void conclude(const Communicator& comm, NodeMemory& memory, const Status& agreed);
  Request start_now(const core::CollArgs& args, Fallback fallback);

  std::atomic<bool> agreed_{false};
  std::shared_ptr<Channel> channel_;              // set before agreed_; null: the p2p fallback
  Status failure_;                                // the agreement's failure, for every later call
  std::vector<std::uint64_t> state_;              // the agreement's buffer while it runs
  std::deque<std::unique_ptr<Waiting>> waiting_;  // in call order
};

}  // namespace halyard::shm
