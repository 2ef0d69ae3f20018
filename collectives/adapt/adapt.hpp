// ADAPT: segmented, event-driven tree collectives (ADAPT paper; dissertation chapters 3-4).
//
// The message is cut into segments; each segment moves down (bcast) or up (reduce) a tree, and
// each child and each segment progresses on its own completion callbacks: up to
// `sends_in_flight` (N) sends per child and `recvs_in_flight` (M > N) receives from the parent
// are posted at once, and nothing ever waits for a group of operations. The Blocking and
// Waitall variants run the same trees the way the paper's Algorithms 1 and 2 do, for the noise
// comparisons.
#pragma once

#include <cstddef>
#include <string_view>

#include "runtime/communicator.hpp"
#include "runtime/datatype.hpp"
#include "runtime/reduce_op.hpp"
#include "runtime/request.hpp"

namespace halyard::adapt {

enum class TreeShape { kChain, kBinary, kBinomial, kKnomial, kTopo };

// "chain", "binary", "binomial", "knomial", "topo"; parse throws Error(kInvalidArgument)
// listing the valid names.
std::string_view tree_shape_name(TreeShape shape);
TreeShape parse_tree_shape(std::string_view name);

enum class Variant {
  kEventDriven,  // ADAPT (Algorithm 3-5): per-segment, per-child callbacks
  kBlocking,     // Algorithm 1: blocking sends and receives, segment by segment
  kWaitall,      // Algorithm 2: non-blocking per segment, then wait for all of them
};

struct Params {
  TreeShape tree = TreeShape::kBinary;
  int knomial_radix = 4;  // k of the k-nomial tree (>= 2)
  std::size_t segment_bytes = 64 * 1024;
  int sends_in_flight = 2;  // N: per child
  int recvs_in_flight = 4;  // M: from the parent (M > N)
  Variant variant = Variant::kEventDriven;
  // Shapes of the levels of the topo tree (each must be a plain shape, not kTopo). The slow
  // inter-node level gets a log-depth tree; the few package/NUMA leaders of a node a chain;
  // the cores of one group a binary tree (cheap links, so fan-out 2 keeps depth low).
  TreeShape topo_node_shape = TreeShape::kBinomial;
  TreeShape topo_group_shape = TreeShape::kChain;
  TreeShape topo_core_shape = TreeShape::kBinary;
};

Request ibcast(const Communicator& comm, void* buffer, std::size_t count, Datatype type, int root,
               const Params& params);
// `send` may be kInPlace at the root (see collectives/collectives.hpp).
Request ireduce(const Communicator& comm, const void* send, void* recv, std::size_t count,
                Datatype type, Op op, int root, const Params& params);

}  // namespace halyard::adapt
