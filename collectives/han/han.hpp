// HAN: hierarchical collectives as task pipelines over two levels (dissertation chapter 5).
//
// The message is cut into segments of HALYARD_HAN_SEGSIZE bytes; per segment, sub-collectives
// on the node communicator (intra) and among node leaders (inter) run as tasks that start when
// their inputs complete, so the levels of successive segments overlap (Figures 5.6 and 5.14).
// Semantics and argument rules are those of collectives/collectives.hpp; callers (the public
// API) have validated the arguments. See docs/han.md for the task pipelines and knobs.
#pragma once

#include <cstddef>

#include "collectives/core/catalog.hpp"
#include "collectives/han/han_config.hpp"
#include "runtime/communicator.hpp"
#include "runtime/datatypes/datatype.hpp"
#include "runtime/datatypes/reduce_op.hpp"
#include "runtime/request.hpp"

namespace halyard::han {

// The catalog table of HAN ("han" for bcast, reduce, allreduce, allgather, barrier); post()
// passes the choice's HanTuning on.
core::AlgorithmTable algorithms();

// `tuning` is this call's configuration (a decision table's choice; han_config.hpp): its fields
// replace the defaults, and HALYARD_HAN_* variables the user set replace both.
Request ibcast(const Communicator& comm, void* buffer, std::size_t count, Datatype type, int root,
               const Tuning& tuning = {});
Request ireduce(const Communicator& comm, const void* send, void* recv, std::size_t count,
                Datatype type, Op op, int root, const Tuning& tuning = {});
Request iallreduce(const Communicator& comm, const void* send, void* recv, std::size_t count,
                   Datatype type, Op op, const Tuning& tuning = {});
Request iallgather(const Communicator& comm, const void* send, void* recv, std::size_t count,
                   Datatype type);
Request ibarrier(const Communicator& comm);

}  // namespace halyard::han
