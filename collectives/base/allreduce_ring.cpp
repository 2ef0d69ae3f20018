// Ring allreduce: a reduce-scatter ring then an allgather ring over p blocks. Every rank sends
// and receives 2 (p-1)/p of the vector, the bandwidth optimum, in 2 (p-1) steps; the blocks flow
// around the ring as a pipeline, so large vectors need no further segmentation.
#include <memory>

#include "collectives/base/allreduce_machine.hpp"
#include "collectives/base/base.hpp"
#include "collectives/base/block_partition.hpp"
#include "collectives/core/collective_tag.hpp"

namespace halyard::base {

namespace {

// Reduce-scatter step s (0 .. p-2): send block (r - s) to the right, receive block (r - s - 1)
// from the left and reduce it in. After it rank r owns block (r + 1) fully reduced. Allgather
// step s: send block (r + 1 - s), receive block (r - s) straight into place.
class RingAllreduce final : public AllreduceMachine {
 public:
  RingAllreduce(const Communicator& comm, int tag, const void* send, void* recv, std::size_t count,
                Datatype type, Op op)
      : AllreduceMachine(comm, tag, send, recv, count, type, op,
                         BlockPartition(count, static_cast<std::size_t>(comm.size())).length(0)),
        blocks_(count, static_cast<std::size_t>(comm.size())) {}

 private:
  bool post_next_step() override {
    apply_scheduled_reduce();
    int p = size();
    int step = step_++;
    if (step >= 2 * (p - 1)) return false;
    int right = (rank() + 1) % p;
    int left = (rank() + p - 1) % p;
    if (step < p - 1) {
      std::size_t out = block(rank() - step);
      std::size_t in = block(rank() - step - 1);
      send(right, acc(blocks_.offset(out)), blocks_.length(out) * element_bytes());
      recv(left, scratch(0), blocks_.length(in) * element_bytes());
      // Every block is combined on one rank at a time and then copied around, so all ranks end
      // with the same bits whatever the operand order.
      schedule_reduce(blocks_.offset(in), blocks_.length(in), 0, false);
    } else {
      int s = step - (p - 1);
      std::size_t out = block(rank() + 1 - s);
      std::size_t in = block(rank() - s);
      send(right, acc(blocks_.offset(out)), blocks_.length(out) * element_bytes());
      recv(left, acc(blocks_.offset(in)), blocks_.length(in) * element_bytes());
    }
    return true;
  }

  std::size_t block(int index) const {
    int p = size();
    return static_cast<std::size_t>(((index % p) + p) % p);
  }

  BlockPartition blocks_;
  int step_ = 0;
};

}  // namespace

Request iallreduce_ring(const Communicator& comm, const void* send, void* recv, std::size_t count,
                        Datatype type, Op op) {
  int tag = next_collective_tag(comm);
  if (count == 0) return Request::make_completed(comm.loop(), Status{});
  return StepMachine::launch<RingAllreduce>(comm, tag, send, recv, count, type, op);
}

}  // namespace halyard::base
