// The shm engine's single-chunk calls (channel.hpp, Channel::start_single_chunk): a call of one
// seq, run from its arguments. Each step is the general algorithm's (flag_algorithms.cpp:
// advance_rooted, advance_symmetric, advance_barrier) for a call of one chunk; where a step
// must wait, the rank has done nothing yet (kNotStarted) or has published its part
// (kPublished), and the general path takes the call from there.
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
  switch (args.collective) {
    case Collective::kBarrier:
      return size_ == 2;  // more members: gather and release, two seqs
    case Collective::kBcast:
    case Collective::kReduce:
    case Collective::kAllreduce:
      return args.bytes > 0 && args.bytes <= kSingleChunkMaxBytes && args.bytes <= cell_bytes_;
    default:
      return false;
  }
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
  const auto place_own = [&](const std::byte* data, int reader) {
    if (!reusable(seq)) return false;
    ++next_seq_;
    place(seq, data, bytes, reader);
    return true;
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
      if (rank_ != args.root) {
        if (!place_own(send, args.root)) return SingleChunk::kNotStarted;
      } else {
        if (!all_posted_now()) return SingleChunk::kNotStarted;
        ++next_seq_;
        reduce_parts(args.op, args.type, seq, bytes, 0, bytes, send, recv);
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
    case Collective::kBarrier:
      ++next_seq_;
      publish(seq, nullptr, 0, kAllReaders);
      if (!posted(1 - rank_, seq)) return SingleChunk::kPublished;
      break;
    default:
      return SingleChunk::kNotStarted;
  }
  finish(seq);
  return SingleChunk::kEnded;
}

}  // namespace halyard::shm
