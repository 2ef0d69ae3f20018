#include "collectives/core/memory_kind.hpp"

#include <optional>
#include <string>

#include "collectives/core/in_place.hpp"
#include "runtime/support/error.hpp"

namespace halyard::core {

MemoryKind call_memory_kind(DeviceSupport* support, std::initializer_list<CallBuffer> buffers,
                            std::string_view operation) {
  // One question for the whole call where no device memory can exist (a host-only program
  // under a CUDA build): asking per buffer cost ~180 instructions each.
  if (support == nullptr || !support->may_hold_device_memory()) return MemoryKind::kHost;
  std::optional<CallBuffer> first;
  MemoryKind first_kind = MemoryKind::kHost;
  for (const CallBuffer& buffer : buffers) {
    if (buffer.pointer == nullptr || is_in_place(buffer.pointer)) continue;
    MemoryKind kind = support->kind_of(buffer.pointer);
    if (!first) {
      first = buffer;
      first_kind = kind;
    } else if (kind != first_kind) {
      throw Error(ErrorCode::kInvalidArgument,
                  std::string(operation) + ": " + first->name + " is " +
                      memory_kind_name(first_kind) + " memory but " + buffer.name + " is " +
                      memory_kind_name(kind) +
                      " memory; the buffers of one call must both be host or both be CUDA "
                      "device memory");
    }
  }
  return first_kind;
}

MemoryKind call_memory_kind(const Communicator& comm, std::initializer_list<CallBuffer> buffers,
                            std::string_view operation) {
  if (!comm.valid()) return MemoryKind::kHost;
  return call_memory_kind(device_support_of(comm), buffers, operation);
}

}  // namespace halyard::core
