/* Intercommunicators (issue 25): MPI_Intercomm_create / merge, the remote-group inquiries, dup,
 * split, MPI_Comm_create, compare, point-to-point, and every collective's intercommunicator form,
 * checked element by element against serial references, with the error classes of refused calls.
 * The job splits into group A (world ranks r with r % 3 == 0) and group B (the rest): 1+1 ranks
 * on 2, 1+2 on 3, and an interleaved 2+2 (A = {0, 3}) on 4. */
#include <string.h>

#include "shim_check.h"

#define MAXN 8

static int world_rank, world_size;
static int in_a; /* this rank is in group A */
static int local_rank, local_size, remote_size;
static int remote_world[MAXN]; /* world ranks of the remote group, in rank order */
static int local_world[MAXN];

static int is_a(int world) {
  return world % 3 == 0;
}

/* The members of one group, in world order (their local order: the split keys by world rank). */
static int members(int group_a, int* out) {
  int n = 0;
  for (int w = 0; w < world_size; ++w) {
    if (is_a(w) == group_a) out[n++] = w;
  }
  return n;
}

/* One rank's contribution to the reductions: element k of world rank w. */
static int contribution(int w, int k) {
  return 10 * w + k;
}

static void check_inquiries(MPI_Comm inter) {
  int flag = -1, size = -1, rank = -1, rsize = -1;
  CHECK_MPI(MPI_Comm_test_inter(inter, &flag));
  CHECK(flag == 1);
  CHECK_MPI(MPI_Comm_test_inter(MPI_COMM_WORLD, &flag));
  CHECK(flag == 0);
  CHECK_MPI(MPI_Comm_size(inter, &size));
  CHECK(size == local_size);
  CHECK_MPI(MPI_Comm_rank(inter, &rank));
  CHECK(rank == local_rank);
  CHECK_MPI(MPI_Comm_remote_size(inter, &rsize));
  CHECK(rsize == remote_size);
  /* Both groups, translated to world ranks. */
  MPI_Group world_group, remote_group, local_group;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  CHECK_MPI(MPI_Comm_remote_group(inter, &remote_group));
  CHECK_MPI(MPI_Comm_group(inter, &local_group));
  int ranks[MAXN], translated[MAXN];
  for (int i = 0; i < MAXN; ++i) ranks[i] = i;
  MPI_Group_translate_ranks(remote_group, remote_size, ranks, world_group, translated);
  CHECK_ARRAY("remote group", translated, remote_world, remote_size);
  MPI_Group_translate_ranks(local_group, local_size, ranks, world_group, translated);
  CHECK_ARRAY("local group", translated, local_world, local_size);
  MPI_Group_free(&remote_group);
  MPI_Group_free(&local_group);
  MPI_Group_free(&world_group);
}

/* Every rank sends one message to every remote rank; ranks name the remote group. */
static void check_point_to_point(MPI_Comm inter) {
  MPI_Request requests[2 * MAXN];
  int out[MAXN], in[MAXN], want[MAXN];
  for (int j = 0; j < remote_size; ++j) {
    out[j] = world_rank * 1000 + j;
    want[j] = remote_world[j] * 1000 + local_rank;
    CHECK_MPI(MPI_Irecv(&in[j], 1, MPI_INT, j, 5, inter, &requests[j]));
    CHECK_MPI(MPI_Isend(&out[j], 1, MPI_INT, j, 5, inter, &requests[remote_size + j]));
  }
  MPI_Status statuses[2 * MAXN];
  CHECK_MPI(MPI_Waitall(2 * remote_size, requests, statuses));
  CHECK_ARRAY("p2p", in, want, remote_size);
  for (int j = 0; j < remote_size; ++j) CHECK(statuses[j].MPI_SOURCE == j);
  /* A wildcard receive reports the sender's remote rank. Remote rank 0 sends to local rank 0. */
  int value = world_rank;
  if (local_rank == 0) {
    MPI_Status status;
    CHECK_MPI(MPI_Sendrecv(&value, 1, MPI_INT, 0, 6, &in[0], 1, MPI_INT, MPI_ANY_SOURCE, 6, inter,
                           &status));
    CHECK(status.MPI_SOURCE == 0);
    CHECK(in[0] == remote_world[0]);
  }
  /* A destination beyond the remote group is refused. */
  CHECK_CLASS(MPI_Send(&value, 1, MPI_INT, remote_size, 7, inter), MPI_ERR_RANK);
}

