// A bounded single-producer/single-consumer ring of fixed-size cells living in shared memory.
//
// The shared part is a RingControl (head and tail on their own cache lines, so the producer
// and the consumer never write the same line) followed by the cells. Each process holds its
// own SpscCellRing view for one role: the producer owns `head`, the consumer owns `tail`, and
// each keeps a cached copy of the other's counter so that the common case touches no line the
// other side writes. Counters are 64-bit positions that never wrap in practice.
//
// Two ways to consume: by counting (readable(): the staging areas, whose slots hold raw bytes),
// or by message stamps (message_ready(): the eager rings). In the second, the first 4 bytes of
// a message's first cell belong to the ring: the producer stores a non-zero stamp there last,
// with release, and the consumer zeroes the stamp word of every cell it releases. A polling
// receiver then touches only the cache line that carries the message, not the producer's
// counter line: one cache-line transfer per small message instead of two.
//
// The cell count is a power of two, so a position maps to its cell with a mask: this runs on
// every poll of every ring, where a division would dominate an idle pass.
#pragma once

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "runtime/support/copy_bytes.hpp"

namespace halyard::shm {

inline constexpr std::size_t kCacheLine = 64;
inline constexpr std::size_t kStampBytes = 4;  // message mode: the ring's word in a first cell

struct RingControl {
  alignas(kCacheLine) std::uint64_t head;  // cells published by the producer
  alignas(kCacheLine) std::uint64_t tail;  // cells released by the consumer
};
static_assert(sizeof(RingControl) == 2 * kCacheLine);

class SpscCellRing {
 public:
  SpscCellRing() = default;
  // `control` is followed, at the next cache line after it, by `cells` cells of `cell_size`.
  SpscCellRing(void* control, std::uint32_t cells, std::uint32_t cell_size)
      : control_(static_cast<RingControl*>(control)),
        cells_(reinterpret_cast<std::byte*>(control_ + 1)),
        cell_count_(cells),
        cell_mask_(cells - 1),
        cell_size_(cell_size),
        ring_bytes_(std::size_t{cells} * cell_size) {
    head_ = load(control_->head);
    tail_ = load(control_->tail);
    aim_at_tail();
  }

  static std::size_t shared_bytes(std::uint32_t cells, std::uint32_t cell_size) {
    return sizeof(RingControl) + std::size_t{cells} * cell_size;
  }

  std::uint32_t cell_count() const { return cell_count_; }
  std::uint32_t cell_size() const { return cell_size_; }

  // Maps every page of the ring into this process at once (Linux >= 5.14; elsewhere nothing, and
  // the pages fault in on first use; returns false then). Unpopulated, each cell's page faults
  // the first time the ring goes round: a few dozen faults in the first messages between two
  // ranks.
  bool populate() const {
    return ::madvise(control_, shared_bytes(cell_count_, cell_size_), kPopulateWrite) == 0;
  }

  // ---- producer side ----
  // True when `count` more cells fit; reads the consumer's tail only when the cache says no.
  bool can_write(std::uint32_t count) {
    if (head_ + count - tail_ <= cell_count_) return true;
    tail_ = load(control_->tail);
    return head_ + count - tail_ <= cell_count_;
  }
  std::uint64_t write_position() const { return head_; }
  // Copies into the message that starts at cell `first`, `offset` bytes in (it may wrap).
  void write(std::uint64_t first, std::size_t offset, const void* src, std::size_t len) {
    std::size_t start = byte_index(first, offset);
    std::size_t n = std::min(len, ring_bytes_ - start);
    copy_bytes(cells_ + start, src, n);
    if (n < len) copy_bytes(cells_, static_cast<const std::byte*>(src) + n, len - n);
  }
  std::byte* cell(std::uint64_t position) const {
    return cells_ + (position & cell_mask_) * cell_size_;
  }
  // Message mode: makes the message of `count` cells at write_position() visible. Its bytes
  // [0, kStampBytes) must not have been written.
  void publish_message(std::uint32_t count) {
    stamp_word(head_).store(stamp(head_), std::memory_order_release);
    publish(count);
  }
  // Makes `count` written cells visible to the consumer.
  void publish(std::uint32_t count) {
    head_ += count;
    std::atomic_ref<std::uint64_t>(control_->head).store(head_, std::memory_order_release);
  }

