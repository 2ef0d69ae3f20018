// The shm engine's algorithms (channel.hpp): flat, one chunk (one seq) at a time, each step
// taken only when the flags it needs are up. A step that must wait returns false; the
// progress source calls advance() again on its next pass.
#include <algorithm>
#include <cstring>

#include "collectives/shm/channel.hpp"
#include "collectives/shm/channel_progress.hpp"
#include "runtime/datatypes/reduction.hpp"
#include "runtime/support/copy_bytes.hpp"

namespace halyard::shm {

bool Channel::advance(Call& call) {
  switch (call.collective) {
    case core::Collective::kBarrier:
      return advance_barrier(call);
    case core::Collective::kBcast:
    case core::Collective::kReduce:
      return call.single_copy ? advance_single_copy(call) : advance_rooted(call);
    case core::Collective::kGather:
    case core::Collective::kGatherv:
      return advance_rooted(call);
    case core::Collective::kAllgather:
    case core::Collective::kAllgatherv:
    case core::Collective::kAllreduce:
      return advance_symmetric(call);
    case core::Collective::kScatter:
    case core::Collective::kScatterv:
      return advance_scatter(call);
    case core::Collective::kReduceScatter:
    case core::Collective::kReduceScatterBlock:
    case core::Collective::kAlltoall:
      return call.pairwise ? advance_pairwise_alltoall(call) : advance_own_blocks(call);
    case core::Collective::kAlltoallv:
      return advance_alltoallv(call);
    default:
      break;
  }
  throw Error(ErrorCode::kInternal, "shm: the engine has no algorithm for " +
                                        std::string(core::collective_name(call.collective)));
}

// Flat (one seq): each member publishes the seq (no payload: nothing a slow reader reads can
// change) and leaves once every other has. First out (two): every member but `member` publishes
// the first seq, `member` waits for them all, publishes the second and leaves; the others leave
// once they see it. Last out (two): flat for the first seq; then the others publish the second
// and leave, and `member` waits for them (barrier_order.cpp says which order when).
bool Channel::advance_barrier(Call& call) {
  using Kind = BarrierOrder::Kind;
  const bool named = rank_ == call.barrier.member;
  while (call.chunk < call.chunks) {
    const std::uint64_t seq = seq_of(call);
    const bool second = call.chunk == 1;
    // This member publishes the seq, then waits for every other's, for the named member's, or
    // for nobody's.
    bool writes = true;
    enum class Waits { kEveryone, kNamed, kNobody } waits = Waits::kEveryone;
    if (call.barrier.kind == Kind::kFirstOut) {
      writes = second == named;
      waits = named ? (second ? Waits::kNobody : Waits::kEveryone)
                    : (second ? Waits::kNamed : Waits::kNobody);
    } else if (call.barrier.kind == Kind::kLastOut && second) {
      writes = !named;
      waits = named ? Waits::kEveryone : Waits::kNobody;
    }
    if (writes && !call.published) {
      publish(seq, nullptr, 0, kAllReaders);
      call.published = true;
    }
    if (waits == Waits::kNamed && !posted(call.barrier.member, seq)) return false;
    if (waits == Waits::kEveryone && !all_posted(call, seq)) return false;
    finish_chunk(call);
  }
  return true;
}

// Bcast, reduce and gather(v): one side publishes each chunk once its readers finished what it
// last published in that parity (bcast: the root, read by everyone; reduce and gather(v): the
// others, read by the root), and the other side consumes it (copies it out; reduces every part
// in rank order; copies every block to its place). Gatherv's others learn the number of chunks
// from the root's flag of the first one (only the root knows every count).
bool Channel::advance_rooted(Call& call) {
  const bool bcast = call.collective == core::Collective::kBcast;
  const bool blocks = call.collective != core::Collective::kReduce && !bcast;
  const bool writer = bcast == (rank_ == call.root);
  while (call.chunk < call.chunks) {
    const std::uint64_t seq = seq_of(call);
    const std::size_t offset = offset_of(call);
    const std::size_t length = length_of(call);
    if (writer) {
      if (!call.published) {
        if (!reusable(seq)) return false;
        // A gatherv that may end once its block is out keeps the channel for settling first:
        // after the publish, that reference's atomic add would wait for the flag's store to
        // reach the other cores (keep_for_settling).
        if (call.learns_chunks && call.chunk == 0 && call.chunks == 1) keep_for_settling();
        publish_send(call, seq, offset, blocks ? block_length(call, rank_) : length,
                     bcast ? kAllReaders : call.root);
        call.published = true;
      }
      if (call.learns_chunks && call.chunk == 0) {
        // Gatherv off the root. A block that fits the first chunk is all out: the call ends
        // now, whether or not the root has said how many chunks the call takes (the root waits
        // only for members with data in a chunk).
        if (call.chunks == 1) {
          leave_gatherv(seq, call.root);
          call.chunk = call.chunks;
          return true;
        }
        if (!posted(call.root, seq)) return false;
        set_chunks(call, chunks_told(call.root, seq));
      }
    } else if (bcast) {
      if (!posted(call.root, seq)) return false;
      if (length > 0) copy_bytes(call.recv + offset, payload(call.root, seq, length), length);
    } else {
      if (call.root_tells_chunks) {
        // The root waits, at each chunk, only for the members with data in it.
        const auto has_data = [&](int r) { return block_length(call, r) > 0; };
        if (!tell_gatherv_chunks(call, seq) || !all_needed_posted(call, seq, has_data)) {
          return false;
        }
      } else if (!all_posted(call, seq)) {
        return false;
      }
      if (length == 0) {
      } else if (blocks) {
        place_blocks(call);
      } else {
        reduce_chunk(call, own_part(call, offset, length));
      }
    }
    finish_chunk(call);
  }
  return true;
}

// Bcast and reduce by a single copy on two members (Channel::kSingleCopyMinBytes), one seq and
// no cells: the member whose data moves (bcast: the root; reduce: the other) publishes its
// buffer's address inline; the other copies straight out of that buffer (NodeMemory::read)
// and says so by its done flag, which the publisher waits for before it returns and its buffer
// may change. A failed read fails the reader's call only; it still finishes the seq, so the
// publisher does not wait for ever.
bool Channel::advance_single_copy(Call& call) {
  const std::uint64_t seq = seq_of(call);
  const bool bcast = call.collective == core::Collective::kBcast;
  const int source = bcast ? call.root : 1 - call.root;
  if (rank_ == source) {
    if (!call.published) {
      if (!reusable(seq)) return false;
      const auto address = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(call.send));
      publish(seq, reinterpret_cast<const std::byte*>(&address), sizeof address, kAllReaders);
      call.published = true;
    }
    if (!finished(seq, kAllReaders)) return false;
    finish_chunk(call);
    return true;
  }
  if (!posted(source, seq)) return false;
  const auto* from = reinterpret_cast<const std::byte*>(published_address(source, seq));
  const int world_source = world_ranks_[static_cast<std::size_t>(source)];
  if (bcast) {
    call.status = memory_.read(world_source, from, call.recv, call.bytes);
    finish_chunk(call);
  } else {
    reduce_read(call, world_source, from);
  }
  return true;
}