/* The root argument of a rooted call whose root is local rank `root_rank` of group A (or B). */
static int root_arg(int root_in_a, int root_rank) {
  if (in_a == root_in_a) return local_rank == root_rank ? MPI_ROOT : MPI_PROC_NULL;
  return root_rank;
}

static void check_rooted(MPI_Comm inter, int root_in_a, int root_rank, int nonblocking) {
  int root = root_arg(root_in_a, root_rank);
  int root_world = in_a == root_in_a ? local_world[root_rank] : remote_world[root_rank];
  int buf[4 * MAXN], want[4 * MAXN];
  MPI_Request request;
  /* Bcast: 5 ints from the root to the other group. */
  for (int k = 0; k < 5; ++k) buf[k] = root == MPI_ROOT ? 7 * k + root_world : -1;
  if (nonblocking) {
    CHECK_MPI(MPI_Ibcast(buf, 5, MPI_INT, root, inter, &request));
    CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
  } else {
    CHECK_MPI(MPI_Bcast(buf, 5, MPI_INT, root, inter));
  }
  if (root >= 0) {
    for (int k = 0; k < 5; ++k) want[k] = 7 * k + root_world;
    CHECK_ARRAY("bcast", buf, want, 5);
  }
  /* Reduce: the other group's sum reaches the root. */
  int send[MAXN], recv[4 * MAXN];
  for (int k = 0; k < 3; ++k) send[k] = contribution(world_rank, k), recv[k] = -1;
  if (nonblocking) {
    CHECK_MPI(MPI_Ireduce(send, recv, 3, MPI_INT, MPI_SUM, root, inter, &request));
    CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
  } else {
    CHECK_MPI(MPI_Reduce(send, recv, 3, MPI_INT, MPI_SUM, root, inter));
  }
  if (root == MPI_ROOT) {
    for (int k = 0; k < 3; ++k) {
      want[k] = 0;
      for (int j = 0; j < remote_size; ++j) want[k] += contribution(remote_world[j], k);
    }
    CHECK_ARRAY("reduce", recv, want, 3);
  }
  /* Gather: two ints of each remote rank, in remote rank order, at the root. */
  send[0] = world_rank, send[1] = -world_rank;
  for (int k = 0; k < 2 * MAXN; ++k) recv[k] = -1;
  CHECK_MPI(MPI_Gather(send, 2, MPI_INT, recv, 2, MPI_INT, root, inter));
  if (root == MPI_ROOT) {
    for (int j = 0; j < remote_size; ++j)
      want[2 * j] = remote_world[j], want[2 * j + 1] = -remote_world[j];
    CHECK_ARRAY("gather", recv, want, 2 * remote_size);
  }
  /* Gatherv: remote rank j sends j + 1 ints, placed in reverse rank order. */
  int counts[MAXN], displs[MAXN], at = 0;
  for (int j = remote_size - 1; j >= 0; --j) counts[j] = j + 1, displs[j] = at, at += j + 1;
  for (int k = 0; k <= local_rank; ++k) send[k] = 100 * world_rank + k;
  for (int k = 0; k < 4 * MAXN; ++k) recv[k] = -1;
  CHECK_MPI(MPI_Gatherv(send, local_rank + 1, MPI_INT, recv, counts, displs, MPI_INT, root, inter));
  if (root == MPI_ROOT) {
    for (int j = 0; j < remote_size; ++j) {
      for (int k = 0; k <= j; ++k) want[displs[j] + k] = 100 * remote_world[j] + k;
    }
    CHECK_ARRAY("gatherv", recv, want, at);
  }
  /* Scatter: block j of the root's buffer to remote rank j. */
  for (int j = 0; j < MAXN; ++j) buf[j] = root == MPI_ROOT ? 50 * j + root_world : -1;
  recv[0] = -1;
  if (nonblocking) {
    CHECK_MPI(MPI_Iscatter(buf, 1, MPI_INT, recv, 1, MPI_INT, root, inter, &request));
    CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
  } else {
    CHECK_MPI(MPI_Scatter(buf, 1, MPI_INT, recv, 1, MPI_INT, root, inter));
  }
  if (root >= 0) CHECK(recv[0] == 50 * local_rank + root_world);
}

