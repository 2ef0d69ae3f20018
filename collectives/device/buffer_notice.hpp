// The message that tells a peer of the node where this rank's device buffer is: its IPC export
// and the byte count this rank was called with. Received with a size and magic check, so a rank
// that called the collective with host buffers (its data arrives instead of a notice) or with a
// different count fails the call with a message that says so.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "runtime/communicator.hpp"
#include "runtime/device_support.hpp"
#include "runtime/request.hpp"

namespace halyard::device {

struct BufferNotice {
  static constexpr std::uint64_t kMagic = 0x48414c5944455631;  // "HALYDEV1"
  std::uint64_t magic = kMagic;
  std::uint64_t bytes = 0;  // the call's byte count on the sender
  std::uint32_t ok = 1;     // 0: the sender could not export its buffer (nothing else is valid)
  std::uint32_t reserved = 0;
  DeviceBufferExport primary;    // the buffer read (or written) by the peer
  DeviceBufferExport secondary;  // allreduce: the receive buffer; unused elsewhere
};

// Posts the receive of `peer`'s notice into `notice` on `tag`. The returned request fails with
// kInvalidArgument, naming the mix-up, when what arrives is not a notice (the peer passed host
// buffers) or announces another byte count than `expected_bytes`, and with kTransport when the
// peer could not export its buffer. is_from_device_rank() then tells whether the peer runs the
// device algorithm at all (and so waits for this rank's tokens).

Request receive_notice(const Communicator& comm, int peer, int tag, BufferNotice& notice,
                       std::size_t expected_bytes, const char* operation);

// True when `notice` (received by receive_notice) came from a rank running a device operation,
// even one that failed: false when host data arrived instead.
inline bool is_from_device_rank(const BufferNotice& notice) {
  return notice.magic == BufferNotice::kMagic;
}

}  // namespace halyard::device
