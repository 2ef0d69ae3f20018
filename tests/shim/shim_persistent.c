/* Persistent requests (issue 25): MPI_Send_init / Recv_init (and the Ssend, Bsend, Rsend forms)
 * around a ring, the MPI-4 persistent collectives restarted 1000 times with data that changes
 * every round (the v- and w-variants, reduce-scatter, the scans and the neighborhood collectives
 * too), checked element by element against a serial reference, MPI_Startall, the
 * inactive-request rules of MPI_Wait / MPI_Test, MPI_Request_free, and argument errors reported
 * once, by MPI_*_init.
 */
#include <mpi.h>
#include <string.h>

#include "shim_check.h"

enum { kRounds = 1000, kCount = 5 };

static int rank, size, left, right;

static int value(int who, int round, int i) {
  return who * 100003 + round * 31 + i;
}

static void check_empty_status(const MPI_Status* status) {
  CHECK(status->MPI_SOURCE == MPI_ANY_SOURCE && status->MPI_TAG == MPI_ANY_TAG &&
        status->MPI_ERROR == MPI_SUCCESS);
}

/* One persistent receive and one persistent send of each mode, started together every round. */
static void check_point_to_point(void) {
  enum { kModes = 4, kP2pRounds = 200 };
  int out[kModes][kCount], in[kModes][kCount];
  MPI_Request requests[2 * kModes];
  int attached_size = kModes * (kCount * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
  char* attached = malloc((size_t)attached_size);
  CHECK_MPI(MPI_Buffer_attach(attached, attached_size));
  for (int m = 0; m < kModes; ++m)
    CHECK_MPI(
        MPI_Recv_init(in[m], kCount, MPI_INT, left, 10 + m, MPI_COMM_WORLD, &requests[kModes + m]));
  CHECK_MPI(MPI_Send_init(out[0], kCount, MPI_INT, right, 10, MPI_COMM_WORLD, &requests[0]));
  CHECK_MPI(MPI_Ssend_init(out[1], kCount, MPI_INT, right, 11, MPI_COMM_WORLD, &requests[1]));
  CHECK_MPI(MPI_Bsend_init(out[2], kCount, MPI_INT, right, 12, MPI_COMM_WORLD, &requests[2]));
  CHECK_MPI(MPI_Rsend_init(out[3], kCount, MPI_INT, right, 13, MPI_COMM_WORLD, &requests[3]));

  /* Inactive requests complete at once with an empty status and stay allocated. */
  MPI_Status status;
  int flag = 0;
  CHECK_MPI(MPI_Wait(&requests[kModes], &status));
  check_empty_status(&status);
  CHECK(requests[kModes] != MPI_REQUEST_NULL);
  CHECK_MPI(MPI_Test(&requests[0], &flag, &status));
  CHECK(flag == 1 && requests[0] != MPI_REQUEST_NULL);
  check_empty_status(&status);

  for (int round = 0; round < kP2pRounds; ++round) {
    for (int m = 0; m < kModes; ++m) {
      for (int i = 0; i < kCount; ++i) {
        out[m][i] = value(rank, round, i + m);
        in[m][i] = -1;
      }
    }
    /* Receives first: the ready sends need them posted everywhere (hence the barrier). */
    CHECK_MPI(MPI_Startall(kModes, &requests[kModes]));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Startall(kModes, requests));
    MPI_Status statuses[2 * kModes];
    CHECK_MPI(MPI_Waitall(2 * kModes, requests, statuses));
    for (int m = 0; m < kModes; ++m) {
      int want[kCount];
      for (int i = 0; i < kCount; ++i) want[i] = value(left, round, i + m);
      CHECK_ARRAY("persistent p2p", in[m], want, kCount);
      CHECK(statuses[kModes + m].MPI_SOURCE == left && statuses[kModes + m].MPI_TAG == 10 + m);
      CHECK(requests[m] != MPI_REQUEST_NULL && requests[kModes + m] != MPI_REQUEST_NULL);
    }
  }
  for (int r = 0; r < 2 * kModes; ++r) {
    CHECK_MPI(MPI_Request_free(&requests[r]));
    CHECK(requests[r] == MPI_REQUEST_NULL);
  }
  void* detached;
  CHECK_MPI(MPI_Buffer_detach(&detached, &attached_size));
  free(attached);

  /* A persistent receive from MPI_PROC_NULL completes at once, every time. */
  MPI_Request nothing;
  CHECK_MPI(MPI_Recv_init(in[0], kCount, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &nothing));
  for (int round = 0; round < 3; ++round) {
    CHECK_MPI(MPI_Start(&nothing));
    CHECK_MPI(MPI_Wait(&nothing, &status));
    CHECK(status.MPI_SOURCE == MPI_PROC_NULL && status.MPI_TAG == MPI_ANY_TAG);
  }
  CHECK_MPI(MPI_Request_free(&nothing));
}

