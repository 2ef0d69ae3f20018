// Splitting `count` elements into `blocks` nearly equal contiguous blocks (the first
// count % blocks blocks get one element more). Ring and Rabenseifner allreduce cut the vector
// this way; every rank computes the same offsets, so no sizes travel with the data.
#pragma once

#include <algorithm>
#include <cstddef>

namespace halyard::base {

class BlockPartition {
 public:
  BlockPartition(std::size_t count, std::size_t blocks)
      : base_(count / blocks), extra_(count % blocks) {}

  // First element of block i; offset(blocks) == count.
  std::size_t offset(std::size_t i) const { return i * base_ + std::min(i, extra_); }
  std::size_t length(std::size_t i) const { return base_ + (i < extra_ ? 1 : 0); }

 private:
  std::size_t base_;
  std::size_t extra_;
};

}  // namespace halyard::base
