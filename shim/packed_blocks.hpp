// The blocks of one buffer that the v, w and neighborhood collectives name (block i: `count`
// items of a datatype, `origin` bytes from the buffer's address), seen as the bytes Halyard's
// collectives move: one base address and each block's byte count and byte displacement from it.
//
// When every non-empty block is one contiguous run of bytes, the base is the user's buffer and
// nothing is copied. A block that starts below the buffer's address (a negative displacement,
// or a negative true lower bound) moves the base down to the lowest start, so the displacements
// stay unsigned. Otherwise (a type with holes in any block) all blocks are packed one after the
// other into one staging buffer: packed at once where the buffer is sent, unpacked into the
// user's memory by the completion step where it is received (MPI_Wait / MPI_Test for the
// I-forms: only a request that succeeded writes into the user's buffer). The step holds the
// staging buffer and the datatypes until then.
#pragma once

#include <mpi.h>

#include <boost/container/small_vector.hpp>
#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "shim/datatype_object.hpp"
#include "shim/typed_buffer.hpp"

namespace halyard::mpi_shim {

// `count` items of `type`, the first one's origin `origin` bytes from the buffer's address.
struct TypedBlock {
  MPI_Aint origin;
  std::size_t count;
  const TypeObject* type;
};

// Per-rank arrays of a call, held inline up to this many ranks: a small v-variant call made five
// allocations and frees (half its instructions) when they were std::vectors.
inline constexpr std::size_t kInlineBlocks = 16;
using TypedBlocks = boost::container::small_vector<TypedBlock, kInlineBlocks>;
using BlockBytes = boost::container::small_vector<std::size_t, kInlineBlocks>;

// The bytes of data `blocks` hold (their items' sizes, holes left out).
std::size_t data_bytes(std::span<const TypedBlock> blocks);

class PackedBlocks {
 public:
  PackedBlocks() = default;  // no blocks
  // `use`: kSend packs every block now, kReceive packs none, kSendAndReceive packs every block
  // and unpacks every block at completion (an in-place alltoall's buffer).
  PackedBlocks(const void* buf, std::span<const TypedBlock> blocks, TypedBuffer::Use use);

  // Where Halyard finds the blocks: within the user's buffer or the staging buffer.
  std::byte* data() const { return base_; }
  const BlockBytes& counts() const { return counts_; }
  const BlockBytes& displacements() const { return displacements_; }
  std::byte* block_data(std::size_t i) const { return base_ + displacements_[i]; }
  bool staged() const { return staging_ != nullptr; }

  // Packs block i (staged only): the own block of an in-place gather, which the others receive.
  void pack_block(std::size_t i) const;
  // Unpacks every block into the user's buffer; empty when nothing is staged for receiving.
  CompletionStep unpack_step() const;

 private:
  struct StagedBlock {
    std::byte* origin;  // in the user's memory
    std::size_t count;
    std::shared_ptr<const TypeObject> type;  // lives on if the caller frees the datatype
  };

  std::byte* base_ = nullptr;
  BlockBytes counts_;
  BlockBytes displacements_;
  std::vector<StagedBlock> staged_blocks_;  // parallel to counts_ when staged
  std::shared_ptr<std::byte> staging_;
  bool unpack_ = false;
};

// Runs `first`, then `second`; either may be empty.
CompletionStep both_steps(CompletionStep first, CompletionStep second);

}  // namespace halyard::mpi_shim
