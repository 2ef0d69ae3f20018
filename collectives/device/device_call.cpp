#include "collectives/device/device_call.hpp"

#include "collectives/core/in_place.hpp"
#include "runtime/support/error.hpp"

namespace halyard::device {

DeviceSupport& support_for_call(const Communicator& comm) {
  DeviceSupport* support = device_support_of(comm);
  if (support == nullptr) {
    throw Error(ErrorCode::kInternal, "a device collective was selected without DeviceSupport");
  }
  support->wait_for_caller_work();
  return *support;
}

const void* contribution_of(const core::CollArgs& args) {
  return core::is_in_place(args.send) ? args.recv : args.send;
}

}  // namespace halyard::device
