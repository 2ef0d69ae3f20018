// GPU-aware bcast, reduce and allreduce on CUDA device buffers among the ranks of one node
// (ADAPT section 4), as catalog entries that the selection takes whenever a call's buffers are
// device memory and every member is on one node (core/catalog.hpp; HALYARD_<COLL>_ALG names
// host algorithms only): device:node_ipc, CUDA IPC between the ranks (several may share a GPU),
// reductions as GPU kernels (node_operations.hpp).
//
// The multi-node form, device:staged, is a HAN pipeline over these node operations and lives
// with HAN (collectives/han/device_staged.hpp), which exports its entries.
// Arguments as validated by the public entry (core/validate.hpp).
#pragma once

#include "collectives/core/catalog.hpp"

namespace halyard::device {

// The catalog table of the device algorithms for one node (device_collectives.cpp).
core::AlgorithmTable algorithms();

}  // namespace halyard::device
