// Which member of a barrier leaves first or last (Channel::advance_barrier). A barrier ends
// when every member has arrived, but its members learn that at different times: in a flat
// barrier the last to arrive leaves at once and the others when they next look. That order
// decides what the call after the barrier waits for: a member that leaves early and then needs
// data that a late one has still to write waits for it there. So a barrier is ordered for the
// call expected after it, learnt from the channel's history (the same on every member, so all
// agree): the call that followed the last barrier that came after the same kind of call as this
// one (a loop of a bcast and a barrier expects a bcast, one of a reduce, a barrier, a bcast and
// a barrier expects the bcast after the reduce and the reduce after the bcast).
// - A bcast or scatter(v) expected: its root leaves first (it gathers the others' arrivals and
//   releases them), and the others then find its data written.
// - A reduce or gather(v) expected: its root leaves last (it waits until the others have seen
//   every arrival and left), and the others write its input before it looks.
// - Anything else, or nothing learnt yet: flat on 2 members and where ranks share CPUs (there a
//   releaser must be scheduled before anyone leaves), else rank 0 first, so that a rank polls
//   one line instead of every member's.
// A loop that repeats its calls takes as long or less; the order mostly decides which call the
// waiting falls in (docs/collectives.md, "Barrier order", has the measurements).
#include "collectives/shm/channel.hpp"

namespace halyard::shm {

namespace {

using core::Collective;

std::size_t index_of(Collective collective) {
  return static_cast<std::size_t>(collective);
}

}  // namespace

Channel::BarrierOrder Channel::default_barrier_order() const noexcept {
  if (size_ == 2 || loop_.cpu_shared()) return {};
  return {BarrierOrder::Kind::kFirstOut, 0};
}

void Channel::learn_barrier_order(const core::CollArgs& args) noexcept {
  const Collective previous = std::exchange(last_call_, args.collective);
  if (args.collective != Collective::kBarrier) {
    if (before_last_barrier_) {
      after_barrier_following_[index_of(*before_last_barrier_)] = {true, args.collective,
                                                                   args.root};
      before_last_barrier_.reset();
    }
    return;
  }
  before_last_barrier_ = previous;
  const FollowingCall& expected = after_barrier_following_[index_of(previous)];
  barrier_order_ = default_barrier_order();
  if (!expected.seen) return;
  switch (expected.collective) {
    case Collective::kBcast:
    case Collective::kScatter:
    case Collective::kScatterv:
      barrier_order_ = {BarrierOrder::Kind::kFirstOut, expected.root};
      return;
    case Collective::kReduce:
    case Collective::kGather:
    case Collective::kGatherv:
      barrier_order_ = {BarrierOrder::Kind::kLastOut, expected.root};
      return;
    default:
      return;
  }
}

}  // namespace halyard::shm