static void check_all_to_all(MPI_Comm inter) {
  int send[4 * MAXN], recv[4 * MAXN], want[4 * MAXN];
  /* Allreduce: each group gets the other group's sum. */
  for (int k = 0; k < 4; ++k) send[k] = contribution(world_rank, k);
  CHECK_MPI(MPI_Allreduce(send, recv, 4, MPI_INT, MPI_SUM, inter));
  for (int k = 0; k < 4; ++k) {
    want[k] = 0;
    for (int j = 0; j < remote_size; ++j) want[k] += contribution(remote_world[j], k);
  }
  CHECK_ARRAY("allreduce", recv, want, 4);
  /* Allgather: the remote group's blocks in remote rank order. */
  send[0] = world_rank, send[1] = world_rank + 100;
  CHECK_MPI(MPI_Allgather(send, 2, MPI_INT, recv, 2, MPI_INT, inter));
  for (int j = 0; j < remote_size; ++j)
    want[2 * j] = remote_world[j], want[2 * j + 1] = remote_world[j] + 100;
  CHECK_ARRAY("allgather", recv, want, 2 * remote_size);
  /* Allgatherv: remote rank j contributes j + 1 ints. */
  int counts[MAXN], displs[MAXN], at = 0;
  for (int j = 0; j < remote_size; ++j) counts[j] = j + 1, displs[j] = at, at += j + 1;
  for (int k = 0; k <= local_rank; ++k) send[k] = 100 * world_rank + k;
  CHECK_MPI(MPI_Allgatherv(send, local_rank + 1, MPI_INT, recv, counts, displs, MPI_INT, inter));
  for (int j = 0; j < remote_size; ++j) {
    for (int k = 0; k <= j; ++k) want[displs[j] + k] = 100 * remote_world[j] + k;
  }
  CHECK_ARRAY("allgatherv", recv, want, at);
  /* Alltoall: block j to remote rank j. */
  for (int j = 0; j < remote_size; ++j) send[j] = 1000 * world_rank + j;
  MPI_Request request;
  CHECK_MPI(MPI_Ialltoall(send, 1, MPI_INT, recv, 1, MPI_INT, inter, &request));
  CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
  for (int j = 0; j < remote_size; ++j) want[j] = 1000 * remote_world[j] + local_rank;
  CHECK_ARRAY("alltoall", recv, want, remote_size);
  /* Alltoallv: to remote rank j, local_rank + 1 ints; from it, j + 1. */
  int scounts[MAXN], sdispls[MAXN], rcounts[MAXN], rdispls[MAXN], sat = 0, rat = 0;
  for (int j = 0; j < remote_size; ++j) {
    scounts[j] = local_rank + 1, sdispls[j] = sat, sat += scounts[j];
    rcounts[j] = j + 1, rdispls[j] = rat, rat += rcounts[j];
    for (int k = 0; k < scounts[j]; ++k) send[sdispls[j] + k] = 1000 * world_rank + 10 * j + k;
    for (int k = 0; k < rcounts[j]; ++k)
      want[rdispls[j] + k] = 1000 * remote_world[j] + 10 * local_rank + k;
  }
  CHECK_MPI(MPI_Alltoallv(send, scounts, sdispls, MPI_INT, recv, rcounts, rdispls, MPI_INT, inter));
  CHECK_ARRAY("alltoallv", recv, want, rat);
  /* Reduce_scatter_block: each group reduces vectors of local_size * remote_size elements (the
   * same length on both sides) and scatters the result over the other group. */
  int block = remote_size, total = local_size * remote_size;
  for (int k = 0; k < total; ++k) send[k] = contribution(world_rank, k);
  CHECK_MPI(MPI_Reduce_scatter_block(send, recv, block, MPI_INT, MPI_SUM, inter));
  for (int k = 0; k < block; ++k) {
    want[k] = 0;
    for (int j = 0; j < remote_size; ++j)
      want[k] += contribution(remote_world[j], local_rank * block + k);
  }
  CHECK_ARRAY("reduce_scatter_block", recv, want, block);
  /* Reduce_scatter: the same total, local rank i keeps counts[i] (all on the last rank). */
  for (int i = 0; i < local_size; ++i) counts[i] = i == local_size - 1 ? total : 0;
  CHECK_MPI(MPI_Reduce_scatter(send, recv, counts, MPI_INT, MPI_SUM, inter));
  if (local_rank == local_size - 1) {
    for (int k = 0; k < total; ++k) {
      want[k] = 0;
      for (int j = 0; j < remote_size; ++j) want[k] += contribution(remote_world[j], k);
    }
    CHECK_ARRAY("reduce_scatter", recv, want, total);
  }
  CHECK_MPI(MPI_Barrier(inter));
  CHECK_MPI(MPI_Ibarrier(inter, &request));
  CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
}

