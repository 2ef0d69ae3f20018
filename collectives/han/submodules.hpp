// The swappable submodules of HAN's tasks: one entry per (level, operation), dispatching on the
// configured module (han_config.hpp). Each starts one sub-collective and returns its Request.
#pragma once

#include <cstddef>

#include "collectives/han/han_config.hpp"
#include "runtime/communicator.hpp"
#include "runtime/datatypes/datatype.hpp"
#include "runtime/datatypes/reduce_op.hpp"
#include "runtime/request.hpp"

namespace halyard::han {

Request intra_bcast(IntraModule module, const Communicator& node, void* buffer, std::size_t count,
                    Datatype type, int root);
Request intra_reduce(IntraModule module, const Communicator& node, const void* send, void* recv,
                     std::size_t count, Datatype type, Op op, int root);
Request intra_gather(IntraModule module, const Communicator& node, const void* send, void* recv,
                     std::size_t count, Datatype type, int root);
Request inter_bcast(const Config& c, const Communicator& leaders, void* buffer, std::size_t count,
                    Datatype type, int root);
// In place on `buffer`, on every leader (base Rabenseifner; adapt has no allreduce of its own).
Request inter_allreduce_in_place(const Communicator& leaders, void* buffer, std::size_t count,
                                 Datatype type, Op op);
Request inter_reduce(const Config& c, const Communicator& leaders, const void* send, void* recv,
                     std::size_t count, Datatype type, Op op, int root);

}  // namespace halyard::han