/* One round of `n` persistent collectives: odd rounds start them one by one (each waited for),
 * even rounds all at once. */
static void run_round(MPI_Request* requests, int n, int round) {
  if (round % 2 == 1) {
    for (int c = 0; c < n; ++c) {
      CHECK_MPI(MPI_Start(&requests[c]));
      CHECK_MPI(MPI_Wait(&requests[c], MPI_STATUS_IGNORE));
    }
  } else {
    CHECK_MPI(MPI_Startall(n, requests));
    CHECK_MPI(MPI_Waitall(n, requests, MPI_STATUSES_IGNORE));
  }
}

/* Every persistent collective, restarted kRounds times; data changes each round. */
static void check_collectives(void) {
  const int root = size - 1;
  enum { kColls = 9 };
  int bcast[kCount], reduce_in[kCount], reduce_out[kCount], allreduce_in[kCount],
      allreduce_out[kCount], in_place[kCount];
  int* allgather_out = malloc(sizeof(int) * kCount * (size_t)size);
  int* gather_out = malloc(sizeof(int) * kCount * (size_t)size);
  int* scatter_in = malloc(sizeof(int) * kCount * (size_t)size);
  int* alltoall_in = malloc(sizeof(int) * kCount * (size_t)size);
  int* alltoall_out = malloc(sizeof(int) * kCount * (size_t)size);
  int mine[kCount], scatter_out[kCount];
  MPI_Request requests[kColls];
  MPI_Info info = MPI_INFO_NULL;
  CHECK_MPI(MPI_Barrier_init(MPI_COMM_WORLD, info, &requests[0]));
  CHECK_MPI(MPI_Bcast_init(bcast, kCount, MPI_INT, root, MPI_COMM_WORLD, info, &requests[1]));
  CHECK_MPI(MPI_Reduce_init(reduce_in, reduce_out, kCount, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD,
                            info, &requests[2]));
  CHECK_MPI(MPI_Allreduce_init(allreduce_in, allreduce_out, kCount, MPI_INT, MPI_MAX,
                               MPI_COMM_WORLD, info, &requests[3]));
  CHECK_MPI(MPI_Allreduce_init(MPI_IN_PLACE, in_place, kCount, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                               info, &requests[4]));
  CHECK_MPI(MPI_Allgather_init(mine, kCount, MPI_INT, allgather_out, kCount, MPI_INT,
                               MPI_COMM_WORLD, info, &requests[5]));
  CHECK_MPI(MPI_Gather_init(mine, kCount, MPI_INT, gather_out, kCount, MPI_INT, root,
                            MPI_COMM_WORLD, info, &requests[6]));
  CHECK_MPI(MPI_Scatter_init(scatter_in, kCount, MPI_INT, scatter_out, kCount, MPI_INT, root,
                             MPI_COMM_WORLD, info, &requests[7]));
  CHECK_MPI(MPI_Alltoall_init(alltoall_in, kCount, MPI_INT, alltoall_out, kCount, MPI_INT,
                              MPI_COMM_WORLD, info, &requests[8]));

  int* want = malloc(sizeof(int) * kCount * (size_t)size);
  for (int round = 0; round < kRounds; ++round) {
    for (int i = 0; i < kCount; ++i) {
      bcast[i] = rank == root ? value(root, round, i) : -1;
      reduce_in[i] = value(rank, round, i);
      allreduce_in[i] = value(rank, round, i);
      in_place[i] = value(rank, round, i);
      mine[i] = value(rank, round, i);
      scatter_out[i] = -1;
    }
    for (int r = 0; r < size; ++r) {
      for (int i = 0; i < kCount; ++i) {
        scatter_in[r * kCount + i] = value(r, round, i) + 7;
        alltoall_in[r * kCount + i] = value(rank, round, i) * 3 + r;
      }
    }
    run_round(requests, kColls, round);
    for (int i = 0; i < kCount; ++i) want[i] = value(root, round, i);
    CHECK_ARRAY("MPI_Bcast_init", bcast, want, kCount);
    for (int i = 0; i < kCount; ++i) {
      want[i] = 0;
      for (int r = 0; r < size; ++r) want[i] += value(r, round, i);
    }
    if (rank == root) CHECK_ARRAY("MPI_Reduce_init", reduce_out, want, kCount);
    CHECK_ARRAY("MPI_Allreduce_init in place", in_place, want, kCount);
    for (int i = 0; i < kCount; ++i) want[i] = value(size - 1, round, i);
    CHECK_ARRAY("MPI_Allreduce_init (max)", allreduce_out, want, kCount);
    for (int r = 0; r < size; ++r)
      for (int i = 0; i < kCount; ++i) want[r * kCount + i] = value(r, round, i);
    CHECK_ARRAY("MPI_Allgather_init", allgather_out, want, kCount * size);
    if (rank == root) CHECK_ARRAY("MPI_Gather_init", gather_out, want, kCount * size);
    for (int i = 0; i < kCount; ++i) want[i] = value(rank, round, i) + 7;
    CHECK_ARRAY("MPI_Scatter_init", scatter_out, want, kCount);
    for (int r = 0; r < size; ++r)
      for (int i = 0; i < kCount; ++i) want[r * kCount + i] = value(r, round, i) * 3 + rank;
    CHECK_ARRAY("MPI_Alltoall_init", alltoall_out, want, kCount * size);
    if (check_failures > 0) break; /* one round's report is enough */
  }
  for (int c = 0; c < kColls; ++c) CHECK_MPI(MPI_Request_free(&requests[c]));
  free(want);
  free(allgather_out);
  free(gather_out);
  free(scatter_in);
  free(alltoall_in);
  free(alltoall_out);
}

