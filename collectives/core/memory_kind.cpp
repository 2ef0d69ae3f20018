#include "collectives/core/memory_kind.hpp"

#include <optional>
#include <string>

#include "collectives/core/in_place.hpp"
#include "runtime/support/error.hpp"
#include "runtime/support/host_memory.hpp"

namespace halyard::core {

namespace {

// Whether every buffer of the call lies where only host memory can (runtime/support/
// host_memory.hpp): the brk heap or the live part of this thread's stack.
bool all_surely_host(std::initializer_list<CallBuffer> buffers) {
  const SurelyHostMemory host = SurelyHostMemory::now();
  for (const CallBuffer& buffer : buffers) {
    if (buffer.pointer == nullptr || is_in_place(buffer.pointer)) continue;
    if (!host.contains(buffer.pointer)) return false;
  }
  return true;
}

}  // namespace

MemoryKind call_memory_kind(DeviceSupport* support, std::initializer_list<CallBuffer> buffers,
                            std::string_view operation) {
  if (support == nullptr) return MemoryKind::kHost;
  // A CUDA build pays for every call's question, even in a program that never uses a GPU.
  // First, whether device memory can exist at all: not before the driver is loaded, which a
  // look at the loaded objects tells (~150 instructions: dl_iterate_phdr takes the loader's
  // lock), remembered for a tick of the coarse clock (cuda_pointer_query.cpp): a few
  // instructions on most calls. Nothing cheaper tells that no device memory exists: the
  // application may load CUDA and cudaMalloc at any time without Halyard seeing it (a count of
  // Halyard's own allocations would miss those), and a CUDA context can only be asked about
  // once the driver is loaded.
  if (!support->may_hold_device_memory()) return MemoryKind::kHost;
  // Then, before one cudaPointerGetAttributes per buffer, where each buffer lies (~30
  // instructions): the brk heap and this thread's live stack hold host memory only, whatever
  // CUDA did. Small buffers mostly lie there; others are asked.
  if (all_surely_host(buffers)) return MemoryKind::kHost;
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

}  // namespace halyard::core
