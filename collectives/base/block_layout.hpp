// BlockLayout: where each rank's block lies in a buffer that holds one block per rank, in bytes
// (the receive buffer of gatherv, allgatherv and alltoallv, the send buffer of scatterv and
// alltoallv, the input of reduce-scatter). The v-variants' algorithms copy the caller's counts
// and displacements into one when they start, so the caller's arrays need to live only during
// the call, and a step reads its offsets without multiplying again.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace halyard::base {

class BlockLayout {
 public:
  BlockLayout() = default;

  // Block r holds counts[r] elements of `element_bytes` at element displacements[r]; with no
  // displacements the blocks follow each other in rank order (reduce-scatter's input).
  BlockLayout(int ranks, const std::size_t* counts, const std::size_t* displacements,
              std::size_t element_bytes)
      : bytes_(static_cast<std::size_t>(ranks)), offsets_(static_cast<std::size_t>(ranks)) {
    std::size_t next = 0;
    for (std::size_t r = 0; r < bytes_.size(); ++r) {
      bytes_[r] = counts[r] * element_bytes;
      offsets_[r] = displacements != nullptr ? displacements[r] * element_bytes : next;
      next = offsets_[r] + bytes_[r];
    }
  }

  // `ranks` blocks of `count` elements each, one after the other.
  static BlockLayout uniform(int ranks, std::size_t count, std::size_t element_bytes) {
    std::vector<std::size_t> counts(static_cast<std::size_t>(ranks), count);
    return BlockLayout(ranks, counts.data(), nullptr, element_bytes);
  }

  std::size_t bytes(int rank) const { return bytes_[static_cast<std::size_t>(rank)]; }
  std::size_t offset(int rank) const { return offsets_[static_cast<std::size_t>(rank)]; }

  // The bytes from the buffer's start to the end of its last block.
  std::size_t extent() const {
    std::size_t end = 0;
    for (std::size_t r = 0; r < bytes_.size(); ++r) {
      if (bytes_[r] != 0) end = std::max(end, offsets_[r] + bytes_[r]);
    }
    return end;
  }

 private:
  std::vector<std::size_t> bytes_;
  std::vector<std::size_t> offsets_;
};

}  // namespace halyard::base
