// Ring reduce-scatter (the first half of the ring allreduce), with a count per block: block r of
// the reduced vector ends at rank r. reduce_scatter_block is the case of equal counts.
#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include "collectives/base/base.hpp"
#include "collectives/base/block_layout.hpp"
#include "collectives/base/byte_span.hpp"
#include "collectives/base/step_machine.hpp"
#include "collectives/core/collective_tag.hpp"
#include "collectives/core/in_place.hpp"
#include "runtime/datatypes/reduction.hpp"

namespace halyard::base {

namespace {

// The whole input is copied to a working vector. Step s (0 .. p-2) sends the partial block
// (r - s - 1) to the right and receives the left neighbour's partial block (r - s - 2), which
// the next step reduces into the working vector before sending it on. After p - 1 steps block r
// holds every rank's contribution and is copied to recv. Every rank knows every count, so empty
// blocks send no message.
class RingReduceScatter final : public StepMachine {
 public:
  RingReduceScatter(const Communicator& comm, int tag, const void* input, void* recv,
                    BlockLayout layout, Datatype type, Op op)
      : StepMachine(comm, tag),
        recv_(recv),
        layout_(std::move(layout)),
        type_(type),
        op_(op),
        element_(datatype_size(type)) {
    const std::byte* first = byte_at(input, 0);
    work_.assign(first, first + layout_.extent());
    std::size_t largest = 0;
    for (int r = 0; r < size(); ++r) largest = std::max(largest, layout_.bytes(r));
    incoming_.resize(largest);
  }

 private:
  bool post_next_step() override {
    const int p = size();
    const int s = step_++;
    if (s > 0) reduce_incoming(block(rank() - s - 1));
    if (s == p - 1) {
      const int me = rank();
      if (layout_.bytes(me) != 0) std::memcpy(recv_, at(me), layout_.bytes(me));
      return false;
    }
    const int outgoing = block(rank() - s - 1);
    const int incoming = block(rank() - s - 2);
    if (layout_.bytes(outgoing) != 0) send((rank() + 1) % p, at(outgoing), layout_.bytes(outgoing));
    if (layout_.bytes(incoming) != 0) {
      recv((rank() + p - 1) % p, incoming_.data(), layout_.bytes(incoming));
    }
    return true;
  }

  // The left neighbour's partial block (received last step) first, then this rank's: ranks
  // further left come first in the result.
  void reduce_incoming(int b) {
    const std::size_t bytes = layout_.bytes(b);
    if (bytes == 0) return;
    reduce_to(op_, type_, at(b), incoming_.data(), at(b), bytes / element_);
  }

  int block(int index) const { return ((index % size()) + size()) % size(); }
  std::byte* at(int b) { return work_.data() + layout_.offset(b); }

  void* recv_;
  BlockLayout layout_;
  Datatype type_;
  Op op_;
  std::size_t element_;
  std::vector<std::byte> work_;
  std::vector<std::byte> incoming_;
  int step_ = 0;
};

Request start_reduce_scatter(const Communicator& comm, const void* send, void* recv,
                             BlockLayout layout, Datatype type, Op op) {
  int tag = next_collective_tag(comm);
  if (layout.extent() == 0) return Request::make_completed(comm.loop(), Status{});
  // In place, the input is the whole of recv (MPI_IN_PLACE).
  const void* input = core::is_in_place(send) ? recv : send;
  return StepMachine::launch<RingReduceScatter>(comm, tag, input, recv, std::move(layout), type,
                                                op);
}

}  // namespace

Request ireduce_scatter_block_ring(const Communicator& comm, const void* send, void* recv,
                                   std::size_t count, Datatype type, Op op) {
  return start_reduce_scatter(
      comm, send, recv, BlockLayout::uniform(comm.size(), count, datatype_size(type)), type, op);
}

Request ireduce_scatter_ring(const Communicator& comm, const void* send, void* recv,
                             const std::size_t* counts, Datatype type, Op op) {
  return start_reduce_scatter(
      comm, send, recv, BlockLayout(comm.size(), counts, nullptr, datatype_size(type)), type, op);
}

}  // namespace halyard::base
