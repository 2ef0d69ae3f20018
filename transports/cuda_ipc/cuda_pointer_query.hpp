// What CUDA knows about an address: which memory it is, and for device memory the allocation
// around it (base, size and the buffer id that tells a re-used address range apart).
#pragma once

#include <cstdint>

#include "runtime/device_support.hpp"

namespace halyard::cuda_ipc {

// True once this process has loaded the CUDA driver (libcuda.so.1). A process that never
// touched CUDA cannot hold device memory, so the memory-kind check costs no CUDA call there
// and, above all, creates no CUDA context in host-only programs.
bool cuda_driver_loaded();

struct PointerKind {
  MemoryKind kind = MemoryKind::kHost;
  int device = -1;  // the device ordinal of device memory
};

// Host for memory CUDA does not know, for managed memory, and when CUDA reports that this
// process has no usable device or driver (logged once at debug level: then no device memory
// can exist here either), unless the driver itself calls the memory device memory: then
// Error(kUnsupported) says that it cannot be used. Throws Error(kTransport) for other failures.
PointerKind query_pointer_kind(const void* pointer);

struct AllocationRange {
  std::uint64_t base = 0;
  std::uint64_t bytes = 0;
  std::uint64_t buffer_id = 0;
};

// The device allocation that contains `pointer`, through the driver's cuPointerGetAttribute
// (looked up in the already loaded driver: libhalyard does not link libcuda, which CI machines
// without a GPU do not have). Throws Error(kTransport) when the driver refuses.
AllocationRange query_allocation(const void* pointer);

}  // namespace halyard::cuda_ipc