/* The v-variants' blocks: block r holds r + 1 elements and a one-element gap follows each, so a
 * block written to the wrong place, or a gap written at all, shows. */
static int block_count(int r) {
  return r + 1;
}
static int block_displ(int r) {
  return r * (r + 1) / 2 + r;
}
/* Alltoallv / alltoallw: from rank s to rank r, (s + r) % 3 + 1 elements. */
static int pair_count(int s, int r) {
  return (s + r) % 3 + 1;
}

/* Buffers of the persistent v-, w-, reduce-scatter and prefix collectives, for up to 4 ranks
 * (the largest job of these tests); `spread` fits every rank's block with its gap. */
struct MoreBuffers {
  int spread;
  int *counts, *displs, *send_counts, *send_displs, *recv_counts, *recv_displs;
  int *send_bytes, *recv_bytes;
  MPI_Datatype* types;
  int mine[kCount + 4], gatherv_out[64], scatterv_in[64], scatterv_out[kCount + 4];
  int allgatherv_out[64], alltoallv_in[64], alltoallv_out[64], alltoallw_out[64];
  int block_in[4 * kCount], block_out[kCount], rs_in[64], rs_out[kCount + 4];
  int scan_in[kCount], scan_out[kCount], exscan_out[kCount];
};

static int* ints(int n) {
  return malloc(sizeof(int) * (size_t)n);
}

