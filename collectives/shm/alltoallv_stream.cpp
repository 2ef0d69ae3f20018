// Alltoallv on the shm engine. A reader knows how much each member sends it (its receive
// counts) but not where that block lies in the member's send buffer, so every member publishes
// a stream: a header, then its blocks for the others in rank order,
//
//   [chunks][offset of member 0's block] ... [offset of member p-1's block][blocks...]
//
// (8-byte words; offsets from the stream's start; its own block is not in it), cut into
// chunks of a cell each. At the first chunk every member reads every other member's header:
// where its own block starts in that stream, and how many chunks that stream takes; the call
// then runs as many chunks as the longest stream, so every member counts the same seqs without
// anyone telling them. Each chunk, a member publishes the next cell's worth of its stream (an
// empty one once it has sent everything) and copies the parts of its blocks that lie in the
// others' cells.
#include <algorithm>
#include <cstring>

#include "collectives/core/in_place.hpp"
#include "collectives/shm/channel.hpp"
#include "runtime/support/copy_bytes.hpp"

namespace halyard::shm {

namespace {

constexpr std::size_t kWord = sizeof(std::uint64_t);

std::size_t header_bytes(int members) {
  return kWord * (static_cast<std::size_t>(members) + 1);
}

std::uint64_t word_at(const std::byte* at) {
  std::uint64_t word = 0;
  std::memcpy(&word, at, sizeof word);
  return word;
}

void put_word(std::byte* at, std::uint64_t word) {
  std::memcpy(at, &word, sizeof word);
}

}  // namespace

void Channel::plan_alltoallv(Call& call, const core::CollArgs& args, std::size_t element) const {
  const bool in_place = core::is_in_place(args.send);
  call.varied = true;
  call.blocks = base::BlockLayout(size_, args.counts, args.displacements, element);
  // In place, the blocks leave from recv, laid out as its counts say.
  call.send_blocks =
      in_place ? call.blocks
               : base::BlockLayout(size_, args.send_counts, args.send_displacements, element);
  std::size_t stream = header_bytes(size_);
  for (int r = 0; r < size_; ++r) {
    if (r != rank_) stream += call.send_blocks.bytes(r);
  }
  call.stream_bytes = stream;
  call.bytes = stream;  // chunked over the stream: this rank's own chunk count
  call.chunk_bytes = cell_bytes_;
  const std::size_t own_chunks = (stream + cell_bytes_ - 1) / cell_bytes_;
  if (in_place && own_chunks > 1) {
    // Blocks arriving in one chunk would overwrite blocks this rank sends in a later one.
    const std::size_t extent = call.send_blocks.extent();
    call.send_copy.assign(call.recv, call.recv + extent);
    call.send = call.send_copy.data();
  }
}

void Channel::publish_stream_chunk(const Call& call, std::uint64_t seq) {
  const std::size_t begin = offset_of(call);
  const std::size_t end = std::min(begin + call.chunk_bytes, call.stream_bytes);
  if (begin >= end) {
    publish(seq, nullptr, 0, kAllReaders);  // this rank's stream has ended: the flag alone
    return;
  }
  std::byte* cell = cells_[static_cast<std::size_t>(rank_)] + (seq & 1) * cell_bytes_;
  payload_seq_[seq & 1] = seq;
  payload_reader_[seq & 1] = kAllReaders;
  std::size_t position = header_bytes(size_);
  if (begin == 0) {
    put_word(cell, (call.stream_bytes + cell_bytes_ - 1) / cell_bytes_);
    std::size_t offset = position;
    for (int r = 0; r < size_; ++r) {
      put_word(cell + kWord * (static_cast<std::size_t>(r) + 1), offset);
      if (r != rank_) offset += call.send_blocks.bytes(r);
    }
  }
  for (int r = 0; r < size_ && position < end; ++r) {
    if (r == rank_) continue;
    const std::size_t bytes = call.send_blocks.bytes(r);
    const std::size_t from = std::max(position, begin);
    const std::size_t to = std::min(position + bytes, end);
    if (from < to) {
      copy_bytes(cell + (from - begin), call.send + call.send_blocks.offset(r) + (from - position),
                 to - from);
    }
    position += bytes;
  }
  store_seq(headers_[static_cast<std::size_t>(rank_)]->post[seq & 1], seq);
  announce();
}

void Channel::read_stream_chunk(Call& call, std::uint64_t seq) {
  const std::size_t begin = offset_of(call);
  const std::size_t end = begin + call.chunk_bytes;
  for (int r = 0; r < size_; ++r) {
    if (r == rank_) continue;
    const std::size_t start = call.stream_offsets[static_cast<std::size_t>(r)];
    const std::size_t bytes = call.blocks.bytes(r);
    const std::size_t from = std::max(start, begin);
    const std::size_t to = std::min(start + bytes, end);
    if (from >= to) continue;
    const std::byte* cell = cells_[static_cast<std::size_t>(r)] + (seq & 1) * cell_bytes_;
    copy_bytes(call.recv + call.blocks.offset(r) + (from - start), cell + (from - begin),
               to - from);
  }
}

bool Channel::advance_alltoallv(Call& call) {
  while (call.chunk < call.chunks) {
    const std::uint64_t seq = seq_of(call);
    if (!call.published) {
      if (!reusable(seq)) return false;
      publish_stream_chunk(call, seq);
      call.published = true;
    }
    if (!all_posted(call, seq)) return false;
    if (call.chunk == 0) {
      // Every header is out: where this rank's block lies in each stream, and the longest one.
      std::uint64_t chunks = call.chunks;
      call.stream_offsets.assign(static_cast<std::size_t>(size_), 0);
      for (int r = 0; r < size_; ++r) {
        if (r == rank_) continue;
        const std::byte* cell = cells_[static_cast<std::size_t>(r)] + (seq & 1) * cell_bytes_;
        chunks = std::max(chunks, word_at(cell));
        call.stream_offsets[static_cast<std::size_t>(r)] =
            word_at(cell + kWord * (static_cast<std::size_t>(rank_) + 1));
      }
      set_chunks(call, chunks);
      // This rank's block to itself, in place already where send is recv.
      const std::size_t own = call.blocks.bytes(rank_);
      const std::byte* from = call.send + call.send_blocks.offset(rank_);
      std::byte* to = call.recv + call.blocks.offset(rank_);
      if (own > 0 && from != to) copy_bytes(to, from, own);
    }
    read_stream_chunk(call, seq);
    finish_chunk(call);
  }
  return true;
}

}  // namespace halyard::shm
