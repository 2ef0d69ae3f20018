#include "collectives/core/comm_shape.hpp"

#include "runtime/event_loop.hpp"

namespace halyard::core {

CommShape shape_of(const Communicator& comm) {
  // The communicator counted its nodes when it was made: selection runs on every collective
  // call, and a process-wide cache here cost a mutex and a map look-up each time.
  return CommShape{comm.size(), comm.node_count(), comm.max_ranks_per_node(),
                   comm.loop().cpu_shared()};
}

}  // namespace halyard::core