static void check_refused(MPI_Comm inter) {
  int send[4] = {1, 2, 3, 4}, recv[4];
  CHECK_CLASS(MPI_Scan(send, recv, 1, MPI_INT, MPI_SUM, inter), MPI_ERR_COMM);
  CHECK_CLASS(MPI_Exscan(send, recv, 1, MPI_INT, MPI_SUM, inter), MPI_ERR_COMM);
  CHECK_CLASS(MPI_Neighbor_allgather(send, 1, MPI_INT, recv, 1, MPI_INT, inter), MPI_ERR_COMM);
  CHECK_CLASS(MPI_Allreduce(MPI_IN_PLACE, recv, 1, MPI_INT, MPI_SUM, inter), MPI_ERR_BUFFER);
  CHECK_CLASS(MPI_Bcast(send, 1, MPI_INT, remote_size, inter), MPI_ERR_ROOT);
  int size;
  MPI_Comm merged;
  CHECK_CLASS(MPI_Comm_remote_size(MPI_COMM_WORLD, &size), MPI_ERR_COMM);
  CHECK_CLASS(MPI_Intercomm_merge(MPI_COMM_WORLD, 0, &merged), MPI_ERR_COMM);
  CHECK_CLASS(MPI_Intercomm_create(inter, 0, MPI_COMM_WORLD, 0, 1, &merged), MPI_ERR_COMM);
}

/* Scatterv and alltoallw, a vector datatype, a persistent bcast, probes, idup, and the
 * communicator constructors that refuse an intercommunicator. Roots are in group A. */
