// BlockLayout: where each rank's block lies in a buffer that holds one block per rank, in bytes
// (the receive buffer of gatherv, allgatherv and alltoallv, the send buffer of scatterv and
// alltoallv, the input of reduce-scatter). The v-variants' algorithms copy the caller's counts
// and displacements into one when they start, so the caller's arrays need to live only during
// the call, and a step reads its offsets without multiplying again.
//
// Up to kInlineRanks blocks live inside the object: a small v-variant call allocated and freed
// its two std::vectors on every call, and moving a layout (into a call's plan, into a step
// machine) copies only the blocks in use.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>

namespace halyard::base {

class BlockLayout {
 public:
  static constexpr std::size_t kInlineRanks = 8;

  BlockLayout() = default;

  // Block r holds counts[r] elements of `element_bytes` at element displacements[r]; with no
  // displacements the blocks follow each other in rank order (reduce-scatter's input).
  BlockLayout(int ranks, const std::size_t* counts, const std::size_t* displacements,
              std::size_t element_bytes) {
    Block* blocks = make_room(static_cast<std::size_t>(ranks));
    std::size_t next = 0;
    for (std::size_t r = 0; r < ranks_; ++r) {
      blocks[r].bytes = counts[r] * element_bytes;
      blocks[r].offset = displacements != nullptr ? displacements[r] * element_bytes : next;
      next = blocks[r].offset + blocks[r].bytes;
    }
  }

  // `ranks` blocks of `count` elements each, one after the other.
  static BlockLayout uniform(int ranks, std::size_t count, std::size_t element_bytes) {
    BlockLayout layout;
    Block* blocks = layout.make_room(static_cast<std::size_t>(ranks));
    const std::size_t bytes = count * element_bytes;
    for (std::size_t r = 0; r < layout.ranks_; ++r) blocks[r] = {bytes, r * bytes};
    return layout;
  }

  BlockLayout(const BlockLayout& other) { copy_from(other); }
  BlockLayout& operator=(const BlockLayout& other) {
    if (this != &other) copy_from(other);
    return *this;
  }
  BlockLayout(BlockLayout&& other) noexcept { take_from(other); }
  BlockLayout& operator=(BlockLayout&& other) noexcept {
    if (this != &other) take_from(other);
    return *this;
  }
  ~BlockLayout() = default;

  std::size_t bytes(int rank) const { return blocks()[static_cast<std::size_t>(rank)].bytes; }
  std::size_t offset(int rank) const { return blocks()[static_cast<std::size_t>(rank)].offset; }

  // The bytes from the buffer's start to the end of its last block.
  std::size_t extent() const {
    std::size_t end = 0;
    for (std::size_t r = 0; r < ranks_; ++r) {
      const Block& block = blocks()[r];
      if (block.bytes != 0) end = std::max(end, block.offset + block.bytes);
    }
    return end;
  }

 private:
  struct Block {
    std::size_t bytes;
    std::size_t offset;
  };

  const Block* blocks() const { return heap_ ? heap_.get() : in_place_; }
  Block* make_room(std::size_t ranks) {
    ranks_ = ranks;
    if (ranks <= kInlineRanks) {
      heap_.reset();
      return in_place_;
    }
    heap_ = std::make_unique_for_overwrite<Block[]>(ranks);
    return heap_.get();
  }
  void copy_from(const BlockLayout& other) {
    std::memcpy(make_room(other.ranks_), other.blocks(), other.ranks_ * sizeof(Block));
  }
  void take_from(BlockLayout& other) noexcept {
    ranks_ = other.ranks_;
    heap_ = std::move(other.heap_);
    if (!heap_) std::memcpy(in_place_, other.in_place_, ranks_ * sizeof(Block));
    other.ranks_ = 0;
  }

  std::size_t ranks_ = 0;
  Block in_place_[kInlineRanks];  // written before read: blocks 0..ranks_-1 only
  std::unique_ptr<Block[]> heap_;
};

}  // namespace halyard::base
