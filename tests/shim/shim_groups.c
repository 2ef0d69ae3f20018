/* Groups and the communicators made from them: group queries, incl/excl and their range forms,
 * translate_ranks, union/intersection/difference, compare; MPI_Comm_create, _create_group,
 * _split_type (MPI_COMM_TYPE_SHARED), _compare, _idup, _dup_with_info, names; error classes
 * for bad groups and ranks.
 *
 *   shim_groups EXPECTED_NODES
 */
#include <mpi.h>
#include <string.h>

#include "shim_check.h"

static int world_size, world_rank;

/* The group of `comm`'s size and this rank's place in it. */
static void check_group_shape(MPI_Group group, int size, int rank) {
  int got_size = -1, got_rank = -2;
  CHECK_MPI(MPI_Group_size(group, &got_size));
  CHECK_MPI(MPI_Group_rank(group, &got_rank));
  CHECK(got_size == size);
  CHECK(got_rank == rank);
}

/* `group`'s members as world ranks, through translate_ranks into the world group. */
static void check_members(MPI_Group group, MPI_Group world, const int* expected, int count) {
  int ranks[8] = {0}, translated[8] = {0};
  for (int i = 0; i < count; ++i) ranks[i] = i;
  CHECK_MPI(MPI_Group_translate_ranks(group, count, ranks, world, translated));
  CHECK_ARRAY("members", translated, expected, count);
}

static void check_group_calls(MPI_Group world) {
  int n = world_size, me = world_rank;
  check_group_shape(world, n, me);

  /* Reversed: rank i of the new group is world rank n-1-i. */
  int reversed_ranks[8], expected[8];
  for (int i = 0; i < n; ++i) reversed_ranks[i] = n - 1 - i;
  MPI_Group reversed;
  CHECK_MPI(MPI_Group_incl(world, n, reversed_ranks, &reversed));
  check_group_shape(reversed, n, n - 1 - me);
  check_members(reversed, world, reversed_ranks, n);
  int result = -1;
  CHECK_MPI(MPI_Group_compare(world, reversed, &result));
  CHECK(result == (n == 1 ? MPI_IDENT : MPI_SIMILAR));

  /* Evens by range_incl, odds by range_excl of the same range. */
  int evens_range[1][3] = {{0, n - 1, 2}};
  MPI_Group evens, odds;
  CHECK_MPI(MPI_Group_range_incl(world, 1, evens_range, &evens));
  CHECK_MPI(MPI_Group_range_excl(world, 1, evens_range, &odds));
  int even_count = (n + 1) / 2, odd_count = n / 2;
  check_group_shape(evens, even_count, me % 2 == 0 ? me / 2 : MPI_UNDEFINED);
  check_group_shape(odds, odd_count, me % 2 == 1 ? me / 2 : MPI_UNDEFINED);
  for (int i = 0; i < even_count; ++i) expected[i] = 2 * i;
  check_members(evens, world, expected, even_count);
  if (odd_count == 0) CHECK(odds == MPI_GROUP_EMPTY);

  /* A downward range: the odds from the top. */
  int down_range[1][3] = {{n - 1 - (n % 2 == 0 ? 0 : 1), 1, -2}};
  if (odd_count > 0) {
    MPI_Group down;
    CHECK_MPI(MPI_Group_range_incl(world, 1, down_range, &down));
    for (int i = 0; i < odd_count; ++i) expected[i] = down_range[0][0] - 2 * i;
    check_members(down, world, expected, odd_count);
    CHECK_MPI(MPI_Group_free(&down));
  }

  /* World ranks into the evens: odd ones are not there. */
  int all[8], in_evens[8];
  for (int i = 0; i < n; ++i) all[i] = i;
  CHECK_MPI(MPI_Group_translate_ranks(world, n, all, evens, in_evens));
  for (int i = 0; i < n; ++i) expected[i] = i % 2 == 0 ? i / 2 : MPI_UNDEFINED;
  CHECK_ARRAY("world into evens", in_evens, expected, n);

  /* Union keeps the first group's order, then the new members of the second. */
  MPI_Group both, common, rest;
  CHECK_MPI(MPI_Group_union(evens, odds, &both));
  for (int i = 0; i < even_count; ++i) expected[i] = 2 * i;
  for (int i = 0; i < odd_count; ++i) expected[even_count + i] = 2 * i + 1;
  check_members(both, world, expected, n);
  CHECK_MPI(MPI_Group_compare(both, world, &result));
  CHECK(result == (n <= 2 ? MPI_IDENT : MPI_SIMILAR));
  CHECK_MPI(MPI_Group_intersection(reversed, evens, &common));
  /* In reversed's order: the largest even first. */
  for (int i = 0; i < even_count; ++i) expected[i] = 2 * (even_count - 1 - i);
  check_members(common, world, expected, even_count);
  CHECK_MPI(MPI_Group_difference(world, evens, &rest));
  CHECK_MPI(MPI_Group_compare(rest, odds, &result));
  CHECK(result == MPI_IDENT);
  if (odd_count == 0) CHECK(rest == MPI_GROUP_EMPTY);
  if (odd_count > 0) {
    CHECK_MPI(MPI_Group_compare(evens, odds, &result));
    CHECK(result == MPI_UNEQUAL);
  }

  /* Excluding everyone gives the empty group. */
  MPI_Group none;
  CHECK_MPI(MPI_Group_excl(world, n, all, &none));
  CHECK(none == MPI_GROUP_EMPTY);
  check_group_shape(none, 0, MPI_UNDEFINED);

  MPI_Group* groups[] = {&reversed, &evens, &odds, &both, &common, &rest, &none};
  for (unsigned i = 0; i < sizeof groups / sizeof groups[0]; ++i) {
    CHECK_MPI(MPI_Group_free(groups[i]));
    CHECK(*groups[i] == MPI_GROUP_NULL);
  }
}