  // ---- consumer side ----
  // Cells published and not yet released; reads the producer's head only when the cache is
  // exhausted.
  std::uint64_t readable() {
    if (head_ == tail_) head_ = load(control_->head);
    return head_ - tail_;
  }
  // Like readable(), but always looks at the producer's head.
  std::uint64_t readable_fresh() {
    head_ = load(control_->head);
    return head_ - tail_;
  }
  std::uint64_t read_position() const { return tail_; }
  // Message mode: true when a whole message starts at read_position(). One load and one
  // compare: an idle receiver asks this of every ring on every pass.
  bool message_ready() const {
    return std::atomic_ref<std::uint32_t>(*next_stamp_).load(std::memory_order_acquire) ==
           next_stamp_value_;
  }
  // Message mode: gives back the `count` cells of the message at read_position().
  void release_message(std::uint32_t count) {
    for (std::uint32_t i = 0; i < count; ++i) {
      stamp_word(tail_ + i).store(0, std::memory_order_relaxed);
    }
    release(count);
  }
  void read(std::uint64_t first, std::size_t offset, void* dst, std::size_t len) const {
    std::size_t start = byte_index(first, offset);
    std::size_t n = std::min(len, ring_bytes_ - start);
    copy_bytes(dst, cells_ + start, n);
    if (n < len) copy_bytes(static_cast<std::byte*>(dst) + n, cells_, len - n);
  }
  // Where `len` bytes of the message at cell `first`, `offset` bytes in, lie in the ring: one
  // piece, or two when they wrap around its end (the second then starts at the first cell).
  struct Pieces {
    const std::byte* first;
    std::size_t first_bytes;
    const std::byte* second;
    std::size_t second_bytes;
  };
  Pieces pieces(std::uint64_t first, std::size_t offset, std::size_t len) const {
    std::size_t start = byte_index(first, offset);
    std::size_t n = std::min(len, ring_bytes_ - start);
    return {cells_ + start, n, cells_, len - n};
  }
  // Gives `count` cells back to the producer once their content has been consumed.
  void release(std::uint32_t count) {
    tail_ += count;
    std::atomic_ref<std::uint64_t>(control_->tail).store(tail_, std::memory_order_release);
    aim_at_tail();
  }

 private:
  // Non-zero and different for neighbouring positions (a stale stamp from one lap earlier
  // differs from the expected one by the cell count, never 0).
  static std::uint32_t stamp(std::uint64_t position) {
    return static_cast<std::uint32_t>(position) | 0x80000000u;
  }
  std::atomic_ref<std::uint32_t> stamp_word(std::uint64_t position) const {
    return std::atomic_ref<std::uint32_t>(*reinterpret_cast<std::uint32_t*>(cell(position)));
  }
  static std::uint64_t load(std::uint64_t& shared) {
    return std::atomic_ref<std::uint64_t>(shared).load(std::memory_order_acquire);
  }
  // Consumer: where the next message's stamp will appear and what it will read.
  void aim_at_tail() {
    next_stamp_ = reinterpret_cast<std::uint32_t*>(cell(tail_));
    next_stamp_value_ = stamp(tail_);
  }
  std::size_t byte_index(std::uint64_t first, std::size_t offset) const {
    std::size_t start = (first & cell_mask_) * cell_size_ + offset;
    return start >= ring_bytes_ ? start - ring_bytes_ : start;
  }

  // MADV_POPULATE_WRITE, which older C libraries do not name; an older kernel rejects it.
  static constexpr int kPopulateWrite = 23;

  RingControl* control_ = nullptr;
  std::byte* cells_ = nullptr;
  std::uint32_t cell_count_ = 0;
  std::uint64_t cell_mask_ = 0;
  std::uint32_t cell_size_ = 0;
  std::size_t ring_bytes_ = 0;
  // Producer: head_ is its own counter, tail_ a cached copy. Consumer: the other way round.
  std::uint64_t head_ = 0;
  std::uint64_t tail_ = 0;
  // A ring not yet mapped looks at a word that never carries its stamp.
  static inline std::uint32_t unmapped_stamp_ = 0;
  std::uint32_t* next_stamp_ = &unmapped_stamp_;
  std::uint32_t next_stamp_value_ = 1;
};

}  // namespace halyard::shm
