// GPU-aware bcast, reduce and allreduce on CUDA device buffers (ADAPT section 4), as catalog
// entries that the selection takes whenever a call's buffers are device memory (core/catalog.hpp;
// HALYARD_<COLL>_ALG names host algorithms only):
//   - device:node_ipc, every member on one node: CUDA IPC between the ranks (several may share
//     a GPU), reductions as GPU kernels (node_operations.hpp);
//   - device:staged, members on several nodes: the same inside each node; between nodes the
//     node leaders move the data through one pinned host buffer each, so it crosses PCIe once
//     per node, and run the host inter-node algorithms of HAN on it.
// Arguments as validated by the public entry (core/validate.hpp).
#pragma once

#include <cstddef>

#include "collectives/core/catalog.hpp"
#include "runtime/communicator.hpp"
#include "runtime/datatypes/datatype.hpp"
#include "runtime/datatypes/reduce_op.hpp"
#include "runtime/device_support.hpp"
#include "runtime/request.hpp"

namespace halyard::device {

// The catalog table of the device algorithms (device_collectives.cpp).
core::AlgorithmTable algorithms();

// The staged (multi-node) forms; staged_collectives.cpp.
Request ibcast_staged(const Communicator& comm, DeviceSupport& device, void* buffer,
                      std::size_t count, Datatype type, int root);
Request ireduce_staged(const Communicator& comm, DeviceSupport& device, const void* input,
                       void* recv, std::size_t count, Datatype type, Op op, int root);
Request iallreduce_staged(const Communicator& comm, DeviceSupport& device, const void* input,
                          void* recv, std::size_t count, Datatype type, Op op);

}  // namespace halyard::device
