// What every device collective does first with a validated call, for the device family's own
// entries (one node) and for HAN's staged device pipelines (han/device_staged.hpp) alike.
#pragma once

#include "collectives/core/coll_args.hpp"
#include "runtime/communicator.hpp"
#include "runtime/device_support.hpp"

namespace halyard::device {

// The device support of `comm`, once the caller's earlier device work on the call's buffers
// has finished (DeviceSupport::wait_for_caller_work says why). Throws Error(kInternal) when the
// runtime has none (a device entry must not have been selected then).
DeviceSupport& support_for_call(const Communicator& comm);

// This rank's contribution to a reduction: the receive buffer when the call is in place.
const void* contribution_of(const core::CollArgs& args);

}  // namespace halyard::device
