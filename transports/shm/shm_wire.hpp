// What the shm transport writes into ring cells. Every message starts a new cell with a
// CellHeader; eager payload bytes follow the header and run on through as many consecutive
// cells as they need (continuation cells carry no header), so a message is one contiguous
// byte range of the ring, modulo wrap-around.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/transport.hpp"

namespace halyard::shm {

enum class CellKind : std::uint32_t {
  kEager = 1,              // envelope + payload
  kRendezvousRequest = 2,  // envelope + RendezvousRequest: "pull it from my memory"
  kPullDone = 3,           // PullDone: the receiver has finished reading (FIN)
  kClearToSend = 4,        // ClearToSend: fallback path, "stream it through the staging area"
  kShareCopy = 5,          // ShareCopy: "help me copy it: push chunks of my CopyShare slot"
  kWithdraw = 6,           // Withdraw: "my process failed: do not begin to read transfer `id`"
};

struct CellHeader {
  std::uint32_t stamp;  // owned by SpscCellRing (message mode); the transport never writes it
  CellKind kind;
  Envelope envelope;  // the user's envelope (eager, rendezvous request); unused otherwise
};
static_assert(sizeof(CellHeader) == 32);

// Announces a payload the receiver should read from the sender's address space.
struct RendezvousRequest {
  std::int32_t pid;  // sender's process, for process_vm_readv
  std::uint32_t reserved;
  std::uint64_t address;  // sender's buffer
  std::uint64_t id;       // sender's handle of this transfer, echoed by PullDone/ClearToSend
};

// The receiver has read what it wanted, or will never read: the sender's buffer is free again.
struct PullDone {
  std::uint64_t id;
  std::uint32_t failed;  // kPullRead, kPullFailed or kPullWithdrawn
  std::uint32_t error_number;
};
inline constexpr std::uint32_t kPullRead = 0;
inline constexpr std::uint32_t kPullFailed = 1;     // CMA forced and refused (error_number)
inline constexpr std::uint32_t kPullWithdrawn = 2;  // answer to Withdraw: never begun, never will

// The sender's process failed while transfer `id` was announced: the receiver answers with a
// PullDone, kPullWithdrawn if it had not begun to read (it then never does), or the usual one
// once its read ends. Only then may the failed send complete: its buffer is quiet.
struct Withdraw {
  std::uint64_t id;
};

// Fallback path: the receiver asks the sender to stream `bytes` bytes of transfer `id` through
// the pair's staging area. Transfers stream in the order their ClearToSend arrived.
struct ClearToSend {
  std::uint64_t id;
  std::uint64_t bytes;
};

// The receiver of rendezvous `id` opened CopyShare slot `slot` of its ProcessBlock for it: the
// sender may push chunks of that generation (see copy_share.hpp).
struct ShareCopy {
  std::uint64_t id;
  std::uint32_t slot;
  std::uint32_t generation;
};

// Cells one message occupies: the header plus the payload, at least one cell.
inline std::uint32_t cells_for_payload(std::size_t payload, std::uint32_t cell_size) {
  // Small messages (nearly all of them) fit one cell: no division on the latency path.
  if (sizeof(CellHeader) + payload <= cell_size) return 1;
  return static_cast<std::uint32_t>((sizeof(CellHeader) + payload + cell_size - 1) / cell_size);
}

}  // namespace halyard::shm
