// Which member of a barrier leaves first (Channel::advance_barrier). A barrier ends when every
// member has arrived, but its members learn that at different times: in a flat barrier the last
// to arrive leaves at once and the others when they next look, in a gathered one the releaser
// leaves first and the others one flag later. That order decides what the next call waits for:
// a member that leaves early and then reads data that a late one has still to write waits for
// it there. So a barrier lets go first the member that is likely to write first next, guessed
// from the call before it on the channel (the same on every member, so all agree):
// - after a bcast or scatter(v), its root (the others then find its next data written);
// - after a reduce or gather(v) on 2 members, the other member, which writes the root's input;
// - otherwise the default: flat on 2 members and where ranks share CPUs (there a gathered
//   barrier waits for the releaser to be scheduled before anyone leaves), else gathered
//   through rank 0, so that a rank polls one line instead of every member's.
// The loop of a call and a barrier takes as long either way; the order only decides which of the
// two the waiting falls in (docs/collectives.md, "Barrier order", has the measurements).
#include "collectives/shm/channel.hpp"

namespace halyard::shm {

using core::Collective;

int Channel::default_barrier_order() const noexcept {
  return size_ == 2 || loop_.cpu_shared() ? kFlatBarrier : 0;
}

int Channel::barrier_order_after(const core::CollArgs& args) const noexcept {
  switch (args.collective) {
    case Collective::kBcast:
    case Collective::kScatter:
    case Collective::kScatterv:
      return args.root;
    case Collective::kReduce:
    case Collective::kGather:
    case Collective::kGatherv:
      if (size_ == 2) return 1 - args.root;
      break;
    default:
      break;
  }
  return default_barrier_order();
}

}  // namespace halyard::shm
