#include "runtime/node_memory.hpp"

#include "runtime/communicator.hpp"
#include "runtime/runtime_services.hpp"

namespace halyard {

NodeMemory* node_memory_of(const Communicator& comm) {
  return comm.services().node_memory.load(std::memory_order_acquire);
}

}  // namespace halyard
