// collectives/base: flat algorithms on tagged point-to-point (DESIGN.md, "Collectives").
//
// They are the baselines the selection layer falls back on and the submodules HAN builds on.
// Every function has the argument meaning of its counterpart in collectives/collectives.hpp
// (kInPlace included where that header allows it) on arguments the public entry validated
// (core/validate.hpp) or HAN derived from such; it takes one collective tag from
// next_collective_tag(comm), and returns a Request that completes when this rank's part is
// done. All ranks must call the same algorithm with the same count. Nothing blocks: each
// algorithm is a StepMachine advanced by p2p completion callbacks.
#pragma once

#include <cstddef>

#include "collectives/core/catalog.hpp"
#include "runtime/communicator.hpp"
#include "runtime/datatypes/datatype.hpp"
#include "runtime/datatypes/reduce_op.hpp"
#include "runtime/request.hpp"

namespace halyard::base {

// The catalog table of the flat algorithms (catalog.cpp): base:linear, base:ring, ...
core::AlgorithmTable algorithms();

// Root sends to every rank.
Request ibcast_linear(const Communicator& comm, void* buffer, std::size_t count, Datatype type,
                      int root);
// Binomial tree: ceil(log2 p) rounds.
Request ibcast_binomial(const Communicator& comm, void* buffer, std::size_t count, Datatype type,
                        int root);

// Root receives from every rank and reduces in rank order (x0 op x1 op ... op x(p-1), whatever
// the root: ranks above it upwards, then those below it downwards, on the left).
Request ireduce_linear(const Communicator& comm, const void* send, void* recv, std::size_t count,
                       Datatype type, Op op, int root);
// Binomial tree: each rank reduces its children's partial results, then sends to its parent. A
// non-commutative op at a root other than 0 runs over the tree rooted at 0, in rank order, and
// rank 0 sends the result to the root.
Request ireduce_binomial(const Communicator& comm, const void* send, void* recv, std::size_t count,
                         Datatype type, Op op, int root);

// Reduce-scatter ring then allgather ring: 2(p-1) steps of count/p elements (bandwidth-optimal).
Request iallreduce_ring(const Communicator& comm, const void* send, void* recv, std::size_t count,
                        Datatype type, Op op);
// Up to this many bytes recursive doubling's log2 p rounds beat the ring's and Rabenseifner's
// bandwidth (the flat allreduce's built-in rule and HAN's leaders both switch here).
inline constexpr std::size_t kRecursiveDoublingMaxBytes = 32 * 1024;

// log2 p full-vector exchanges; non-power-of-two sizes fold the extra ranks in and out.
Request iallreduce_recursive_doubling(const Communicator& comm, const void* send, void* recv,
                                      std::size_t count, Datatype type, Op op);
// Reduce-scatter by recursive halving, allgather by recursive doubling (same fold for extras).
Request iallreduce_rabenseifner(const Communicator& comm, const void* send, void* recv,
                                std::size_t count, Datatype type, Op op);

// p-1 steps passing blocks to the right neighbour.
Request iallgather_ring(const Communicator& comm, const void* send, void* recv, std::size_t count,
                        Datatype type);
// ceil(log2 p) steps of doubling block counts, then a local rotation.
Request iallgather_bruck(const Communicator& comm, const void* send, void* recv, std::size_t count,
                         Datatype type);

// ceil(log2 p) rounds of zero-byte messages to rank + 2^k.
Request ibarrier_dissemination(const Communicator& comm);

// Root receives (gather) or sends (scatter) one block per rank directly.
Request igather_linear(const Communicator& comm, const void* send, void* recv, std::size_t count,
                       Datatype type, int root);
Request iscatter_linear(const Communicator& comm, const void* send, void* recv, std::size_t count,
                        Datatype type, int root);

// p-1 steps; in step s send to rank + s and receive from rank - s.
Request ialltoall_pairwise(const Communicator& comm, const void* send, void* recv,
                           std::size_t count, Datatype type);
// ceil(log2 p) steps of about p/2 blocks each (packed), for small blocks.
Request ialltoall_bruck(const Communicator& comm, const void* send, void* recv, std::size_t count,
                        Datatype type);

// The v-variants (issue 25): per-rank counts and displacements in elements, as in
// collectives/collectives.hpp; empty blocks send no message.
// Root receives (gatherv) or sends (scatterv) each block directly.
Request igatherv_linear(const Communicator& comm, const void* send, std::size_t count, void* recv,
                        const std::size_t* counts, const std::size_t* displacements, Datatype type,
                        int root);
Request iscatterv_linear(const Communicator& comm, const void* send, const std::size_t* counts,
                         const std::size_t* displacements, void* recv, std::size_t count,
                         Datatype type, int root);
// p-1 steps passing blocks to the right neighbour.
Request iallgatherv_ring(const Communicator& comm, const void* send, std::size_t count, void* recv,
                         const std::size_t* counts, const std::size_t* displacements,
                         Datatype type);
// p-1 steps; in step s send to rank + s and receive from rank - s.
Request ialltoallv_pairwise(const Communicator& comm, const void* send,
                            const std::size_t* send_counts, const std::size_t* send_displacements,
                            void* recv, const std::size_t* recv_counts,
                            const std::size_t* recv_displacements, Datatype type);

// p-1 steps passing partial blocks to the right neighbour, reducing on arrival.
Request ireduce_scatter_block_ring(const Communicator& comm, const void* send, void* recv,
                                   std::size_t count, Datatype type, Op op);
Request ireduce_scatter_ring(const Communicator& comm, const void* send, void* recv,
                             const std::size_t* counts, Datatype type, Op op);
// p-1 steps; in step s send the block of rank + s to it and receive rank - s's contribution,
// then reduce the contributions in rank order (right for ops that do not commute too).
Request ireduce_scatter_block_pairwise(const Communicator& comm, const void* send, void* recv,
                                       std::size_t count, Datatype type, Op op);
Request ireduce_scatter_pairwise(const Communicator& comm, const void* send, void* recv,
                                 const std::size_t* counts, Datatype type, Op op);

// ceil(log2 p) exchanges of the whole vector with rank xor 2^k.
Request iscan_recursive_doubling(const Communicator& comm, const void* send, void* recv,
                                 std::size_t count, Datatype type, Op op);
Request iexscan_recursive_doubling(const Communicator& comm, const void* send, void* recv,
                                   std::size_t count, Datatype type, Op op);

}  // namespace halyard::base
