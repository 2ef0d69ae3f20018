// Checks and helpers the MPI topology calls share (api_cartesian.cpp, api_graph_topology.cpp),
// each failing with the MPI error class the standard gives it.
#pragma once

#include <mpi.h>

#include <vector>

#include "shim/shim_state.hpp"
#include "shim/topology.hpp"

namespace halyard::mpi_shim {

// MPI_ERR_ARG for a NULL output or array argument.
void check_pointer(const void* pointer, const char* name);
// MPI_ERR_RANK unless 0 <= rank < size.
void check_rank_in(int rank, int size, const char* what);
// Copies up to `max` values to `out` (MPI's "maxdims" / "maxindex" outputs); MPI_ERR_ARG for a
// negative max.
void copy_out(const std::vector<int>& values, int max, int out[], const char* name);
// The first `members` ranks of `entry`'s communicator in a new one with `topology` (its rank
// order kept: reorder is ignored); the others get MPI_COMM_NULL. Collective over the old
// communicator.
MPI_Comm make_topology_comm(const CommEntry& entry, int members, Topology topology);

}  // namespace halyard::mpi_shim