// A single-copy reduce's root reads the other member's whole part into recv (into scratch when
// it reduces in place), lets that member go (done flag) and only then reduces, in rank order:
// the other member waits for the copy, not for the reduction.
void Channel::reduce_read(Call& call, int world_source, const std::byte* from) {
  std::byte* landing = call.recv;
  if (call.send == call.recv) {
    scratch_.resize(call.bytes);
    landing = scratch_.data();
  }
  call.status = memory_.read(world_source, from, landing, call.bytes);
  finish_chunk(call);
  if (!call.status.ok()) return;
  const std::byte* first = rank_ == 0 ? call.send : landing;
  const std::byte* second = rank_ == 0 ? landing : call.send;
  // Validated with the call; recv is identical to or apart from either input.
  reduce_validated(call.op, call.type, call.recv, first, second,
                   call.bytes / datatype_size(call.type));
}

bool Channel::tell_gatherv_chunks(Call& call, std::uint64_t seq) {
  if (call.chunk != 0 || call.published) return true;
  if (!reusable(seq)) return false;
  tell_chunks(outbox(seq, sizeof call.chunks, kAllReaders), call.chunks);
  post(seq);
  call.published = true;
  return true;
}

bool Channel::settle_gatherv() {
  if (!unsettled_gatherv_) return true;
  const auto [seq, root] = *unsettled_gatherv_;
  if (!posted(root, seq)) return false;
  // Its later chunks, if any, carry nothing this member sends or reads: done with them too.
  next_seq_ = seq + chunks_told(root, seq);
  finish(next_seq_ - 1);
  unsettled_gatherv_.reset();
  return true;
}

