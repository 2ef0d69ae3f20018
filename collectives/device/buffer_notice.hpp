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
  std::uint64_t bytes = 0;       // the call's byte count on the sender
  DeviceBufferExport primary;    // the buffer read (or written) by the peer
  DeviceBufferExport secondary;  // allreduce: the receive buffer; unused elsewhere
};

// Posts the receive of `peer`'s notice into `notice` on `tag`. The returned request fails with
// kInvalidArgument, naming the mix-up, when what arrives is not a notice (the peer passed host
// buffers) or announces another byte count than `expected_bytes`.
Request receive_notice(const Communicator& comm, int peer, int tag, BufferNotice& notice,
                       std::size_t expected_bytes, const char* operation);

}  // namespace halyard::device
