// MPI groups: ordered lists of distinct world ranks. MPI_GROUP_EMPTY is predefined, and every
// call that makes an empty group returns it, so that comparing handles with it works.
#pragma once

#include <mpi.h>

#include <vector>

#include "runtime/communicator.hpp"

namespace halyard::mpi_shim {

using Group = std::vector<int>;  // world ranks, in group order

// MPI_ERR_GROUP for MPI_GROUP_NULL or a handle that names no group; `name` is the argument.
const Group& checked_group(MPI_Group group, const char* name = "group");
// The world ranks of a communicator's members, in rank order.
Group members_of(const Communicator& comm);
// A new handle for `members` (MPI_GROUP_EMPTY when there are none).
MPI_Group add_group(Group members);
// MPI_ERR_GROUP for an invalid handle; MPI_GROUP_EMPTY stays.
void free_group(MPI_Group group);

// The position of `world_rank` in `group`, or MPI_UNDEFINED.
int rank_in_group(const Group& group, int world_rank);
// MPI_IDENT, MPI_SIMILAR (same members, another order) or MPI_UNEQUAL.
int compare_groups(const Group& a, const Group& b);

}  // namespace halyard::mpi_shim