static void check_group_errors(MPI_Group world) {
  int n = world_size, size = 0, out[2];
  MPI_Group made = MPI_GROUP_NULL, freed;
  CHECK(MPI_Group_size(MPI_GROUP_NULL, &size) == MPI_ERR_GROUP);
  CHECK(MPI_Group_size(12345, &size) == MPI_ERR_GROUP);
  int outside[1] = {n};
  CHECK(MPI_Group_incl(world, 1, outside, &made) == MPI_ERR_RANK);
  int twice[2] = {0, 0};
  /* Listing a rank twice; with one rank, two entries are more than the group has. */
  CHECK(MPI_Group_excl(world, 2, twice, &made) == (n >= 2 ? MPI_ERR_RANK : MPI_ERR_ARG));
  int stride_zero[1][3] = {{0, 0, 0}};
  CHECK(MPI_Group_range_incl(world, 1, stride_zero, &made) == MPI_ERR_ARG);
  int beyond[1][3] = {{0, n, 1}};
  CHECK(MPI_Group_range_excl(world, 1, beyond, &made) == MPI_ERR_RANK);
  CHECK(MPI_Group_translate_ranks(world, 1, outside, world, out) == MPI_ERR_RANK);
  CHECK(made == MPI_GROUP_NULL);
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &freed));
  MPI_Group stale = freed;
  CHECK_MPI(MPI_Group_free(&freed));
  CHECK(MPI_Group_rank(stale, &size) == MPI_ERR_GROUP);
  CHECK(MPI_Group_free(&freed) == MPI_ERR_GROUP); /* MPI_GROUP_NULL */
  CHECK(MPI_Comm_group(MPI_COMM_NULL, &made) == MPI_ERR_COMM);
}

static int sum_of_world_ranks(MPI_Comm comm) {
  int mine = world_rank, sum = -1;
  CHECK_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, comm));
  return sum;
}

