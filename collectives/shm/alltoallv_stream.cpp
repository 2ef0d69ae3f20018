// Alltoallv on the shm engine. A reader knows how much each member sends it (its receive
// counts) but not where that block lies in the member's send buffer, so every member publishes
// a stream: a header, then its blocks for the others, starting with the next rank's,
//
//   [chunks][offset of member 0's block] ... [offset of member p-1's block][blocks...]
//
// (8-byte words; offsets from the stream's start; its own block is not in it), cut into
// chunks of a cell each. At the first chunk every member reads every other member's header:
// where its own block starts in that stream, and how many chunks that stream takes; the call
// then runs as many chunks as the longest stream, so every member counts the same seqs without
// anyone telling them. Each chunk, a member publishes the next cell's worth of its stream (an
// empty one once it has sent everything) and copies the parts of its blocks that lie in the
// others' cells, waiting only for the members that have some. Member r's stream holds the
// blocks for r + 1, r + 2, ... in that order, so with blocks alike a chunk holds one block's
// part for each reader, not every member's block for the same few readers: every member
// copies as much as the others at each chunk (as in advance_pairwise_alltoall).
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

// A stream of `stream_bytes` in chunks of `cell_bytes`.
std::uint64_t stream_chunks(std::size_t stream_bytes, std::size_t cell_bytes) {
  return (stream_bytes + cell_bytes - 1) / cell_bytes;
}

// Writes bytes [begin, end) of member `me`'s stream into `cell`: its header where the range
// starts the stream, then the parts of its blocks for the others that fall in the range.
// `bytes(r)` and `at(r)`: the block for member r and where it lies in the send buffer.
template <class Bytes, class At>
void write_stream(std::byte* cell, std::size_t begin, std::size_t end, std::uint64_t chunks,
                  int members, int me, Bytes bytes, At at) {
  std::size_t position = header_bytes(members);
  if (begin == 0) {
    put_word(cell, chunks);
    put_word(cell + kWord * (static_cast<std::size_t>(me) + 1), position);  // no block
    std::size_t offset = position;
    for (int step = 1; step < members; ++step) {
      const int r = (me + step) % members;
      put_word(cell + kWord * (static_cast<std::size_t>(r) + 1), offset);
      offset += bytes(r);
    }
  }
  for (int step = 1; step < members && position < end; ++step) {
    const int r = (me + step) % members;
    const std::size_t length = bytes(r);
    const std::size_t from = std::max(position, begin);
    const std::size_t to = std::min(position + length, end);
    if (from < to) copy_bytes(cell + (from - begin), at(r) + (from - position), to - from);
    position += length;
  }
}

// Copies the part of this rank's block from member r that lies in r's cell of the chunk that
// holds stream bytes [begin, begin + cell_bytes): `start` is where the block starts in r's
// stream, `length` its bytes.
void read_block(std::byte* to, const std::byte* cell, std::size_t begin, std::size_t cell_bytes,
                std::size_t start, std::size_t length) {
  const std::size_t from = std::max(start, begin);
  const std::size_t end = std::min(start + length, begin + cell_bytes);
  if (from < end) copy_bytes(to + (from - start), cell + (from - begin), end - from);
}

}  // namespace

// A stream's chunk always lies in the cell, even where it would fit the flag line: its readers
// do not know its length. Asked for as a whole cell's payload.
std::byte* Channel::stream_outbox(std::uint64_t seq, int reader) {
  return outbox(seq, cell_bytes_, reader);
}
const std::byte* Channel::stream_payload(int rank, std::uint64_t seq) const {
  return payload(rank, seq, cell_bytes_);
}

void Channel::plan_alltoallv(Call& call, const core::CollArgs& args, std::size_t element) const {
  const bool in_place = core::is_in_place(args.send);
  call.varied = true;
  call.blocks = base::BlockLayout(size_, args.counts, args.displacements, element);
  // In place, the blocks leave from recv, laid out as its counts say.
  call.send_blocks =
      in_place ? call.blocks
               : base::BlockLayout(size_, args.send_counts, args.send_displacements, element);
  call.bytes = alltoallv_stream_bytes(args);  // chunked over the stream: its own chunk count
  call.chunk_bytes = cell_bytes_;
  if (in_place && stream_chunks(call.bytes, cell_bytes_) > 1) {
    // Blocks arriving in one chunk would overwrite blocks this rank sends in a later one.
    call.send_copy.assign(call.recv, call.recv + call.send_blocks.extent());
    call.send = call.send_copy.data();
  }
}

// The one member whose block holds all of stream bytes [begin, end), which may then be
// reused once that member alone is done with them; kAllReaders where the range holds the
// header or parts of several blocks.
int Channel::stream_reader(const Call& call, std::size_t begin, std::size_t end) const {
  std::size_t position = header_bytes(size_);
  if (begin < position) return kAllReaders;
  for (int step = 1; step < size_; ++step) {
    const int r = (rank_ + step) % size_;
    const std::size_t length = call.send_blocks.bytes(r);
    if (begin >= position && end <= position + length) return r;
    if (position + length > begin) return kAllReaders;  // the range starts in r's, ends past it
    position += length;
  }
  return kAllReaders;
}

