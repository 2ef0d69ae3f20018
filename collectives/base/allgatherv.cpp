// Ring allgatherv: the ring allgather with a count and displacement per block.
#include <cstring>
#include <utility>

#include "collectives/base/base.hpp"
#include "collectives/base/block_layout.hpp"
#include "collectives/base/byte_span.hpp"
#include "collectives/base/step_machine.hpp"
#include "collectives/core/collective_tag.hpp"
#include "collectives/core/in_place.hpp"

namespace halyard::base {

namespace {

// Step s (0 .. p-2): send block (r - s) to the right, receive block (r - s - 1) from the left,
// each straight into its place. Every rank knows every count, so an empty block is skipped on
// both sides of its link.
class RingAllgatherv final : public StepMachine {
 public:
  RingAllgatherv(const Communicator& comm, int tag, void* recv, BlockLayout layout)
      : StepMachine(comm, tag), recv_(recv), layout_(std::move(layout)) {}

 private:
  bool post_next_step() override {
    const int p = size();
    const int s = step_++;
    if (s >= p - 1) return false;
    const int outgoing = (rank() - s + p) % p;
    const int incoming = (rank() - s - 1 + p) % p;
    if (layout_.bytes(outgoing) != 0) {
      send((rank() + 1) % p, byte_at(recv_, layout_.offset(outgoing)), layout_.bytes(outgoing));
    }
    if (layout_.bytes(incoming) != 0) {
      recv((rank() + p - 1) % p, byte_at(recv_, layout_.offset(incoming)), layout_.bytes(incoming));
    }
    return true;
  }

  void* recv_;
  BlockLayout layout_;
  int step_ = 0;
};

}  // namespace

Request iallgatherv_ring(const Communicator& comm, const void* send, std::size_t count, void* recv,
                         const std::size_t* counts, const std::size_t* displacements,
                         Datatype type) {
  int tag = next_collective_tag(comm);
  BlockLayout layout(comm.size(), counts, displacements, datatype_size(type));
  const std::size_t own = count * datatype_size(type);  // counts[me] elements, by MPI's rule
  if (!core::is_in_place(send) && own != 0) {
    std::memcpy(byte_at(recv, layout.offset(comm.rank())), send, own);
  }
  return StepMachine::launch<RingAllgatherv>(comm, tag, recv, std::move(layout));
}

}  // namespace halyard::base