static void check_more(MPI_Comm inter) {
  int root = root_arg(1, 0);
  int root_world = 0; /* A's first rank */
  int buf[4 * MAXN], recv[4 * MAXN], want[4 * MAXN];
  /* Scatterv: remote rank j gets j + 1 ints, taken in reverse rank order. */
  int counts[MAXN], displs[MAXN], at = 0;
  for (int j = remote_size - 1; j >= 0; --j) counts[j] = j + 1, displs[j] = at, at += j + 1;
  for (int k = 0; k < at; ++k) buf[k] = root == MPI_ROOT ? 3 * k + 1 : -1;
  for (int k = 0; k < 4 * MAXN; ++k) recv[k] = -1;
  CHECK_MPI(MPI_Scatterv(buf, counts, displs, MPI_INT, recv, local_rank + 1, MPI_INT, root, inter));
  if (root >= 0) {
    /* The root's layout: member i of this group (remote rank i to the root) got i + 1 ints at
     * the displacement of the reverse order. */
    int offset = 0;
    for (int i = local_size - 1; i > local_rank; --i) offset += i + 1;
    for (int k = 0; k <= local_rank; ++k) want[k] = 3 * (offset + k) + 1;
    CHECK_ARRAY("scatterv", recv, want, local_rank + 1);
    CHECK(recv[local_rank + 1] == -1);
  }
  /* Alltoallw: one int to every remote rank, byte displacements, received in reverse order. */
  int ones[MAXN], sdispls[MAXN], rdispls[MAXN];
  MPI_Datatype types[MAXN];
  for (int j = 0; j < remote_size; ++j) {
    ones[j] = 1, types[j] = MPI_INT;
    sdispls[j] = j * (int)sizeof(int);
    rdispls[j] = (remote_size - 1 - j) * (int)sizeof(int);
    buf[j] = 7000 + 10 * world_rank + j;
    want[remote_size - 1 - j] = 7000 + 10 * remote_world[j] + local_rank;
  }
  CHECK_MPI(MPI_Alltoallw(buf, ones, sdispls, types, recv, ones, rdispls, types, inter));
  CHECK_ARRAY("alltoallw", recv, want, remote_size);
  /* A vector type with holes: 2 items of 3 ints 2 apart; the holes keep their sentinel. */
  MPI_Datatype strided;
  MPI_Type_vector(3, 1, 2, MPI_INT, &strided);
  MPI_Type_commit(&strided);
  for (int k = 0; k < 12; ++k) buf[k] = root == MPI_ROOT ? 100 + k : -1;
  CHECK_MPI(MPI_Bcast(buf, 2, strided, root, inter));
  if (root >= 0) {
    /* Item i covers ints 5 i, 5 i + 2, 5 i + 4 (extent 5 ints). */
    for (int k = 0; k < 10; ++k) want[k] = -1;
    for (int i = 0; i < 2; ++i) {
      for (int e = 0; e < 3; ++e) want[5 * i + 2 * e] = 100 + 5 * i + 2 * e;
    }
    CHECK_ARRAY("bcast of a vector type", buf, want, 10);
  }
  /* Allreduce of the same type: each group sums the other's elements; the holes keep theirs. */
  int mine[12], sums[12];
  for (int k = 0; k < 12; ++k) mine[k] = contribution(world_rank, k), sums[k] = -7;
  CHECK_MPI(MPI_Allreduce(mine, sums, 2, strided, MPI_SUM, inter));
  for (int k = 0; k < 10; ++k) want[k] = -7;
  for (int i = 0; i < 2; ++i) {
    for (int e = 0; e < 3; ++e) {
      int k = 5 * i + 2 * e;
      want[k] = 0;
      for (int j = 0; j < remote_size; ++j) want[k] += contribution(remote_world[j], k);
    }
  }
  CHECK_ARRAY("allreduce of a vector type", sums, want, 10);
  MPI_Type_free(&strided);
  /* A persistent bcast, started three times with new data. */
  MPI_Request persistent;
  CHECK_MPI(MPI_Bcast_init(buf, 4, MPI_INT, root, inter, MPI_INFO_NULL, &persistent));
  for (int round = 0; round < 3; ++round) {
    for (int k = 0; k < 4; ++k) buf[k] = root == MPI_ROOT ? round * 10 + k + root_world : -1;
    CHECK_MPI(MPI_Start(&persistent));
    CHECK_MPI(MPI_Wait(&persistent, MPI_STATUS_IGNORE));
    if (root >= 0) {
      for (int k = 0; k < 4; ++k) want[k] = round * 10 + k + root_world;
      CHECK_ARRAY("persistent bcast", buf, want, 4);
    }
  }
  CHECK_MPI(MPI_Request_free(&persistent));
  /* Probe: local rank 0 of each group sends 3 ints to the other's rank 0. */
  if (local_rank == 0) {
    int out[3] = {world_rank, world_rank + 1, world_rank + 2}, in[3] = {-1, -1, -1}, count = -1;
    MPI_Request sent;
    MPI_Status status;
    CHECK_MPI(MPI_Isend(out, 3, MPI_INT, 0, 9, inter, &sent));
    CHECK_MPI(MPI_Probe(MPI_ANY_SOURCE, 9, inter, &status));
    CHECK(status.MPI_SOURCE == 0);
    MPI_Get_count(&status, MPI_INT, &count);
    CHECK(count == 3);
    CHECK_MPI(MPI_Recv(in, 3, MPI_INT, status.MPI_SOURCE, 9, inter, MPI_STATUS_IGNORE));
    int expected[3] = {remote_world[0], remote_world[0] + 1, remote_world[0] + 2};
    CHECK_ARRAY("probed message", in, expected, 3);
    CHECK_MPI(MPI_Wait(&sent, MPI_STATUS_IGNORE));
  }
  /* idup: an intercommunicator with the same groups. */
  MPI_Comm dup;
  MPI_Request request;
  int rsize = -1, result = -1;
  CHECK_MPI(MPI_Comm_idup(inter, &dup, &request));
  CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Comm_remote_size(dup, &rsize));
  CHECK(rsize == remote_size);
  CHECK_MPI(MPI_Comm_compare(inter, dup, &result));
  CHECK(result == MPI_CONGRUENT);
  MPI_Comm_free(&dup);
  /* Constructors of intracommunicators refuse an intercommunicator. */
  MPI_Group group;
  MPI_Comm made;
  int dims[1] = {local_size}, periods[1] = {0};
  MPI_Comm_group(inter, &group);
  CHECK_CLASS(MPI_Comm_create_group(inter, group, 0, &made), MPI_ERR_COMM);
  CHECK_CLASS(MPI_Comm_split_type(inter, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &made),
              MPI_ERR_COMM);
  CHECK_CLASS(MPI_Cart_create(inter, 1, dims, periods, 0, &made), MPI_ERR_COMM);
  MPI_Group_free(&group);
}

