// Pairwise alltoallv: the pairwise alltoall with a count and displacement per block and side.
#include <cstring>
#include <utility>
#include <vector>

#include "collectives/base/base.hpp"
#include "collectives/base/block_layout.hpp"
#include "collectives/base/byte_span.hpp"
#include "collectives/base/step_machine.hpp"
#include "collectives/core/collective_tag.hpp"
#include "collectives/core/in_place.hpp"

namespace halyard::base {

namespace {

// Step s (1 .. p-1): send my block for rank r + s, receive rank r - s's block for me. Both sides
// of a link know its count (MPI requires them to match), so an empty block sends no message.
class PairwiseAlltoallv final : public StepMachine {
 public:
  PairwiseAlltoallv(const Communicator& comm, int tag, const void* send, BlockLayout send_layout,
                    void* recv, BlockLayout recv_layout, std::vector<std::byte> send_copy)
      : StepMachine(comm, tag),
        send_copy_(std::move(send_copy)),
        send_(send_copy_.empty() ? send : send_copy_.data()),
        send_layout_(std::move(send_layout)),
        recv_(recv),
        recv_layout_(std::move(recv_layout)) {
    const int me = rank();
    if (recv_layout_.bytes(me) != 0) {
      std::memmove(byte_at(recv_, recv_layout_.offset(me)), byte_at(send_, send_layout_.offset(me)),
                   recv_layout_.bytes(me));
    }
  }

 private:
  bool post_next_step() override {
    const int p = size();
    const int s = step_++;
    if (s >= p) return false;
    const int to = (rank() + s) % p;
    const int from = (rank() - s + p) % p;
    if (send_layout_.bytes(to) != 0) {
      send(to, byte_at(send_, send_layout_.offset(to)), send_layout_.bytes(to));
    }
    if (recv_layout_.bytes(from) != 0) {
      recv(from, byte_at(recv_, recv_layout_.offset(from)), recv_layout_.bytes(from));
    }
    return true;
  }

  std::vector<std::byte> send_copy_;  // in place: what recv held, sent from here
  const void* send_;
  BlockLayout send_layout_;
  void* recv_;
  BlockLayout recv_layout_;
  int step_ = 1;
};

}  // namespace

Request ialltoallv_pairwise(const Communicator& comm, const void* send,
                            const std::size_t* send_counts, const std::size_t* send_displacements,
                            void* recv, const std::size_t* recv_counts,
                            const std::size_t* recv_displacements, Datatype type) {
  int tag = next_collective_tag(comm);
  const std::size_t element = datatype_size(type);
  BlockLayout recv_layout(comm.size(), recv_counts, recv_displacements, element);
  if (!core::is_in_place(send)) {
    return StepMachine::launch<PairwiseAlltoallv>(
        comm, tag, send, BlockLayout(comm.size(), send_counts, send_displacements, element), recv,
        std::move(recv_layout), std::vector<std::byte>{});
  }
  // In place (MPI_IN_PLACE): the blocks leave from a copy of recv, laid out as recv is.
  const std::byte* first = byte_at(recv, 0);
  std::vector<std::byte> copy(first, first + recv_layout.extent());
  BlockLayout send_layout = recv_layout;
  return StepMachine::launch<PairwiseAlltoallv>(comm, tag, nullptr, std::move(send_layout), recv,
                                                std::move(recv_layout), std::move(copy));
}

}  // namespace halyard::base
