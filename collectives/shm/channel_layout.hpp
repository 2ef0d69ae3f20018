// The memory of one collective channel (collectives/shm): how a rank's part of a channel is laid
// out in its channel region of the node's shared segment (NodeMemory::channel_region).
//
// Every word here is written by the rank whose region holds it and only read by the others, so
// no cache line ever has two writers: a flag costs its reader one cache-line transfer, and the
// payload of a small call travels in the same line as its flag.
//
// Calls on a channel are numbered (seq, never reused on the channel: see channel_table.hpp). A
// rank's contribution to call `seq` goes to post[seq % 2] (and cell[seq % 2] when it does not fit
// inline), so a rank can publish the next call while its peers still read the previous one; it
// reuses a parity only once the readers of what it last published there have finished that
// call (Channel::reusable).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace halyard::shm {

inline constexpr std::size_t kLine = 64;
// Payload bytes that ride in a flag's own cache line.
inline constexpr std::size_t kInlineBytes = kLine - sizeof(std::uint64_t);
// Channels per rank: this many single-node communicators can use the engine at once; further
// ones run the p2p algorithms (docs/collectives.md).
inline constexpr int kChannelsPerRank = 8;

struct alignas(kLine) FlagLine {
  std::uint64_t seq;  // the last call this line speaks for (read with acquire, written release)
  std::byte data[kInlineBytes];
};

struct ChannelHeader {
  FlagLine post[2];    // by parity: "my part of call seq is published" (+ inline payload)
  FlagLine result[2];  // by parity: "my reduced slice of seq is in my cell" (sliced allreduce)
  FlagLine done;       // seq of the last call this rank completed on the channel
};

inline constexpr std::size_t kHeaderBytes = sizeof(ChannelHeader);

// A line's seq, read from another process (acquire: its payload is then visible) or written
// by the owner after the payload (release). atomic_ref needs a non-const object; loads only
// read it.
inline std::uint64_t load_seq(const FlagLine& line) {
  return std::atomic_ref<std::uint64_t>(const_cast<std::uint64_t&>(line.seq))
      .load(std::memory_order_acquire);
}

inline void store_seq(FlagLine& line, std::uint64_t seq) {
  std::atomic_ref<std::uint64_t>(line.seq).store(seq, std::memory_order_release);
}

// Geometry of one rank's channel, from the size of its channel region.
struct ChannelGeometry {
  std::size_t channel_bytes = 0;  // region / kChannelsPerRank
  std::size_t cell_bytes = 0;     // each of the two parity cells after the header

  static ChannelGeometry of_region(std::size_t region_bytes) {
    ChannelGeometry g;
    g.channel_bytes = region_bytes / kChannelsPerRank / 4096 * 4096;
    g.cell_bytes = (g.channel_bytes - kHeaderBytes) / 2 / kLine * kLine;
    return g;
  }
};

}  // namespace halyard::shm