/* The non-blocking forms return before the other group has joined: group A's leader sends a
 * message after its MPI_Ibarrier that group B's leader receives before entering its own. Then two
 * non-blocking collectives in flight at once, completed by polling MPI_Test. */
static void check_nonblocking_progress(MPI_Comm inter) {
  MPI_Request barrier = MPI_REQUEST_NULL;
  int token = world_rank, got = -1;
  if (in_a) {
    CHECK_MPI(MPI_Ibarrier(inter, &barrier));
    if (local_rank == 0) CHECK_MPI(MPI_Send(&token, 1, MPI_INT, 0, 11, inter));
  } else {
    if (local_rank == 0) {
      CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, 0, 11, inter, MPI_STATUS_IGNORE));
      CHECK(got == remote_world[0]);
    }
    CHECK_MPI(MPI_Ibarrier(inter, &barrier));
  }
  CHECK_MPI(MPI_Wait(&barrier, MPI_STATUS_IGNORE));
  int root = root_arg(0, 0); /* B's first rank */
  int data[3], send[2], sum[2], want[2];
  for (int k = 0; k < 3; ++k) data[k] = root == MPI_ROOT ? 40 + k : -1;
  for (int k = 0; k < 2; ++k) send[k] = contribution(world_rank, k), sum[k] = -1;
  MPI_Request requests[2];
  CHECK_MPI(MPI_Ibcast(data, 3, MPI_INT, root, inter, &requests[0]));
  CHECK_MPI(MPI_Iallreduce(send, sum, 2, MPI_INT, MPI_SUM, inter, &requests[1]));
  int done = 0;
  for (long polls = 0; !done && polls < 100000000L; ++polls) {
    CHECK_MPI(MPI_Testall(2, requests, &done, MPI_STATUSES_IGNORE));
  }
  CHECK(done);
  if (root >= 0) {
    int expected[3] = {40, 41, 42};
    CHECK_ARRAY("ibcast", data, expected, 3);
  }
  for (int k = 0; k < 2; ++k) {
    want[k] = 0;
    for (int j = 0; j < remote_size; ++j) want[k] += contribution(remote_world[j], k);
  }
  CHECK_ARRAY("iallreduce", sum, want, 2);
}

