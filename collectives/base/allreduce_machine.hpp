// What the three allreduce algorithms share: the accumulator (the caller's receive buffer,
// seeded with this rank's contribution), a scratch buffer for incoming data, a reduction that a
// step schedules and the next step applies (the data must have arrived first), the fold that
// lets power-of-two algorithms run on any size, and the common entry checks.
//
// Identical results everywhere: whenever two partial results meet, the one from the lower rank
// is the left operand, so both partners of an exchange compute the same bits even for the
// cases where an op is not bitwise commutative (min/max of +0 and -0, NaN payloads).
#pragma once

#include <cstddef>
#include <string_view>

#include "collectives/base/small_buffer.hpp"
#include "collectives/base/step_machine.hpp"
#include "runtime/datatypes/datatype.hpp"
#include "runtime/datatypes/reduce_op.hpp"

namespace halyard::base {

// Folding a non-power-of-two group onto the largest power of two pof2 <= size: of the first
// 2 * rem ranks (rem = size - pof2), each even one hands its vector to the odd one above it and
// sits out until it gets the result back. The others are renumbered 0 .. pof2 - 1.
struct PowerOfTwoFold {
  PowerOfTwoFold(int rank, int size);
  int real_rank(int folded) const { return folded < rem ? 2 * folded + 1 : folded + rem; }
  bool sits_out() const { return folded_rank < 0; }

  int pof2 = 1;
  int rem = 0;
  int levels = 0;         // log2(pof2)
  int folded_rank = -1;   // -1: this rank sits out
  int fold_partner = -1;  // the rank exchanging with this one in the fold, or -1
};

class AllreduceMachine : public StepMachine {
 public:
  // Copies `send` into `recv` unless send is kInPlace; scratch holds `scratch_count` elements.
  AllreduceMachine(const Communicator& comm, int tag, const void* send, void* recv,
                   std::size_t count, Datatype type, Op op, std::size_t scratch_count);

 protected:
  std::size_t element_bytes() const noexcept { return element_; }
  std::size_t count() const noexcept { return count_; }
  std::byte* acc(std::size_t element_offset) const { return acc_ + element_offset * element_; }
  std::byte* scratch(std::size_t element_offset) {
    return scratch_.data() + element_offset * element_;
  }

  // acc[offset, offset + n) combined with scratch[scratch_offset, + n) at the start of the
  // next step; `incoming_from_lower` puts the scratch data on the left.
  void schedule_reduce(std::size_t offset, std::size_t n, std::size_t scratch_offset,
                       bool incoming_from_lower);
  // Runs the scheduled reduction, if any (call first thing in post_next_step).
  void apply_scheduled_reduce();

  // The fold in and out of PowerOfTwoFold (scratch must hold count() elements).
  void post_fold_in(const PowerOfTwoFold& fold);
  void post_fold_out(const PowerOfTwoFold& fold);

 private:
  std::byte* acc_;
  std::size_t count_;
  std::size_t element_;
  Datatype type_;
  Op op_;
  SmallBuffer<256> scratch_;
  bool reduce_pending_ = false;
  std::size_t reduce_offset_ = 0;
  std::size_t reduce_count_ = 0;
  std::size_t reduce_scratch_offset_ = 0;
  bool reduce_incoming_lower_ = false;
};

}  // namespace halyard::base
