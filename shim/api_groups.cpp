// MPI calls on groups: MPI_Comm_group and MPI_Group_*. A group is a list of world ranks, so
// groups of different communicators compare and translate directly.
#include <mpi.h>

#include <algorithm>
#include <string>

#include "shim/argument_checks.hpp"
#include "shim/call_guard.hpp"
#include "shim/group_table.hpp"
#include "shim/intercomm.hpp"

using namespace halyard::mpi_shim;

namespace {

void check_list_length(int n, const Group& group) {
  if (n < 0 || n > static_cast<int>(group.size())) {
    fail(MPI_ERR_ARG,
         "invalid n " + std::to_string(n) + " (group size " + std::to_string(group.size()) + ")");
  }
}

// MPI_ERR_RANK unless `rank` names a member of `group` not already `taken`.
void take_rank(int rank, const Group& group, std::vector<bool>& taken) {
  if (rank < 0 || rank >= static_cast<int>(group.size())) {
    fail(MPI_ERR_RANK, "invalid rank " + std::to_string(rank) + " (group size " +
                           std::to_string(group.size()) + ")");
  }
  if (taken[static_cast<std::size_t>(rank)]) {
    fail(MPI_ERR_RANK, "rank " + std::to_string(rank) + " is listed twice");
  }
  taken[static_cast<std::size_t>(rank)] = true;
}

// The ranks of `group` that `ranks` lists, in that order (distinct, valid).
std::vector<int> listed_ranks(const Group& group, int n, const int ranks[]) {
  check_list_length(n, group);
  if (n > 0 && ranks == nullptr) fail(MPI_ERR_ARG, "ranks is NULL");
  std::vector<bool> taken(group.size(), false);
  std::vector<int> listed(ranks, ranks + n);
  for (int rank : listed) take_rank(rank, group, taken);
  return listed;
}

// The ranks of `group` that the (first, last, stride) triplets name, in that order.
std::vector<int> ranged_ranks(const Group& group, int n, int ranges[][3]) {
  if (n < 0) fail(MPI_ERR_ARG, "invalid n " + std::to_string(n));
  if (n > 0 && ranges == nullptr) fail(MPI_ERR_ARG, "ranges is NULL");
  std::vector<bool> taken(group.size(), false);
  std::vector<int> listed;
  for (int i = 0; i < n; ++i) {
    int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
    if (stride == 0) fail(MPI_ERR_ARG, "range " + std::to_string(i) + " has stride 0");
    for (long rank = first; stride > 0 ? rank <= last : rank >= last; rank += stride) {
      take_rank(static_cast<int>(rank), group, taken);
      listed.push_back(static_cast<int>(rank));
    }
  }
  return listed;
}

Group members_at(const Group& group, const std::vector<int>& ranks) {
  Group members;
  for (int rank : ranks) members.push_back(group[static_cast<std::size_t>(rank)]);
  return members;
}

Group members_except(const Group& group, const std::vector<int>& ranks) {
  std::vector<bool> excluded(group.size(), false);
  for (int rank : ranks) excluded[static_cast<std::size_t>(rank)] = true;
  Group members;
  for (std::size_t i = 0; i < group.size(); ++i) {
    if (!excluded[i]) members.push_back(group[i]);
  }
  return members;
}

bool contains(const Group& group, int world_rank) {
  return std::find(group.begin(), group.end(), world_rank) != group.end();
}

// Members of `first` that are (or are not) in `second`, in `first`'s order.
Group filtered(const Group& first, const Group& second, bool in_second) {
  Group members;
  for (int world : first) {
    if (contains(second, world) == in_second) members.push_back(world);
  }
  return members;
}

// The body of the calls that make a group from two.
template <typename Combine>
int combine_groups(const char* call, MPI_Group group1, MPI_Group group2, MPI_Group* newgroup,
                   Combine combine) {
  return guarded(call, MPI_COMM_WORLD, [&] {
    const Group& first = checked_group(group1, "group1");
    const Group& second = checked_group(group2, "group2");
    check_out(newgroup, "newgroup");
    *newgroup = add_group(combine(first, second));
  });
}

}  // namespace