static void check_comm_create(MPI_Group world) {
  int n = world_size, me = world_rank, rank = -1, size = -1, result = -1;
  int reversed_ranks[8];
  for (int i = 0; i < n; ++i) reversed_ranks[i] = n - 1 - i;
  MPI_Group reversed, evens, odds;
  CHECK_MPI(MPI_Group_incl(world, n, reversed_ranks, &reversed));
  int evens_range[1][3] = {{0, n - 1, 2}};
  CHECK_MPI(MPI_Group_range_incl(world, 1, evens_range, &evens));
  CHECK_MPI(MPI_Group_range_excl(world, 1, evens_range, &odds));

  /* MPI_Comm_create over the world: ranks in group order. */
  MPI_Comm backwards;
  CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, reversed, &backwards));
  CHECK_MPI(MPI_Comm_rank(backwards, &rank));
  CHECK(rank == n - 1 - me);
  CHECK(sum_of_world_ranks(backwards) == n * (n - 1) / 2);
  CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, backwards, &result));
  CHECK(result == (n == 1 ? MPI_CONGRUENT : MPI_SIMILAR));

  /* Only the evens are members; the odds get MPI_COMM_NULL. */
  MPI_Comm even_comm;
  CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, evens, &even_comm));
  CHECK((even_comm == MPI_COMM_NULL) == (me % 2 == 1));
  if (even_comm != MPI_COMM_NULL) {
    CHECK_MPI(MPI_Comm_size(even_comm, &size));
    CHECK_MPI(MPI_Comm_rank(even_comm, &rank));
    CHECK(size == (n + 1) / 2 && rank == me / 2);
    int value = rank == 0 ? 42 : 0;
    CHECK_MPI(MPI_Bcast(&value, 1, MPI_INT, 0, even_comm));
    CHECK(value == 42);
    /* The world's group is not within the evens' communicator. */
    MPI_Comm bad = MPI_COMM_NULL;
    CHECK_MPI(MPI_Comm_set_errhandler(even_comm, MPI_ERRORS_RETURN));
    if (n > 1) CHECK(MPI_Comm_create(even_comm, world, &bad) == MPI_ERR_GROUP);
    CHECK_MPI(MPI_Comm_free(&even_comm));
  }

  /* MPI_Comm_create_group: the evens and the odds make theirs at the same time, each group
   * among itself (the other ranks take no part). */
  MPI_Comm half;
  MPI_Group mine = me % 2 == 0 ? evens : odds;
  CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, mine, me % 2 == 0 ? 3 : 7, &half));
  CHECK_MPI(MPI_Comm_rank(half, &rank));
  CHECK(rank == me / 2);
  int half_sum = 0;
  for (int r = me % 2; r < n; r += 2) half_sum += r;
  CHECK(sum_of_world_ranks(half) == half_sum);
  CHECK_MPI(MPI_Comm_free(&half));
  /* A rank outside the group gets MPI_COMM_NULL at once. */
  if (me % 2 == 0) {
    CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, odds, 7, &half));
    CHECK(half == MPI_COMM_NULL);
  }
  MPI_Comm unused = MPI_COMM_NULL;
  CHECK(MPI_Comm_create_group(MPI_COMM_WORLD, odds, -1, &unused) == MPI_ERR_TAG);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

  CHECK_MPI(MPI_Comm_free(&backwards));
  CHECK_MPI(MPI_Group_free(&reversed));
  CHECK_MPI(MPI_Group_free(&evens));
  CHECK_MPI(MPI_Group_free(&odds));
}

/* MPI_COMM_TYPE_SHARED: the ranks with this rank's processor name (which names the emulated
 * node under --vnodes). */
static void check_split_type(int expected_nodes) {
  char names[8][MPI_MAX_PROCESSOR_NAME], mine[MPI_MAX_PROCESSOR_NAME] = {0};
  int length = 0;
  CHECK_MPI(MPI_Get_processor_name(mine, &length));
  CHECK_MPI(MPI_Allgather(mine, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names, MPI_MAX_PROCESSOR_NAME,
                          MPI_CHAR, MPI_COMM_WORLD));
  int same_node = 0, nodes = 0;
  for (int r = 0; r < world_size; ++r) {
    same_node += strcmp(names[r], mine) == 0;
    int first = 1;
    for (int q = 0; q < r; ++q) first = first && strcmp(names[q], names[r]) != 0;
    nodes += first;
  }
  CHECK(nodes == expected_nodes);

  MPI_Comm shared;
  int size = -1, rank = -1;
  /* Key: reverse the order within the node. */
  CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, -world_rank, MPI_INFO_NULL,
                                &shared));
  CHECK_MPI(MPI_Comm_size(shared, &size));
  CHECK(size == same_node);
  CHECK_MPI(MPI_Comm_rank(shared, &rank));
  int later_on_node = 0;
  for (int r = world_rank + 1; r < world_size; ++r) later_on_node += strcmp(names[r], mine) == 0;
  CHECK(rank == later_on_node);
  /* Every member has this rank's processor name. */
  char node_names[8][MPI_MAX_PROCESSOR_NAME];
  CHECK_MPI(MPI_Allgather(mine, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, node_names,
                          MPI_MAX_PROCESSOR_NAME, MPI_CHAR, shared));
  for (int r = 0; r < size; ++r) CHECK(strcmp(node_names[r], mine) == 0);
  CHECK_MPI(MPI_Comm_free(&shared));

  MPI_Comm none = MPI_COMM_WORLD;
  CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_UNDEFINED, 0, MPI_INFO_NULL, &none));
  CHECK(none == MPI_COMM_NULL);
  CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, 99, 0, MPI_INFO_NULL, &none) == MPI_ERR_ARG);
}

