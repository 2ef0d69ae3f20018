#include "shim/group_table.hpp"

#include <algorithm>
#include <string>

#include "shim/handle_table.hpp"
#include "shim/mpi_error.hpp"

namespace halyard::mpi_shim {

namespace {

HandleTable<Group>& groups() {
  static HandleTable<Group> table = [] {
    HandleTable<Group> made(HALYARD_MPI_KIND_GROUP);
    made.add_predefined({});  // MPI_GROUP_EMPTY
    return made;
  }();
  return table;
}

}  // namespace

const Group& checked_group(MPI_Group group, const char* name) {
  if (const Group* members = groups().find(group)) return *members;
  if (group == MPI_GROUP_NULL) fail(MPI_ERR_GROUP, std::string(name) + " is MPI_GROUP_NULL");
  fail(MPI_ERR_GROUP, "invalid " + std::string(name) + " " + std::to_string(group));
}

Group members_of(const Communicator& comm) {
  Group members;
  for (int r = 0; r < comm.size(); ++r) members.push_back(comm.world_rank(r));
  return members;
}

MPI_Group add_group(Group members) {
  return members.empty() ? MPI_GROUP_EMPTY : groups().add(std::move(members));
}

void free_group(MPI_Group group) {
  checked_group(group);
  groups().remove(group);
}

int rank_in_group(const Group& group, int world_rank) {
  auto it = std::find(group.begin(), group.end(), world_rank);
  return it == group.end() ? MPI_UNDEFINED : static_cast<int>(it - group.begin());
}

int compare_groups(const Group& a, const Group& b) {
  if (a == b) return MPI_IDENT;
  Group sorted_a = a;
  Group sorted_b = b;
  std::sort(sorted_a.begin(), sorted_a.end());
  std::sort(sorted_b.begin(), sorted_b.end());
  return sorted_a == sorted_b ? MPI_SIMILAR : MPI_UNEQUAL;
}

}  // namespace halyard::mpi_shim