static void describe_blocks(struct MoreBuffers* b) {
  b->counts = ints(size);
  b->displs = ints(size);
  b->send_counts = ints(size);
  b->send_displs = ints(size);
  b->recv_counts = ints(size);
  b->recv_displs = ints(size);
  b->send_bytes = ints(size);
  b->recv_bytes = ints(size);
  b->types = malloc(sizeof(MPI_Datatype) * (size_t)size);
  int sent = 0, received = 0;
  for (int r = 0; r < size; ++r) {
    b->counts[r] = block_count(r);
    b->displs[r] = block_displ(r);
    b->send_counts[r] = pair_count(rank, r);
    b->recv_counts[r] = pair_count(r, rank);
    b->send_displs[r] = sent;
    b->recv_displs[r] = received;
    b->send_bytes[r] = sent * (int)sizeof(int);
    b->recv_bytes[r] = received * (int)sizeof(int);
    b->types[r] = MPI_INT;
    sent += b->send_counts[r] + 1;
    received += b->recv_counts[r] + 1;
  }
  b->spread = block_displ(size - 1) + size + 1;
}

static void free_blocks(struct MoreBuffers* b) {
  free(b->counts);
  free(b->displs);
  free(b->send_counts);
  free(b->send_displs);
  free(b->recv_counts);
  free(b->recv_displs);
  free(b->send_bytes);
  free(b->recv_bytes);
  free(b->types);
}

static void fill(int* data, int n, int with) {
  for (int i = 0; i < n; ++i) data[i] = with;
}

/* This round's inputs; every output back to -1 so that each round must write it again. */
static void prepare_more(struct MoreBuffers* b, int round) {
  fill(b->gatherv_out, 64, -1);
  fill(b->scatterv_out, kCount + 4, -1);
  fill(b->allgatherv_out, 64, -1);
  fill(b->alltoallv_out, 64, -1);
  fill(b->alltoallw_out, 64, -1);
  fill(b->block_out, kCount, -1);
  fill(b->rs_out, kCount + 4, -1);
  fill(b->scan_out, kCount, -1);
  fill(b->exscan_out, kCount, -1);
  fill(b->scatterv_in, 64, -1);
  fill(b->alltoallv_in, 64, -1);
  for (int i = 0; i < block_count(rank); ++i) b->mine[i] = value(rank, round, i);
  for (int r = 0; r < size; ++r) {
    for (int i = 0; i < block_count(r); ++i)
      b->scatterv_in[block_displ(r) + i] = value(r, round, i) + 11;
    for (int i = 0; i < b->send_counts[r]; ++i)
      b->alltoallv_in[b->send_displs[r] + i] = value(rank, round, i) * 7 + r;
  }
  for (int i = 0; i < size * kCount; ++i) b->block_in[i] = value(rank, round, i);
  for (int i = 0; i < 64; ++i) b->rs_in[i] = value(rank, round, i);
  for (int i = 0; i < kCount; ++i) b->scan_in[i] = value(rank, round, i);
}

/* The gathered blocks with -1 in the gaps. */
static void want_blocks(int* want, int spread, int round) {
  fill(want, spread, -1);
  for (int r = 0; r < size; ++r)
    for (int i = 0; i < block_count(r); ++i) want[block_displ(r) + i] = value(r, round, i);
}

