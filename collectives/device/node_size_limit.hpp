// The one limit of the device reductions inside a node: a kernel folds at most
// DeviceSupport::kMaxReductionInputs inputs, one per rank of the node.
#pragma once

#include "runtime/communicator.hpp"

namespace halyard::device {

// Throws Error(kUnsupported) naming `operation` when `node` has more ranks than that.
void require_reducible_node(const Communicator& node, const char* operation);

}  // namespace halyard::device