extern "C" {

int MPI_Comm_group(MPI_Comm comm, MPI_Group* group) {
  return guarded("MPI_Comm_group", comm, [&] {
    const halyard::Communicator& members = shim_state().comm(comm).comm;
    check_out(group, "group");
    *group = add_group(members_of(local_group_of(members)));
  });
}

int MPI_Group_size(MPI_Group group, int* size) {
  return guarded("MPI_Group_size", MPI_COMM_WORLD, [&] {
    const Group& members = checked_group(group);
    check_out(size, "size");
    *size = static_cast<int>(members.size());
  });
}

int MPI_Group_rank(MPI_Group group, int* rank) {
  return guarded("MPI_Group_rank", MPI_COMM_WORLD, [&] {
    const Group& members = checked_group(group);
    check_out(rank, "rank");
    *rank = rank_in_group(members, shim_state().runtime().rank());
  });
}

int MPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group* newgroup) {
  return guarded("MPI_Group_incl", MPI_COMM_WORLD, [&] {
    const Group& members = checked_group(group);
    std::vector<int> listed = listed_ranks(members, n, ranks);
    check_out(newgroup, "newgroup");
    *newgroup = add_group(members_at(members, listed));
  });
}

int MPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group* newgroup) {
  return guarded("MPI_Group_excl", MPI_COMM_WORLD, [&] {
    const Group& members = checked_group(group);
    std::vector<int> listed = listed_ranks(members, n, ranks);
    check_out(newgroup, "newgroup");
    *newgroup = add_group(members_except(members, listed));
  });
}

int MPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup) {
  return guarded("MPI_Group_range_incl", MPI_COMM_WORLD, [&] {
    const Group& members = checked_group(group);
    std::vector<int> listed = ranged_ranks(members, n, ranges);
    check_out(newgroup, "newgroup");
    *newgroup = add_group(members_at(members, listed));
  });
}

int MPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup) {
  return guarded("MPI_Group_range_excl", MPI_COMM_WORLD, [&] {
    const Group& members = checked_group(group);
    std::vector<int> listed = ranged_ranks(members, n, ranges);
    check_out(newgroup, "newgroup");
    *newgroup = add_group(members_except(members, listed));
  });
}

int MPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2,
                              int ranks2[]) {
  return guarded("MPI_Group_translate_ranks", MPI_COMM_WORLD, [&] {
    const Group& first = checked_group(group1, "group1");
    const Group& second = checked_group(group2, "group2");
    if (n < 0) fail(MPI_ERR_ARG, "invalid n " + std::to_string(n));
    if (n > 0 && (ranks1 == nullptr || ranks2 == nullptr)) {
      fail(MPI_ERR_ARG, "ranks1 or ranks2 is NULL");
    }
    for (int i = 0; i < n; ++i) {
      int rank = ranks1[i];
      if (rank == kProcNull) {
        ranks2[i] = kProcNull;
        continue;
      }
      if (rank < 0 || rank >= static_cast<int>(first.size())) {
        fail(MPI_ERR_RANK, "invalid rank " + std::to_string(rank) + " in ranks1 (group1 size " +
                               std::to_string(first.size()) + ")");
      }
      ranks2[i] = rank_in_group(second, first[static_cast<std::size_t>(rank)]);
    }
  });
}

int MPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
  return combine_groups("MPI_Group_union", group1, group2, newgroup,
                        [](const Group& first, const Group& second) {
                          Group members = first;
                          Group added = filtered(second, first, false);
                          members.insert(members.end(), added.begin(), added.end());
                          return members;
                        });
}

int MPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
  return combine_groups(
      "MPI_Group_intersection", group1, group2, newgroup,
      [](const Group& first, const Group& second) { return filtered(first, second, true); });
}

int MPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
  return combine_groups(
      "MPI_Group_difference", group1, group2, newgroup,
      [](const Group& first, const Group& second) { return filtered(first, second, false); });
}

int MPI_Group_compare(MPI_Group group1, MPI_Group group2, int* result) {
  return guarded("MPI_Group_compare", MPI_COMM_WORLD, [&] {
    const Group& first = checked_group(group1, "group1");
    const Group& second = checked_group(group2, "group2");
    check_out(result, "result");
    *result = compare_groups(first, second);
  });
}

int MPI_Group_free(MPI_Group* group) {
  return guarded("MPI_Group_free", MPI_COMM_WORLD, [&] {
    check_out(group, "group");
    free_group(*group);
    *group = MPI_GROUP_NULL;
  });
}

}  // extern "C"