static void check_more_round(const struct MoreBuffers* b, int round, int root) {
  int want[64];
  want_blocks(want, b->spread, round);
  if (rank == root) CHECK_ARRAY("MPI_Gatherv_init", b->gatherv_out, want, b->spread);
  CHECK_ARRAY("MPI_Allgatherv_init", b->allgatherv_out, want, b->spread);
  fill(want, kCount + 4, -1);
  for (int i = 0; i < block_count(rank); ++i) want[i] = value(rank, round, i) + 11;
  CHECK_ARRAY("MPI_Scatterv_init", b->scatterv_out, want, kCount + 4);
  fill(want, 64, -1);
  for (int r = 0; r < size; ++r)
    for (int i = 0; i < b->recv_counts[r]; ++i)
      want[b->recv_displs[r] + i] = value(r, round, i) * 7 + rank;
  CHECK_ARRAY("MPI_Alltoallv_init", b->alltoallv_out, want, 64);
  CHECK_ARRAY("MPI_Alltoallw_init", b->alltoallw_out, want, 64);
  for (int i = 0; i < kCount; ++i) {
    want[i] = 0;
    for (int r = 0; r < size; ++r) want[i] += value(r, round, rank * kCount + i);
  }
  CHECK_ARRAY("MPI_Reduce_scatter_block_init", b->block_out, want, kCount);
  fill(want, kCount + 4, -1);
  const int first = rank * (rank + 1) / 2; /* the blocks of the lower ranks, packed */
  for (int i = 0; i < block_count(rank); ++i) {
    want[i] = 0;
    for (int r = 0; r < size; ++r) want[i] += value(r, round, first + i);
  }
  CHECK_ARRAY("MPI_Reduce_scatter_init", b->rs_out, want, kCount + 4);
  for (int i = 0; i < kCount; ++i) {
    want[i] = 0;
    for (int r = 0; r <= rank; ++r) want[i] += value(r, round, i);
  }
  CHECK_ARRAY("MPI_Scan_init", b->scan_out, want, kCount);
  for (int i = 0; i < kCount; ++i) want[i] -= value(rank, round, i);
  if (rank > 0) CHECK_ARRAY("MPI_Exscan_init", b->exscan_out, want, kCount);
}

