// Ring and Bruck allgather.
#include <algorithm>
#include <cstring>
#include <memory>

#include "collectives/base/base.hpp"
#include "collectives/base/byte_span.hpp"
#include "collectives/base/step_machine.hpp"
#include "collectives/core/collective_tag.hpp"
#include "collectives/core/in_place.hpp"

namespace halyard::base {

namespace {

// Step s (0 .. p-2): send block (r - s) to the right, receive block (r - s - 1) from the left,
// each straight into its final place. p-1 steps of one block: best for large blocks.
class RingAllgather final : public StepMachine {
 public:
  RingAllgather(const Communicator& comm, int tag, void* recv, std::size_t block_bytes)
      : StepMachine(comm, tag), recv_(recv), block_(block_bytes) {}

 private:
  bool post_next_step() override {
    int p = size();
    int s = step_++;
    if (s >= p - 1) return false;
    send((rank() + 1) % p, at(rank() - s), block_);
    recv((rank() + p - 1) % p, at(rank() - s - 1), block_);
    return true;
  }

  std::byte* at(int index) const {
    int p = size();
    return byte_at(recv_, static_cast<std::size_t>(((index % p) + p) % p) * block_);
  }

  void* recv_;
  std::size_t block_;
  int step_ = 0;
};

// Bruck: the receive buffer holds blocks in the order r, r+1, ... (own block first). Step k with
// distance d = 2^k sends the first min(d, p - d) blocks to r - d and appends as many from r + d.
// After ceil(log2 p) steps one rotation puts block i at index i. Best for small blocks: fewest
// messages.
class BruckAllgather final : public StepMachine {
 public:
  BruckAllgather(const Communicator& comm, int tag, void* recv, std::size_t block_bytes)
      : StepMachine(comm, tag), recv_(recv), block_(block_bytes) {}

 private:
  bool post_next_step() override {
    int p = size();
    int distance = distance_;
    if (distance >= p) {
      if (!rotated_) {
        rotated_ = true;
        // Index j holds block (r + j) mod p; rotate so that block 0 comes first.
        std::byte* begin = byte_at(recv_, 0);
        std::byte* end = begin + static_cast<std::size_t>(p) * block_;
        std::rotate(begin, begin + static_cast<std::size_t>(p - rank()) % p * block_, end);
      }
      return false;
    }
    distance_ *= 2;
    std::size_t blocks = static_cast<std::size_t>(std::min(distance, p - distance));
    send((rank() - distance + p) % p, byte_at(recv_, 0), blocks * block_);
    recv((rank() + distance) % p, byte_at(recv_, static_cast<std::size_t>(distance) * block_),
         blocks * block_);
    return true;
  }

  void* recv_;
  std::size_t block_;
  int distance_ = 1;
  bool rotated_ = false;
};

enum class AllgatherAlgorithm { kRing, kBruck };

Request start_allgather(const Communicator& comm, const void* send, void* recv, std::size_t count,
                        Datatype type, AllgatherAlgorithm algorithm) {
  const std::size_t block = count * datatype_size(type);
  int tag = next_collective_tag(comm);
  if (count == 0) return Request::make_completed(comm.loop(), Status{});
  std::size_t own = static_cast<std::size_t>(comm.rank()) * block;
  if (algorithm == AllgatherAlgorithm::kRing) {
    if (!core::is_in_place(send)) std::memcpy(byte_at(recv, own), send, block);
    return StepMachine::launch<RingAllgather>(comm, tag, recv, block);
  }
  // Bruck works with the own block at index 0 (block 0's old content is output space).
  if (core::is_in_place(send)) {
    if (own != 0) std::memcpy(recv, byte_at(recv, own), block);
  } else {
    std::memcpy(recv, send, block);
  }
  return StepMachine::launch<BruckAllgather>(comm, tag, recv, block);
}

}  // namespace

Request iallgather_ring(const Communicator& comm, const void* send, void* recv, std::size_t count,
                        Datatype type) {
  return start_allgather(comm, send, recv, count, type, AllgatherAlgorithm::kRing);
}

Request iallgather_bruck(const Communicator& comm, const void* send, void* recv, std::size_t count,
                         Datatype type) {
  return start_allgather(comm, send, recv, count, type, AllgatherAlgorithm::kBruck);
}

}  // namespace halyard::base