static void check_compare_dup_and_names(void) {
  int result = -1, length = -1;
  char name[MPI_MAX_OBJECT_NAME];
  CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, &result));
  CHECK(result == MPI_IDENT);
  CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_SELF, &result));
  CHECK(result == (world_size == 1 ? MPI_CONGRUENT : MPI_UNEQUAL));
  CHECK(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_NULL, &result) == MPI_ERR_COMM);

  CHECK_MPI(MPI_Comm_get_name(MPI_COMM_WORLD, name, &length));
  CHECK(strcmp(name, "MPI_COMM_WORLD") == 0 && length == 14);
  CHECK_MPI(MPI_Comm_get_name(MPI_COMM_SELF, name, &length));
  CHECK(strcmp(name, "MPI_COMM_SELF") == 0 && length == 13);

  /* MPI_Comm_idup completes; the copy is congruent and unnamed. */
  MPI_Comm copy;
  MPI_Request request;
  CHECK_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &copy, &request));
  CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
  CHECK(request == MPI_REQUEST_NULL);
  CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, copy, &result));
  CHECK(result == MPI_CONGRUENT);
  CHECK(sum_of_world_ranks(copy) == world_size * (world_size - 1) / 2);
  CHECK_MPI(MPI_Comm_get_name(copy, name, &length));
  CHECK(length == 0 && name[0] == '\0');
  CHECK_MPI(MPI_Comm_set_name(copy, "solver"));
  CHECK_MPI(MPI_Comm_get_name(copy, name, &length));
  CHECK(strcmp(name, "solver") == 0 && length == 6);
  char long_name[100];
  memset(long_name, 'x', sizeof long_name - 1);
  long_name[sizeof long_name - 1] = '\0';
  CHECK_MPI(MPI_Comm_set_name(copy, long_name));
  CHECK_MPI(MPI_Comm_get_name(copy, name, &length));
  CHECK(length == MPI_MAX_OBJECT_NAME - 1 && strlen(name) == MPI_MAX_OBJECT_NAME - 1);

  /* MPI_Comm_dup_with_info: the copy keeps the info's hints, not the parent's. */
  MPI_Info info, used;
  CHECK_MPI(MPI_Info_create(&info));
  CHECK_MPI(MPI_Info_set(info, "mpi_assert_no_any_tag", "true"));
  MPI_Comm hinted;
  CHECK_MPI(MPI_Comm_dup_with_info(copy, info, &hinted));
  CHECK_MPI(MPI_Info_free(&info));
  CHECK_MPI(MPI_Comm_get_info(hinted, &used));
  int flag = 0, nkeys = -1;
  char value[16];
  CHECK_MPI(MPI_Info_get(used, "mpi_assert_no_any_tag", 15, value, &flag));
  CHECK(flag == 1 && strcmp(value, "true") == 0);
  CHECK_MPI(MPI_Info_free(&used));
  CHECK_MPI(MPI_Comm_get_info(copy, &used));
  CHECK_MPI(MPI_Info_get_nkeys(used, &nkeys));
  CHECK(nkeys == 0);
  CHECK_MPI(MPI_Info_free(&used));
  CHECK(sum_of_world_ranks(hinted) == world_size * (world_size - 1) / 2);
  CHECK_MPI(MPI_Comm_free(&hinted));
  CHECK_MPI(MPI_Comm_free(&copy));
}

int main(int argc, char** argv) {
  int expected_nodes = argc > 1 ? atoi(argv[1]) : 1;
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &world_size));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &world_rank));
  CHECK(world_size <= 8);

  MPI_Group world, self;
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
  CHECK_MPI(MPI_Comm_group(MPI_COMM_SELF, &self));
  check_group_shape(self, 1, 0);
  check_group_calls(world);
  check_group_errors(world);
  check_comm_create(world);
  check_split_type(expected_nodes);
  check_compare_dup_and_names();
  CHECK_MPI(MPI_Group_free(&world));
  CHECK_MPI(MPI_Group_free(&self));

  CHECK_MPI(MPI_Finalize());
  return finish_checks("shim_groups");
}
