#include "runtime/remote_memory.hpp"

#include "runtime/communicator.hpp"
#include "runtime/runtime_services.hpp"

namespace halyard {

RemoteMemory* remote_memory_of(const Communicator& comm) {
  return comm.services().remote_memory.load(std::memory_order_acquire);
}

}  // namespace halyard
