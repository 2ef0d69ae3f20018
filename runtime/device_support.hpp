// DeviceSupport: what the CUDA IPC transport offers the collectives for buffers in GPU memory.
//
// Whether a buffer lives on a device is a property of the buffer, not of the peer, so device
// traffic does not fit the Router (which picks one transport per peer). Instead, like
// NodeMemory, the transport that knows CUDA (transports/cuda_ipc) implements this interface and
// the GPU-aware collectives (collectives/device) ask device_support_of(comm); the transport
// registers its factory in the TransportRegistry (transport_registry.hpp). Nothing here
// includes a CUDA header: a build with HALYARD_CUDA=OFF compiles the same runtime and simply
// has no DeviceSupport (device_support_of() returns null and every buffer counts as host memory).
//
// Asynchronous device work (copies, reductions) returns a Request that the implementation
// completes from the event loop once the CUDA event recorded after the work has fired, so the
// collectives stay event driven: they never wait on a stream.
//
// Ranks here are WORLD ranks. Not thread-safe (one thread drives the event loop).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "runtime/datatypes/datatype.hpp"
#include "runtime/datatypes/reduce_op.hpp"
#include "runtime/request.hpp"

namespace halyard {

class Communicator;

enum class MemoryKind : std::uint8_t { kHost, kDevice };

// "host" or "device".
const char* memory_kind_name(MemoryKind kind);

// What another process of the node needs to map one device buffer. Sent as-is between ranks of
// one job (trivially copyable, fixed size).
struct DeviceBufferExport {
  std::array<std::byte, 64> ipc_handle{};  // cudaIpcMemHandle_t of the whole allocation
  std::uint64_t buffer_id = 0;             // unique per allocation for the exporter's lifetime
  std::uint64_t allocation_base = 0;       // the allocation, in the exporter's address space
  std::uint64_t allocation_bytes = 0;
  std::uint64_t offset = 0;  // the buffer's start inside the allocation
};

// The export of the `bytes` at `address` inside the allocation [base, base + allocation_bytes)
// with `buffer_id`, all but the IPC handle. Throws Error(kInvalidArgument) when the buffer does
// not lie inside the allocation.
DeviceBufferExport export_inside_allocation(std::uint64_t address, std::size_t bytes,
                                            std::uint64_t base, std::uint64_t allocation_bytes,
                                            std::uint64_t buffer_id);

// Pinned (page-locked) host memory for staging; returns to its pool when the last copy goes.
using PinnedBuffer = std::shared_ptr<std::byte>;

// A peer's device buffer mapped into this process; the mapping stays open while a copy of this
// handle lives, whatever the cache does meanwhile. Hold it until the device work that uses the
// address has finished.
using PeerMapping = std::shared_ptr<std::byte>;

class DeviceSupport {
 public:
  virtual ~DeviceSupport() = default;

  // Where `pointer` lives. Host for null and for memory CUDA does not know. Managed (unified)
  // memory counts as host: IPC cannot export it and the host paths can read it. Throws
  // Error(kUnsupported) when CUDA reports device memory that this process cannot use.
  virtual MemoryKind kind_of(const void* pointer) = 0;

  // False when no buffer of this process can be device memory right now (CUDA: the driver is
  // not loaded). Asked once per collective call, before kind_of for each of its buffers.
  virtual bool may_hold_device_memory() { return true; }

  // Waits until the device work the calling thread issued before this call (its default
  // stream, legacy or per-thread, and the blocking streams that one orders after) has finished.
  // Called once at the start of every device collective, before any rank may read or write its
  // buffers: Halyard's own streams are non-blocking, and peers read exported buffers from
  // their own processes, so neither is ordered after the caller's work otherwise. A cudaMemcpy
  // from pageable host memory returns before its DMA lands, so without this a peer could read
  // a buffer the caller has just filled, or a copy into it could be overwritten by that DMA.
  virtual void wait_for_caller_work() {}

  // Exports the device buffer at `pointer` (`bytes` long) for the other ranks of this node.
  virtual DeviceBufferExport export_buffer(const void* pointer, std::size_t bytes) = 0;

  // The address, in this process, of a buffer `world_rank` exported. Each allocation is opened
  // once and cached; an entry whose allocation the peer freed (a new buffer id over the same
  // addresses) is dropped and replaced. A dropped mapping is closed once no PeerMapping of it
  // is held: callers keep theirs until their copies and kernels on it have completed.
  virtual PeerMapping map_peer_buffer(int world_rank, const DeviceBufferExport& exported) = 0;

  // Copies `bytes` between any two addresses the device can reach (own or mapped device memory,
  // pinned host memory) on a stream of a small pool. Completes from the event loop.
  virtual Request copy(void* destination, const void* source, std::size_t bytes) = 0;

  // out[i] = inputs[0][i] op inputs[1][i] op ... (left to right, rounded after each op like the
  // CPU kernels) for i < count, as a kernel on a stream of the pool. `out` may be one of the
  // inputs (each element is read from every input before it is written). At most
  // kMaxReductionInputs inputs. Completes from the event loop.
  static constexpr std::size_t kMaxReductionInputs = 64;
  virtual Request reduce(Op op, Datatype type, void* out, std::span<const void* const> inputs,
                         std::size_t count) = 0;

  // At least `bytes` of pinned host memory, from a pool reused across calls.
  virtual PinnedBuffer pinned(std::size_t bytes) = 0;
};

// What a call without a device path says when given CUDA device memory, which its host code
// would read or write with the CPU (a crash, or wrong data): "isend: buffer is CUDA device
// memory; ...".
[[noreturn]] void refuse_device_memory(std::string_view operation, std::string_view buffer_name);

// For p2p calls: refuse_device_memory() when `buffer` is device memory of `comm`'s runtime. Costs
// two comparisons where the buffer lies in the brk heap or on the stack, and nothing without a
// DeviceSupport (a build without CUDA).
void refuse_device_buffer(const Communicator& comm, const void* buffer, const char* operation);

// The DeviceSupport of the runtime `comm` belongs to (RuntimeServices::device_support); null
// when there is none.
DeviceSupport* device_support_of(const Communicator& comm);

}  // namespace halyard
