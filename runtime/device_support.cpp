#include "runtime/device_support.hpp"

#include "runtime/communicator.hpp"
#include "runtime/event_loop.hpp"
#include "runtime/loop_registry.hpp"

namespace halyard {

namespace {

LoopRegistry<DeviceSupport>& supports() {
  static LoopRegistry<DeviceSupport> registry;
  return registry;
}

}  // namespace

const char* memory_kind_name(MemoryKind kind) {
  return kind == MemoryKind::kDevice ? "device" : "host";
}

DeviceSupport* device_support_of(const Communicator& comm) {
  return supports().find(comm.loop());
}

void register_device_support(const EventLoop& loop, DeviceSupport* support) {
  supports().set(loop, support);
}

}  // namespace halyard
