// The shared-memory transport: ranks of one (emulated) node exchange messages through one
// shared segment (eager rings) and move large payloads with one copy (Cross-Memory Attach),
// falling back to copy-in/copy-out through the segment where CMA is refused.
// docs/transport-shm.md describes the design and its HALYARD_SHM_* variables.
#pragma once

#include <memory>

#include "runtime/bootstrap/launch_info.hpp"
#include "runtime/transport.hpp"
#include "runtime/transport_registry.hpp"

namespace halyard {

// Every rank of the job makes one and takes part in publish()/connect(); the router then sends
// it only peers with the same node_id. Reads its configuration from the environment here.
// `host_cpus`: the CPUs the host's ranks may run on (0: the machine's online CPUs), for
// HALYARD_SHM_SHARED_COPY=auto.
std::unique_ptr<Transport> make_shm_transport(const LaunchInfo& info, long host_cpus = 0);

// Registers make_shm_transport as the registry's shm transport.
void register_shm_transport(TransportRegistry& registry);

}  // namespace halyard