/* Merge with A low: A's members first, then B's, each in local order. */
static void check_merge(MPI_Comm inter) {
  MPI_Comm merged;
  CHECK_MPI(MPI_Intercomm_merge(inter, in_a ? 0 : 1, &merged));
  int size, rank, flag;
  MPI_Comm_size(merged, &size);
  MPI_Comm_rank(merged, &rank);
  MPI_Comm_test_inter(merged, &flag);
  CHECK(size == world_size);
  CHECK(flag == 0);
  int a_members[MAXN];
  int a_size = members(1, a_members);
  CHECK(rank == (in_a ? local_rank : a_size + local_rank));
  /* It is an intracommunicator: an allreduce over it sums every world rank. */
  int mine = world_rank, sum = -1;
  CHECK_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, merged));
  CHECK(sum == world_size * (world_size - 1) / 2);
  MPI_Comm_free(&merged);
  /* The other way round: B low puts B first. */
  CHECK_MPI(MPI_Intercomm_merge(inter, in_a ? 1 : 0, &merged));
  MPI_Comm_rank(merged, &rank);
  CHECK(rank == (in_a ? (world_size - a_size) + local_rank : local_rank));
  MPI_Comm_free(&merged);
}

/* The local members each side keeps in MPI_Comm_create: its local ranks in reverse order,
 * without local rank 1 where the group has more than one member. Returns how many. */
static int kept_members(int size, int* kept) {
  int n = 0;
  for (int i = size - 1; i >= 0; --i) {
    if (i != 1 || size == 1) kept[n++] = i;
  }
  return n;
}

/* MPI_Comm_create on an intercommunicator: each side names part of its local group; the result
 * joins the two parts in the orders given, MPI_COMM_NULL outside them or when a side is empty. */
static void check_create(MPI_Comm inter) {
  MPI_Group local_group, remote_group, part;
  MPI_Comm made;
  int kept[MAXN];
  const int n = kept_members(local_size, kept);
  int remote_kept[MAXN];
  const int remote_n = kept_members(remote_size, remote_kept);
  CHECK_MPI(MPI_Comm_group(inter, &local_group));
  CHECK_MPI(MPI_Comm_remote_group(inter, &remote_group));
  CHECK_MPI(MPI_Group_incl(local_group, n, kept, &part));
  CHECK_MPI(MPI_Comm_create(inter, part, &made));
  int position = -1;
  for (int i = 0; i < n; ++i) {
    if (kept[i] == local_rank) position = i;
  }
  if (position < 0) {
    CHECK(made == MPI_COMM_NULL);
  } else {
    CHECK(made != MPI_COMM_NULL);
    int flag = 0, rank = -1, size = -1, rsize = -1;
    CHECK_MPI(MPI_Comm_test_inter(made, &flag));
    CHECK(flag == 1);
    MPI_Comm_rank(made, &rank);
    MPI_Comm_size(made, &size);
    CHECK_MPI(MPI_Comm_remote_size(made, &rsize));
    CHECK(rank == position && size == n && rsize == remote_n);
    /* Remote rank j of the result is the other side's kept member j. */
    MPI_Group made_remote;
    int order[MAXN], in_inter[MAXN];
    CHECK_MPI(MPI_Comm_remote_group(made, &made_remote));
    for (int j = 0; j < remote_n; ++j) order[j] = j;
    CHECK_MPI(MPI_Group_translate_ranks(made_remote, remote_n, order, remote_group, in_inter));
    CHECK_ARRAY("remote group of MPI_Comm_create", in_inter, remote_kept, remote_n);
    MPI_Group_free(&made_remote);
    /* A collective over the result: each side gets the sum over the other side's kept members. */
    int value = world_rank + 1, got = -1, want = 0;
    CHECK_MPI(MPI_Allreduce(&value, &got, 1, MPI_INT, MPI_SUM, made));
    for (int j = 0; j < remote_n; ++j) want += remote_world[remote_kept[j]] + 1;
    CHECK(got == want);
    CHECK_MPI(MPI_Comm_free(&made));
  }
  MPI_Group_free(&part);
  /* One side empty: nobody gets a communicator. */
  CHECK_MPI(MPI_Comm_create(inter, in_a ? MPI_GROUP_EMPTY : local_group, &made));
  CHECK(made == MPI_COMM_NULL);
  /* A member that is not in the local group. */
  CHECK_CLASS(MPI_Comm_create(inter, remote_group, &made), MPI_ERR_GROUP);
  MPI_Group_free(&local_group);
  MPI_Group_free(&remote_group);
}

