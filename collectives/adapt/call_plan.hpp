// What one ADAPT call needs once its arguments are checked: this rank's links in the tree,
// the segmentation, the tag, and the in-flight limits. Shared by the three variants of bcast
// and reduce (internal to collectives/adapt).
#pragma once

#include <cstddef>
#include <vector>

#include "collectives/adapt/segmentation.hpp"
#include "runtime/communicator.hpp"
#include "runtime/datatypes/datatype.hpp"
#include "runtime/datatypes/reduce_op.hpp"
#include "runtime/request.hpp"

namespace halyard::adapt {

struct CallPlan {
  Communicator comm;
  int tag = 0;
  int parent = -1;            // -1 at the root
  std::vector<int> children;  // in the order this rank serves them
  Segmentation segments;
  int sends_in_flight = 1;  // N, per child (bcast) or to the parent (reduce)
  int recvs_in_flight = 1;  // M, from the parent (bcast) or per child (reduce)
};

// Reduce operands: `own` is this rank's contribution (never null when count > 0), `recv` the
// root's result buffer (null elsewhere; equal to `own` for an in-place root).
struct ReduceOperands {
  const std::byte* own = nullptr;
  std::byte* recv = nullptr;
  Datatype type = Datatype::kInt8;
  Op op = Op::kSum;
};

// Event-driven (Algorithms 3-5): return at once; the Request completes from callbacks.
Request bcast_event_driven(const CallPlan& plan, std::byte* buffer);
Request reduce_event_driven(const CallPlan& plan, const ReduceOperands& operands);

// Algorithm 1 (blocking p2p) and Algorithm 2 (non-blocking + wait for all): run to the end on
// the caller's thread and return the outcome.
Status bcast_blocking(const CallPlan& plan, std::byte* buffer);
Status bcast_waitall(const CallPlan& plan, std::byte* buffer);
Status reduce_blocking(const CallPlan& plan, const ReduceOperands& operands);
Status reduce_waitall(const CallPlan& plan, const ReduceOperands& operands);

}  // namespace halyard::adapt
