// The node's shared segment: an anonymous memfd created by the node's first rank and opened by
// the others through /proc/<creator pid>/fd/<fd>. It never has a name in /dev/shm, so nothing
// can be left behind there, whatever way the ranks end: the kernel frees it when the last
// mapping goes. (docs/transport-shm.md explains the choice over shm_open + shm_unlink.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "transports/shm/copy_share.hpp"
#include "transports/shm/spsc_cell_ring.hpp"

namespace halyard::shm {

struct SegmentGeometry {
  std::uint32_t local_size = 1;
  std::uint32_t cell_size = 0;
  std::uint32_t ring_cells = 0;
  std::uint32_t staging_chunk = 0;
  std::uint32_t staging_slots = 0;
};

// First cache line of the segment: lets the other ranks check what they mapped and learn the
// geometry the creator chose.
struct SegmentHeader {
  alignas(kCacheLine) std::uint64_t magic;
  std::uint32_t version;
  SegmentGeometry geometry;
  std::uint64_t total_bytes;
};
inline constexpr std::uint64_t kSegmentMagic = 0x48414c5944534d31;  // "HALYDSM1"
inline constexpr std::uint32_t kSegmentVersion = 3;

// Large transfers this rank may receive with its senders' help at once (copy_share.hpp).
inline constexpr std::size_t kCopyShareSlots = 4;

// Per local rank: what its peers need to wake it (see ShmTransport::prepare_to_block).
struct ProcessBlock {
  alignas(kCacheLine) std::int32_t pid;
  std::uint32_t sleeping;  // non-zero while the rank may be blocked in poll() on its wake fd
  // Where this rank mapped the segment: a valid address in its process that peers may read
  // with CMA to probe whether the kernel lets them (ShmNodeMemory::single_copy_usable).
  std::uint64_t segment_address;
  CopyShareSlot shares[kCopyShareSlots];
};

// Per local rank: its collective scratch slot (ShmNodeMemory), written only by that rank. 1 MiB:
// collectives/intranode cuts it into 4 lanes of 256 KiB, one per node communicator.
inline constexpr std::size_t kScratchSlotBytes = 1024 * 1024;

// Per local rank: its collective channels (collectives/shm), written only by that rank. Pages
// nobody touches cost no memory: a job without single-node communicators never maps them in.
inline constexpr std::size_t kChannelRegionBytes = 1024 * 1024;

// Where each part lives inside the segment. Rings and staging areas are indexed by the ordered
// pair (sender, receiver) of local indices.
class SegmentLayout {
 public:
  explicit SegmentLayout(const SegmentGeometry& g);
  const SegmentGeometry& geometry() const { return g_; }
  std::size_t total_bytes() const { return total_; }
  std::size_t process_block(std::uint32_t local) const;
  std::size_t ring(std::uint32_t sender, std::uint32_t receiver) const;
  std::size_t staging(std::uint32_t sender, std::uint32_t receiver) const;
  std::size_t scratch(std::uint32_t local) const;
  std::size_t channels(std::uint32_t local) const;

 private:
  SegmentGeometry g_;
  std::size_t blocks_ = 0, rings_ = 0, staging_ = 0, ring_stride_ = 0, staging_stride_ = 0;
  std::size_t scratch_ = 0;
  std::size_t channels_ = 0;
  std::size_t total_ = 0;
};

class SharedSegment {
 public:
  SharedSegment() = default;
  SharedSegment(const SharedSegment&) = delete;
  SharedSegment& operator=(const SharedSegment&) = delete;
  SharedSegment(SharedSegment&& other) noexcept { *this = std::move(other); }
  SharedSegment& operator=(SharedSegment&& other) noexcept;
  ~SharedSegment();

  // Creates a zero-filled segment of `bytes` (mode 0600) and maps it. `debug_name` shows in
  // /proc/<pid>/maps only. Throws Error(kTransport) with the failing call and errno text.
  static SharedSegment create(const std::string& debug_name, std::size_t bytes);
  // Maps the segment that another process described with locator(). The locator is published
  // through the bootstrap, so it is checked: it must name `creator_pid` (the node's first rank,
  // as its own bootstrap key says) and the segment must belong to this user; Error(kTransport)
  // naming what differs otherwise.
  static SharedSegment open(const std::string& locator, int creator_pid);

  // "pid:fd": how another process of the same user finds this segment while it is open here.
  std::string locator() const;
  std::byte* base() const { return base_; }
  std::size_t size() const { return size_; }
  int fd() const { return fd_; }
  // Drops the descriptor (the mapping stays); after this, locator() no longer works.
  void close_descriptor();

 private:
  void reset();  // unmaps and closes

  std::byte* base_ = nullptr;
  std::size_t size_ = 0;
  int fd_ = -1;
};

}  // namespace halyard::shm
