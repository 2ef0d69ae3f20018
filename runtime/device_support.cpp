#include "runtime/device_support.hpp"

#include <string>

#include "runtime/communicator.hpp"
#include "runtime/runtime_services.hpp"
#include "runtime/support/error.hpp"
#include "runtime/support/host_memory.hpp"

namespace halyard {

const char* memory_kind_name(MemoryKind kind) {
  return kind == MemoryKind::kDevice ? "device" : "host";
}

DeviceBufferExport export_inside_allocation(std::uint64_t address, std::size_t bytes,
                                            std::uint64_t base, std::uint64_t allocation_bytes,
                                            std::uint64_t buffer_id) {
  if (address < base || address - base > allocation_bytes ||
      bytes > allocation_bytes - (address - base)) {
    throw Error(ErrorCode::kInvalidArgument, "a device buffer of " + std::to_string(bytes) +
                                                 " bytes does not lie inside its allocation of " +
                                                 std::to_string(allocation_bytes) + " bytes");
  }
  DeviceBufferExport exported;
  exported.buffer_id = buffer_id;
  exported.allocation_base = base;
  exported.allocation_bytes = allocation_bytes;
  exported.offset = address - base;
  return exported;
}

void refuse_device_memory(std::string_view operation, std::string_view buffer_name) {
  throw Error(ErrorCode::kUnsupported,
              std::string(operation) + ": " + std::string(buffer_name) +
                  " is CUDA device memory; only bcast, reduce and allreduce take device buffers "
                  "(copy the data to host memory for this call)");
}

void refuse_device_buffer(const Communicator& comm, const void* buffer, const char* operation) {
  // A finalized runtime or an empty communicator: the call itself names that.
  if (comm.loop_if_alive() == nullptr) return;
  DeviceSupport* support = device_support_of(comm);
  if (support == nullptr || buffer == nullptr) return;
  if (!support->may_hold_device_memory() || SurelyHostMemory::now().contains(buffer)) return;
  if (support->kind_of(buffer) == MemoryKind::kDevice) refuse_device_memory(operation, "buffer");
}

DeviceSupport* device_support_of(const Communicator& comm) {
  return comm.services().device_support.load(std::memory_order_acquire);
}

}  // namespace halyard
