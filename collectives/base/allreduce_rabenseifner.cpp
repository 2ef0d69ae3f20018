// Rabenseifner's allreduce: reduce-scatter by recursive halving, then allgather by recursive
// doubling. Each rank moves about 2 * count elements in total instead of count * log2 p, so it
// wins for large vectors while keeping logarithmic latency.
#include <memory>

#include "collectives/base/allreduce_machine.hpp"
#include "collectives/base/base.hpp"
#include "collectives/base/block_partition.hpp"
#include "collectives/core/collective_tag.hpp"

namespace halyard::base {

namespace {

// The vector is cut into pof2 blocks. Halving level with distance m: this rank and its partner
// (folded rank ^ m) share the blocks [base(2m), +2m); each keeps the m-block half holding its own
// block index and reduces it with the partner's copy. After all levels folded rank f owns block f
// fully reduced; doubling then swaps whole owned ranges back with the same partners.
class RabenseifnerAllreduce final : public AllreduceMachine {
 public:
  RabenseifnerAllreduce(const Communicator& comm, int tag, const void* send, void* recv,
                        std::size_t count, Datatype type, Op op)
      : AllreduceMachine(comm, tag, send, recv, count, type, op, count),
        fold_(comm.rank(), comm.size()),
        blocks_(count, static_cast<std::size_t>(fold_.pof2)) {}

 private:
  bool post_next_step() override {
    apply_scheduled_reduce();
    int step = step_++;
    int levels = fold_.levels;
    if (step == 0) {
      post_fold_in(fold_);
    } else if (step <= levels) {
      if (!fold_.sits_out()) halve(fold_.pof2 >> step);
    } else if (step <= 2 * levels) {
      if (!fold_.sits_out()) double_up(1 << (step - levels - 1));
    } else if (step == 2 * levels + 1) {
      post_fold_out(fold_);
    } else {
      return false;
    }
    return true;
  }

  // Element range of the `width` blocks starting at the aligned block of folded rank `f`.
  std::size_t range_begin(int f, int width) const {
    return blocks_.offset(static_cast<std::size_t>(f & ~(width - 1)));
  }
  std::size_t range_end(int f, int width) const {
    return blocks_.offset(static_cast<std::size_t>((f & ~(width - 1)) + width));
  }

  void halve(int distance) {
    int me = fold_.folded_rank;
    int partner_folded = me ^ distance;
    int partner = fold_.real_rank(partner_folded);
    std::size_t keep_begin = range_begin(me, distance);
    std::size_t keep_end = range_end(me, distance);
    std::size_t give_begin = range_begin(partner_folded, distance);
    std::size_t give_end = range_end(partner_folded, distance);
    send(partner, acc(give_begin), (give_end - give_begin) * element_bytes());
    recv(partner, scratch(keep_begin), (keep_end - keep_begin) * element_bytes());
    schedule_reduce(keep_begin, keep_end - keep_begin, keep_begin, partner < rank());
  }

  void double_up(int distance) {
    int me = fold_.folded_rank;
    int partner_folded = me ^ distance;
    int partner = fold_.real_rank(partner_folded);
    std::size_t mine_begin = range_begin(me, distance);
    std::size_t mine_end = range_end(me, distance);
    std::size_t theirs_begin = range_begin(partner_folded, distance);
    std::size_t theirs_end = range_end(partner_folded, distance);
    send(partner, acc(mine_begin), (mine_end - mine_begin) * element_bytes());
    recv(partner, acc(theirs_begin), (theirs_end - theirs_begin) * element_bytes());
  }

  PowerOfTwoFold fold_;
  BlockPartition blocks_;
  int step_ = 0;
};

}  // namespace

Request iallreduce_rabenseifner(const Communicator& comm, const void* send, void* recv,
                                std::size_t count, Datatype type, Op op) {
  int tag = next_collective_tag(comm);
  if (count == 0) return Request::make_completed(comm.loop(), Status{});
  return StepMachine::launch<RabenseifnerAllreduce>(comm, tag, send, recv, count, type, op);
}

}  // namespace halyard::base