static void check_dup_split(MPI_Comm inter) {
  MPI_Comm dup, split;
  int result = -1, rsize = -1, flag = -1;
  CHECK_MPI(MPI_Comm_dup(inter, &dup));
  CHECK_MPI(MPI_Comm_compare(inter, dup, &result));
  CHECK(result == MPI_CONGRUENT);
  CHECK_MPI(MPI_Comm_compare(inter, MPI_COMM_WORLD, &result));
  CHECK(result == MPI_UNEQUAL);
  CHECK_MPI(MPI_Comm_test_inter(dup, &flag));
  CHECK(flag == 1);
  check_all_to_all(dup);
  /* Split by local rank parity: the remote ranks of the same parity remain. */
  CHECK_MPI(MPI_Comm_split(dup, local_rank % 2, -local_rank, &split));
  int expected_remote = 0;
  for (int j = 0; j < remote_size; ++j) expected_remote += j % 2 == local_rank % 2;
  if (expected_remote == 0) {
    CHECK(split == MPI_COMM_NULL);
  } else {
    CHECK(split != MPI_COMM_NULL);
    CHECK_MPI(MPI_Comm_remote_size(split, &rsize));
    CHECK(rsize == expected_remote);
    /* Keys are -local_rank: the highest local rank of each parity comes first. */
    int rank = -1, bigger = 0;
    MPI_Comm_rank(split, &rank);
    for (int i = local_rank + 2; i < local_size; i += 2) ++bigger;
    CHECK(rank == bigger);
    /* The other group's members of this parity: their largest world rank. */
    int value = world_rank, got = -1;
    CHECK_MPI(MPI_Allreduce(&value, &got, 1, MPI_INT, MPI_MAX, split));
    int want = -1;
    for (int j = 0; j < remote_size; ++j) {
      if (j % 2 == local_rank % 2 && remote_world[j] > want) want = remote_world[j];
    }
    CHECK(got == want);
    MPI_Comm_free(&split);
  }
  CHECK_MPI(MPI_Comm_free(&dup));
  CHECK(dup == MPI_COMM_NULL);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  if (world_size < 2 || world_size > MAXN) {
    fprintf(stderr, "shim_intercomm needs 2..%d ranks\n", MAXN);
    MPI_Finalize();
    return 1;
  }
  in_a = is_a(world_rank);
  local_size = members(in_a, local_world);
  remote_size = members(!in_a, remote_world);
  for (int i = 0; i < local_size; ++i) {
    if (local_world[i] == world_rank) local_rank = i;
  }
  MPI_Comm local, inter;
  MPI_Comm_split(MPI_COMM_WORLD, in_a, world_rank, &local);
  /* Leaders: local rank 0 of each group (world 0 for A, world 1 for B). */
  CHECK_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, in_a ? 1 : 0, 42, &inter));
  MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

  check_inquiries(inter);
  check_point_to_point(inter);
  check_rooted(inter, 1, 0, 0);                                     /* root: A's first rank */
  check_rooted(inter, 0, (in_a ? remote_size : local_size) - 1, 1); /* root: B's last rank */
  check_all_to_all(inter);
  check_refused(inter);
  check_more(inter);
  check_nonblocking_progress(inter);
  check_merge(inter);
  check_dup_split(inter);
  check_create(inter);

  CHECK_MPI(MPI_Comm_free(&inter));
  MPI_Comm_free(&local);
  MPI_Finalize();
  return finish_checks("shim_intercomm");
}