void Channel::keep_for_settling() {
  progress_->activate(*this);
}

void Channel::leave_gatherv(std::uint64_t seq, int root) {
  // Not settled here: the root's flag line is in the root's cache, and a look at it would hold
  // this member's call for a cross-core transfer that mostly finds no count yet (the root waits
  // for this very block). The next call on the channel settles it first, or the progress
  // source.
  unsettled_gatherv_ = UnsettledGatherv{seq, root};
  announce();  // for this member's published block
}

bool Channel::publish_part(Call& call, std::uint64_t seq, std::size_t length) {
  if (call.published) return true;
  if (!reusable(seq)) return false;
  if (call.agrees_on_slices) say_whether_sliced(call, seq);
  publish_send(call, seq, offset_of(call), length, kAllReaders);
  call.published = true;
  return true;
}

void Channel::publish_packed(const Call& call, std::uint64_t seq, std::size_t offset,
                             std::size_t length, int reader) {
  // Packed here first, then copied into the cell whole. Packed straight into the cell, each
  // 16-byte store of the pack took its line back from the other member's cache (it read the
  // cell the last time this parity was used): 158-167 us per MiB of blocks of 8 doubles on 2
  // ranks, against 72-78 for the pack here and one copy_bytes (a `rep movsb`, which writes
  // whole lines) into the cell; the 1 MiB vector allreduce went from 263-272 to 183-200 us
  // (docs/benchmarks.md, "Vector allreduce: the pack's prefetch distance").
  std::byte* to = outbox(seq, length, reader);
  if (length > 0) {
    staged_part_.resize(length);
    call.layouts->send->pack(offset, length, staged_part_.data());
    copy_bytes(to, staged_part_.data(), length);
  }
  post(seq);
}

const std::byte* Channel::packed_own_part(const Call& call, std::size_t offset,
                                          std::size_t length) {
  own_chunk_.resize(call.chunk_bytes);
  call.layouts->send->pack(offset, length, own_chunk_.data());
  return own_chunk_.data();
}

// Allgather(v) and allreduce, symmetric: everyone publishes its part, chunk by chunk (a flag
// alone where its block has no more), and consumes everyone's: copies each block to its place
// (allgather(v)), or reduces all parts in rank order so every rank computes the same bits
// (allreduce; its own part is read back from where it published it, so in place works).
bool Channel::advance_symmetric(Call& call) {
  if (call.sliced) return advance_sliced_allreduce(call);
  const bool reduce = call.collective == core::Collective::kAllreduce;
  while (call.chunk < call.chunks) {
    const std::uint64_t seq = seq_of(call);
    const std::size_t length = reduce ? length_of(call) : block_length(call, rank_);
    if (!publish_part(call, seq, length)) return false;
    if (!all_posted(call, seq)) return false;
    if (call.agrees_on_slices) {
      call.agrees_on_slices = false;
      call.sliced = either_wants_slices(seq);
      if (call.sliced) return advance_sliced_allreduce(call);
    }
    if (!reduce) {
      place_blocks(call);
    } else if (length > 0) {
      reduce_chunk(call, payload(rank_, seq, length));
    }
    finish_chunk(call);
  }
  return true;
}

