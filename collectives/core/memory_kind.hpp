// Where the buffers of one collective call live on this rank, asked before the call is posted.
#pragma once

#include <initializer_list>
#include <string_view>

#include "runtime/device_support.hpp"

namespace halyard::core {

struct CallBuffer {
  const void* pointer;  // null and kInPlace are skipped
  const char* name;     // "send", "recv", "buffer"
};

// kDevice when the buffers are CUDA device memory, kHost otherwise (always kHost without
// DeviceSupport: HALYARD_CUDA=OFF; core::settle asks only where the runtime has one). Throws
// Error(kInvalidArgument) when one rank's buffers mix host and device memory, naming both, and
// passes on DeviceSupport's Error(kUnsupported) for device memory this process cannot use.
MemoryKind call_memory_kind(DeviceSupport* support, std::initializer_list<CallBuffer> buffers,
                            std::string_view operation);

}  // namespace halyard::core
