// Device-buffer operations among the ranks of one node, over CUDA IPC: peers' buffers are
// mapped (DeviceSupport::map_peer_buffer, cached) and read or written in place by copies and
// reduction kernels on streams. Host messages carry only the notices and the "done" tokens that
// keep a buffer alive until every peer has finished with it.
//
// Each takes one collective tag of `node` from next_collective_tag() on EVERY rank of `node`,
// involved or not, so that all ranks keep the same tag sequence. Ranks are ranks of `node`.
// `operation` names the public call in error messages.
#pragma once

#include <cstddef>
#include <vector>

#include "runtime/communicator.hpp"
#include "runtime/datatypes/datatype.hpp"
#include "runtime/datatypes/reduce_op.hpp"
#include "runtime/device_support.hpp"
#include "runtime/request.hpp"

namespace halyard::device {

// `exporter`'s device buffer is mapped by every rank of `copiers`, which copies it into its own
// `buffer` (pull, a broadcast) or its own `buffer` into it (push, a hand-over). `buffer` is the
// exporter's device buffer on the exporter, the local side (device or pinned host) on copiers.
struct NodeCopyPlan {
  int exporter = 0;
  std::vector<int> copiers;
  bool pull = true;
  void* buffer = nullptr;
  std::size_t bytes = 0;
  // This rank already knows that the call failed elsewhere (another node): it still takes part,
  // to tell its peers, who then fail too, and its own request fails.
  bool failed_elsewhere = false;
};
Request node_copy(const Communicator& node, DeviceSupport& device, const NodeCopyPlan& plan,
                  const char* operation);

// The ranks of `node` but `root`, in rank order.
std::vector<int> all_but(const Communicator& node, int root);

// One rank's part of a device reduction: its contribution (`input`, a device buffer), where the
// result goes (`out`), and what to compute.
struct NodeReduction {
  const void* input = nullptr;
  void* out = nullptr;
  std::size_t count = 0;
  Datatype type = Datatype::kUint8;
  Op op = Op::kSum;
  const char* operation = "";

  std::size_t bytes() const { return count * datatype_size(type); }
};

// At `root`: out = input of rank 0 op input of rank 1 op ... (node rank order), computed by one
// kernel that reads the peers' inputs in place. `out` (significant at root only) is device
// memory or pinned host memory; it may equal root's `input` (in place).
Request node_reduce(const Communicator& node, DeviceSupport& device, int root,
                    const NodeReduction& reduction);

// out = the reduction of every rank's input, on every rank (`out` a device buffer): each rank
// reduces one slice reading every peer's input in place, then copies the other slices from
// their owners. `input` may equal `out` (in place).
Request node_allreduce(const Communicator& node, DeviceSupport& device,
                       const NodeReduction& reduction);

}  // namespace halyard::device