// Everyone publishes its part; each rank reduces its slice of every part (in rank order) over
// its own part of that slice (slice_result) and says so; everyone copies the slices out. Each
// rank reads about twice the vector instead of every rank's whole part.
bool Channel::advance_sliced_allreduce(Call& call) {
  while (call.chunk < call.chunks) {
    const std::uint64_t seq = seq_of(call);
    const std::size_t length = length_of(call);
    if (!publish_part(call, seq, length)) return false;
    if (!call.reduced) {
      if (!all_posted(call, seq)) return false;
      const auto [from, bytes] = slice_of(call, rank_);
      if (bytes > 0) {
        reduce_parts(call.op, call.type, seq, length, from, bytes, payload(rank_, seq, length),
                     slice_result(rank_, seq, from));
      }
      store_seq(headers_[static_cast<std::size_t>(rank_)]->result[seq & 1], seq);
      announce();
      call.reduced = true;
      call.next_peer = 0;
    }
    if (!all_reduced(call, seq)) {
      publish_next_part(call);
      return false;
    }
    for (int r = 0; r < size_; ++r) {
      const auto [from, bytes] = slice_of(call, r);
      if (bytes > 0) place_result(call, offset_of(call) + from, slice_result(r, seq, from), bytes);
    }
    finish_chunk(call);
  }
  return true;
}

// The next chunk's parity holds this rank's slice of the chunk before this one, free once every
// member's done flag says it finished that chunk. A post no longer proves that here (a member
// that published ahead has not), so the flags themselves are read, not reusable()'s estimate.
// Publishing early tells the others the same untruth about this rank (Channel::posted); nobody
// acts on it before this rank's slice of the next chunk, which it reduces only after it
// finished this one.
void Channel::publish_next_part(Call& call) {
  if (call.published_next || call.chunk + 1 >= call.chunks) return;
  const std::uint64_t seq = seq_of(call);
  const std::size_t offset = offset_of(call) + call.chunk_bytes;
  if (offset >= call.bytes) return;
  for (int r = 0; r < size_; ++r) {
    if (r != rank_ && load_seq(headers_[static_cast<std::size_t>(r)]->done) < seq - 1) return;
  }
  const std::uint64_t next = seq + 1;
  publish_send(call, next, offset, std::min(call.chunk_bytes, call.bytes - offset), kAllReaders);
  call.published_next = true;
}

// Scatter(v): the root publishes each chunk with every member's piece of it in that member's slot
// (its payload divided in size() slots of chunk_bytes), and copies its own block at once; each
// member copies its slot out, and once it has its whole block leaves the chunks that remain
// (they carry nothing for it). Scatterv's others learn the number of chunks from the root's
// flag line of the first one (its payload is in the cell then).
bool Channel::advance_scatter(Call& call) {
  const std::size_t payload_bytes = call.chunk_bytes * static_cast<std::size_t>(size_);
  while (call.chunk < call.chunks) {
    const std::uint64_t seq = seq_of(call);
    const std::size_t offset = offset_of(call);
    if (rank_ == call.root) {
      if (!reusable(seq)) return false;
      std::byte* out = outbox(seq, payload_bytes, kAllReaders);
      for (int r = 0; r < size_; ++r) {
        const std::size_t length = block_length(call, r);
        if (r == rank_ || length == 0) continue;
        copy_bytes(out + static_cast<std::size_t>(r) * call.chunk_bytes,
                   call.send + block_offset(call, r) + offset, length);
      }
      if (call.root_tells_chunks && call.chunk == 0) {
        tell_chunks(headers_[static_cast<std::size_t>(rank_)]->post[seq & 1].data, call.chunks);
      }
      post(seq);
      const std::size_t own = block_bytes(call, rank_);
      if (call.chunk == 0 && call.recv != nullptr && own > 0) {
        copy_bytes(call.recv, call.send + block_offset(call, rank_), own);
      }
    } else {
      if (!posted(call.root, seq)) return false;
      if (call.learns_chunks && call.chunk == 0) set_chunks(call, chunks_told(call.root, seq));
      const std::size_t length = block_length(call, rank_);
      if (length > 0) {
        copy_bytes(call.recv + offset,
                   payload(call.root, seq, payload_bytes) +
                       static_cast<std::size_t>(rank_) * call.chunk_bytes,
                   length);
      }
      if (offset + call.chunk_bytes >= block_bytes(call, rank_)) call.chunk = call.chunks - 1;
    }
    finish_chunk(call);
  }
  return true;
}

