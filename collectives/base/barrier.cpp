// Dissemination barrier: in round k every rank signals rank + 2^k and waits for rank - 2^k.
// After ceil(log2 p) rounds each rank has heard, directly or through others, from every rank.
#include <memory>

#include "collectives/base/base.hpp"
#include "collectives/base/step_machine.hpp"
#include "collectives/core/collective_tag.hpp"

namespace halyard::base {

namespace {

class DisseminationBarrier final : public StepMachine {
 public:
  using StepMachine::StepMachine;

 private:
  bool post_next_step() override {
    int p = size();
    if (distance_ >= p) return false;
    send((rank() + distance_) % p, nullptr, 0);
    recv((rank() - distance_ + p) % p, nullptr, 0);
    distance_ *= 2;
    return true;
  }

  int distance_ = 1;
};

}  // namespace

Request ibarrier_dissemination(const Communicator& comm) {
  int tag = next_collective_tag(comm);
  return StepMachine::launch<DisseminationBarrier>(comm, tag);
}

}  // namespace halyard::base
