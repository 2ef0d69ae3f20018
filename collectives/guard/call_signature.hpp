// What one collective call is, as every rank of the communicator must agree on it (MPI's rule,
// and Halyard's): the collective, the count, the datatype, the op, the root, and where the
// buffers live (host or CUDA device memory: the two take different algorithms, so ranks that
// mix them cannot meet). Fields a collective does not have stay at their "none" value.
#pragma once

#include <cstddef>
#include <string>

#include "collectives/core/coll_args.hpp"
#include "runtime/datatypes/datatype.hpp"
#include "runtime/datatypes/reduce_op.hpp"
#include "runtime/device_support.hpp"

namespace halyard::guard {

struct CallSignature {
  core::Collective collective = core::Collective::kBarrier;
  std::size_t count = 0;
  int datatype = -1;  // a Datatype value, -1: none (barrier)
  int op = -1;        // an Op value, -1: none (not a reduction); kCustomOp for any custom op
  // Every custom op compares equal: their Op values follow each process's registration order,
  // so the same MPI op can have different values on different ranks.
  static constexpr int kCustomOp = 1000;
  int root = -1;  // -1: none (not rooted)
  MemoryKind memory = MemoryKind::kHost;

  static CallSignature rooted(core::Collective c, std::size_t count, Datatype type, int root);
  static CallSignature reduction(core::Collective c, std::size_t count, Datatype type, Op op,
                                 int root = -1);
  static CallSignature plain(core::Collective c, std::size_t count, Datatype type);
  // The signature of a validated call: the fields its collective has, and its memory kind.
  static CallSignature of(const core::CollArgs& args);
  // This signature with its buffers in `kind` memory.
  CallSignature in_memory(MemoryKind kind) const {
    CallSignature copy = *this;
    copy.memory = kind;
    return copy;
  }

  friend bool operator==(const CallSignature&, const CallSignature&) = default;
};

// "allreduce(count 1024, float32, sum)", "bcast(count 8, int32, root 2)", "barrier()".
std::string describe(const CallSignature& call);

// "count (512 vs 1024), root (1 vs 0)": the fields in which `a` differs from `b`, `a`'s value
// first; empty when equal.
std::string differences(const CallSignature& a, const CallSignature& b);

}  // namespace halyard::guard
