// The words every layer of collectives/ shares: which collective a call is, which algorithm
// runs it, and the tree shapes of ADAPT's algorithms. The names users write
// (HALYARD_<COLL>_ALG=base:ring, adapt:binary, han, intranode:sm) belong to the algorithms
// themselves: each family's catalog table (core/catalog.hpp) spells them.
#pragma once

#include <cstddef>
#include <string_view>

namespace halyard::core {

enum class Collective {
  kBcast,
  kReduce,
  kAllreduce,
  kAllgather,
  kBarrier,
  kGather,
  kScatter,
  kAlltoall,
  // Per-rank counts and displacements (CollArgs::counts); reduce-scatter and the prefix
  // reductions (issue 25).
  kGatherv,
  kScatterv,
  kAllgatherv,
  kAlltoallv,
  kReduceScatterBlock,
  kReduceScatter,
  kScan,
  kExscan
};

inline constexpr std::size_t kCollectiveCount = 16;

// "bcast", "reduce", ...; the C++ API's name of the call, which error messages start with,
// "ibcast"; and the variable that forces its algorithm, "HALYARD_BCAST_ALG".
std::string_view collective_name(Collective collective);
std::string_view operation_name(Collective collective);
const char* algorithm_variable(Collective collective);

enum class Algorithm {
  kLinear,
  kBinomial,
  kRing,
  kRecursiveDoubling,
  kRabenseifner,
  kBruck,
  kDissemination,
  kPairwise,
  kAdapt,         // ADAPT's segmented trees (bcast and reduce); the tree is a parameter
  kHan,           // HAN's hierarchical pipelines (bcast, reduce, allreduce, allgather, barrier)
  kIntranodeSm,   // one node: copy-in/copy-out through the node's scratch slots
  kIntranodeCma,  // one node: single copy with Cross-Memory Attach
  kNodeIpc,       // device buffers, one node: CUDA IPC copies and GPU reductions
  kStagedNodes,   // device buffers, several nodes: IPC inside nodes, pinned host buffers between
  kShm,           // one node: flags and cells in the node's shared segment (collectives/shm)
  kSelf           // one member: the local copy each collective leaves (collectives/self)
};

inline constexpr std::size_t kAlgorithmCount = 16;

// The shapes of ADAPT's trees: "chain", "binary", "binomial", "knomial", "topo".
enum class TreeShape { kChain, kBinary, kBinomial, kKnomial, kTopo };

// parse_tree_shape throws Error(kInvalidArgument) listing the valid names.
std::string_view tree_shape_name(TreeShape shape);
TreeShape parse_tree_shape(std::string_view name);

}  // namespace halyard::core
