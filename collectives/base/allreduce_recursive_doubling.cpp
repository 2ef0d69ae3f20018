// Recursive-doubling allreduce: log2(pof2) exchanges of the whole vector; latency-optimal, so
// the choice for small messages.
#include <memory>

#include "collectives/base/allreduce_machine.hpp"
#include "collectives/base/base.hpp"
#include "collectives/core/collective_tag.hpp"

namespace halyard::base {

namespace {

// Steps: 0 fold in; 1 .. levels exchange with folded rank ^ 2^(step-1); levels + 1 fold out.
class RecursiveDoublingAllreduce final : public AllreduceMachine {
 public:
  RecursiveDoublingAllreduce(const Communicator& comm, int tag, const void* send, void* recv,
                             std::size_t count, Datatype type, Op op)
      : AllreduceMachine(comm, tag, send, recv, count, type, op, count),
        fold_(comm.rank(), comm.size()) {}

 private:
  bool post_next_step() override {
    apply_scheduled_reduce();
    int step = step_++;
    if (step == 0) {
      post_fold_in(fold_);
    } else if (step <= fold_.levels) {
      if (!fold_.sits_out()) {
        int partner = fold_.real_rank(fold_.folded_rank ^ (1 << (step - 1)));
        std::size_t bytes = count() * element_bytes();
        send(partner, acc(0), bytes);
        recv(partner, scratch(0), bytes);
        schedule_reduce(0, count(), 0, partner < rank());
      }
    } else if (step == fold_.levels + 1) {
      post_fold_out(fold_);
    } else {
      return false;
    }
    return true;
  }

  PowerOfTwoFold fold_;
  int step_ = 0;
};

}  // namespace

Request iallreduce_recursive_doubling(const Communicator& comm, const void* send, void* recv,
                                      std::size_t count, Datatype type, Op op) {
  int tag = next_collective_tag(comm);
  if (count == 0) return Request::make_completed(comm.loop(), Status{});
  return StepMachine::launch<RecursiveDoublingAllreduce>(comm, tag, send, recv, count, type, op);
}

}  // namespace halyard::base
