// What the ofi transport puts on the wire (docs/transport-ofi.md describes the protocol).
//
// Two tag spaces keep frames and bulk data apart: every frame (eager message, rendezvous
// request, clear-to-send, finish) travels with kFrameTag into the pre-posted frame buffers;
// rendezvous data travels with a tag that has kDataTagBit set and names the receiver's
// rendezvous id and the chunk, so it can only land in the buffer the receiver posted for it.
#pragma once

#include <cstdint>
#include <type_traits>

#include "runtime/transport.hpp"

namespace halyard::ofi {

inline constexpr std::uint64_t kFrameTag = 0;
inline constexpr std::uint64_t kDataTagBit = std::uint64_t{1} << 63;
// Low bits of a data tag number the chunks of one rendezvous (16M chunks of up to 1 GiB each).
inline constexpr int kChunkBits = 24;
inline constexpr std::uint64_t kMaxChunks = std::uint64_t{1} << kChunkBits;

inline std::uint64_t data_tag(std::uint64_t rendezvous_id, std::uint64_t chunk) {
  return kDataTagBit | (rendezvous_id << kChunkBits) | chunk;
}

enum class FrameKind : std::uint8_t {
  kEager = 1,              // FrameHeader, Envelope, payload
  kRendezvousRequest = 2,  // RendezvousRequest: the sender holds a large payload for us
  kClearToSend = 3,        // ClearToSend: receiver posted receives; send the data with this tag
  kFinish = 4,             // Finish: receiver has read the data by RMA; the sender may complete
  kWithdraw = 5,           // Withdraw: the sender's process failed; do not begin to read it
};

struct FrameHeader {
  FrameKind kind;
  std::uint8_t failed = 0;  // kFinish only: kFinishRead, kFinishFailed or kFinishWithdrawn
  std::uint16_t reserved = 0;
  std::int32_t sender = 0;     // world rank of the transport that sent the frame
  std::uint64_t sequence = 0;  // per sender->receiver pair; orders eager and request frames
};

struct EagerFrame {
  FrameHeader header;
  Envelope envelope;
  // payload follows
};

struct RendezvousRequest {
  FrameHeader header;
  Envelope envelope;
  std::uint64_t send_id = 0;      // names the sender's pending send in later frames
  std::uint64_t remote_key = 0;   // memory-region key when the payload is readable by RMA
  std::uint64_t remote_addr = 0;  // address (or offset) of the payload for fi_read
  std::uint8_t readable = 0;      // 1: pull with fi_read; 0: ask for it with kClearToSend
  std::uint8_t padding[7] = {};
};

struct ClearToSend {
  FrameHeader header;
  std::uint64_t send_id = 0;
  std::uint64_t rendezvous_id = 0;  // receiver's id: data chunk i goes with data_tag(id, i)
  std::uint64_t bytes = 0;          // how much to send (less than the payload when truncated)
  std::uint64_t chunk_size = 0;
};

struct Finish {
  FrameHeader header;
  std::uint64_t send_id = 0;
};
inline constexpr std::uint8_t kFinishRead = 0;
inline constexpr std::uint8_t kFinishFailed = 1;     // the receiver's read failed
inline constexpr std::uint8_t kFinishWithdrawn = 2;  // answer to Withdraw: never begun, never will

// The sender's process failed while send `send_id` was announced. Ordered like the announcement
// (it carries a sequence number), so it never overtakes it. The receiver answers with a Finish:
// kFinishWithdrawn when it had not begun to read (it then never does), else the usual one when
// its transfer ends. Only then may the failed send complete: its buffer is quiet.
struct Withdraw {
  FrameHeader header;
  std::uint64_t send_id = 0;
};

static_assert(std::is_trivially_copyable_v<EagerFrame> && sizeof(EagerFrame) == 40);
static_assert(std::is_trivially_copyable_v<RendezvousRequest> && sizeof(RendezvousRequest) == 72);
static_assert(std::is_trivially_copyable_v<ClearToSend> && sizeof(ClearToSend) == 48);
static_assert(std::is_trivially_copyable_v<Finish> && sizeof(Finish) == 24);
static_assert(std::is_trivially_copyable_v<Withdraw> && sizeof(Withdraw) == 24);

// Largest frame other than an eager one; frame buffers hold max(this, EagerFrame + limit).
inline constexpr std::size_t kMaxControlFrame = sizeof(RendezvousRequest);

}  // namespace halyard::ofi
