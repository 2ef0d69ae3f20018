// Which member of a barrier leaves first or last (Channel::advance_barrier). A barrier ends
// when every member has arrived, but its members learn that at different times: in a flat
// barrier the last to arrive leaves at once and the others when they next look. That order
// decides what the next call waits for: a member that leaves early and then needs data that a
// late one has still to write waits for it there. So a barrier lets the member that is likely to
// write first next leave first, guessed from the call before it on the channel (the same on
// every member, so all agree):
// - after a bcast or scatter(v), its root leaves first (it gathers the others' arrivals and
//   releases them): the others then find its next data written;
// - after a reduce or gather(v), its root leaves last (it waits until the others have seen
//   every arrival and left): the others write its next input before it looks;
// - otherwise the default: flat on 2 members and where ranks share CPUs (there a releaser must
//   be scheduled before anyone leaves), else rank 0 first, so that a rank polls one line
//   instead of every member's.
// The loop of a call and a barrier takes as long either way; the order only decides which of the
// two the waiting falls in (docs/collectives.md, "Barrier order", has the measurements).
#include "collectives/shm/channel.hpp"

namespace halyard::shm {

using core::Collective;

Channel::BarrierOrder Channel::default_barrier_order() const noexcept {
  if (size_ == 2 || loop_.cpu_shared()) return {};
  return {BarrierOrder::Kind::kFirstOut, 0};
}

Channel::BarrierOrder Channel::barrier_order_after(const core::CollArgs& args) const noexcept {
  switch (args.collective) {
    case Collective::kBcast:
    case Collective::kScatter:
    case Collective::kScatterv:
      return {BarrierOrder::Kind::kFirstOut, args.root};
    case Collective::kReduce:
    case Collective::kGather:
    case Collective::kGatherv:
      return {BarrierOrder::Kind::kLastOut, args.root};
    default:
      return default_barrier_order();
  }
}

}  // namespace halyard::shm
