// GPU-aware bcast, reduce and allreduce on CUDA device buffers (ADAPT section 4), reached from
// the public collectives (collectives.cpp) when the buffers are on a device:
//   - on one node (select::DevicePath::kNodeIpc): CUDA IPC between the ranks (several may share
//     a GPU), reductions as GPU kernels (node_operations.hpp);
//   - over several nodes (kStaged): the same inside each node; between nodes the node leaders
//     move the data through one pinned host buffer each, so it crosses PCIe once per node, and
//     run the host inter-node algorithms of HAN on it.
// Arguments as in collectives/collectives.hpp, already checked there.
#pragma once

#include <cstddef>

#include "collectives/select/device_path.hpp"
#include "runtime/communicator.hpp"
#include "runtime/datatype.hpp"
#include "runtime/device_support.hpp"
#include "runtime/reduce_op.hpp"
#include "runtime/request.hpp"

namespace halyard::device {

Request ibcast(const Communicator& comm, void* buffer, std::size_t count, Datatype type, int root,
               select::DevicePath path);
Request ireduce(const Communicator& comm, const void* send, void* recv, std::size_t count,
                Datatype type, Op op, int root, select::DevicePath path);
Request iallreduce(const Communicator& comm, const void* send, void* recv, std::size_t count,
                   Datatype type, Op op, select::DevicePath path);

// The staged (multi-node) forms; staged_collectives.cpp.
Request ibcast_staged(const Communicator& comm, DeviceSupport& device, void* buffer,
                      std::size_t count, Datatype type, int root);
Request ireduce_staged(const Communicator& comm, DeviceSupport& device, const void* input,
                       void* recv, std::size_t count, Datatype type, Op op, int root);
Request iallreduce_staged(const Communicator& comm, DeviceSupport& device, const void* input,
                          void* recv, std::size_t count, Datatype type, Op op);

}  // namespace halyard::device