void Channel::publish_stream_chunk(const Call& call, std::uint64_t seq) {
  const std::size_t begin = offset_of(call);
  const std::size_t end = std::min(begin + call.chunk_bytes, call.bytes);
  if (begin >= end) {
    publish(seq, nullptr, 0, kAllReaders);  // this rank's stream has ended: the flag alone
    return;
  }
  write_stream(
      stream_outbox(seq, stream_reader(call, begin, end)), begin, end,
      stream_chunks(call.bytes, cell_bytes_), size_, rank_,
      [&](int r) { return call.send_blocks.bytes(r); },
      [&](int r) { return call.send + call.send_blocks.offset(r); });
  post(seq);
}

void Channel::read_stream_chunk(Call& call, std::uint64_t seq) {
  for (int r = 0; r < size_; ++r) {
    if (r == rank_) continue;
    read_block(call.recv + call.blocks.offset(r), stream_payload(r, seq), offset_of(call),
               call.chunk_bytes, call.stream_offsets[static_cast<std::size_t>(r)],
               call.blocks.bytes(r));
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
    // Past the first chunk (every header read), only the members with a part of this rank's
    // block in this chunk.
    const std::size_t begin = offset_of(call);
    const auto has_part = [&](int r) {
      const std::size_t start = call.stream_offsets[static_cast<std::size_t>(r)];
      return start < begin + call.chunk_bytes && start + call.blocks.bytes(r) > begin;
    };
    if (call.chunk == 0 ? !all_posted(call, seq) : !all_needed_posted(call, seq, has_part)) {
      return false;
    }
    if (call.chunk == 0) {
      // Every header is out: where this rank's block lies in each stream, and the longest one.
      std::uint64_t chunks = call.chunks;
      call.stream_offsets.assign(static_cast<std::size_t>(size_), 0);
      for (int r = 0; r < size_; ++r) {
        if (r == rank_) continue;
        const std::byte* cell = stream_payload(r, seq);
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

std::size_t Channel::alltoallv_stream_bytes(const core::CollArgs& args) const {
  const bool in_place = core::is_in_place(args.send);
  const std::size_t* counts = in_place ? args.counts : args.send_counts;
  std::size_t elements = 0;
  for (int r = 0; r < size_; ++r) {
    if (r != rank_) elements += counts[static_cast<std::size_t>(r)];
  }
  return header_bytes(size_) + elements * datatype_size(args.type);
}

// The first chunk straight from the arguments (fits_single_chunk: this rank's stream is one
// chunk, so in place nothing it still sends can be overwritten): the call ends here when every
// stream is one chunk; otherwise (or while a member has not published) the general path takes
// it over at its first chunk, published.
Channel::SingleChunk Channel::start_single_chunk_alltoallv(const core::CollArgs& args) {
  const std::uint64_t seq = next_seq_;
  if (!reusable(seq)) return SingleChunk::kNotStarted;
  ++next_seq_;
  const std::size_t element = datatype_size(args.type);
  const bool in_place = core::is_in_place(args.send);
  auto* recv = static_cast<std::byte*>(args.recv);
  const std::byte* send = in_place ? recv : static_cast<const std::byte*>(args.send);
  const std::size_t* send_counts = in_place ? args.counts : args.send_counts;
  const std::size_t* send_displacements = in_place ? args.displacements : args.send_displacements;
  write_stream(
      stream_outbox(seq, kAllReaders), 0, alltoallv_stream_bytes(args), 1, size_, rank_,
      [&](int r) { return send_counts[static_cast<std::size_t>(r)] * element; },
      [&](int r) { return send + send_displacements[static_cast<std::size_t>(r)] * element; });
  post(seq);
  int next_peer = 0;
  if (!all_posted_from(next_peer, seq)) return SingleChunk::kPublished;
  for (int r = 0; r < size_; ++r) {
    if (r != rank_ && word_at(stream_payload(r, seq)) != 1) {
      return SingleChunk::kPublished;  // a longer stream: the general path reads on
    }
  }
  const auto me = static_cast<std::size_t>(rank_);
  for (int r = 0; r < size_; ++r) {
    const auto i = static_cast<std::size_t>(r);
    std::byte* to = recv + args.displacements[i] * element;
    const std::size_t length = args.counts[i] * element;
    if (r == rank_) {
      const std::byte* from = send + send_displacements[i] * element;
      if (length > 0 && from != to) copy_bytes(to, from, length);
      continue;
    }
    const std::byte* other = stream_payload(r, seq);
    read_block(to, other, 0, cell_bytes_, word_at(other + kWord * (me + 1)), length);
  }
  finish(seq);
  return SingleChunk::kEnded;
}

}  // namespace halyard::shm
