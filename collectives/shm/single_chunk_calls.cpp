// The shm engine's single-chunk calls (channel.hpp, Channel::start_single_chunk): a call of one
// seq, run from its arguments. Each step is the general algorithm's (flag_algorithms.cpp:
// advance_rooted, advance_symmetric, advance_scatter, advance_own_blocks, advance_barrier) for
// a call of one chunk, with the same layout of payloads (call_plan.cpp); where a step must
// wait, the rank has done nothing yet (kNotStarted) or has published its part (kPublished), and
// the general path takes the call from there.
#include <algorithm>
#include <utility>

#include "collectives/core/in_place.hpp"
#include "collectives/shm/channel.hpp"
#include "runtime/support/copy_bytes.hpp"

namespace halyard::shm {

using core::Collective;

bool Channel::fits_single_chunk(const core::CollArgs& args) const {
  // Below the sizes that plan otherwise: by slices, by a single copy.
  static_assert(kSingleChunkMaxBytes < kSlicedAllreduceMinBytes);
  static_assert(kSingleChunkMaxBytes < kSingleCopyMinBytes);
  if (args.send_layout != nullptr || args.recv_layout != nullptr) return false;
  const auto fits = [&](std::size_t bytes, std::size_t room) {
    return args.bytes > 0 && bytes <= kSingleChunkMaxBytes && bytes <= room;
  };
  const auto members = static_cast<std::size_t>(size_);
  switch (args.collective) {
    case Collective::kBarrier:
      return barrier_order_.kind == BarrierOrder::Kind::kFlat;  // else two seqs
    case Collective::kBcast:
    case Collective::kReduce:
    case Collective::kAllreduce:
    case Collective::kAllgather:  // a block per member, each in its own cell
    case Collective::kGather:
      return fits(args.bytes, cell_bytes_);
    case Collective::kScatter:  // every member's block in its slot of the root's cell
      return fits(args.bytes, scatter_slot_bytes(args));
    case Collective::kReduceScatterBlock:  // the whole vector in each member's cell
    case Collective::kAlltoall:
      return fits(args.bytes * members, cell_bytes_);
    case Collective::kScatterv: {
      // The root, which alone knows every count, by the largest block it sends (its slot of the
      // cell must hold it); the others try, and take the call only where the root's flag says
      // it has one chunk.
      if (rank_ != args.root) return true;
      const std::size_t largest = largest_block_bytes(args, rank_);
      return largest <= kSingleChunkMaxBytes && largest <= scatter_slot_bytes(args);
    }
    case Collective::kGatherv: {
      // The root by the largest block (its own too: the general path, which may take the
      // call over, chunks by it), another member by its own: either way one chunk.
      const std::size_t largest = rank_ == args.root ? largest_block_bytes(args) : args.bytes;
      return largest <= kSingleChunkMaxBytes;
    }
    case Collective::kAlltoallv:
      // By this rank's stream alone: a member whose stream is longer takes the general path,
      // which publishes its first chunk as this one does.
      return alltoallv_stream_bytes(args) <= kSingleChunkMaxBytes;
    case Collective::kAllgatherv: {
      // By the largest block, which every member knows (its own may be empty), so that all
      // decide alike; each block in its own cell.
      const std::size_t largest = largest_block_bytes(args);
      return largest > 0 && largest <= kSingleChunkMaxBytes && largest <= cell_bytes_;
    }
    default:
      return false;
  }
}

std::size_t Channel::largest_block_bytes(const core::CollArgs& args, int except) const {
  std::size_t largest = 0;
  for (int r = 0; r < size_; ++r) {
    if (r != except) largest = std::max(largest, args.counts[static_cast<std::size_t>(r)]);
  }
  return largest * datatype_size(args.type);
}

std::size_t Channel::scatter_slot_bytes(const core::CollArgs& args) const {
  const std::size_t element = datatype_size(args.type);
  return cell_bytes_ / static_cast<std::size_t>(size_) / element * element;
}

Channel::SingleChunk Channel::start_single_chunk(const core::CollArgs& args) {
  const std::uint64_t seq = next_seq_;
  auto* recv = static_cast<std::byte*>(args.recv);
  // A bcast's one buffer is recv; in place, a reduction's input is recv too.
  const std::byte* send =
      core::is_in_place(args.send) ? recv : static_cast<const std::byte*>(args.send);
  const std::size_t bytes = args.bytes;
  // Whether every other member has published the seq (a reader's one look before it waits).
  const auto all_posted_now = [&] {
    int next_peer = 0;
    return all_posted_from(next_peer, seq);
  };
  // A writer places its part once the readers of its parity's last payload finished it; the
  // members are woken by the publish or finish() that follows.
  const auto place_bytes = [&](const std::byte* data, std::size_t length, int reader) {
    if (!reusable(seq)) return false;
    ++next_seq_;
    place(seq, data, length, reader);
    return true;
  };
  const auto place_own = [&](const std::byte* data, int reader) {
    return place_bytes(data, bytes, reader);
  };
  // Gather and allgather: this rank's block (in place, already at its place in recv), and
  // member r's block goes to recv + r * bytes (this rank's from `own`, unless it lies there).
  const auto own_block = [&]() -> const std::byte* {
    return core::is_in_place(args.send) ? recv + static_cast<std::size_t>(rank_) * bytes : send;
  };
  // The v-variants: member r's block holds counts[r] elements; gatherv's and allgatherv's lie at
  // their displacements in recv, this rank's (in place) already there.
  const std::size_t element = datatype_size(args.type);
  const auto varied_block_at = [&](int r) {
    return recv + args.displacements[static_cast<std::size_t>(r)] * element;
  };
  const auto varied_block_bytes = [&](int r) {
    return args.counts[static_cast<std::size_t>(r)] * element;
  };
  const auto own_varied_block = [&]() -> const std::byte* {
    return core::is_in_place(args.send) ? varied_block_at(rank_) : send;
  };
  const auto place_varied_blocks_from = [&](const std::byte* own) {
    for (int r = 0; r < size_; ++r) {
      const std::size_t length = varied_block_bytes(r);
      if (length == 0) continue;
      const std::byte* from = r == rank_ ? own : payload(r, seq, length);
      if (from != varied_block_at(r)) copy_bytes(varied_block_at(r), from, length);
    }
  };
  const auto place_blocks_from = [&](const std::byte* own) {
    for (int r = 0; r < size_; ++r) {
      std::byte* to = recv + static_cast<std::size_t>(r) * bytes;
      const std::byte* from = r == rank_ ? own : payload(r, seq, bytes);
      if (from != to) copy_bytes(to, from, bytes);
    }
  };
  switch (args.collective) {
    case Collective::kBcast:
      if (rank_ == args.root) {
        if (!place_own(recv, kAllReaders)) return SingleChunk::kNotStarted;
      } else {
        if (!posted(args.root, seq)) return SingleChunk::kNotStarted;
        ++next_seq_;
        copy_bytes(recv, payload(args.root, seq, bytes), bytes);
      }
      break;
    case Collective::kReduce:
    case Collective::kGather:
      // The others place their part for the root, which reduces them or places the blocks.
      if (rank_ != args.root) {
        if (!place_own(send, args.root)) return SingleChunk::kNotStarted;
      } else {
        if (!all_posted_now()) return SingleChunk::kNotStarted;
        ++next_seq_;
        if (args.collective == Collective::kReduce) {
          reduce_parts(args.op, args.type, seq, bytes, 0, bytes, send, recv);
        } else {
          place_blocks_from(own_block());
        }
      }
      break;
    case Collective::kGatherv:
      if (rank_ != args.root) {
        // This member's block is all out: the call ends whether or not the root has told the
        // number of chunks yet (settle_gatherv learns it later); the root waits for no member
        // in chunks that carry nothing of it.
        keep_for_settling();  // before the publish: see keep_for_settling()
        if (!place_own(send, args.root)) return SingleChunk::kNotStarted;
        leave_gatherv(seq, args.root);
        return SingleChunk::kEnded;
      } else {
        if (!reusable(seq)) return SingleChunk::kNotStarted;
        ++next_seq_;
        tell_chunks(outbox(seq, sizeof(std::uint64_t), kAllReaders), 1);
        post(seq);
        // The members with data (the general gatherv root's rule, advance_rooted).
        for (int r = 0; r < size_; ++r) {
          if (r != rank_ && varied_block_bytes(r) > 0 && !posted(r, seq)) {
            return SingleChunk::kPublished;
          }
        }
        place_varied_blocks_from(own_varied_block());
      }
      break;
    case Collective::kAllreduce:
      // Everyone reduces every part in rank order, its own read back from where it published
      // it (so in place works), and all compute the same bits.
      if (!place_own(send, kAllReaders)) return SingleChunk::kNotStarted;
      announce();
      if (!all_posted_now()) return SingleChunk::kPublished;
      reduce_parts(args.op, args.type, seq, bytes, 0, bytes, payload(rank_, seq, bytes), recv);
      break;
    case Collective::kAllgather:
      if (!place_own(own_block(), kAllReaders)) return SingleChunk::kNotStarted;
      announce();
      if (!all_posted_now()) return SingleChunk::kPublished;
      place_blocks_from(own_block());
      break;
    case Collective::kScatterv: {
      // As scatter, with the payload always in the cell and the root's flag line telling the
      // number of chunks (one), which the others read before they take the call.
      const std::size_t slot = scatter_slot_bytes(args);
      const std::size_t payload_bytes = slot * static_cast<std::size_t>(size_);
      if (rank_ == args.root) {
        if (!reusable(seq)) return SingleChunk::kNotStarted;
        ++next_seq_;
        const auto* all = static_cast<const std::byte*>(args.send);
        const auto block = [&](int r) {
          const auto i = static_cast<std::size_t>(r);
          return std::pair(all + args.displacements[i] * element, varied_block_bytes(r));
        };
        std::byte* out = outbox(seq, payload_bytes, kAllReaders);
        for (int r = 0; r < size_; ++r) {
          const auto [from, length] = block(r);
          if (r != rank_ && length > 0) {
            copy_bytes(out + static_cast<std::size_t>(r) * slot, from, length);
          }
        }
        tell_chunks(headers_[static_cast<std::size_t>(rank_)]->post[seq & 1].data, 1);
        post(seq);
        const auto [own, own_bytes] = block(rank_);
        if (!core::is_in_place(args.recv) && own_bytes > 0) copy_bytes(recv, own, own_bytes);
      } else {
        if (!posted(args.root, seq) || chunks_told(args.root, seq) != 1) {
          return SingleChunk::kNotStarted;
        }
        ++next_seq_;
        if (bytes > 0) {
          copy_bytes(
              recv, payload(args.root, seq, payload_bytes) + static_cast<std::size_t>(rank_) * slot,
              bytes);
        }
      }
      break;
    }
    case Collective::kAllgatherv: {
      // As allgather, each block at its displacement.
      const std::byte* own = own_varied_block();
      if (!place_bytes(own, varied_block_bytes(rank_), kAllReaders)) {
        return SingleChunk::kNotStarted;
      }
      announce();
      if (!all_posted_now()) return SingleChunk::kPublished;
      place_varied_blocks_from(own);
      break;
    }
    case Collective::kScatter: {
      // The root's payload: a slot per member (plan_blocks' chunk_bytes), in its flag line when
      // all of them fit there.
      const auto members = static_cast<std::size_t>(size_);
      const std::size_t slot = bytes * members <= kInlineBytes ? bytes : scatter_slot_bytes(args);
      if (rank_ == args.root) {
        if (!reusable(seq)) return SingleChunk::kNotStarted;
        ++next_seq_;
        // The root's send is args.send itself (`send` above is recv when args.send is in place).
        const auto* all = static_cast<const std::byte*>(args.send);
        std::byte* out = outbox(seq, slot * members, kAllReaders);
        for (int r = 0; r < size_; ++r) {
          if (r == rank_) continue;
          copy_bytes(out + static_cast<std::size_t>(r) * slot,
                     all + static_cast<std::size_t>(r) * bytes, bytes);
        }
        post(seq);
        if (!core::is_in_place(args.recv)) {
          copy_bytes(recv, all + static_cast<std::size_t>(rank_) * bytes, bytes);
        }
      } else {
        if (!posted(args.root, seq)) return SingleChunk::kNotStarted;
        ++next_seq_;
        copy_bytes(recv,
                   payload(args.root, seq, slot * members) + static_cast<std::size_t>(rank_) * slot,
                   bytes);
      }
      break;
    }
    case Collective::kReduceScatterBlock: {
      // Everyone publishes its whole input and reduces its own block of every part in rank
      // order, its own part read back from where it published it (so in place works).
      const std::size_t whole = bytes * static_cast<std::size_t>(size_);
      if (!place_bytes(send, whole, kAllReaders)) return SingleChunk::kNotStarted;
      announce();
      if (!all_posted_now()) return SingleChunk::kPublished;
      reduce_parts(args.op, args.type, seq, whole, static_cast<std::size_t>(rank_) * bytes, bytes,
                   payload(rank_, seq, whole), recv);
      break;
    }
    case Collective::kAlltoall: {
      // As reduce_scatter_block, without the reduction: everyone publishes its whole send
      // vector and copies its own block of every member's to that member's place.
      const std::size_t whole = bytes * static_cast<std::size_t>(size_);
      const std::size_t mine = static_cast<std::size_t>(rank_) * bytes;
      if (!place_bytes(send, whole, kAllReaders)) return SingleChunk::kNotStarted;
      announce();
      if (!all_posted_now()) return SingleChunk::kPublished;
      for (int r = 0; r < size_; ++r) {
        const std::byte* from = r == rank_ ? send + mine : payload(r, seq, whole) + mine;
        copy_bytes(recv + static_cast<std::size_t>(r) * bytes, from, bytes);
      }
      break;
    }
    case Collective::kAlltoallv:
      return start_single_chunk_alltoallv(args);
    case Collective::kBarrier:
      ++next_seq_;
      publish(seq, nullptr, 0, kAllReaders);
      if (size_ == 2 ? !posted(1 - rank_, seq) : !all_posted_now()) return SingleChunk::kPublished;
      break;
    default:
      return SingleChunk::kNotStarted;
  }
  finish(seq);
  return SingleChunk::kEnded;
}

}  // namespace halyard::shm
