// Pairwise-exchange and Bruck alltoall.
#include <cstring>
#include <memory>
#include <vector>

#include "collectives/base/base.hpp"
#include "collectives/base/byte_span.hpp"
#include "collectives/base/step_machine.hpp"
#include "collectives/core/collective_tag.hpp"

namespace halyard::base {

namespace {

// Step s (1 .. p-1): send block (r + s) to rank r + s and receive block (r - s) from rank r - s.
// One send and one receive per rank per step keeps every link busy without flooding any
// receiver, and every byte moves once, straight into place: best for large blocks.
class PairwiseAlltoall final : public StepMachine {
 public:
  PairwiseAlltoall(const Communicator& comm, int tag, const void* send, void* recv,
                   std::size_t block_bytes)
      : StepMachine(comm, tag), send_(send), recv_(recv), block_(block_bytes) {}

 private:
  bool post_next_step() override {
    int p = size();
    int s = step_++;
    if (s >= p) return false;
    int to = (rank() + s) % p;
    int from = (rank() - s + p) % p;
    send(to, byte_at(send_, static_cast<std::size_t>(to) * block_), block_);
    recv(from, byte_at(recv_, static_cast<std::size_t>(from) * block_), block_);
    return true;
  }

  const void* send_;
  void* recv_;
  std::size_t block_;
  int step_ = 1;
};

// Bruck: ceil(log2 p) steps instead of p - 1, each moving about half the blocks, so small
// blocks pay log2 p latencies instead of p. The working buffer holds at index i the block
// destined for rank r + i (a rotation of send). Step k (distance d = 2^k) sends every block
// whose index has bit k set to rank r + d and receives the same indices from r - d; after the
// last step index i holds the block that rank r - i sent to r, which a final rotation puts at
// recv[r - i].
class BruckAlltoall final : public StepMachine {
 public:
  BruckAlltoall(const Communicator& comm, int tag, const void* send, void* recv,
                std::size_t block_bytes)
      : StepMachine(comm, tag), recv_(recv), block_(block_bytes) {
    const int p = size();
    work_.resize(static_cast<std::size_t>(p) * block_);
    for (int i = 0; i < p; ++i) {
      std::memcpy(at(i), byte_at(send, static_cast<std::size_t>((rank() + i) % p) * block_),
                  block_);
    }
    outgoing_.resize(static_cast<std::size_t>((p + 1) / 2) * block_);
    incoming_.resize(outgoing_.size());
  }

 private:
  bool post_next_step() override {
    const int p = size();
    if (distance_ > 1) unpack(distance_ / 2);  // what the previous step received
    if (distance_ >= p) {
      for (int i = 0; i < p; ++i) {
        std::memcpy(byte_at(recv_, static_cast<std::size_t>((rank() - i + p) % p) * block_), at(i),
                    block_);
      }
      return false;
    }
    const int d = distance_;
    distance_ *= 2;
    std::size_t n = 0;
    for (int i = d; i < p; ++i) {
      if ((i & d) != 0) std::memcpy(outgoing_.data() + block_ * n++, at(i), block_);
    }
    send((rank() + d) % p, outgoing_.data(), n * block_);
    recv((rank() - d + p) % p, incoming_.data(), n * block_);
    return true;
  }

  void unpack(int d) {
    std::size_t n = 0;
    for (int i = d; i < size(); ++i) {
      if ((i & d) != 0) std::memcpy(at(i), incoming_.data() + block_ * n++, block_);
    }
  }

  std::byte* at(int index) { return work_.data() + static_cast<std::size_t>(index) * block_; }

  void* recv_;
  std::size_t block_;
  int distance_ = 1;
  std::vector<std::byte> work_;
  std::vector<std::byte> outgoing_;  // blocks sent in this step, packed
  std::vector<std::byte> incoming_;  // blocks received in this step, packed
};

enum class AlltoallAlgorithm { kPairwise, kBruck };

Request start_alltoall(const Communicator& comm, const void* send, void* recv, std::size_t count,
                       Datatype type, AlltoallAlgorithm algorithm) {
  const std::size_t block = count * datatype_size(type);
  int tag = next_collective_tag(comm);
  if (count == 0) return Request::make_completed(comm.loop(), Status{});
  if (algorithm == AlltoallAlgorithm::kBruck) {
    return StepMachine::launch<BruckAlltoall>(comm, tag, send, recv, block);
  }
  std::size_t own = static_cast<std::size_t>(comm.rank()) * block;
  std::memcpy(byte_at(recv, own), byte_at(send, own), block);
  return StepMachine::launch<PairwiseAlltoall>(comm, tag, send, recv, block);
}

}  // namespace

Request ialltoall_pairwise(const Communicator& comm, const void* send, void* recv,
                           std::size_t count, Datatype type) {
  return start_alltoall(comm, send, recv, count, type, AlltoallAlgorithm::kPairwise);
}

Request ialltoall_bruck(const Communicator& comm, const void* send, void* recv, std::size_t count,
                        Datatype type) {
  return start_alltoall(comm, send, recv, count, type, AlltoallAlgorithm::kBruck);
}

}  // namespace halyard::base
