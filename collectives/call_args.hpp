// The CollArgs of each public collective, built from its pointer-API arguments: one place for
// the blocking form, the i-form (collectives.cpp) and the persistent *_init (persistent.cpp).
#pragma once

#include <cstddef>

#include "collectives/core/coll_args.hpp"

namespace halyard::call_args {

using core::CollArgs;
using core::Collective;

inline CollArgs bcast(const Communicator& comm, void* buffer, std::size_t count, Datatype type,
                      int root) {
  return {Collective::kBcast, comm, buffer, buffer, count, {}, {}, type, {}, root};
}

// reduce, allreduce, reduce_scatter_block, scan, exscan: one count and an op.
inline CollArgs reducing(Collective collective, const Communicator& comm, const void* send,
                         void* recv, std::size_t count, Datatype type, Op op, int root = -1) {
  return {collective, comm, send, recv, count, {}, {}, type, op, root};
}

// allgather, gather, scatter, alltoall: one block's count.
inline CollArgs moving(Collective collective, const Communicator& comm, const void* send,
                       void* recv, std::size_t count, Datatype type, int root = -1) {
  return {collective, comm, send, recv, count, {}, {}, type, {}, root};
}

inline CollArgs barrier(const Communicator& comm) {
  return {Collective::kBarrier, comm};
}

inline CollArgs gatherv(const Communicator& comm, const void* send, std::size_t count, void* recv,
                        const std::size_t* counts, const std::size_t* displacements, Datatype type,
                        int root) {
  return {Collective::kGatherv, comm, send, recv, count, counts, displacements, type, {}, root};
}

inline CollArgs scatterv(const Communicator& comm, const void* send, const std::size_t* counts,
                         const std::size_t* displacements, void* recv, std::size_t count,
                         Datatype type, int root) {
  return {Collective::kScatterv, comm, send, recv, count, counts, displacements, type, {}, root};
}

inline CollArgs allgatherv(const Communicator& comm, const void* send, std::size_t count,
                           void* recv, const std::size_t* counts, const std::size_t* displacements,
                           Datatype type) {
  return {Collective::kAllgatherv, comm, send, recv, count, counts, displacements, type};
}

inline CollArgs alltoallv(const Communicator& comm, const void* send,
                          const std::size_t* send_counts, const std::size_t* send_displacements,
                          void* recv, const std::size_t* recv_counts,
                          const std::size_t* recv_displacements, Datatype type) {
  return {Collective::kAlltoallv, comm, send, recv, 0,           recv_counts,
          recv_displacements,     type, {},   -1,   send_counts, send_displacements};
}

inline CollArgs reduce_scatter(const Communicator& comm, const void* send, void* recv,
                               const std::size_t* counts, Datatype type, Op op) {
  return {Collective::kReduceScatter, comm, send, recv, 0, counts, nullptr, type, op};
}

}  // namespace halyard::call_args
