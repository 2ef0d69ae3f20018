// Ring and pairwise reduce-scatter, with a count per block: block r of the reduced vector ends
// at rank r. reduce_scatter_block is the case of equal counts.
#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include "collectives/base/base.hpp"
#include "collectives/base/block_layout.hpp"
#include "collectives/base/byte_span.hpp"
#include "collectives/base/small_buffer.hpp"
#include "collectives/base/step_machine.hpp"
#include "collectives/core/collective_tag.hpp"
#include "collectives/core/in_place.hpp"
#include "runtime/datatypes/reduction.hpp"

namespace halyard::base {

namespace {

// Step s (0 .. p-2) sends a partial block to the right and receives the left neighbour's partial
// block (r - s - 2) into `incoming_`: step 0 sends block (r - 1) of the input itself; each later
// step first reduces what came in with this rank's own part of that block into `partial_` and
// sends that on. After p - 1 steps the block that came in last is block r with every other
// rank's contribution, and reducing this rank's part into it gives the result. Every rank knows
// every count, so empty blocks send no message. Two blocks of scratch, from the scratch pool:
// a copy of the whole input, allocated per call, took 154 ms for 16 MiB blocks on 2 ranks where
// the shm engine takes 3.4 (docs/collectives.md, "The gather family"), since each call faulted
// its pages in anew.
class RingReduceScatter final : public StepMachine {
 public:
  RingReduceScatter(const Communicator& comm, int tag, const void* input, void* recv,
                    BlockLayout layout, Datatype type, Op op)
      : StepMachine(comm, tag),
        input_(input),
        recv_(recv),
        layout_(std::move(layout)),
        type_(type),
        op_(op),
        element_(datatype_size(type)) {
    std::size_t largest = 0;
    for (int r = 0; r < size(); ++r) largest = std::max(largest, layout_.bytes(r));
    incoming_.allocate(largest);
    partial_.allocate(largest);
  }

 private:
  bool post_next_step() override {
    const int p = size();
    const int s = step_++;
    const int me = rank();
    if (s == p - 1) {
      finish(block(me - s - 1));
      return false;
    }
    const int outgoing = block(me - s - 1);
    const int incoming = block(me - s - 2);
    if (const std::size_t bytes = layout_.bytes(outgoing); bytes != 0) {
      const std::byte* out = s == 0 ? input_at(outgoing) : partial_.data();
      if (s > 0) reduce_incoming(outgoing, partial_.data());
      send((me + 1) % p, out, bytes);
    }
    if (layout_.bytes(incoming) != 0) {
      recv((me + p - 1) % p, incoming_.data(), layout_.bytes(incoming));
    }
    return true;
  }

  // Block `b` (this rank's own) once every other part of it came in: reduced into recv; in
  // place, where recv also holds the input and a later block may overlap its start, through
  // `partial_`.
  void finish(int b) {
    const std::size_t bytes = layout_.bytes(b);
    if (bytes == 0) return;
    if (size() == 1) {
      std::memmove(recv_, input_at(b), bytes);
      return;
    }
    if (input_ == recv_) {
      reduce_incoming(b, partial_.data());
      std::memcpy(recv_, partial_.data(), bytes);
    } else {
      reduce_incoming(b, static_cast<std::byte*>(recv_));
    }
  }

  // The left neighbour's partial block (received last step) first, then this rank's part: ranks
  // further left come first in the result.
  void reduce_incoming(int b, std::byte* out) {
    reduce_to(op_, type_, out, incoming_.data(), input_at(b), layout_.bytes(b) / element_);
  }

  int block(int index) const { return ((index % size()) + size()) % size(); }
  const std::byte* input_at(int b) const { return byte_at(input_, layout_.offset(b)); }

  const void* input_;
  void* recv_;
  BlockLayout layout_;
  Datatype type_;
  Op op_;
  std::size_t element_;
  SmallBuffer<256> incoming_;  // the left neighbour's partial block
  SmallBuffer<256> partial_;   // the partial block this step sends on
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