/* The persistent v-, w-, reduce-scatter and prefix collectives, restarted kRounds times. */
static void check_more_collectives(void) {
  enum { kMore = 9 };
  const int root = size / 2;
  CHECK(size <= 4);
  if (size > 4) return;
  struct MoreBuffers* b = malloc(sizeof *b);
  describe_blocks(b);
  MPI_Request requests[kMore];
  const MPI_Comm world = MPI_COMM_WORLD;
  CHECK_MPI(MPI_Gatherv_init(b->mine, block_count(rank), MPI_INT, b->gatherv_out, b->counts,
                             b->displs, MPI_INT, root, world, MPI_INFO_NULL, &requests[0]));
  CHECK_MPI(MPI_Scatterv_init(b->scatterv_in, b->counts, b->displs, MPI_INT, b->scatterv_out,
                              block_count(rank), MPI_INT, root, world, MPI_INFO_NULL,
                              &requests[1]));
  CHECK_MPI(MPI_Allgatherv_init(b->mine, block_count(rank), MPI_INT, b->allgatherv_out, b->counts,
                                b->displs, MPI_INT, world, MPI_INFO_NULL, &requests[2]));
  CHECK_MPI(MPI_Alltoallv_init(b->alltoallv_in, b->send_counts, b->send_displs, MPI_INT,
                               b->alltoallv_out, b->recv_counts, b->recv_displs, MPI_INT, world,
                               MPI_INFO_NULL, &requests[3]));
  CHECK_MPI(MPI_Alltoallw_init(b->alltoallv_in, b->send_counts, b->send_bytes, b->types,
                               b->alltoallw_out, b->recv_counts, b->recv_bytes, b->types, world,
                               MPI_INFO_NULL, &requests[4]));
  CHECK_MPI(MPI_Reduce_scatter_block_init(b->block_in, b->block_out, kCount, MPI_INT, MPI_SUM,
                                          world, MPI_INFO_NULL, &requests[5]));
  CHECK_MPI(MPI_Reduce_scatter_init(b->rs_in, b->rs_out, b->counts, MPI_INT, MPI_SUM, world,
                                    MPI_INFO_NULL, &requests[6]));
  CHECK_MPI(MPI_Scan_init(b->scan_in, b->scan_out, kCount, MPI_INT, MPI_SUM, world, MPI_INFO_NULL,
                          &requests[7]));
  CHECK_MPI(MPI_Exscan_init(b->scan_in, b->exscan_out, kCount, MPI_INT, MPI_SUM, world,
                            MPI_INFO_NULL, &requests[8]));
  for (int round = 0; round < kRounds; ++round) {
    prepare_more(b, round);
    run_round(requests, kMore, round);
    check_more_round(b, round, root);
    if (check_failures > 0) break; /* one round's report is enough */
  }
  for (int c = 0; c < kMore; ++c) CHECK_MPI(MPI_Request_free(&requests[c]));
  /* Argument errors come from MPI_*_init. */
  MPI_Comm_set_errhandler(world, MPI_ERRORS_RETURN);
  MPI_Request request = MPI_REQUEST_NULL;
  CHECK(MPI_Gatherv_init(b->mine, 1, MPI_INT, b->gatherv_out, b->counts, b->displs, MPI_INT, size,
                         world, MPI_INFO_NULL, &request) == MPI_ERR_ROOT);
  CHECK(MPI_Scan_init(b->scan_in, b->scan_out, -2, MPI_INT, MPI_SUM, world, MPI_INFO_NULL,
                      &request) == MPI_ERR_COUNT);
  CHECK(MPI_Reduce_scatter_init(b->rs_in, b->rs_out, NULL, MPI_INT, MPI_SUM, world, MPI_INFO_NULL,
                                &request) == MPI_ERR_ARG);
  CHECK(request == MPI_REQUEST_NULL);
  MPI_Comm_set_errhandler(world, MPI_ERRORS_ARE_FATAL);
  free_blocks(b);
  free(b);
}

/* The persistent neighborhood collectives on a periodic ring (a cartesian communicator of one
 * dimension): neighbour 0 is the left rank, neighbour 1 the right one. The v- and w-forms
 * receive with a gap of one element between the blocks. */
