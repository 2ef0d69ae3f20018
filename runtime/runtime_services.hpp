// RuntimeServices: what one Runtime offers the layers above, found from any of its
// communicators (comm.services()).
//
// A Communicator is all a collective is given, and in-process tests run several runtimes at
// once, so per-runtime services travel with the communicator's state instead of living in
// process-wide maps: node memory from the shm transport, remote memory from the ofi transport,
// device support from the CUDA transport, the collective watchdog, and the attachments of the
// layers above (runtime/attachments.hpp). The Runtime fills the pointers once the service exists
// and clears them when it tears down; they are atomic because a progress thread may read them while
// the application thread sets one (a test's fake device does, after the world communicator exists).
#pragma once

#include <atomic>

#include "runtime/attachments.hpp"

namespace halyard {

class CollectiveWatchdog;
class DeviceSupport;
class FlightRecorder;
class NodeMemory;
class RemoteMemory;

struct RuntimeServices {
  std::atomic<NodeMemory*> node_memory{nullptr};        // owned by its transport
  std::atomic<RemoteMemory*> remote_memory{nullptr};    // owned by its transport
  std::atomic<DeviceSupport*> device_support{nullptr};  // owned by the Runtime
  std::atomic<CollectiveWatchdog*> watchdog{nullptr};   // null when HALYARD_COLL_TIMEOUT is off
  std::atomic<FlightRecorder*> recorder{nullptr};       // null unless hlaunch asked for one
  // Per-runtime state of the layers above; released when the runtime tears down (objects that
  // a communicator's attachment still holds live on until it goes).
  Attachments attachments;
};

}  // namespace halyard