// Reduce-scatter(_block) and alltoall: everyone publishes its input (alltoall: its whole send
// vector), chunk by chunk, and takes its own block's part of each chunk from every member:
// reduce-scatter reduces the parts (in rank order) from the cells straight into recv, as the
// sliced allreduce reduces its slice; alltoall copies member r's part to block r of recv (its
// own from its send buffer). A chunk that holds none of this rank's block is published and
// left at once. In place (reduce-scatter), results land below the input not yet published.
bool Channel::advance_own_blocks(Call& call) {
  const bool reduce = call.collective != core::Collective::kAlltoall;
  const std::size_t mine = block_offset(call, rank_);
  const std::size_t mine_end = mine + block_bytes(call, rank_);
  while (call.chunk < call.chunks) {
    const std::uint64_t seq = seq_of(call);
    const std::size_t offset = offset_of(call);
    const std::size_t length = length_of(call);
    if (!publish_part(call, seq, length)) return false;
    const std::size_t from = std::max(offset, mine);
    const std::size_t to = std::min(offset + length, mine_end);
    if (from < to) {
      if (!all_posted(call, seq)) return false;
      if (reduce) {
        reduce_parts(call.op, call.type, seq, length, from - offset, to - from,
                     payload(rank_, seq, length), call.recv + (from - mine));
      } else {
        for (int r = 0; r < size_; ++r) {
          const std::byte* part =
              r == rank_ ? call.send + from : payload(r, seq, length) + (from - offset);
          copy_bytes(call.recv + block_offset(call, r) + (from - mine), part, to - from);
        }
      }
    }
    finish_chunk(call);
  }
  return true;
}

bool Channel::advance_pairwise_alltoall(Call& call) {
  const std::size_t block = call.bytes;
  const std::uint64_t chunks_per_step = call.chunks / static_cast<std::uint64_t>(size_ - 1);
  while (call.chunk < call.chunks) {
    const std::uint64_t seq = seq_of(call);
    const int step = static_cast<int>(call.chunk / chunks_per_step) + 1;
    const std::size_t offset = (call.chunk % chunks_per_step) * call.chunk_bytes;
    const std::size_t length = std::min(call.chunk_bytes, block - offset);
    if (!call.published) {
      const int to = (rank_ + step) % size_;
      if (!reusable(seq)) return false;
      publish(seq, call.send + static_cast<std::size_t>(to) * block + offset, length, to);
      call.published = true;
      if (call.chunk == 0) {  // this rank's own block, once, after its first part is out
        const std::size_t own = static_cast<std::size_t>(rank_) * block;
        copy_bytes(call.recv + own, call.send + own, block);
      }
    }
    const int from = (rank_ - step + size_) % size_;
    if (!posted(from, seq)) return false;
    copy_bytes(call.recv + static_cast<std::size_t>(from) * block + offset,
               payload(from, seq, length), length);
    finish_chunk(call);
  }
  return true;
}

}  // namespace halyard::shm