static void check_neighbor_collectives(void) {
  enum { kCalls = 5, kSpan = 2 * kCount + 1 };
  MPI_Comm ring;
  int dims[1] = {size}, periods[1] = {1};
  CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));
  int mine[kCount], blocks[2 * kCount];
  int gathered[kSpan], gathered_v[kSpan], exchanged[kSpan], exchanged_v[kSpan], exchanged_w[kSpan];
  int counts[2] = {kCount, kCount}, packed[2] = {0, kCount}, gapped[2] = {0, kCount + 1};
  MPI_Aint packed_bytes[2] = {0, kCount * (MPI_Aint)sizeof(int)};
  MPI_Aint gapped_bytes[2] = {0, (kCount + 1) * (MPI_Aint)sizeof(int)};
  MPI_Datatype types[2] = {MPI_INT, MPI_INT};
  MPI_Request requests[kCalls];
  CHECK_MPI(MPI_Neighbor_allgather_init(mine, kCount, MPI_INT, gathered, kCount, MPI_INT, ring,
                                        MPI_INFO_NULL, &requests[0]));
  CHECK_MPI(MPI_Neighbor_allgatherv_init(mine, kCount, MPI_INT, gathered_v, counts, gapped, MPI_INT,
                                         ring, MPI_INFO_NULL, &requests[1]));
  CHECK_MPI(MPI_Neighbor_alltoall_init(blocks, kCount, MPI_INT, exchanged, kCount, MPI_INT, ring,
                                       MPI_INFO_NULL, &requests[2]));
  CHECK_MPI(MPI_Neighbor_alltoallv_init(blocks, counts, packed, MPI_INT, exchanged_v, counts,
                                        gapped, MPI_INT, ring, MPI_INFO_NULL, &requests[3]));
  CHECK_MPI(MPI_Neighbor_alltoallw_init(blocks, counts, packed_bytes, types, exchanged_w, counts,
                                        gapped_bytes, types, ring, MPI_INFO_NULL, &requests[4]));
  int want[kSpan], want_gapped[kSpan];
  for (int round = 0; round < kRounds; ++round) {
    for (int i = 0; i < kCount; ++i) {
      mine[i] = value(rank, round, i);
      blocks[i] = value(rank, round, i) * 2;              /* to the left */
      blocks[kCount + i] = value(rank, round, i) * 2 + 1; /* to the right */
    }
    fill(gathered, kSpan, -1);
    fill(gathered_v, kSpan, -1);
    fill(exchanged, kSpan, -1);
    fill(exchanged_v, kSpan, -1);
    fill(exchanged_w, kSpan, -1);
    run_round(requests, kCalls, round);

    fill(want, kSpan, -1);
    fill(want_gapped, kSpan, -1);
    for (int i = 0; i < kCount; ++i) {
      want[i] = want_gapped[i] = value(left, round, i);
      want[kCount + i] = want_gapped[kCount + 1 + i] = value(right, round, i);
    }
    CHECK_ARRAY("MPI_Neighbor_allgather_init", gathered, want, kSpan);
    CHECK_ARRAY("MPI_Neighbor_allgatherv_init", gathered_v, want_gapped, kSpan);
    /* The left rank's block to its right, then the right rank's block to its left. */
    for (int i = 0; i < kCount; ++i) {
      want[i] = want_gapped[i] = value(left, round, i) * 2 + 1;
      want[kCount + i] = want_gapped[kCount + 1 + i] = value(right, round, i) * 2;
    }
    CHECK_ARRAY("MPI_Neighbor_alltoall_init", exchanged, want, kSpan);
    CHECK_ARRAY("MPI_Neighbor_alltoallv_init", exchanged_v, want_gapped, kSpan);
    CHECK_ARRAY("MPI_Neighbor_alltoallw_init", exchanged_w, want_gapped, kSpan);
    if (check_failures > 0) break; /* one round's report is enough */
  }
  for (int c = 0; c < kCalls; ++c) CHECK_MPI(MPI_Request_free(&requests[c]));
  /* Argument errors come from MPI_*_init; a communicator without a topology is refused. */
  MPI_Comm_set_errhandler(ring, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Request request = MPI_REQUEST_NULL;
  CHECK(MPI_Neighbor_alltoall_init(blocks, -1, MPI_INT, exchanged, kCount, MPI_INT, ring,
                                   MPI_INFO_NULL, &request) == MPI_ERR_COUNT);
  CHECK(MPI_Neighbor_allgather_init(mine, kCount, MPI_INT, gathered, kCount, MPI_INT,
                                    MPI_COMM_WORLD, MPI_INFO_NULL, &request) == MPI_ERR_TOPOLOGY);
  CHECK(request == MPI_REQUEST_NULL);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  CHECK_MPI(MPI_Comm_free(&ring));
}

