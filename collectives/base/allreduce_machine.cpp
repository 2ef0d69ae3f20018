#include "collectives/base/allreduce_machine.hpp"

#include <cstring>

#include "collectives/core/in_place.hpp"
#include "runtime/datatypes/reduction.hpp"

namespace halyard::base {

AllreduceMachine::AllreduceMachine(const Communicator& comm, int tag, const void* send, void* recv,
                                   std::size_t count, Datatype type, Op op,
                                   std::size_t scratch_count)
    : StepMachine(comm, tag),
      acc_(static_cast<std::byte*>(recv)),
      count_(count),
      element_(datatype_size(type)),
      type_(type),
      op_(op) {
  scratch_.allocate(scratch_count * element_);
  if (!core::is_in_place(send)) std::memcpy(acc_, send, count * element_);
}

void AllreduceMachine::schedule_reduce(std::size_t offset, std::size_t n,
                                       std::size_t scratch_offset, bool incoming_from_lower) {
  reduce_pending_ = true;
  reduce_offset_ = offset;
  reduce_count_ = n;
  reduce_scratch_offset_ = scratch_offset;
  reduce_incoming_lower_ = incoming_from_lower;
}

void AllreduceMachine::apply_scheduled_reduce() {
  if (!reduce_pending_) return;
  reduce_pending_ = false;
  std::byte* target = acc(reduce_offset_);
  const std::byte* incoming = scratch(reduce_scratch_offset_);
  if (reduce_incoming_lower_) {
    reduce_to(op_, type_, target, incoming, target, reduce_count_);
  } else {
    reduce_to(op_, type_, target, target, incoming, reduce_count_);
  }
}

void AllreduceMachine::post_fold_in(const PowerOfTwoFold& fold) {
  if (fold.fold_partner < 0) return;
  if (fold.sits_out()) {
    send(fold.fold_partner, acc(0), count_ * element_);
  } else {
    recv(fold.fold_partner, scratch(0), count_ * element_);
    schedule_reduce(0, count_, 0, /*incoming_from_lower=*/true);
  }
}

void AllreduceMachine::post_fold_out(const PowerOfTwoFold& fold) {
  if (fold.fold_partner < 0) return;
  if (fold.sits_out()) {
    recv(fold.fold_partner, acc(0), count_ * element_);
  } else {
    send(fold.fold_partner, acc(0), count_ * element_);
  }
}

PowerOfTwoFold::PowerOfTwoFold(int rank, int size) {
  while (pof2 * 2 <= size) {
    pof2 *= 2;
    ++levels;
  }
  rem = size - pof2;
  if (rank < 2 * rem) {
    fold_partner = (rank % 2 == 0) ? rank + 1 : rank - 1;
    folded_rank = (rank % 2 == 0) ? -1 : rank / 2;
  } else {
    folded_rank = rank - rem;
  }
}

}  // namespace halyard::base
