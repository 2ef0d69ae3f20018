// Which family of algorithms a call on device buffers takes (DESIGN.md, "cuda_ipc"): the
// selection is automatic, from where the buffers live and how the communicator spreads over
// nodes. HALYARD_<COLL>_ALG names host algorithms and does not apply to device buffers.
#pragma once

#include "collectives/select/comm_shape.hpp"
#include "runtime/device_support.hpp"

namespace halyard::select {

enum class DevicePath {
  kHost,     // host buffers: the usual selection (select/selection.hpp)
  kNodeIpc,  // device buffers, every member on one node: CUDA IPC copies and GPU reductions
  kStaged,   // device buffers over several nodes: IPC inside each node, pinned host buffers on
             // the node leaders between nodes (ADAPT section 4)
};

DevicePath choose_device_path(MemoryKind memory, const CommShape& shape);

}  // namespace halyard::select
