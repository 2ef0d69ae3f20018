// device:staged: bcast, reduce and allreduce on CUDA device buffers of a communicator whose
// members are on several nodes. A HAN task pipeline on HAN's hierarchy whose intra-node tasks
// are the device family's node operations over CUDA IPC (collectives/device/node_operations.hpp)
// and whose inter-node tasks are HAN's inter-node submodules on the node leaders' pinned host
// staging buffers. The selection takes these entries by memory kind and shape (han::algorithms()
// exports them); HALYARD_<COLL>_ALG cannot name them.
#pragma once

#include "collectives/core/coll_args.hpp"
#include "collectives/core/selected_algorithm.hpp"
#include "runtime/request.hpp"

namespace halyard::han {

// Catalog post() functions (core/catalog.hpp); arguments as validated by the public entry.
Request post_device_staged_bcast(const core::CollArgs& args, const core::SelectedAlgorithm&);
Request post_device_staged_reduce(const core::CollArgs& args, const core::SelectedAlgorithm&);
Request post_device_staged_allreduce(const core::CollArgs& args, const core::SelectedAlgorithm&);

}  // namespace halyard::han
