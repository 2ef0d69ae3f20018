// CopyShare: one large CMA transfer copied by both of its ends at once.
//
// A CMA rendezvous is a single copy made by the receiver (process_vm_readv) while the sender
// waits for it to finish: one core copies, the sender's core spins. One core's copy bandwidth
// is bounded by the misses it can keep in flight, not by the memory, so a second copier nearly
// doubles it (two processes on the 2-core development VM: 16 MiB at 6.9 GB/s alone, 16.0 GB/s
// shared). A receiver with a large payload therefore publishes the transfer in a slot of the
// node's segment and tells the sender (a kShareCopy cell); from then on both claim fixed-size
// chunks from the slot, the receiver pulling them and the sender pushing them
// (process_vm_writev). The sender helps only while its event loop runs; the receiver never
// waits for it except for a chunk the sender has claimed and is copying.
//
// The slot's claim word packs (generation << 32 | next unclaimed chunk), so a claim is one
// compare-and-swap, and a sender that reads a slot the receiver has since finished and reused
// sees another generation and claims nothing.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "transports/shm/spsc_cell_ring.hpp"

namespace halyard::shm {

// Lives in the receiver's ProcessBlock; written by the receiver, claimed by both ends.
struct CopyShareSlot {
  alignas(kCacheLine) std::uint64_t claim;  // generation << 32 | next unclaimed chunk
  std::uint32_t done;                       // chunks copied, by either end
  std::uint32_t helper_failed;  // 1 + the chunk the sender claimed and could not copy; 0: none
  std::uint64_t destination;    // the receiver's buffer, in the receiver's address space
  std::uint64_t bytes;          // bytes to move (the receive's capacity, at most the size)
  std::uint32_t chunks;
  std::int32_t receiver_pid;
};

class CopyShare {
 public:
  // Chunks small enough for the two ends to balance on a 1 MiB message, large enough that a
  // process_vm_* call's set-up stays negligible.
  static constexpr std::size_t kChunkBytes = 256 * 1024;
  // Transfers below this are not shared: the hand-over costs a cell and a chunk of wait.
  static constexpr std::size_t kMinBytes = 4 * kChunkBytes;

  explicit CopyShare(CopyShareSlot* slot) : slot_(slot) {}

  // Receiver: opens the slot for a transfer of `bytes` into `destination` of process `pid`;
  // returns the transfer's generation. The slot must be idle (its previous transfer closed).
  std::uint32_t open(std::uint64_t destination, std::uint64_t bytes, std::int32_t pid) {
    const std::uint32_t generation =
        static_cast<std::uint32_t>(word(slot_->claim).load() >> 32) + 1;
    slot_->destination = destination;
    slot_->bytes = bytes;
    slot_->chunks = static_cast<std::uint32_t>((bytes + kChunkBytes - 1) / kChunkBytes);
    slot_->receiver_pid = pid;
    word32(slot_->done).store(0, std::memory_order_relaxed);
    word32(slot_->helper_failed).store(0, std::memory_order_relaxed);
    // Release: a sender that claims this generation sees the fields above.
    word(slot_->claim).store(std::uint64_t{generation} << 32, std::memory_order_release);
    return generation;
  }

  // The generation of the transfer the slot holds now (acquire: its terms are visible).
  std::uint32_t generation() const {
    return static_cast<std::uint32_t>(word(slot_->claim).load(std::memory_order_acquire) >> 32);
  }

  // Sender: why it must not push into this slot's transfer, or nullopt. The slot lives in the
  // receiver's part of the segment, so the sender checks it against what it knows itself: the
  // receiver's pid as the receiver published it, and its own buffer of `sender_bytes` (a slot
  // asking for more would make it copy memory beyond its buffer into the receiver).
  std::optional<std::string> problem_for_sender(std::int32_t known_pid,
                                                std::uint64_t sender_bytes) const {
    if (slot_->receiver_pid != known_pid) {
      return "names pid " + std::to_string(slot_->receiver_pid) + ", not the receiver's (" +
             std::to_string(known_pid) + ")";
    }
    if (slot_->bytes == 0 || slot_->bytes > sender_bytes) {
      return "asks for " + std::to_string(slot_->bytes) + " bytes of a " +
             std::to_string(sender_bytes) + "-byte send";
    }
    if (slot_->chunks != (slot_->bytes + kChunkBytes - 1) / kChunkBytes) {
      return "has " + std::to_string(slot_->chunks) + " chunks for " +
             std::to_string(slot_->bytes) + " bytes";
    }
    if (slot_->destination == 0 || slot_->destination + slot_->bytes < slot_->destination) {
      return "has destination " + std::to_string(slot_->destination) + " for " +
             std::to_string(slot_->bytes) + " bytes";
    }
    return std::nullopt;
  }

  // Either end: the next unclaimed chunk of `generation`, or nullopt when every chunk is taken
  // or the slot has moved on to another transfer.
  std::optional<std::uint32_t> claim(std::uint32_t generation) {
    std::uint64_t current = word(slot_->claim).load(std::memory_order_acquire);
    for (;;) {
      if ((current >> 32) != generation) return std::nullopt;
      const auto next = static_cast<std::uint32_t>(current);
      if (next >= slot_->chunks) return std::nullopt;
      if (word(slot_->claim)
              .compare_exchange_weak(current, current + 1, std::memory_order_acq_rel)) {
        return next;
      }
    }
  }

  // Receiver: no claims after this one; returns how many chunks were claimed in all.
  std::uint32_t close(std::uint32_t generation) {
    const std::uint64_t closed = (std::uint64_t{generation} << 32) | slot_->chunks;
    const std::uint64_t before = word(slot_->claim).exchange(closed, std::memory_order_acq_rel);
    return std::min(static_cast<std::uint32_t>(before), slot_->chunks);
  }

  // Where chunk `chunk` lies, as an offset into both buffers, and how long it is.
  std::size_t offset(std::uint32_t chunk) const { return std::size_t{chunk} * kChunkBytes; }
  std::size_t length(std::uint32_t chunk) const {
    return std::min<std::size_t>(kChunkBytes, slot_->bytes - offset(chunk));
  }
  std::uint32_t chunks() const { return slot_->chunks; }
  std::uint64_t destination() const { return slot_->destination; }
  std::int32_t receiver_pid() const { return slot_->receiver_pid; }

  // A chunk is in the destination (release: the receiver that counts it sees its bytes).
  void finished_chunk() { word32(slot_->done).fetch_add(1, std::memory_order_release); }
  std::uint32_t done() const { return word32(slot_->done).load(std::memory_order_acquire); }

  // Sender: it could not copy `chunk` and stops helping; the receiver copies it instead.
  void helper_failed(std::uint32_t chunk) {
    word32(slot_->helper_failed).store(chunk + 1, std::memory_order_release);
  }
  std::optional<std::uint32_t> failed_chunk() const {
    std::uint32_t v = word32(slot_->helper_failed).load(std::memory_order_acquire);
    if (v == 0) return std::nullopt;
    return v - 1;
  }

 private:
  static std::atomic_ref<std::uint64_t> word(std::uint64_t& w) {
    return std::atomic_ref<std::uint64_t>(w);
  }
  static std::atomic_ref<std::uint32_t> word32(std::uint32_t& w) {
    return std::atomic_ref<std::uint32_t>(w);
  }

  CopyShareSlot* slot_;
};

}  // namespace halyard::shm
