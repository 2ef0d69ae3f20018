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

#include "collectives/adapt/params.hpp"
#include "collectives/core/catalog.hpp"
#include "runtime/communicator.hpp"
#include "runtime/datatypes/datatype.hpp"
#include "runtime/datatypes/reduce_op.hpp"
#include "runtime/request.hpp"

namespace halyard::adapt {

using core::parse_tree_shape;
using core::tree_shape_name;

// The catalog table of ADAPT (adapt:chain, adapt:binary, ... for bcast and reduce): post()
// builds the call's Params with params_for() (params.hpp).
core::AlgorithmTable algorithms();

// Arguments as validated by the public entry (core/validate.hpp) or derived by HAN from such;
// `params` as params_for() builds them.
Request ibcast(const Communicator& comm, void* buffer, std::size_t count, Datatype type, int root,
               const Params& params);
// `send` may be kInPlace at the root (see collectives/collectives.hpp).
Request ireduce(const Communicator& comm, const void* send, void* recv, std::size_t count,
                Datatype type, Op op, int root, const Params& params);

}  // namespace halyard::adapt