/* Larger buffers take other algorithms: 50 rounds of a 64 Ki-element allreduce and bcast. */
static void check_large(void) {
  enum { kLarge = 1 << 16, kLargeRounds = 50 };
  double* in = malloc(sizeof(double) * kLarge);
  double* out = malloc(sizeof(double) * kLarge);
  double* data = malloc(sizeof(double) * kLarge);
  double* want = malloc(sizeof(double) * kLarge);
  MPI_Request requests[2];
  CHECK_MPI(MPI_Allreduce_init(in, out, kLarge, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                               &requests[0]));
  CHECK_MPI(
      MPI_Bcast_init(data, kLarge, MPI_DOUBLE, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &requests[1]));
  for (int round = 0; round < kLargeRounds; ++round) {
    for (int i = 0; i < kLarge; ++i) {
      in[i] = (double)value(rank, round, i % 1000);
      data[i] = rank == 0 ? (double)(round * 2 + i) : -1.0;
    }
    CHECK_MPI(MPI_Startall(2, requests));
    CHECK_MPI(MPI_Waitall(2, requests, MPI_STATUSES_IGNORE));
    for (int i = 0; i < kLarge; ++i) {
      want[i] = 0;
      for (int r = 0; r < size; ++r) want[i] += (double)value(r, round, i % 1000);
    }
    CHECK_ARRAY("64 Ki-element MPI_Allreduce_init", out, want, kLarge);
    for (int i = 0; i < kLarge; ++i) want[i] = (double)(round * 2 + i);
    CHECK_ARRAY("64 Ki-element MPI_Bcast_init", data, want, kLarge);
  }
  CHECK_MPI(MPI_Request_free(&requests[0]));
  CHECK_MPI(MPI_Request_free(&requests[1]));
  free(in);
  free(out);
  free(data);
  free(want);
}

/* Errors come from MPI_*_init, which leaves the request alone; MPI_Start refuses what it must. */
static void check_errors(void) {
  int data[4] = {0};
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  CHECK(MPI_Bcast_init(data, 4, MPI_INT, size + 3, MPI_COMM_WORLD, MPI_INFO_NULL, &request) ==
        MPI_ERR_ROOT);
  CHECK(MPI_Allreduce_init(data, data + 1, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                           &request) == MPI_ERR_COUNT);
  CHECK(MPI_Reduce_init(data, data, 1, MPI_FLOAT, MPI_BAND, 0, MPI_COMM_WORLD, MPI_INFO_NULL,
                        &request) == MPI_ERR_OP);
  CHECK(MPI_Send_init(data, 1, MPI_INT, size, 0, MPI_COMM_WORLD, &request) == MPI_ERR_RANK);
  CHECK(MPI_Recv_init(data, 1, MPI_INT, 0, -5, MPI_COMM_WORLD, &request) == MPI_ERR_TAG);
  CHECK(request == MPI_REQUEST_NULL);
  /* Starting a request that is not persistent, or one already active, is refused. */
  MPI_Request once;
  CHECK_MPI(MPI_Irecv(data, 1, MPI_INT, rank, 77, MPI_COMM_WORLD, &once));
  CHECK(MPI_Start(&once) == MPI_ERR_REQUEST);
  CHECK_MPI(MPI_Recv_init(data, 1, MPI_INT, rank, 78, MPI_COMM_WORLD, &request));
  CHECK_MPI(MPI_Start(&request));
  CHECK(MPI_Start(&request) == MPI_ERR_REQUEST);
  int one = 1, two = 2;
  CHECK_MPI(MPI_Send(&one, 1, MPI_INT, rank, 77, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Send(&two, 1, MPI_INT, rank, 78, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Wait(&once, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
  CHECK(data[0] == 2);
  CHECK_MPI(MPI_Request_free(&request));
  /* A round that cannot start (a buffered send with no buffer attached) fails MPI_Start, with
   * the handler of the request's communicator, and leaves the request inactive. */
  CHECK_MPI(MPI_Bsend_init(data, 1, MPI_INT, rank, 79, MPI_COMM_WORLD, &request));
  CHECK(MPI_Start(&request) == MPI_ERR_BUFFER);
  CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Request_free(&request));
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char** argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  ring_position(&rank, &size, &left, &right);
  check_point_to_point();
  check_collectives();
  check_more_collectives();
  check_neighbor_collectives();
  check_large();
  check_errors();
  CHECK_MPI(MPI_Finalize());
  return finish_checks("shim_persistent");
}
