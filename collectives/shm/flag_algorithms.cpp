// The shm engine's algorithms (channel.hpp): flat, one chunk (one seq) at a time, each step
// taken only when the flags it needs are up. A step that must wait returns false; the
// progress source calls advance() again on its next pass.
#include <cstring>

#include "collectives/shm/channel.hpp"

namespace halyard::shm {

bool Channel::advance(Call& call) {
  switch (call.collective) {
    case core::Collective::kBarrier:
      return advance_barrier(call);
    case core::Collective::kBcast:
    case core::Collective::kReduce:
    case core::Collective::kGather:
      return advance_rooted(call);
    case core::Collective::kAllgather:
    case core::Collective::kAllreduce:
      return advance_symmetric(call);
    default:
      break;
  }
  throw Error(ErrorCode::kInternal, "shm: the engine has no algorithm for " +
                                        std::string(core::collective_name(call.collective)));
}

// Two ranks: each publishes the seq (no payload: nothing a slow reader reads can change) and
// waits for the other's, one flag each way. More ranks: gather and release through rank 0 (two
// seqs: everyone tells rank 0, then rank 0 tells everyone), so a rank reads one line instead
// of every member's, and rank 0 leaves first, ahead of the others.
bool Channel::advance_barrier(Call& call) {
  while (call.chunk < call.chunks) {
    const std::uint64_t seq = seq_of(call);
    const bool release = call.chunks == 2 && call.chunk == 1;
    const bool gather = call.chunks == 2 && call.chunk == 0;
    const bool writes = release ? rank_ == 0 : !(gather && rank_ == 0);
    if (writes && !call.published) {
      publish(seq, nullptr, 0, kAllReaders);
      call.published = true;
    }
    if (release) {
      if (rank_ != 0 && !posted(0, seq)) return false;
    } else if (!(gather && rank_ != 0) && !all_posted(call, seq)) {
      return false;
    }
    finish_chunk(call);
  }
  return true;
}

// Bcast, reduce and gather: one side publishes each chunk once its readers finished what it
// last published in that parity (bcast: the root, read by everyone; reduce and gather: the
// others, read by the root), and the other side consumes it (copies it out; reduces every part
// in rank order; copies every block to its place).
bool Channel::advance_rooted(Call& call) {
  const bool bcast = call.collective == core::Collective::kBcast;
  const bool writer = bcast == (rank_ == call.root);
  while (call.chunk < call.chunks) {
    const std::uint64_t seq = seq_of(call);
    const std::size_t offset = offset_of(call);
    const std::size_t length = length_of(call);
    if (writer) {
      if (!reusable(seq)) return false;
      publish(seq, call.send + offset, length, bcast ? kAllReaders : call.root);
    } else if (bcast) {
      if (!posted(call.root, seq)) return false;
      if (length > 0) std::memcpy(call.recv + offset, payload(call.root, seq, length), length);
    } else {
      if (!all_posted(call, seq)) return false;
      if (length == 0) {
      } else if (call.collective == core::Collective::kGather) {
        place_blocks(call);
      } else {
        reduce_chunk(call, call.send + offset);
      }
    }
    finish_chunk(call);
  }
  return true;
}

bool Channel::publish_part(Call& call, std::uint64_t seq, std::size_t length) {
  if (call.published) return true;
  if (!reusable(seq)) return false;
  publish(seq, call.send + offset_of(call), length, kAllReaders);
  call.published = true;
  return true;
}

// Allgather and allreduce, symmetric: everyone publishes its part, chunk by chunk, and consumes
// everyone's: copies each block to its place (allgather), or reduces all parts in rank order so
// every rank computes the same bits (allreduce; its own part is read back from where it
// published it, so in place works).
bool Channel::advance_symmetric(Call& call) {
  if (call.sliced) return advance_sliced_allreduce(call);
  const bool reduce = call.collective == core::Collective::kAllreduce;
  while (call.chunk < call.chunks) {
    const std::uint64_t seq = seq_of(call);
    const std::size_t length = length_of(call);
    if (!publish_part(call, seq, length)) return false;
    if (!all_posted(call, seq)) return false;
    if (length > 0) {
      if (reduce) {
        reduce_chunk(call, payload(rank_, seq, length));
      } else {
        place_blocks(call);
      }
    }
    finish_chunk(call);
  }
  return true;
}

// Everyone publishes its part; each rank reduces its slice of every part (in rank order) into
// the second half of its cell and says so; everyone copies the slices out. Each rank reads
// about twice the vector instead of every rank's whole part.
bool Channel::advance_sliced_allreduce(Call& call) {
  while (call.chunk < call.chunks) {
    const std::uint64_t seq = seq_of(call);
    const std::size_t length = length_of(call);
    if (!publish_part(call, seq, length)) return false;
    if (!call.reduced) {
      if (!all_posted(call, seq)) return false;
      const auto [from, bytes] = slice_of(call, rank_);
      if (bytes > 0) {
        reduce_parts(call, seq, length, from, bytes, payload(rank_, seq, length),
                     result_area(rank_, seq));
      }
      store_seq(headers_[static_cast<std::size_t>(rank_)]->result[seq & 1], seq);
      announce();
      call.reduced = true;
      call.next_peer = 0;
    }
    if (!all_reduced(call, seq)) return false;
    std::byte* out = call.recv + offset_of(call);
    for (int r = 0; r < size_; ++r) {
      const auto [from, bytes] = slice_of(call, r);
      if (bytes > 0) std::memcpy(out + from, result_area(r, seq), bytes);
    }
    finish_chunk(call);
  }
  return true;
}

}  // namespace halyard::shm
