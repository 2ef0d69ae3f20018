// Ring and pairwise reduce-scatter, with a count per block: block r of the reduced vector ends
// at rank r. reduce_scatter_block is the case of equal counts.
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

// Step s (1 .. p-1): send my input's block (r + s) straight to its owner and receive rank
// (r - s)'s contribution to my block into its own slot. After the last step the p contributions
// are reduced in rank order (x_0 op x_1 op ... op x_{p-1}), so the result holds for ops that do
// not commute too. Each rank keeps p copies of its own block only.
class PairwiseReduceScatter final : public StepMachine {
 public:
  PairwiseReduceScatter(const Communicator& comm, int tag, const void* input, void* recv,
                        BlockLayout layout, Datatype type, Op op)
      : StepMachine(comm, tag),
        input_(input),
        recv_(recv),
        layout_(std::move(layout)),
        type_(type),
        op_(op),
        mine_(layout_.bytes(rank())) {
    slots_.resize(static_cast<std::size_t>(size()) * mine_);
    if (mine_ != 0) std::memcpy(slot(rank()), byte_at(input_, layout_.offset(rank())), mine_);
  }

 private:
  bool post_next_step() override {
    const int p = size();
    const int s = step_++;
    if (s == p) {
      reduce_in_rank_order();
      return false;
    }
    const int to = (rank() + s) % p;
    const int from = (rank() - s + p) % p;
    if (layout_.bytes(to) != 0) send(to, byte_at(input_, layout_.offset(to)), layout_.bytes(to));
    if (mine_ != 0) recv(from, slot(from), mine_);
    return true;
  }

  void reduce_in_rank_order() {
    if (mine_ == 0) return;
    const std::size_t count = mine_ / datatype_size(type_);
    std::memcpy(recv_, slot(0), mine_);
    for (int r = 1; r < size(); ++r) reduce_to(op_, type_, recv_, recv_, slot(r), count);
  }

  std::byte* slot(int r) { return slots_.data() + static_cast<std::size_t>(r) * mine_; }

  const void* input_;
  void* recv_;
  BlockLayout layout_;
  Datatype type_;
  Op op_;
  std::size_t mine_;              // bytes of this rank's block
  std::vector<std::byte> slots_;  // every rank's contribution to it, in rank order
  int step_ = 1;
};

enum class ReduceScatterAlgorithm { kRing, kPairwise };

Request start_reduce_scatter(const Communicator& comm, const void* send, void* recv,
                             BlockLayout layout, Datatype type, Op op,
                             ReduceScatterAlgorithm algorithm) {
  int tag = next_collective_tag(comm);
  if (layout.extent() == 0) return Request::make_completed(comm.loop(), Status{});
  // In place, the input is the whole of recv (MPI_IN_PLACE).
  const void* input = core::is_in_place(send) ? recv : send;
  if (algorithm == ReduceScatterAlgorithm::kPairwise) {
    return StepMachine::launch<PairwiseReduceScatter>(comm, tag, input, recv, std::move(layout),
                                                      type, op);
  }
  return StepMachine::launch<RingReduceScatter>(comm, tag, input, recv, std::move(layout), type,
                                                op);
}

// reduce_scatter_block: `count` elements per rank.
Request start_equal_blocks(const Communicator& comm, const void* send, void* recv,
                           std::size_t count, Datatype type, Op op,
                           ReduceScatterAlgorithm algorithm) {
  return start_reduce_scatter(comm, send, recv,
                              BlockLayout::uniform(comm.size(), count, datatype_size(type)), type,
                              op, algorithm);
}

// reduce_scatter: counts[r] elements for rank r.
Request start_counted_blocks(const Communicator& comm, const void* send, void* recv,
                             const std::size_t* counts, Datatype type, Op op,
                             ReduceScatterAlgorithm algorithm) {
  return start_reduce_scatter(comm, send, recv,
                              BlockLayout(comm.size(), counts, nullptr, datatype_size(type)), type,
                              op, algorithm);
}

}  // namespace

Request ireduce_scatter_block_ring(const Communicator& comm, const void* send, void* recv,
                                   std::size_t count, Datatype type, Op op) {
  return start_equal_blocks(comm, send, recv, count, type, op, ReduceScatterAlgorithm::kRing);
}

Request ireduce_scatter_ring(const Communicator& comm, const void* send, void* recv,
                             const std::size_t* counts, Datatype type, Op op) {
  return start_counted_blocks(comm, send, recv, counts, type, op, ReduceScatterAlgorithm::kRing);
}

Request ireduce_scatter_block_pairwise(const Communicator& comm, const void* send, void* recv,
                                       std::size_t count, Datatype type, Op op) {
  return start_equal_blocks(comm, send, recv, count, type, op, ReduceScatterAlgorithm::kPairwise);
}

Request ireduce_scatter_pairwise(const Communicator& comm, const void* send, void* recv,
                                 const std::size_t* counts, Datatype type, Op op) {
  return start_counted_blocks(comm, send, recv, counts, type, op,
                              ReduceScatterAlgorithm::kPairwise);
}

}  // namespace halyard::base
