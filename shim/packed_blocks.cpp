#include "shim/packed_blocks.hpp"

#include <algorithm>
#include <utility>

namespace halyard::mpi_shim {

namespace {

// The same block as the one before it: the send side of a neighborhood allgather names one
// block per neighbour; it is packed once.
bool repeats(std::span<const TypedBlock> blocks, std::size_t i) {
  return i > 0 && blocks[i].origin == blocks[i - 1].origin &&
         blocks[i].count == blocks[i - 1].count && blocks[i].type == blocks[i - 1].type;
}

}  // namespace

std::size_t data_bytes(std::span<const TypedBlock> blocks) {
  std::size_t bytes = 0;
  for (const TypedBlock& block : blocks) bytes += block.count * block.type->size;
  return bytes;
}

PackedBlocks::PackedBlocks(const void* buf, std::span<const TypedBlock> blocks,
                           TypedBuffer::Use use) {
  // One pass for the usual case, every block contiguous: no allocation up to kInlineBlocks
  // ranks (the counts and displacements the collective reads); small v-variant calls are mostly
  // this and their checks.
  const std::size_t n = blocks.size();
  counts_.resize(n);
  displacements_.resize(n);
  bool contiguous = true;
  MPI_Aint lowest = 0;  // the user's memory, based at the lowest start if a block starts below
  for (std::size_t i = 0; i < n; ++i) {
    const TypedBlock& block = blocks[i];
    counts_[i] = block.count * block.type->size;
    if (counts_[i] == 0) continue;  // no data: its displacement stays 0
    if (!block.type->contiguous_for(block.count)) {
      contiguous = false;
      continue;
    }
    const MPI_Aint start = block.origin + block.type->map.front().offset;
    lowest = std::min(lowest, start);
    displacements_[i] = static_cast<std::size_t>(start);  // from `lowest` once it is known
  }
  if (contiguous) {
    base_ = address_at(buf, lowest);
    for (std::size_t i = 0; i < n; ++i) {
      if (counts_[i] != 0) displacements_[i] -= static_cast<std::size_t>(lowest);
    }
    return;
  }
  std::size_t packed = 0;
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    if (repeats(blocks, i)) {
      displacements_[i] = displacements_[i - 1];
      continue;
    }
    displacements_[i] = packed;
    packed += counts_[i];
  }
  staging_ = staging_memory(packed);
  base_ = staging_.get();
  for (const TypedBlock& block : blocks) {
    staged_blocks_.push_back(
        {address_at(buf, block.origin), block.count, block.type->shared_from_this()});
  }
  unpack_ = use != TypedBuffer::Use::kSend;
  if (use == TypedBuffer::Use::kReceive) return;
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    if (!repeats(blocks, i)) pack_block(i);
  }
}

void PackedBlocks::pack_block(std::size_t i) const {
  if (!staged() || counts_[i] == 0) return;
  const StagedBlock& block = staged_blocks_[i];
  pack(*block.type, block.origin, block.count, block_data(i));
}

CompletionStep PackedBlocks::unpack_step() const {
  if (!staged() || !unpack_) return {};
  return [blocks = *this](const Status&) {
    for (std::size_t i = 0; i < blocks.counts_.size(); ++i) {
      const StagedBlock& block = blocks.staged_blocks_[i];
      if (blocks.counts_[i] == 0) continue;
      unpack(*block.type, blocks.block_data(i), blocks.counts_[i], block.origin, block.count);
    }
  };
}

CompletionStep both_steps(CompletionStep first, CompletionStep second) {
  if (!first) return second;
  if (!second) return first;
  return [first = std::move(first), second = std::move(second)](const Status& status) {
    first(status);
    second(status);
  };
}

}  // namespace halyard::mpi_shim
